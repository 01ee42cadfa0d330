#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of tests/bench/bench-module.sh (not a test): hackbench in two
# cgroups, BENCH_ROUNDS rounds of three modes, in alternating order:
#   unpatched     fairlab.ko not loaded (fairlab_trace.ko is)
#   stock-off     fairlab.ko tg_policy=stock, tracing off
#   stock-on      the same, trace-cmd recording -e fairlab to a file
# Each run: the two hackbench instances start together; the run's time is
# the guest time until both end, and its busy time that less the time the
# CPU spent idle, both in ns from /proc/timer_list ("now at", the idle
# CPU's idle_sleeptime; /proc/uptime's 10 ms steps were 0.8% of a 6.12
# run).  Lines "RESULT round mode seconds context-switches busy-seconds
# attempts" go to /out/bench.txt, attempts being the update_tg_load_avg()
# attempts fairlab counted in the run (/sys/kernel/fairlab/stats; 0
# unpatched).
. "$FL_LIB"
: "${BENCH_ROUNDS:=12}"
: "${BENCH_ARGS:=-g 2 -f 10 -l 600}"
BENCH_ARGS=$(echo "$BENCH_ARGS" | tr _ " ")
# "<now ns> <idle ns summed over CPUs>"
clk() {
	awk '$1 == "now" && $2 == "at" { now = $3 }
	     $1 == ".idle_sleeptime" { idle += $3 }
	     END { if (now == "") exit 1; printf "%.0f %.0f\n", now, idle }' /proc/timer_list
}

load_mod fairlab_trace || exit 1
cg_create bench || exit 1
echo +cpu >/sys/fs/cgroup/bench/cgroup.subtree_control
cg_create bench/a; cg_create bench/b
: >"$FL_OUT/bench.txt"

ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }
attempts() {
	[ -r /sys/kernel/fairlab/stats ] || { echo 0; return; }
	awk '$1 == "tg_policy" { n += $3 } END { print n + 0 }' /sys/kernel/fairlab/stats
}
run() {	# run ROUND MODE
	n0=$(attempts)
	c0=$(ctxt)
	k0=$(clk) || { not_ok "no clock in /proc/timer_list"; exit 1; }
	# shellcheck disable=SC2086
	cg_run bench/a hackbench $BENCH_ARGS >/dev/null 2>&1 &
	a=$!
	# shellcheck disable=SC2086
	cg_run bench/b hackbench $BENCH_ARGS >/dev/null 2>&1
	wait $a
	k1=$(clk)
	c1=$(ctxt)
	n1=$(attempts)
	s=$(echo "$k0 $k1" | awk '{ printf "%.6f %.6f", ($3 - $1) / 1e9, ($3 - $1 - ($4 - $2)) / 1e9 }')
	echo "RESULT $1 $2 ${s% *} $((c1 - c0)) ${s#* } $((n1 - n0))" | tee -a "$FL_OUT/bench.txt"
}
patched() {
	run "$1" stock-off
	FL_TRACE_BUF_KB=16384
	trace-cmd record -C mono -b 16384 -e fairlab -o /tmp/bench.dat \
		>/tmp/bench-rec.log 2>&1 </dev/null &
	rp=$!
	wait_for 20 eval "[ -e /tmp/bench.dat.cpu0 ]"
	run "$1" stock-on
	kill -INT $rp; wait $rp 2>/dev/null
	log "round $1: trace $(du -k /tmp/bench.dat | cut -f1) KB"
	rm -f /tmp/bench.dat*
}

run 0 warmup
r=1
while [ $r -le "$BENCH_ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then
		run $r unpatched
		load_lp fairlab tg_policy=stock || exit 1
		patched $r
		unload_lp fairlab || exit 1
	else
		load_lp fairlab tg_policy=stock || exit 1
		patched $r
		unload_lp fairlab || exit 1
		run $r unpatched
	fi
	r=$((r + 1))
done
unload_mod fairlab_trace
