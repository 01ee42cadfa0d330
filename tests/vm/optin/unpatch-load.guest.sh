#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unpatches under load, one after another, fairlab.ko against a control
# livepatch, counting user-space processes that die of a trap (opt-in:
# tests/run.sh --vm-only unpatch-load).  A smoke run on 6.12 once saw
# hackbench die of a general protection fault, its ip and sp the same
# non-canonical value, while fairlab was being unpatched under a hackbench
# loop.  On 6.12 such an unpatch takes about 50 s under TCG: the end of a
# transition re-applies the PREEMPT_DYNAMIC mode, re-patching every
# cond_resched/preempt_schedule call site (module/port/6.12/README).
# fl_test_other.ko, the control, replaces only __sched_group_set_shares(),
# on no hot path, so its transitions do the same text patching without
# fairlab's scheduler code: traps with both say the kernel's transition
# (or the emulator), traps with fairlab only say fairlab.
#  - ul_cycles=N on the kernel command line (--append): N cycles of each
#    module, alternating (default 6);
#  - a cycle: patch (idle), a hackbench loop in a cgroup, 3 s, unpatch
#    under the loop, kill the loop, rmmod;
#  - each cycle is "ok" when dmesg gained no "traps:" or "segfault" line
#    and no hackbench exited non-zero; the last lines count both modules.
# fairlab-vm: --smp 2 --timeout 1500
# fairlab-files: build/refusal/@KREL@/fl_test_other.ko
: "${FL_LP_TIMEOUT:=120}"
. "$FL_LIB"
R=/fairlab/build/refusal/$(uname -r)
N=${ul_cycles:-6}

cat >/tmp/hb-loop.sh <<'EOS'
while :; do
	hackbench -g 2 -f 5 -l 50 >/dev/null 2>&1 || echo "hackbench rc=$?" >>/tmp/hb-fail
done
EOS

load_mod fairlab_trace || exit 1
cg_create ul || die "cannot create cgroup"
tf=0 tc=0 sf=0 sc=0 nf=0 nc=0
i=0
while [ $i -lt $((2 * N)) ]; do
	if [ $((i % 2)) = 0 ]; then m=fairlab; ko=fairlab; else m=control; ko=$R/fl_test_other.ko; fi
	i=$((i + 1))
	load_lp $ko || { not_ok "cycle $i ($m): patch"; continue; }
	dmesg_mark
	rm -f /tmp/hb-fail
	cg_run ul sh /tmp/hb-loop.sh &
	sleep 3
	s0=$(cut -d" " -f1 /proc/uptime)
	disable_lp $ko
	s1=$(cut -d" " -f1 /proc/uptime)
	cg_kill ul || not_ok "cycle $i ($m): load not stopped"
	wait 2>/dev/null
	unload_mod $ko
	dmesg_since | grep -E 'traps:|segfault at' >/tmp/traps || true
	t=$(grep -c . /tmp/traps || true)
	f=$(grep -c . /tmp/hb-fail 2>/dev/null || true)
	secs=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", b - a }')
	if [ $m = fairlab ]; then tf=$((tf + t)); sf=$((sf + ${f:-0})); nf=$((nf + 1))
	else tc=$((tc + t)); sc=$((sc + ${f:-0})); nc=$((nc + 1)); fi
	if [ "$t" = 0 ] && [ "${f:-0}" = 0 ]; then
		ok "cycle $i ($m): unpatch under load in ${secs}s, no trap"
	else
		not_ok "cycle $i ($m)" "unpatch under load in ${secs}s: $t trap lines, ${f:-0} hackbench failures"
		sed 's/^/# /' /tmp/traps
	fi
done
log "fairlab: $tf trap lines, $sf hackbench failures in $nf unpatches under load"
log "control: $tc trap lines, $sc hackbench failures in $nc unpatches under load"
unload_mod fairlab_trace
assert_taint_ok
