#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress, all under a fork/exec-heavy load (hackbench,
# stress-ng --exec, fork loops, autogroups) in a 3-level cgroup tree:
#  1. 500 tg policy switches (each resyncs every cfs_rq), audit exact;
#  2. TG_CYCLES cycles of load (each with another policy) / switch /
#     unpatch / unload: the audit (tg->load_avg == sum of contribs, every group,
#     read with every rq lock held) must be exact after each load (the state
#     the previous unload and the stock kernel left), while patched, and
#     after each unpatch (module still loaded);
#  3. while patched: CPUs 1-3 offline and online again, with policy
#     switches (resync over an offline CPU) in between, audit exact after
#     each step; finally unpatch, unload, reload and audit once more.
# No WARN/BUG/lockup/panic: run-scenario.sh checks console and taint.
#
# A cycle costs 15-30 s of host time under this load on TCG (insmod of
# fairlab.ko ~5 s, mostly symbol resolution; 13 ftrace ops torn down with
# RCU-tasks grace periods at unpatch ~5 s; two transitions), so the 20
# cycles take 7-12 minutes; run-scenario.sh's default single-threaded TCG
# is what makes 20 text-patching cycles safe (see --tcg there).  make check
# runs 5 of them (its 45-minute budget); `make check-stress` runs the 20
# (TG_CYCLES=20 through FAIRLAB_TEST_APPEND).  A shorter run: --append
# TG_CYCLES=3.  Now and then the kernel's
# livepatch core warns at kernel/livepatch/patch.c:98 during a transition
# (a task it missed, exiting or just forked): a known kernel bug, left out
# of the verdict by tests/vm/guest/strip-known-warnings, which names it.
# On 6.12 step 2 is left out (TG_CYCLES=0 there): every klp transition
# under this load costs minutes on 6.12.  Since 6.4 a transition switches
# cond_resched() to klp_cond_resched() at its start and, at its end,
# sched_dynamic_klp_disable() re-applies the PREEMPT_DYNAMIC mode, which
# re-patches every call site of the preemption static calls (6.12.117's
# vmlinux: 477 cond_resched, 742 preempt_schedule, 1177
# preempt_schedule_notrace sites, the last two enabled then disabled
# again in voluntary mode): thousands of text_poke_bp(), each waiting
# three times for every CPU to answer an IPI, which busy vCPUs of
# single-threaded TCG answer slowly.  Measured 2026-12-01 (4 vCPUs, host
# shared with three other VMs): insmod of fairlab.ko 0.6 s idle, 251.8 s
# under this load (the task switching itself done 0.1 s after); an
# unpatch under load still in sched_dynamic_klp_disable() after 225 s;
# 20 policy switches 1.2 s, 100 in 9.5 s.  6.1 has no such patching
# (under this load, 2026-12-06: a patch 0.9-1.6 s, an unpatch
# 7.5-13.3 s).  Step 2 on 6.12 would cost two such transitions
# per cycle.  Steps 1 and 3 keep two (step 2's first unpatch and unload,
# step 3's load for the hotplug): on 6.12 they run with the load stopped
# (klp_quiet: tg_freeze of tests/vm/tg-check/workload.sh, as in
# klp-later), the hotplug after them under the load again; on 6.1 they
# stay under the load, part of the stress.  Runs of 2026-12-06 (2-core
# host, one VM at a time; transitions from klp's dmesg lines): on 6.12
# with both under the load, 48 ok, 0 not ok, 459 s host, the first
# unpatch 194.6 s and the hotplug step's patch 181.2 s (2026-12-01:
# 221.0 s and 181.6 s, 506 s host); with the load stopped for them, two
# runs of 48 ok, 0 not ok, 68 and 70 s host, the unpatch 3.5 and 3.6 s,
# the patch 2.1 and 1.9 s.  6.1 (5 cycles): 83 ok, 0 not ok, 232 s host
# before, 228 s after.
# fairlab-vm: --smp 4 --mem 1024 --timeout 1200
# fairlab-files: tests/vm/tg-check/workload.sh
# The library waits 15 s for a transition; transitions under this load
# take up to 13.3 s on 6.1 (45 s allowed), minutes on 6.12 (above; insmod and the
# write to enabled return only after re-patching when the transition
# completes at once, a kworker does it when it completes later).  On 6.12
# the default run has none under the load (at most 3.6 s measured, 60 s
# allowed); cycles asked for there (TG_CYCLES) run theirs under it (400 s).
case $(uname -r) in
6.1.*)	: "${FL_LP_TIMEOUT:=45}" ;;
*)	if [ "${TG_CYCLES:-0}" -gt 0 ] 2>/dev/null; then
		: "${FL_LP_TIMEOUT:=400}"
	else
		: "${FL_LP_TIMEOUT:=60}"
	fi ;;
esac
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
case $(uname -r) in
6.1.*)	: "${TG_SWITCHES:=500}" "${TG_CYCLES:=5}" ;;
*)	: "${TG_SWITCHES:=500}" "${TG_CYCLES:=0}" ;;	# see the head comment
esac
# klp_quiet 1|0: on 6.12 freeze (thaw) the load around the transitions
# of steps 2 and 3 (tg_freeze; see the head comment); on 6.1 nothing: its
# transitions take seconds, and running them under the load is the stress.
klp_quiet() {
	case $(uname -r) in
	6.1.*)	;;
	*)	tg_freeze "$1" ;;
	esac
}
POLICIES="stock force nonzero relative:8 turner1 turner2 fixed:64 log2:8
ratelimit:1000 budget:5 relative:4096 fixed:1048576 ratelimit:1000000 budget:100"
STOP=/tmp/tg-stop
up() { cut -d' ' -f1 /proc/uptime; }
# nth N: the Nth (0-based, modulo) policy of $POLICIES
nth() {
	set -- "$1" $POLICIES
	_i=$(( $1 % ($# - 1) + 2 ))
	eval "echo \${$_i}"
}

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree
tg_load_until $STOP
sleep 1

# 1. policy switches under load
t0=$(up); bad=0; i=0
while [ $i -lt "$TG_SWITCHES" ]; do
	echo "$(nth $i)" >$TGP 2>/dev/null || bad=$((bad + 1))
	i=$((i + 1))
done
log "$TG_SWITCHES switches in $(awk -v a="$t0" -v b="$(up)" 'BEGIN { print b - a }') s"
assert_eq "$TG_SWITCHES policy switches under load accepted" 0 "$bad"
assert_sysfs $TGP "$(nth $((TG_SWITCHES - 1)))" "policy after the switches"
assert_audit_exact "audit exact after $TG_SWITCHES switches"
assert_audit_exact "audit exact after $TG_SWITCHES switches, again"

# 2. load / switch / unpatch / unload cycles
klp_quiet 1
disable_lp fairlab && unload_mod fairlab; r=$?
klp_quiet 0
[ $r = 0 ] || die "first unload"
c=1
while [ $c -le "$TG_CYCLES" ]; do
	p=$(nth $((c * 3))); q=$(nth $((c * 3 + 1)))
	t0=$(up)
	load_lp fairlab "tg_policy=$p" || die "cycle $c: load"
	t1=$(up)
	assert_audit_exact "cycle $c: audit exact after load ($p)"
	echo "$q" >$TGP || not_ok "cycle $c: switch to $q"
	sleep 0.3
	assert_audit_exact "cycle $c: audit exact patched ($q)"
	t2=$(up)
	disable_lp fairlab || die "cycle $c: unpatch"
	t3=$(up)
	assert_audit_exact "cycle $c: audit exact unpatched, still loaded"
	unload_mod fairlab || die "cycle $c: unload"
	log "cycle $c: $(awk -v a="$t0" -v b="$(up)" -v l="$t1" -v d="$t2" -v u="$t3" \
		'BEGIN { printf "%.1f s (insmod and patch %.1f s, unpatch %.1f s)", b - a, l - a, u - d }')"
	c=$((c + 1))
done

# 3. CPU hotplug while patched
klp_quiet 1
load_lp fairlab tg_policy=relative:8; r=$?
klp_quiet 0	# the hotplug below runs under the load
[ $r = 0 ] || die "load for hotplug"
assert_audit_exact "audit exact after reload"
for cpu in 1 2 3 1; do
	f=/sys/devices/system/cpu/cpu$cpu/online
	check "cpu$cpu offline" sh -c "echo 0 > $f"
	assert_audit_exact "cpu$cpu offline: audit exact"
	echo fixed:64 >$TGP || not_ok "switch with cpu$cpu offline"
	sleep 0.5
	assert_audit_exact "cpu$cpu offline, switched to fixed:64: audit exact"
	echo relative:8 >$TGP
	check "cpu$cpu online" sh -c "echo 1 > $f"
	sleep 0.5
	assert_audit_exact "cpu$cpu online again: audit exact"
done
check "cpus 1-3 offline together" sh -c \
	'for c in 1 2 3; do echo 0 > /sys/devices/system/cpu/cpu$c/online || exit 1; done'
assert_audit_exact "only cpu0 online: audit exact"
check "cpus 1-3 online again" sh -c \
	'for c in 1 2 3; do echo 1 > /sys/devices/system/cpu/cpu$c/online || exit 1; done'
touch $STOP
tg_wait 60
disable_lp fairlab
unload_mod fairlab
load_lp fairlab tg_policy=stock || die "final reload"
assert_audit_exact "audit exact after the final unpatch, unload and reload"
unload_lp fairlab
unload_mod fairlab_trace
assert_dmesg_lacks "WARNING|BUG|Oops|Call Trace"
assert_taint_ok
