# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest-side workload helpers of the tg-* scenarios (busybox ash), sourced
# after $FL_LIB:   . /fairlab/tests/vm/tg-check/workload.sh
#
#   tg_has_autogroup       the kernel has autogroups (CONFIG_SCHED_AUTOGROUP)
#   tg_autogroup_on        sched_autogroup_enabled = 1 (ok/not_ok); logs
#                          and passes on a kernel without autogroups
#   tg_tree                cgroup tree tg/{l2/{l3a,l3b},side}: levels 1-3
#   tg_load SECS [HB_LOOPS]  fork/exec-heavy load for about SECS s, in the
#                          background: hackbench in tg/l2/l3a, stress-ng
#                          --exec (as user fl) in tg/l2/l3b, a busybox fork
#                          loop in tg/side, and in the root cgroup setsid'd
#                          fork loops (long-lived autogroups) plus a loop of
#                          short-lived sessions (an autogroup per iteration)
#   tg_load_until FILE     the same load, until FILE exists; TG_ROOT_PIDS:
#                          its root-cgroup loops (session and process group
#                          leaders: kill -STOP -PID stops one)
#   tg_freeze 1|0          freeze or thaw tg_load_until's load around a
#                          klp transition (its cgroups and TG_ROOT_PIDS)
#   tg_wait [SEC]          wait (bounded, default 60 s) for tg_load's tasks
#   assert_audit_exact NAME    /sys/kernel/fairlab/audit: tg_load_avg ==
#                          sum_contrib for every group (ok/not_ok)

CG=/sys/fs/cgroup
FLK=/sys/kernel/fairlab
TGP=/sys/module/fairlab/parameters/tg_policy
TG_PIDS=
TG_ROOT_PIDS=

cat >/tmp/tg-loop.sh <<'EOS'
end=$(( $(date +%s) + $1 )); shift
while [ "$(date +%s)" -lt $end ]; do "$@" >/dev/null 2>&1; done
EOS

# A kernel without CONFIG_SCHED_AUTOGROUP (6.12's rt-amd64) has neither
# proc file: its sessions are no task groups, which is logged, not a failure.
tg_has_autogroup() {
	[ -e /proc/sys/kernel/sched_autogroup_enabled ] || [ -e /proc/self/autogroup ]
}

tg_autogroup_on() {
	_f=/proc/sys/kernel/sched_autogroup_enabled
	if ! tg_has_autogroup; then
		log "no autogroups in this kernel (CONFIG_SCHED_AUTOGROUP=n): sessions make no task groups"
		return 0
	fi
	[ "$(cat $_f 2>/dev/null)" = 1 ] || echo 1 >$_f 2>/dev/null
	assert_eq "autogroups enabled" 1 "$(cat $_f 2>&1)"
}

tg_tree() {
	mkdir -p $CG/tg && echo +cpu >$CG/tg/cgroup.subtree_control &&
		mkdir -p $CG/tg/l2 $CG/tg/side &&
		echo +cpu >$CG/tg/l2/cgroup.subtree_control &&
		mkdir -p $CG/tg/l2/l3a $CG/tg/l2/l3b &&
		echo 200 >$CG/tg/l2/l3a/cpu.weight &&
		echo 50 >$CG/tg/side/cpu.weight
	check "cgroup tree tg/{l2/{l3a,l3b},side}" test -d $CG/tg/l2/l3b
}

tg_load() {
	_s=$1; _l=${2:-40}
	TG_PIDS=
	cg_run tg/l2/l3a sh /tmp/tg-loop.sh "$_s" hackbench -g 2 -f 4 -l "$_l" &
	TG_PIDS="$TG_PIDS $!"
	cg_run tg/l2/l3b run_as_user stress-ng --exec 2 -t "${_s}s" -q \
		>/dev/null 2>&1 &
	TG_PIDS="$TG_PIDS $!"
	cg_run tg/side sh /tmp/tg-loop.sh "$_s" /bin/true &
	TG_PIDS="$TG_PIDS $!"
	setsid sh /tmp/tg-loop.sh "$_s" /bin/true &
	TG_PIDS="$TG_PIDS $!"
	setsid sh /tmp/tg-loop.sh "$_s" setsid /bin/true &
	TG_PIDS="$TG_PIDS $!"
}

_tg_running() {
	for _p in $TG_PIDS; do
		kill -0 "$_p" 2>/dev/null && return 0
	done
	return 1
}

tg_wait() {
	if wait_for "${1:-60}" eval '! _tg_running'; then
		for _p in $TG_PIDS; do wait "$_p" 2>/dev/null; done
		TG_PIDS=
		return 0
	fi
	not_ok "workload ends" "still running after ${1:-60}s: $TG_PIDS"
	for _p in $TG_PIDS; do kill -KILL "$_p" 2>/dev/null; done
	return 1
}

# tg_load_until FILE [light]: like tg_load, until FILE exists (then
# tg_wait); "light" leaves out the stress-ng --exec part
tg_load_until() {
	_f=$1
	rm -f "$_f"
	cat >/tmp/tg-until.sh <<EOS
while [ ! -e $_f ]; do "\$@" >/dev/null 2>&1; done
EOS
	TG_PIDS=
	cg_run tg/l2/l3a sh /tmp/tg-until.sh hackbench -g 2 -f 4 -l 40 &
	TG_PIDS="$TG_PIDS $!"
	if [ "${2:-}" != light ]; then
		cg_run tg/l2/l3b sh /tmp/tg-until.sh \
			su -s /bin/sh fl -c 'cd /tmp && exec stress-ng --exec 2 -t 2s -q' &
		TG_PIDS="$TG_PIDS $!"
	fi
	cg_run tg/side sh /tmp/tg-until.sh /bin/true &
	TG_PIDS="$TG_PIDS $!"
	setsid sh /tmp/tg-until.sh /bin/true &
	TG_PIDS="$TG_PIDS $!"
	TG_ROOT_PIDS=$!
	setsid sh /tmp/tg-until.sh setsid /bin/true &
	TG_PIDS="$TG_PIDS $!"
	TG_ROOT_PIDS="$TG_ROOT_PIDS $!"
}

# tg_freeze 1|0: freeze or thaw the load around a klp transition, so that
# the load does not add to its time: its cgroups, and (SIGSTOP/SIGCONT to
# their process groups) its loops in the root cgroup, which cgroup.freeze
# cannot reach.  On 6.12 (PREEMPT_DYNAMIC) every transition rewrites the
# kernel's cond_resched() and preemption call sites, some 4,850
# text_poke_bp()s of three synchronous IPIs each; under single-threaded
# TCG an IPI to a busy vCPU waits for its time slice, milliseconds instead
# of microseconds: about 60 s per transition with klp-later's light
# load's root loops running, minutes under tg-stress's load, a few
# seconds with it all stopped (not fairlab's doing: the same without it).
tg_freeze() {
	echo "$1" >$CG/tg/cgroup.freeze || not_ok "cgroup.freeze $1"
	for _p in $TG_ROOT_PIDS; do
		kill -"$([ "$1" = 1 ] && echo STOP || echo CONT)" -"$_p" ||
			not_ok "kill process group $_p ($1)"
	done
}
