#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The port's tg surface under load: fairlab.ko patches every function of
# the running kernel that holds a write of tg->load_avg (the roots of its
# module/port/*/surface.txt, derived from the build's vmlinux), a fork/wakeup/throttle/reweight/migrate-heavy workload
# runs ~10 s in a 3-level cgroup tree plus autogroups, every call site
# reports attempts, and the audit shows tg->load_avg == sum of contribs for
# every group, under stock and across policy switches; then unpatch and
# unload.  Any WARN/BUG/taint fails the run (run-scenario.sh).
#
#   tests/vm/run-scenario.sh --smp 4 tests/vm/scenarios/port-tg.guest.sh
# fairlab-files: module/port/*/surface.txt
. "$FL_LIB"
LP=$FL_LIVEPATCH/fairlab
P=/sys/module/fairlab/parameters
CG=/sys/fs/cgroup
: "${FL_PORT_SECS:=10}"

# the tg roots: every function holding update_tg_load_avg(), a copy of
# update_load_avg() that can reach it, or clear_tg_load_avg() (6.8)
FUNCS=$(port_roots 'tg_load_avg|update_load_avg') || die "no patch surface"
[ -n "$FUNCS" ] || die "the surface lists no tg root"
log "tg roots of $(uname -r): $(echo $FUNCS)"

# /tmp/loop.sh SECS CMD...: run CMD over and over until SECS have passed
cat >/tmp/loop.sh <<'EOF2'
end=$(( $(date +%s) + $1 )); shift
while [ "$(date +%s)" -lt $end ]; do "$@" >/dev/null 2>&1; done
EOF2

load_mod fairlab_trace || exit 1
dmesg_mark
load_lp fairlab tg_policy=stock || exit 1
for f in $FUNCS; do
	check "$f patched" test -d "$LP/vmlinux/$f,1"
done
assert_audit_exact "audit exact after patch"

# a/{b/{c,d},e}: processes only in leaves (cgroup v2), a/e bandwidth-limited
mkdir -p $CG/a && echo +cpu >$CG/a/cgroup.subtree_control &&
	mkdir -p $CG/a/b && echo +cpu >$CG/a/b/cgroup.subtree_control &&
	mkdir -p $CG/a/b/c $CG/a/b/d $CG/a/e || die "cannot build the cgroup tree"
check "a/e cpu.max 20ms/100ms" sh -c "echo '20000 100000' > $CG/a/e/cpu.max"
check "a/b/c cpu.max 10ms/100ms" sh -c "echo '10000 100000' > $CG/a/b/c/cpu.max"

log "t=$(cut -d' ' -f1 /proc/uptime) workload ${FL_PORT_SECS}s"
s=$FL_PORT_SECS
cg_run a/b/c sh /tmp/loop.sh $s hackbench -g 2 -f 4 -l 50 &
hb=$!
cg_run a/b/d stress-ng --fork 2 -t ${s}s -q >/tmp/sng-fork.log 2>&1 &
p1=$!
cg_run a/e stress-ng --cpu 2 -t ${s}s -q >/tmp/sng-cpu.log 2>&1 &
p2=$!
cg_run a/b/d sh /tmp/loop.sh $s /bin/true &
p3=$!
# autogroups: new sessions in the root cgroup, each exit detaches/attaches
setsid sh /tmp/loop.sh $s /bin/true &
p4=$!
setsid sh /tmp/loop.sh $s /bin/true &
p5=$!
# a CPU hog in a/b/d keeps a/b queued, so that when a/b/c is unthrottled
# the walk up stops at a/b and unthrottle_cfs_rq()'s own update_load_avg()
# runs on a/b's parent cfs_rq (a): that is its tg site.  Without it the
# site depends on a/b/d happening to be queued (a 6.12 run saw 0); on the
# root cfs_rq update_tg_load_avg() returns before any attempt.
# (started like the mover below, so that $hog is the looping shell itself)
sh -c 'while :; do :; done' &
hog=$!
echo $hog >$CG/a/b/d/cgroup.procs
# migrate a CPU burner between leaves (task_change_group_fair), reweight
# (sched_group_set_shares) and re-limit (throttle/unthrottle) meanwhile
sh -c 'while :; do :; done' &
mv=$!
echo $mv >$CG/a/b/c/cgroup.procs
# the hog and the mover share CPU 0: the mover, throttled in a/b/c (10 ms
# per 100 ms, below its half of the CPU), is unthrottled where a/b is
# queued (the hog's a/b/d), so the walk stops at a/b on every such
# unthrottle (unpinned, with 50 ms, a 6.12 run of the CI saw 0: the two
# ran on different CPUs)
taskset -p -c 0 $hog >/dev/null && taskset -p -c 0 $mv >/dev/null ||
	not_ok "pin the hog and the mover to CPU 0"
end=$(( $(date +%s) + s ))
i=0
while [ "$(date +%s)" -lt $end ]; do
	for g in a/b/c a/b/d a/e a/b/c; do
		echo $mv >$CG/$g/cgroup.procs 2>/dev/null
		sleep 0.2
	done
	w=$(( (i % 5) * 40 + 20 ))
	echo $w >$CG/a/b/cpu.weight
	echo $(( 220 - w )) >$CG/a/b/c/cpu.weight
	echo $(( w * 2 )) >$CG/a/e/cpu.weight
	[ $((i % 2)) = 0 ] && q="10000 100000" || q="30000 50000"
	echo "$q" >$CG/a/e/cpu.max
	i=$((i + 1))
	[ $i = 3 ] && assert_audit_exact "audit exact during the workload"
done
kill -KILL $mv $hog 2>/dev/null
wait $mv $hog 2>/dev/null
check "workload finished" wait_for 60 eval "! kill -0 $hb 2>/dev/null && ! kill -0 $p1 2>/dev/null && ! kill -0 $p2 2>/dev/null && ! kill -0 $p3 2>/dev/null && ! kill -0 $p4 2>/dev/null && ! kill -0 $p5 2>/dev/null"
wait 2>/dev/null
log "t=$(cut -d' ' -f1 /proc/uptime) workload done ($i reconfiguration rounds)"
cp /sys/kernel/fairlab/stats "$FL_OUT/stats-stock.txt"
cat /tmp/sng-fork.log /tmp/sng-cpu.log >"$FL_OUT/workload.log" 2>&1

for site in enqueue_entity dequeue_entity set_next_entity entity_tick \
	enqueue_task_fair dequeue_task_fair unthrottle_cfs_rq \
	propagate_entity_cfs_rq sched_group_set_shares blocked_averages_se \
	blocked_averages attach_entity_cfs_rq detach_entity_cfs_rq; do
	n=$(site_stat $site attempts)
	check "site $site reached (${n:-none})" test "${n:-0}" -gt 0
done
# update_load_avg(.., 0 or SKIP_AGE_LOAD) never publishes: no attempts
for site in attach_entity_ula detach_entity_ula; do
	assert_eq "site $site: no attempts" 0 "$(site_stat $site attempts)"
done
assert_audit_exact "audit exact after the stock workload"

# idle: blocked load decays through the patched blocked-averages root
# (update_blocked_averages, 6.10+: sched_balance_update_blocked_averages)
# (nohz idle balance) until every group publishes 0
all_zero() {
	cat /sys/kernel/fairlab/audit >/tmp/audit0.txt 2>/dev/null &&
		awk '!/^#/ { if ($2 != 0 || $3 != 0 || $4 != 0) bad++ }
			END { exit bad ? 1 : 0 }' /tmp/audit0.txt
}
if wait_for 20 all_zero; then
	ok "idle groups decay to tg_load_avg 0"
else
	not_ok "idle groups decay to tg_load_avg 0" \
		"$(grep -v '^#' /tmp/audit0.txt | awk '$2 || $3 || $4' | head -3 | tr '\n' ';')"
fi

# the invariant across switches, with a short workload under each policy
for pol in force nonzero stock; do
	if ! sh -c "echo $pol > $P/tg_policy" 2>/dev/null; then
		not_ok "switch tg_policy to $pol" "rejected"
		continue
	fi
	ok "switch tg_policy to $pol"
	cg_run a/b/c stress-ng --fork 2 -t 2s -q >/dev/null 2>&1 &
	cg_run a/e sh /tmp/loop.sh 2 /bin/true &
	setsid sh /tmp/loop.sh 2 /bin/true &
	wait
	assert_audit_exact "audit exact under $pol"
done
cp /sys/kernel/fairlab/stats "$FL_OUT/stats-end.txt"

disable_lp fairlab
unload_mod fairlab
unload_mod fairlab_trace
assert_dmesg_lacks "WARNING|BUG|Oops|fairlab.*(refus|missing|not found)"
assert_taint_ok
