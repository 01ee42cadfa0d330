#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/run-scenario.sh and a scenario's "# fairlab-vm: OPTIONS" line:
# the VM a scenario names there is the one it boots, whoever runs it; an
# option on the command line wins over the line's (--append adds to it);
# --no-vm-line leaves the line out; a bad option in the line is an error
# that names the line.
#
# No VM: QEMU is a stand-in on PATH that writes its arguments to a file and
# prints a clean console (tests/unit/fake-vm.sh has the other stand-ins).
# The harness's own parsing and QEMU command line are real.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
. "$top/tests/unit/fake-vm.sh"
cat >"$bin/qemu-system-x86_64" <<'EOF2'
#!/bin/bash
printf '%s\n' "$@" >"$FAKE_ARGS"
echo '[    0.000000] Linux version 6.x (fake)'
echo 'FAIRLAB-TAINT: 12288 OEK'
echo 'FAIRLAB-RESULT: PASS'
exit 0
EOF2
chmod +x "$bin/qemu-system-x86_64"

shaped=$tmp/shaped.guest.sh
printf '# fairlab-vm: --smp 4 --numa --mem 768 --timeout 120 --append FROM_LINE=1\necho unused\n' >"$shaped"
plain=$tmp/plain.guest.sh
echo 'echo unused' >"$plain"
bad=$tmp/bad.guest.sh
printf '# fairlab-vm: --smp 4 --bogus\necho unused\n' >"$bad"

# run NAME SCENARIO [OPTION...]: the harness on the stand-ins; QEMU's
# arguments in $tmp/NAME.args, its output in $tmp/NAME.out and .err
run() {
	local name=$1 scen=$2
	shift 2
	rm -f "$tmp/$name.args"
	PATH=$bin:$PATH CACHE=$tmp/cache FAIRLAB_MODDIR=$tmp/mods \
		FAKE_ARGS=$tmp/$name.args TMPDIR=$tmp \
		bash "$top/tests/vm/run-scenario.sh" --kernel "$KREL" \
		--out "$tmp/$name" "$@" "$scen" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}
# arg NAME OPT: the QEMU argument after OPT in run NAME (the first)
arg() { awk -v o="$2" 'p { print; exit } $0 == o { p = 1 }' "$tmp/$1.args"; }

run line "$shaped"
check "the line's shape: exit 0 (rc $rc)" eval '[ "$rc" = 0 ]'
check "the line's --smp 4 --numa: two sockets of 2 CPUs ($(arg line -smp))" \
	eval '[ "$(arg line -smp)" = "4,sockets=2,cores=2,threads=1" ]'
check "the line's --mem 768 ($(arg line -m))" eval '[ "$(arg line -m)" = 768M ]'
check "the line's --append reaches the kernel command line" \
	eval 'arg line -append | grep -q " FROM_LINE=1"'
check "the line's --timeout 120: the guest's limit is 120 - 10 - 12 s" \
	eval 'arg line -append | grep -q "FL_GUEST_TIMEOUT=98 "'
check "the shape used is printed with the line" \
	grep -q "^# shaped: kernel=$KREL smp=4 numa=2 .* (fairlab-vm line: --smp 4 --numa" "$tmp/line.err"

run override "$shaped" --smp 2 --mem 1536 --append FROM_ARGS=1
check "the command line wins: --smp 2 ($(arg override -smp))" \
	eval '[ "$(arg override -smp)" = "2,sockets=2,cores=1,threads=1" ]'
check "the command line wins: --mem 1536 ($(arg override -m))" \
	eval '[ "$(arg override -m)" = 1536M ]'
check "--append adds to the line's: both on the kernel command line" \
	eval 'arg override -append | grep -q " FROM_LINE=1 FROM_ARGS=1"'

run noline "$shaped" --no-vm-line
check "--no-vm-line: the defaults, --smp 2 ($(arg noline -smp)) and 1024 MB" \
	eval '[ "$(arg noline -smp)" = 2 ] && [ "$(arg noline -m)" = 1024M ]'
check "--no-vm-line: the line's --append is left out" \
	eval '! arg noline -append | grep -q FROM_LINE'

run plain "$plain"
check "a scenario without a line: the defaults ($(arg plain -smp), $(arg plain -m))" \
	eval '[ "$rc" = 0 ] && [ "$(arg plain -smp)" = 2 ] && [ "$(arg plain -m)" = 1024M ]'

run bad "$bad"
check "a bad option in the line: exit 2, QEMU not started (rc $rc)" \
	eval '[ "$rc" = 2 ] && [ ! -e "$tmp/bad.args" ]'
check "a bad option in the line: the error names the line" \
	grep -q "^run-scenario: error: unknown option --bogus in $bad's fairlab-vm line" "$tmp/bad.err"
tap_end
