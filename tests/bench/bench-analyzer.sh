#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-analyzer: speed and memory of `fairlab report` and `fairlab
# whatif` on a large real recording (a benchmark, not a test: it reports,
# it does not judge).
#
#  1. Records, once, a large trace in the VM: the analyzer-data scenario
#     with 16 more busy cgroups 5 levels deep, 4 vCPUs, until the module
#     has counted FL_BENCH_RECORDS (default 10 M) update attempts, a third
#     per policy: under TCG the guest makes 7000 to 25000 records per
#     second depending on the host's load, so a fixed time would give a
#     recording of any size (FL_BENCH_SECS, default 1200 per policy, is
#     only a cap).  Recorded uncompressed, compressed with zstd on the
#     host.  Kept in build/bench/analyzer-big/ and reused; --rerecord
#     records it again.  It must hold at least FL_BENCH_MIN_EVENTS
#     (default 90% of FL_BENCH_RECORDS) fairlab records.
#  2. Times `fairlab report` (events/s; best of 3) and
#     `trace-cmd report -i FILE >/dev/null` on the same file, as recorded
#     (trace.dat v7, zstd) and converted to v6 uncompressed.
#     Then v7 zstd against v6 uncompressed in rounds that alternate the
#     two (FL_BENCH_ROUNDS, default 5): the ratio of each round, its
#     median and range (the target is 1.3x at most), and what this many
#     CPUs allow (cpu_bound: report's CPU time on v7 zstd over the CPUs,
#     against v6's wall time); that no file was
#     left in, or even created in, an empty $TMPDIR while reading the zstd
#     file; and FAIRLAB_PROFILE's account of that reading (time in
#     pread and in ZSTD_decompressDCtx(), decompression rate).
#  3. Peak RSS (/usr/bin/time -v) of `fairlab report` on the whole
#     recording and on its first half (trace-cmd split): the engine keeps
#     no per-record state, so it should not grow with the trace length.
#     A generated recording's half also holds half its groups (each
#     repetition has its own), so the length alone is checked on
#     `fl-tracegen --same-groups` files of a quarter, a half and all of
#     FL_BENCH_RECORDS (the same 3 x FL_BENCH_GEN_CPUS groups in each):
#     report's and whatif's peak RSS on each, largest / smallest.
#  4. `fairlab whatif FILE` (its default 50 policies replayed in one pass)
#     against `fairlab report FILE` timed in the same run: 3 alternating
#     rounds of the two as run, the target the median of the rounds'
#     wall-clock ratios; best of 3 each (wall clock and the CPU time of
#     that run) for these and the forced ways below; and its peak RSS on
#     the whole recording and the first half.  whatif as a user runs it
#     (the target), which replays every policy on a thread of its own fed
#     through a ring with 3 CPUs or more (analysis/fa_replay_ring.c); and
#     four ways forced, on the engine's thread (FAIRLAB_THREADS=1), in
#     two halves on two threads (FAIRLAB_THREADS=2), through the ring
#     (FAIRLAB_THREADS=ring) and in 2 processes that each read the file
#     (--procs=2, tools/whatif/whatif_shards.h), so that the rules are
#     checked on this
#     machine: each with both ratios, wall and
#     CPU, against report's (which runs its own two threads, reader and
#     engine, on the same machine); and the least wall time whatif's CPU
#     time allows on this many CPUs, against report's (cpu_bound): on a
#     host whose report is fast, a ratio can be out of reach of any
#     schedule of the same work.
#  Before the runs, after each format's and after the v7 / v6 rounds:
#     each CPU's speed on three fixed loops (tests/bench/cpu-speed.c, run
#     pinned to it: cache-resident random updates, arithmetic, a stream
#     through memory), and the slowest / fastest: a virtual machine's CPUs
#     can differ by half, and a ratio then depends on where its threads ran.
#
#  5. Decoding on several threads (tests/bench/bench-threads.sh): report
#     on the v7 zstd file with --threads=1 and --threads=2 in alternating
#     rounds, events/s and the ratios; FAIRLAB_PROFILE's CPU seconds per
#     stage (decoding threads, merge, engine).
#
#   tests/bench/bench-analyzer.sh [--rerecord]
#
# FL_BENCH_SOURCE=gen: no VM and no recording.  Step 1 is instead
# build/fl-tracegen (tools/tracegen/), which scales a committed recording
# (FL_BENCH_GEN_FROM, default tests/data/analyzer-policies.dat) to at
# least FL_BENCH_RECORDS records: its CPUs FL_BENCH_GEN_CPUS times side
# by side (default 16: 64 CPUs), repeated in time, each copy its own
# groups; v7 zstd and v6 written directly (about 2 minutes each for
# 10^8 records; the temporary per-CPU files take the v6 size).  Kept in
# build/bench/analyzer-gen/ and reused; --rerecord generates them again.
#   FL_BENCH_SOURCE=gen FL_BENCH_RECORDS=100000000 make bench-analyzer
#
# Environment: FL_BENCH_RECORDS (update attempts to record, default
# 10000000), FL_BENCH_ROUNDS (alternating v7/v6 rounds, default 5), FL_BENCH_SECS (cap on the workload seconds per policy,
# default 1200), FL_BENCH_OUT (directory, default
# build/bench/analyzer-big), FL_BENCH_MIN_EVENTS (default 90% of
# FL_BENCH_RECORDS; a smaller value for a dry run).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
fl=$top/build/fairlab
source=${FL_BENCH_SOURCE:-record}
case $source in
record) out=${FL_BENCH_OUT:-$top/build/bench/analyzer-big} ;;
gen) out=${FL_BENCH_OUT:-$top/build/bench/analyzer-gen} ;;
*) echo "bench-analyzer: error: FL_BENCH_SOURCE is record or gen, not $source" >&2; exit 2 ;;
esac
# absolute: the first half is split inside $out (trace-cmd split -o)
mkdir -p "$out" && out=$(cd "$out" && pwd) ||
	{ echo "bench-analyzer: error: cannot make $out" >&2; exit 2; }
big=$out/analyzer.zstd.dat
records=${FL_BENCH_RECORDS:-10000000}
secs=${FL_BENCH_SECS:-1200}
min_events=${FL_BENCH_MIN_EVENTS:-$((records / 10 * 9))}

die() { echo "bench-analyzer: error: $*" >&2; exit 1; }
[ -x "$fl" ] || die "$fl not built (make)"
gen=$top/build/fl-tracegen
[ -x "$gen" ] || die "$gen not built (make)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
command -v trace-cmd >/dev/null || die "trace-cmd missing"

# fairlab_records FILE: fairlab records in FILE, from the analyzer itself
fairlab_records() {
	"$fl" report --json "$1" 2>/dev/null |
		awk -F': ' '/"fairlab_n"/ { gsub(/,/, "", $2); print $2; exit }'
}

raw=$out/analyzer.dat		# as recorded: v7, uncompressed
v6=$out/analyzer.v6.dat
from=${FL_BENCH_GEN_FROM:-$top/tests/data/analyzer-policies.dat}
if [ "$source" = gen ]; then
	if [ "${1:-}" = --rerecord ] || [ ! -s "$big" ] || [ ! -s "$v6" ]; then
		rm -rf "$out"
		mkdir -p "$out"
		for f in "$big:v7" "$v6:v6"; do
			echo "bench-analyzer: fl-tracegen: ${from#$top/} x ${FL_BENCH_GEN_CPUS:-16} CPUs, >= $records records, ${f##*:}"
			"$gen" -k "${FL_BENCH_GEN_CPUS:-16}" -n "$records" -f "${f##*:}" \
				"$from" -o "${f%:*}" || die "fl-tracegen failed"
		done
	fi
elif [ "${1:-}" = --rerecord ] || [ ! -s "$raw" ]; then
	echo "bench-analyzer: recording $records update attempts under 3 policies at 4 vCPUs in the VM (15 to 40 minutes, at most ${secs}s per policy)"
	rm -rf "$out"
	mkdir -p "$top/build/bench"
	# bash reads a script as it runs it: run a snapshot of run-scenario.sh,
	# so that an edit to it during this long run cannot break the run
	bash -c "$(cat tests/vm/run-scenario.sh)" tests/vm/run-scenario.sh \
		--smp 4 --mem 6144 --timeout $((secs * 3 * 4 + 900)) --out "$out" \
		--append "FL_DATA_SECS=$secs FL_DATA_RECORDS=$records FL_DATA_GROUPS=16 FL_DATA_DEPTH=4 FL_TRACE_BUF_KB=65536 FL_RECORD_STOP_SECS=1800 FL_ALLOW_LOST=1 FL_DATA_COMPRESSION=none FL_DATA_CHECK=0" \
		tests/vm/scenarios/analyzer-data.guest.sh >"$top/build/bench/analyzer-big.log" 2>&1 ||
		die "the VM run failed: build/bench/analyzer-big.log"
	rm -f "$big"
fi
# trace-cmd's default format, v7 zstd, made on the host (zstd in the guest
# takes minutes under TCG)
[ -s "$big" ] || trace-cmd convert --compression zstd -i "$raw" -o "$big" >/dev/null 2>&1 ||
	die "trace-cmd convert to zstd failed"
# a copy of the tool (in $out, made afresh above when it was not there),
# timed throughout: a build during the run's quarter of an hour would
# otherwise time two tools, or fail in the middle
cp "$fl" "$out/fairlab.bench" || die "cannot copy $fl to $out"
fl=$out/fairlab.bench
n=$(fairlab_records "$big")
[ "${n:-0}" -ge $min_events ] ||
	die "$big holds ${n:-0} fairlab records, fewer than $min_events (events lost, or FL_BENCH_SECS reached: see the log): --rerecord"

# The other flavour, and the first half (in records) of the recording.
half=$out/half.dat
[ -s "$v6" ] || trace-cmd convert --file-version 6 -i "$big" -o "$v6" >/dev/null 2>&1 ||
	die "trace-cmd convert failed"
if [ ! -s "$half" ]; then
	all=$("$fl" report --json "$big" 2>/dev/null |
		awk -F': ' '/"all_n"/ { gsub(/,/, "", $2); print $2; exit }')
	(cd "$out" && trace-cmd split -i "$big" -o half.dat -e $((all / 2 + 1)) >/dev/null 2>&1) ||
		die "trace-cmd split failed"
	mv "$out/half.dat.1" "$half"
	rm -f "$out"/half.dat.[0-9]*
fi
nhalf=$(fairlab_records "$half")

# seconds CMD...: wall-clock seconds of CMD (stdout discarded)
seconds() {
	local t0 t1
	t0=$(date +%s.%N)
	# a run that fails would be the "fastest": stop instead
	"$@" >/dev/null 2>"$out/last.err" || die "$* failed: $(head -2 "$out/last.err")"
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
# fastest: of lines "seconds [more]" on stdin, the one of fewest seconds
fastest() { sort -g | head -1; }
# timed CMD...: "wall cpu" seconds of CMD (cpu: user + system, all threads)
timed() {
	/usr/bin/time -f '%e %U %S' -o "$out/last.time" "$@" >/dev/null 2>"$out/last.err" ||
		die "$* failed: $(head -2 "$out/last.err")"
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$out/last.time"
}
# best3 HOW CMD...: HOW (seconds or timed) of the fastest of 3 runs.  A
# failed run stops the script: die in HOW's $(...) ends only that
# subshell, and so would the exit here but for the caller's own $(...)
# failing in turn (set -e)
best3() {
	local how=$1 a b c
	shift
	a=$("$how" "$@") || exit 1
	b=$("$how" "$@") || exit 1
	c=$("$how" "$@") || exit 1
	printf '%s\n%s\n%s\n' "$a" "$b" "$c" | fastest
}
# median X...: the median of the numbers X, as "1.23x"
. "$top/tests/bench/median.sh"
# ratio A B: A / B as "1.23x" ("n/a" when B is 0: a run too short to time)
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%5.2fx", a / b; else printf "  n/a" }'
}
# cpu_bound LABEL WHAT CPU OF WALL TARGET: what this host allows.  No
# schedule runs CPU seconds of work on $(nproc) CPUs in less than
# CPU / CPUs of wall time, so WHAT (its best run's CPU time CPU) cannot
# finish within TARGET x WALL (OF's best wall time) unless its work
# shrinks to TARGET x WALL x CPUs of CPU.  A bound for the work as
# measured, not for any program: less work lowers it.
cpu_bound() {
	awk -v l="$1" -v w="$2" -v c="$3" -v o="$4" -v r="$5" -v t="$6" -v n="$(nproc)" 'BEGIN {
		printf "%-16s %s on %d CPUs: %.2f s of CPU, so at least %.2f s of wall = %.2fx %s wall (%.2f s); %gx needs at most %.2f s of CPU (%.2fx of this)\n",
			l ":", w, n, c, c / n, c / n / r, o, r, t, t * r * n, t * r * n / c
	}'
}
# peak_rss_kb CMD...: maximum resident set size of CMD, in KB
peak_rss_kb() {
	/usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }'
}

printf 'recording: %s (%s MB, trace.dat v7 zstd), %d fairlab records\n' \
	"${big#$top/}" "$(($(stat -c %s "$big") / 1048576))" "$n"
# fairlab uses a second core when there is one free (tools/reader/pipe.h): say how
# busy the host was
printf 'host: %d CPUs, load average %s before the runs\n' "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
# and how fast each CPU was (tests/bench/cpu-speed.c): a virtual
# machine's CPUs can differ, and which CPU a thread lands on then moves
# a wall-time ratio as much as the code does
speed=$top/build/bench/cpu-speed
mkdir -p "$top/build/bench"
cc -std=c11 -O2 -Wall -Wextra -Werror tests/bench/cpu-speed.c -o "$speed" ||
	die "cannot build tests/bench/cpu-speed.c"
# cpu_speeds WHEN: each CPU of this process's affinity, pinned in turn
cpu_speeds() {
	local c line all=''
	for c in $(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))'); do
		line=$(taskset -c "$c" "$speed") || die "cpu-speed failed on CPU $c"
		all+="$c $line"$'\n'
	done
	# "CPU mem S alu S stream S" per line
	printf '%s' "$all" | awk -v when="$1" '
		{ printf "%s CPU %d: mem %.3f s, alu %.3f s, stream %.3f s;", (NR == 1 ? "host CPU speeds " when " (tests/bench/cpu-speed.c, CPU time, less is faster):" : ""), $1, $3, $5, $7
		  for (k = 3; k <= 7; k += 2) {
			if (NR == 1 || $k < lo[k]) lo[k] = $k
			if (NR == 1 || $k > hi[k]) hi[k] = $k
		  } }
		END { printf " slowest / fastest CPU: mem %.2fx, alu %.2fx, stream %.2fx\n", hi[3] / lo[3], hi[5] / lo[5], hi[7] / lo[7] }'
}
cpu_speeds "before the runs"
for f in "$big" "$v6"; do
	label=$([ "$f" = "$big" ] && echo "v7 zstd" || echo "v6 uncompressed")
	# the zstd runs write GBs of temporary copies: their writeback must
	# not run during the next timings
	sync
	tf=$(best3 seconds "$fl" report "$f")
	tt=$(seconds trace-cmd report -i "$f")
	printf '%-16s fairlab report %7.2f s = %6.2f M events/s;  trace-cmd report %7.2f s;  ratio %5.1fx\n' \
		"$label:" "$tf" "$(echo "$n / $tf / 1000000" | bc -l)" "$tt" "$(echo "$tt / $tf" | bc -l)"
	sync
	# the policies, and how many replay threads whatif starts here
	# unasked (its own rule, told by FAIRLAB_PROFILE: fairlab(1))
	if ! FAIRLAB_PROFILE=1 "$fl" whatif --csv "$f" >"$out/whatif.csv" 2>"$out/whatif.err"; then
		echo "bench-analyzer: error: fairlab whatif failed on $f:" >&2
		cat "$out/whatif.err" >&2
		exit 1
	fi
	npol=$(tail -n +2 "$out/whatif.csv" | wc -l)
	rthr=$(sed -n 's/^fairlab profile: the replay of [0-9]* policies on \([0-9]*\) thread.*/\1/p' "$out/whatif.err")
	grep -q '^fairlab profile: every policy on a replay thread fed through a ring' "$out/whatif.err" &&
		rthr="$rthr, a ring"
	# report and whatif as run in alternating rounds, a ratio per round:
	# the host's speed moves from minute to minute, and one round's two
	# runs see the same state; best of 3 each as well
	rt='' wt='' wrs=''
	for _ in 1 2 3; do
		a=$(timed "$fl" report "$f"); b=$(timed "$fl" whatif "$f")
		rt+="$a"$'\n' wt+="$b"$'\n'
		wrs="$wrs $(echo "${b%% *} / ${a%% *}" | bc -l)"
	done
	read -r rw rc <<<"$(printf '%s' "$rt" | fastest)"
	read -r ww wc <<<"$(printf '%s' "$wt" | fastest)"
	t=$(best3 timed env FAIRLAB_THREADS=1 "$fl" whatif "$f"); read -r w1w w1c <<<"$t"
	t=$(best3 timed env FAIRLAB_THREADS=2 "$fl" whatif "$f"); read -r w2w w2c <<<"$t"
	t=$(best3 timed env FAIRLAB_THREADS=ring "$fl" whatif "$f"); read -r wrw wrc <<<"$t"
	t=$(best3 timed "$fl" whatif --procs=2 "$f"); read -r wpw wpc <<<"$t"
	printf '%-16s fairlab report: wall %6.2f s, CPU %6.2f s\n' "$label:" "$rw" "$rc"
	printf '%-16s fairlab whatif (%d policies), as run (%s): wall %6.2f s, CPU %6.2f s;  whatif/report wall %s (best of 3 each), CPU %s\n' \
		"$label:" "$npol" "replay on ${rthr:-?} thread(s), $(nproc) CPUs" \
		"$ww" "$wc" "$(ratio "$ww" "$rw")" "$(ratio "$wc" "$rc")"
	printf '%-16s whatif as run / report, wall, 3 alternating rounds: median %s (target <= 3x);  rounds:%s\n' \
		"$label:" "$(median $wrs)" "$(printf ' %.2f' $wrs)"
	printf '%-16s fairlab whatif (%d policies), one process, replay on 1 thread:  wall %6.2f s, CPU %6.2f s;  whatif/report wall %s, CPU %s\n' \
		"$label:" "$npol" "$w1w" "$w1c" "$(ratio "$w1w" "$rw")" "$(ratio "$w1c" "$rc")"
	printf '%-16s fairlab whatif (%d policies), one process, two halves, 2 threads: wall %6.2f s, CPU %6.2f s;  whatif/report wall %s, CPU %s\n' \
		"$label:" "$npol" "$w2w" "$w2c" "$(ratio "$w2w" "$rw")" "$(ratio "$w2c" "$rc")"
	printf '%-16s fairlab whatif (%d policies), one process, a ring, 2 threads:  wall %6.2f s, CPU %6.2f s;  whatif/report wall %s, CPU %s\n' \
		"$label:" "$npol" "$wrw" "$wrc" "$(ratio "$wrw" "$rw")" "$(ratio "$wrc" "$rc")"
	printf '%-16s fairlab whatif (%d policies), 2 processes (--procs=2):  wall %6.2f s, CPU %6.2f s;  whatif/report wall %s, CPU %s\n' \
		"$label:" "$npol" "$wpw" "$wpc" "$(ratio "$wpw" "$rw")" "$(ratio "$wpc" "$rc")"
	cpu_bound "$label" "whatif as run" "$wc" "report's" "$rw" 3
	if [ "$f" = "$big" ]; then zrc=$rc; else v6rw=$rw; fi
	cpu_speeds "after the $label runs"
done
# v7 zstd against v6 in alternating rounds: load that changes during the
# run hits both sides of a round alike
rounds=${FL_BENCH_ROUNDS:-5}
ratios=
for _ in $(seq "$rounds"); do
	tz=$(seconds "$fl" report "$big")
	t6=$(seconds "$fl" report "$v6")
	ratios="$ratios $(echo "$tz / $t6" | bc -l)"
done
printf 'fairlab report, v7 zstd / v6 uncompressed, %d alternating rounds: median %s (target <= 1.3x), range %s-%s;  rounds:%s\n' \
	"$rounds" \
	"$(median $ratios)" \
	"$(printf '%s\n' $ratios | sort -g | head -1 | xargs printf '%.2f')" \
	"$(printf '%s\n' $ratios | sort -g | tail -1 | xargs printf '%.2fx')" \
	"$(printf ' %.2f' $ratios)"
cpu_bound "v7 zstd" "report" "$zrc" "v6's" "$v6rw" 1.3
cpu_speeds "after the v7 / v6 rounds"
# no temporary copy: an empty $TMPDIR stays empty (inotify would see a
# file created and unlinked at once; a read-only directory refuses it)
tdir=$out/tmpdir-check
rm -rf "$tdir" && mkdir -p "$tdir" && chmod 555 "$tdir"
TMPDIR=$tdir FAIRLAB_PROFILE=1 "$fl" report "$big" >/dev/null 2>"$out/profile.err" ||
	die "report with a read-only \$TMPDIR failed: $(head -2 "$out/profile.err")"
if grep -q "uncompressed copy" "$out/profile.err"; then
	echo "v7 zstd: read through a temporary copy (see $out/profile.err)"
else
	echo "v7 zstd: read in place, \$TMPDIR read-only and empty: $(ls -A "$tdir" | wc -l) files"
fi
chmod 755 "$tdir"
sed -n 's/^fairlab profile: /v7 zstd profile: /p' "$out/profile.err"
rss_all=$(peak_rss_kb "$fl" report "$big")
rss_half=$(peak_rss_kb "$fl" report "$half")
printf 'peak RSS of fairlab report: %.1f MB for %d records, %.1f MB for %d records (first half)\n' \
	"$(echo "$rss_all / 1024" | bc -l)" "$n" "$(echo "$rss_half / 1024" | bc -l)" "$nhalf"
# The length alone: the same groups in a quarter, a half and the whole
# of FL_BENCH_RECORDS (fl-tracegen --same-groups), generated once, kept
# under names that say how (other settings make other files).
same=() desc=()
gk=${FL_BENCH_GEN_CPUS:-16}
for q in 4 2 1; do
	f=$out/same-groups.$(basename "$from" .dat).k$gk.n$((records / q)).dat
	[ -s "$f" ] || "$gen" -q -g -k "$gk" -n $((records / q)) \
		"$from" -o "$f" || die "fl-tracegen --same-groups failed"
	same+=("$f")
	# its fairlab records and groups, from one report --json
	desc+=("$("$fl" report --json "$f" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%d records (%d groups)" % (d["records"]["fairlab_n"], d["total"]["metrics"]["groups_n"]))')")
done
for sub in report whatif; do
	line='' lo='' hi=''
	for i in "${!same[@]}"; do
		kb=$(peak_rss_kb "$fl" "$sub" "${same[i]}")
		[ -n "$kb" ] || die "no peak RSS for fairlab $sub ${same[i]}"
		line+=$(printf ' %.1f MB for %s;' "$(echo "$kb / 1024" | bc -l)" "${desc[i]}")
		if [ -z "$lo" ] || [ "$kb" -lt "$lo" ]; then lo=$kb; fi
		if [ -z "$hi" ] || [ "$kb" -gt "$hi" ]; then hi=$kb; fi
	done
	printf 'peak RSS of fairlab %s against length, groups fixed (fl-tracegen --same-groups):%s largest / smallest %s\n' \
		"$sub" "$line" "$(ratio "$hi" "$lo")"
done
# whatif --procs=2's peak RSS, summed over its processes (FAIRLAB_PROFILE
# says; /usr/bin/time would give only the largest one's)
whatif_rss_kb() {
	local mb
	mb=$(FAIRLAB_PROFILE=1 "$fl" whatif --procs=2 "$1" 2>&1 >/dev/null |
		sed -n 's/^fairlab profile: peak RSS [0-9.]* MB in this process, \([0-9.]*\) MB in all.*/\1/p')
	[ -n "$mb" ] || die "whatif --procs=2 $1 printed no summed peak RSS"
	echo "$mb * 1024" | bc -l
}
for f in "$big" "$v6"; do
	label=$([ "$f" = "$big" ] && echo "v7 zstd" || echo "v6 uncompressed")
	printf 'peak RSS of fairlab whatif --procs=2, %s: %.1f MB in all for %d records\n' \
		"$label" "$(echo "$(whatif_rss_kb "$f") / 1024" | bc -l)" "$n"
done
rss_all=$(peak_rss_kb "$fl" whatif "$big")
rss_half=$(peak_rss_kb "$fl" whatif "$half")
printf 'peak RSS of fairlab whatif: %.1f MB for %d records, %.1f MB for %d records (first half)\n' \
	"$(echo "$rss_all / 1024" | bc -l)" "$n" "$(echo "$rss_half / 1024" | bc -l)" "$nhalf"
FAIRLAB=$fl tests/bench/bench-threads.sh "$big"
