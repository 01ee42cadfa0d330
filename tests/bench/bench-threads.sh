#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Decoding on several threads (tools/reader/pardecode.h): `fairlab report
# --threads=1` against `--threads=2` on one v7 zstd recording, in rounds
# that alternate the two (FL_BENCH_ROUNDS, default 3), so that a change of
# the host's load hits both alike: wall clock, CPU time (user + system, all
# threads) and M events/s of each, the ratio of each round and its median.
# Then FAIRLAB_PROFILE's CPU seconds per stage with 2 threads: the decoding
# (divided among the threads), the merge and the engine (one thread each):
# with enough cores the slowest one-thread stage bounds the run.  Part of
# `make bench-analyzer`; alone:
#
#   tests/bench/bench-threads.sh FILE.dat
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fl=${FAIRLAB:-$top/build/fairlab}
f=${1:?usage: tests/bench/bench-threads.sh FILE.dat (trace.dat v7 zstd)}
rounds=${FL_BENCH_ROUNDS:-3}
die() { echo "bench-threads: error: $*" >&2; exit 1; }
[ -x "$fl" ] || die "$fl not built (make)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=$("$fl" report --json "$f" 2>/dev/null |
	awk -F': ' '/"all_n"/ { gsub(/,/, "", $2); print $2; exit }')
[ -n "$n" ] || die "$f: no records"
printf 'decoding threads: %s, %s records, %s CPUs online, load average %s\n' \
	"${f#$top/}" "$n" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
# timed N: "wall cpu" of report --threads=N
timed() {
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$fl" report --threads="$1" "$f" \
		>/dev/null 2>"$tmp/err" || die "report --threads=$1 failed: $(head -2 "$tmp/err")"
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time"
}
walls=
cpus=
for r in $(seq "$rounds"); do
	# timed's die ends only its subshell: stop here too, not print zeros
	t=$(timed 1) || exit 1
	read -r w1 c1 <<<"$t"
	t=$(timed 2) || exit 1
	read -r w2 c2 <<<"$t"
	printf 'round %d: 1 thread wall %6.2f s (%5.2f M events/s), CPU %6.2f s;  2 threads wall %6.2f s (%5.2f M events/s), CPU %6.2f s;  2/1 wall %.2fx, CPU %.2fx\n' \
		"$r" "$w1" "$(echo "$n / $w1 / 1000000" | bc -l)" "$c1" \
		"$w2" "$(echo "$n / $w2 / 1000000" | bc -l)" "$c2" \
		"$(echo "$w2 / $w1" | bc -l)" "$(echo "$c2 / $c1" | bc -l)"
	walls="$walls $(echo "$w2 / $w1" | bc -l)"
	cpus="$cpus $(echo "$c2 / $c1" | bc -l)"
done
# median X...: the median of the numbers X, as "1.23x"
. "$top/tests/bench/median.sh"
# shellcheck disable=SC2086
printf 'events/s, 2 threads against 1: wall time ratio median %s (below 1: faster), CPU time ratio median %s\n' \
	"$(median $walls)" "$(median $cpus)"
FAIRLAB_PROFILE=1 "$fl" report --threads=2 "$f" >/dev/null 2>"$tmp/prof" ||
	die "report --threads=2 failed: $(head -2 "$tmp/prof")"
sed -n 's/^fairlab profile: /profile, 2 threads: /p' "$tmp/prof"
