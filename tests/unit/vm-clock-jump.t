#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/run-scenario.sh and a guest clock jump.  Under TCG the guest's
# clock is the host's raw TSC; when the host is paused and resumed it can
# leap days ahead, and the soft-lockup watchdog then reports a CPU "stuck"
# for longer than the VM has existed.  The harness reruns such a failed
# run once, keeps the first run's lines as comments and its console, and
# fails with the reason named when the second run jumps too.  A failure
# without a jump, and a run that passed across a jump, are never rerun.
#
# No VM: QEMU, busybox, trace-cmd, hackbench, stress-ng and file(1) are
# stand-ins on PATH (tests/unit/fake-vm.sh), QEMU's printing the console of
# each case; the kernel is an empty file under a scratch CACHE.  The
# harness's own logic is real.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
. "$top/tests/unit/fake-vm.sh"

# The stand-in QEMU: case $FAKE_CASE, run number n (counted in
# $FAKE_RUNS).  "jump" is a soft-lockup report 577595 s after boot, as
# a CI run printed it; "lockup" one at 9 s, which the 10 s of slack allow
# a stand-in that lives a fraction of a second: no jump.
cat >"$bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
echo x >>"$FAKE_RUNS"
n=$(wc -l <"$FAKE_RUNS")
clean() {
	echo '[    0.000000] Linux version 6.x (fake)'
	echo 'ok - load fairlab'
	echo '[    5.100000] fairlab-mark'
	echo 'FAIRLAB-TAINT: 12288 OEK'
	echo 'FAIRLAB-RESULT: PASS'
}
lockup() {
	echo '[    0.000000] Linux version 6.x (fake)'
	echo 'ok - load fairlab'
	echo "[$1] watchdog: BUG: soft lockup - CPU#3 stuck for ${2}s! [sh:667]"
	echo 'not ok - taint: kernel tainted OELK'
	echo 'FAIRLAB-TAINT: 28672 OELK'
	echo 'FAIRLAB-RESULT: FAIL 1 check(s) not ok'
}
case $FAKE_CASE:$n in
jump-once:1|jump-always:*) lockup 577595.884576 537901 ;;
jump-once:*) clean ;;
lockup:*) lockup '    9.000000' 22 ;;
jump-pass:*) clean; echo '[577600.000000] fairlab-mark' ;;
esac
exit 0
EOF
chmod +x "$bin"/*
scen=$tmp/x.guest.sh
echo 'echo unused' >"$scen"

# run CASE: the harness on the stand-ins; output in $tmp/CASE.out
run() {
	rm -f "$tmp/$1.runs"
	PATH=$bin:$PATH CACHE=$tmp/cache FAIRLAB_MODDIR=$tmp/mods \
		FAKE_CASE=$1 FAKE_RUNS=$tmp/$1.runs TMPDIR=$tmp \
		bash "$top/tests/vm/run-scenario.sh" --kernel "$KREL" \
		--timeout 60 --out "$tmp/$1" "$scen" >"$tmp/$1.out" 2>"$tmp/$1.err"
	rc=$?
	runs=$(wc -l <"$tmp/$1.runs" 2>/dev/null || echo 0)
}

run jump-once
check "a failure across a clock jump: rerun once (2 QEMU runs), exit 0 (rc $rc)" \
	eval '[ "$rc" = 0 ] && [ "$runs" = 2 ]'
check "the jump is named, with the guest and host times" \
	grep -q '^# x: the guest clock jumped (printk time 577595.884576s after [0-9.]*s on the host' "$tmp/jump-once.out"
check "the first run's check lines are kept as comments, not counted" \
	eval 'grep -q "^# first run: not ok - taint: kernel tainted OELK" "$tmp/jump-once.out" &&
		! grep -q "^not ok" "$tmp/jump-once.out"'
check "the rerun's verdict is the one printed" \
	grep -q '^ok - x: clean VM run' "$tmp/jump-once.out"
check "the first run's console is kept in the artifacts" \
	grep -q 'stuck for 537901s' "$tmp/jump-once/console-before-clock-jump.log"
check "no scratch file left behind" \
	eval '[ -z "$(find "$tmp" -maxdepth 1 -name "fairlab-vm*")" ]'

run jump-always
check "a second jump: exit 1 after 2 QEMU runs (rc $rc, $runs runs)" \
	eval '[ "$rc" = 1 ] && [ "$runs" = 2 ]'
check "a second jump: the reason says the clock jumped again" \
	grep -q '^not ok - x: .*the guest clock jumped again (printk time 577595.884576s' "$tmp/jump-always.out"

run lockup
check "a soft lockup with no clock jump: exit 1, not rerun (rc $rc, $runs runs)" \
	eval '[ "$rc" = 1 ] && [ "$runs" = 1 ]'
check "a soft lockup with no clock jump: the lockup is the reason" \
	eval 'grep -q "^not ok - x: kernel: .*soft lockup" "$tmp/lockup.out" &&
		! grep -q "clock jumped" "$tmp/lockup.out"'

run jump-pass
check "a run that passed across a jump: exit 0, not rerun (rc $rc, $runs runs)" \
	eval '[ "$rc" = 0 ] && [ "$runs" = 1 ] && grep -q "^ok - x: clean VM run" "$tmp/jump-pass.out"'
tap_end
