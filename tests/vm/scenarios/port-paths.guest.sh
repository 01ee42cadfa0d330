#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The 6.1 port's less travelled paths: schedstats on (the __update_stats_*
# calls, check_spread, slice_max), a sched_stat tracepoint with schedstats
# off (check_schedstat_required's message from the patched
# enqueue_entity), NUMA balancing driven by the patched task_tick_fair
# (task_tick_numa: numa_pte_updates must grow; needs --numa), and
# unpatch / re-patch while the workload runs.  The audit must stay exact.
#
#   tests/vm/run-scenario.sh --smp 4 --numa tests/vm/scenarios/port-paths.guest.sh
. "$FL_LIB"
LP=$FL_LIVEPATCH/fairlab
CG=/sys/fs/cgroup

cat >/tmp/loop.sh <<'EOF'
end=$(( $(date +%s) + $1 )); shift
while [ "$(date +%s)" -lt $end ]; do "$@" >/dev/null 2>&1; done
EOF

# work SECS: a mixed workload in a/b/c, a/d and an autogroup (background)
work() {
	cg_run a/b/c sh /tmp/loop.sh $1 hackbench -g 2 -f 3 -l 30 &
	cg_run a/d stress-ng --vm 1 --vm-bytes 16M --cpu 1 -t ${1}s -q &
	cg_run a/d sh /tmp/loop.sh $1 /bin/true &
	setsid sh /tmp/loop.sh $1 /bin/true &
}

numa_pte() { awk '$1 == "numa_pte_updates" { print $2 }' /proc/vmstat; }

mkdir -p $CG/a && echo +cpu >$CG/a/cgroup.subtree_control &&
	mkdir -p $CG/a/b && echo +cpu >$CG/a/b/cgroup.subtree_control &&
	mkdir -p $CG/a/b/c $CG/a/d || die "cannot build the cgroup tree"
echo "30000 100000" >$CG/a/d/cpu.max

load_mod fairlab_trace || exit 1
dmesg_mark
load_lp fairlab || exit 1

# 1. schedstats on
check "schedstats on" sh -c 'echo 1 > /proc/sys/kernel/sched_schedstats'
work 3; wait
assert_audit_exact "audit exact with schedstats"
w=$(awk '{ s += $2 } END { print s + 0 }' /proc/schedstat 2>/dev/null)
log "schedstat run_delay sum: $w"
check "schedstats off" sh -c 'echo 0 > /proc/sys/kernel/sched_schedstats'

# 2. a stat tracepoint without schedstats: the patched enqueue_entity warns
ev=$FL_TRACING/events/sched/sched_stat_runtime/enable
check "enable sched_stat_runtime" sh -c "echo 1 > $ev"
work 1; wait
echo 0 >$ev
assert_dmesg_has "Scheduler tracepoints stat_sleep, stat_iowait, stat_blocked and stat_runtime require" \
	"check_schedstat_required message"

# 3. NUMA balancing through the patched task_tick_fair
if [ "$(ls -d /sys/devices/system/node/node* | wc -l)" -gt 1 ]; then
	log "numa_balancing=$(cat /proc/sys/kernel/numa_balancing)"
	before=$(numa_pte)
	# unconstrained memory touchers: > 1 s of runtime each (the first scan)
	stress-ng --vm 2 --vm-bytes 16M -t 6s -q
	after=$(numa_pte)
	check "numa_pte_updates grew ($before -> $after)" test "$after" -gt "$before"
else
	skip "numa_pte_updates" "one NUMA node (run with --numa)"
fi

# 4. unpatch and re-patch under load
work 8
sleep 1
disable_lp fairlab
unload_mod fairlab
load_lp fairlab tg_policy=force || exit 1
assert_audit_exact "audit exact after re-patch under load"
sleep 1
wait
assert_audit_exact "audit exact after the workload"
disable_lp fairlab
unload_mod fairlab
unload_mod fairlab_trace
assert_dmesg_lacks "WARNING|BUG|Oops"
assert_taint_ok
