#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The work done with interrupts off stays bounded however
# many task groups exist.  An unprivileged user (fl) makes TG_AUTOGROUPS
# (5000) autogroups, one "setsid sleep" per session; on a kernel without
# autogroups (CONFIG_SCHED_AUTOGROUP=n: 6.12's rt-amd64) the scenario makes
# as many cpu-controller cgroups (tg/many/gN) instead; then, under the
# fork/exec load of the tg scenarios, tg policy switches (each a resync of
# every group on every CPU) and audits (the audit file and audit_emit).
#  - the audit is exact (tg->load_avg == sum of contribs) for every group,
#    at least TG_AUTOGROUPS of them;
#  - every lock hold covered at most the batch size of groups: resync
#    FL_RESYNC_GROUPS_PER_HOLD (64), audit FL_AUDIT_GROUPS_PER_HOLD (64),
#    one rq lock each (lockhold_locks), from /sys/kernel/fairlab/stats
#    (lockhold_max), and the holds add up to every group (lockhold); the
#    measured time with interrupts off per hold is logged (lockhold_ns,
#    lockhold_max);
#  - no RCU stall, soft or hard lockup (run-scenario.sh checks the console
#    and dmesg too).
# fairlab-vm: --smp 4 --mem 2048 --timeout 900
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
: "${TG_AUTOGROUPS:=5000}"
AUTO_MIN=4611686018427387904	# FL_TG_AUTOGROUP_FLAG (1 << 62)
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }'; }
autogroups() {
	awk -v m=$AUTO_MIN '!/^#/ && $1 >= m { n++ } END { print n + 0 }' \
		$FLK/audit
}
# the groups made here: autogroups, or the cgroups under tg/many
if tg_has_autogroup; then
	kind=autogroups
	made() { autogroups; }
else
	kind="cgroups (no autogroups in this kernel)"
	# the audit names a group by its id: a cgroup's is below AUTO_MIN
	cgroups() { awk -v m=$AUTO_MIN '!/^#/ && $1 < m { n++ } END { print n + 0 }' $FLK/audit; }
	made() { echo $(($(cgroups) - cg_base)); }
fi
hold() { awk -v k="$1" -v n="$2" -v c="$3" '$1 == k && $2 == n { print $c }' $FLK/stats; }

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree

# The sessions, made by user fl: busybox setsid calls setsid() at once in
# a background job of a shell without job control (not a group leader).
cat >/tmp/sessions.sh <<'EOS'
i=0
while [ $i -lt $1 ]; do
	setsid sleep 100000 </dev/null >/dev/null 2>&1 &
	i=$((i + 1))
done
EOS
cat >/tmp/cgroups.sh <<'EOS'
i=0
while [ $i -lt $1 ]; do
	mkdir /sys/fs/cgroup/tg/many/g$i || exit 1
	i=$((i + 1))
done
EOS
if ! tg_has_autogroup; then
	check "cgroup tg/many" sh -c "mkdir $CG/tg/many && echo +cpu >$CG/tg/many/cgroup.subtree_control"
	cg_base=$(cgroups)
fi
t0=$(up)
if tg_has_autogroup; then
	check "user fl starts $TG_AUTOGROUPS sessions" run_as_user sh /tmp/sessions.sh "$TG_AUTOGROUPS"
else
	check "$TG_AUTOGROUPS cpu cgroups made" sh /tmp/cgroups.sh "$TG_AUTOGROUPS"
fi
wait_for 300 eval '[ "$(made)" -ge "$TG_AUTOGROUPS" ]'
n=$(made)
log "$n $kind after $(since "$t0") s; $(grep -E 'MemFree|Slab' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
check "at least $TG_AUTOGROUPS $kind ($n)" test "$n" -ge "$TG_AUTOGROUPS"

tg_load 40
sleep 2
for p in fixed:1048576 relative:8 ratelimit:1000 stock; do
	t0=$(up)
	check "switch to $p under load" sh -c "echo $p > $TGP"
	log "switch to $p: $(since "$t0") s"
	sleep 1
	t0=$(up)
	assert_audit_exact "audit exact after the switch to $p"
	log "audit file: $(since "$t0") s"
	check "audit_emit under load" sh -c "echo 1 > $FLK/audit_emit"
done
tg_wait 90
groups=$(awk '!/^#/ { n++ } END { print n + 0 }' /tmp/fl-audit.txt)
cp $FLK/stats "$FL_OUT/stats.txt"
grep lockhold $FLK/stats | while read -r l; do log "stats: $l"; done

cpus=$(grep -c ^processor /proc/cpuinfo)
possible=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
audit_batch=64	# FL_AUDIT_GROUPS_PER_HOLD: groups per hold of one rq lock
check "resync: at most 64 groups per rq-lock hold ($(hold lockhold_max resync 3))" \
	test "$(hold lockhold_max resync 3)" -le 64
check "audit: at most $audit_batch groups per hold of one rq lock ($(hold lockhold_max audit 3))" \
	test "$(hold lockhold_max audit 3)" -le $audit_batch
check "one rq lock held at a time (lockhold_locks: audit $(hold lockhold_locks audit 3), resync $(hold lockhold_locks resync 3))" \
	test "$(hold lockhold_locks audit 3)" -eq 1 -a "$(hold lockhold_locks resync 3)" -eq 1
# four switches resync every group on every CPU; audits read each group
check "resync holds cover >= 4 x $possible x $TG_AUTOGROUPS group visits ($(hold lockhold resync 4))" \
	test "$(hold lockhold resync 4)" -ge $((4 * possible * TG_AUTOGROUPS))
check "audit holds: >= $groups / $audit_batch per audit ($(hold lockhold audit 3) holds)" \
	test "$(hold lockhold audit 3)" -ge $((8 * groups / audit_batch))
log "irqs off per hold: resync $(hold lockhold_ns resync 3) ns / $(hold lockhold resync 3) holds (max $(hold lockhold_max resync 4) ns), audit $(hold lockhold_ns audit 3) ns / $(hold lockhold audit 3) holds (max $(hold lockhold_max audit 4) ns); $cpus CPUs"

assert_dmesg_lacks "rcu_sched self-detected stall|rcu: INFO|soft lockup|hard LOCKUP|hung_task|blocked for more than"
if tg_has_autogroup; then
	run_as_user kill -KILL -1
	wait_for 60 eval '[ "$(autogroups)" -lt 100 ]'
else
	rmdir /sys/fs/cgroup/tg/many/g* /sys/fs/cgroup/tg/many
fi
echo stock >$TGP
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
