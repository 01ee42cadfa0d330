#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cpu-pair.sh OLD NEW FILE.dat [ROUNDS] [-- SUBCOMMAND ARGS...]
#
# The user CPU time of two fairlab builds on the same run, measured at the
# same moment: OLD and NEW run at once, each pinned to a CPU of its own
# (taskset), every thread of each on that CPU (FAIRLAB_THREADS=0: no
# reader pipeline, no replay helper), and the CPUs swapped each round.
# On a virtual machine whose speed changes from minute to minute (and
# whose CPUs differ), two builds run one after the other differ by more
# than most changes do; run side by side they see the same host, and the
# swap cancels the CPUs' own difference.  A benchmark, not a test: it
# prints each round's two times and the geometric mean of NEW/OLD.
#
# FL_PAIR_THREADS=N sets FAIRLAB_THREADS instead (N decoding threads of
# a v7 zstd file, and the pipeline's threads, all on the one CPU: the user
# time is still all the work each build did).
# Default subcommand: whatif FILE (its 50 policies); default ROUNDS 6
# (even: as many rounds on each CPU).  Needs two CPUs in the affinity mask.
# Example:
#   tests/bench/cpu-pair.sh /tmp/fairlab.old build/fairlab big.dat 8
#   tests/bench/cpu-pair.sh OLD NEW big.dat 6 -- report
set -u

die() { echo "cpu-pair: $*" >&2; exit 2; }

[ $# -ge 3 ] || die "usage: $0 OLD NEW FILE.dat [ROUNDS] [-- SUBCOMMAND ARGS...]"
old=$1 new=$2 file=$3
shift 3
rounds=6
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	rounds=$1
	shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
[ $# -gt 0 ] || set -- whatif
{ [ -x "$old" ] && [ -x "$new" ]; } || die "OLD and NEW must be executables"
[ -r "$file" ] || die "$file: not readable"
case $rounds in '' | *[!0-9]* | 0) die "ROUNDS must be a positive integer" ;; esac
command -v taskset >/dev/null || die "taskset not found (util-linux)"
read -r c0 c1 <<<"$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
	awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' |
	head -n 2 | tr '\n' ' ')"
[ -n "${c1:-}" ] || die "needs two CPUs, the affinity mask has one"

tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# one build on CPU $1, all its threads there, its user CPU time into $tmp/$3
start() {
	local cpu=$1 bin=$2 out=$3
	shift 3
	FAIRLAB_THREADS=${FL_PAIR_THREADS:-0} /usr/bin/time -f '%U' -o "$tmp/$out" \
		taskset -c "$cpu" "$bin" "$@" "$file" >/dev/null 2>"$tmp/$out.err" &
}

printf '%-6s %12s %12s %10s\n' round 'OLD user(s)' 'NEW user(s)' NEW/OLD
for ((i = 1; i <= rounds; i++)); do
	if ((i % 2)); then ca=$c0 cb=$c1; else ca=$c1 cb=$c0; fi
	start "$ca" "$old" a "$@"
	pa=$!
	start "$cb" "$new" b "$@"
	pb=$!
	wait "$pa" || { cat "$tmp/a.err" >&2; die "OLD failed (round $i)"; }
	wait "$pb" || { cat "$tmp/b.err" >&2; die "NEW failed (round $i)"; }
	a=$(tail -n 1 "$tmp/a") b=$(tail -n 1 "$tmp/b")
	printf '%-6d %12s %12s %10.3f\n' "$i" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
	echo "$a $b" >>"$tmp/all"
done
awk '{ s += log($2 / $1); n++ }
     END { printf "NEW/OLD user CPU, geometric mean of %d rounds: %.3f\n", n, exp(s / n) }' "$tmp/all"
