#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every policy (b), and their figures side by side (c), on one continuous
# fork/exec-heavy load in a 3-level cgroup tree with autogroups, recorded
# with trace-cmd:
#  (b) every policy in turn (~1 s each, with several arguments), so that
#      tg-policies.host.sh can check each recorded attempt's "written"
#      against the policy rule applied to its recorded fields;
#  (c) force, stock, relative:8, relative:64 and ratelimit:1000 for the
#      same duration each, twice in mirrored order (ABCDE EDCBA, against
#      drift of the load), with the module's own per-policy counters read around every
#      segment (segments.txt): the host compares writes per attempt from
#      the trace and, independently, from the counters (per second is
#      printed), and checks that ratelimit never publishes twice within its
#      interval on one cfs_rq (since_ns of written records, and timestamps
#      of a trace recorded in the policy's own clock, -C perf).
# fairlab-vm: --smp 4 --mem 2048 --timeout 240
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
FL_TRACE_BUF_KB=${TG_BUF_KB:-65536}
: "${TG_B_SECS:=1}"	# per policy in (b)
: "${TG_C_SECS:=2}"	# per segment in (c)
B_POLICIES="stock force nonzero relative:8 relative:64 turner1 turner2
fixed:64 fixed:0 log2:8 ratelimit:30000 budget:5 budget:100"
C_POLICIES="force stock relative:8 relative:64 ratelimit:1000 ratelimit:1000 relative:64 relative:8 stock force"

up() { cut -d' ' -f1 /proc/uptime; }
# counters NAME: "attempts writes" of tg policy NAME in /sys/kernel/fairlab/stats
counters() {
	awk -v p="$1" '$1 == "tg_policy" && $2 == p { print $3, $4 }' $FLK/stats
}
switch() {
	if echo "$1" >$TGP 2>/dev/null && [ "$(cat $TGP)" = "$1" ]; then
		return 0
	fi
	not_ok "switch to $1" "rejected or read back as $(cat $TGP)"
}

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree
# -C perf (after record_start's -C mono, so it wins): the trace clock is
# then local_clock() = sched_clock_cpu(), the clock ratelimit decides by;
# under TCG it is not the mono clock (see tests/vm/tg-check/tg-check.c)
record_start policies -C perf -e fairlab:tg_update -e fairlab:policy_switch || exit 1
n=0
for p in $B_POLICIES; do n=$((n + 1)); done
nc=0
for p in $C_POLICIES; do nc=$((nc + 1)); done
total=$(( n * TG_B_SECS + nc * TG_C_SECS + 3 ))
tg_load $total
sleep 0.5
log "t=$(up) (b): $n policies, ${TG_B_SECS}s each"
for p in $B_POLICIES; do
	switch "$p"
	sleep "$TG_B_SECS"
done
log "t=$(up) (c): ${TG_C_SECS}s segments: $C_POLICIES"
: >"$FL_OUT/segments.txt"
for p in $C_POLICIES; do
	switch "$p"
	c0=$(counters "${p%%:*}"); t0=$(up)
	sleep "$TG_C_SECS"
	c1=$(counters "${p%%:*}"); t1=$(up)
	echo "$p $t0 $t1 $c0 $c1" >>"$FL_OUT/segments.txt"
done
log "t=$(up) waiting for the load to end"
tg_wait 60
record_stop policies
cp $FLK/stats "$FL_OUT/stats.txt"
assert_audit_exact "audit exact after all policies"
switch stock
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
