#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of tests/bench/bench-profile.sh (not a test): one ping-pong
# run between the tb-insns plugin's markers, in a 2-level cgroup, with
# fairlab.ko loaded (PROFILE_POLICY=stock, or any tg policy) or not
# (PROFILE_POLICY=none).  Writes /out/profile.txt ("roundtrips ns-per-
# roundtrip context-switches") and /out/kallsyms (for the host to
# symbolize the plugin's addresses).
# fairlab-files: build/bench/profile/pingpong
. "$FL_LIB"
: "${PROFILE_POLICY:=stock}"
: "${PROFILE_ROUNDTRIPS:=100000}"
PP=/fairlab/build/bench/profile/pingpong
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }
# "<busy> <idle>" CPU time in USER_HZ ticks
cpu_times() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }
# Wait (at most 60 s of guest time) for a second in which the CPU is
# busy under 1%: work the boot left running (6.12's first profile
# counted ~740 instructions per switch of mpihelp_*, RSA arithmetic of a
# kernel thread, inside the unpatched boot's window, ~14 in the patched
# one) must not land in the measured window.  Idle time costs the host
# next to nothing under -icount sleep=off.
settle() {
	_i=0
	while [ $_i -lt 60 ]; do
		_a=$(cpu_times)
		sleep 1
		_b=$(cpu_times)
		if echo "$_a $_b" | awk '{ b = $3 - $1; i = $4 - $2; exit !(b + i > 0 && b < (b + i) / 100) }'; then
			log "settled: a quiet second after $_i s"
			return 0
		fi
		_i=$((_i + 1))
	done
	log "not settled after 60 s: background work may be counted"
}

load_mod fairlab_trace || exit 1
cg_create pp || exit 1
echo +cpu >/sys/fs/cgroup/pp/cgroup.subtree_control
cg_create pp/a || exit 1
if [ "$PROFILE_POLICY" != none ]; then
	load_lp fairlab "tg_policy=$PROFILE_POLICY" || exit 1
fi
settle
cg_run pp/a "$PP" 20000 >/dev/null || { not_ok "warm-up run"; exit 1; }
c0=$(ctxt)
r=$(cg_run pp/a "$PP" "$PROFILE_ROUNDTRIPS" --mark) || { not_ok "measured run"; exit 1; }
echo "$r $(( $(ctxt) - c0 ))" >"$FL_OUT/profile.txt"
ok "ping-pong, tg_policy=$PROFILE_POLICY: $(cat "$FL_OUT/profile.txt")"
echo 0 >/proc/sys/kernel/kptr_restrict
cat /proc/kallsyms >"$FL_OUT/kallsyms"
