#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A livepatch loaded after fairlab over one of its functions.
#  1. fairlab runs tg_policy=relative:8 idlest_policy=idle_cpus under load
#     and a recording; fl_test_other (no atomic replace; it replaces
#     __sched_group_set_shares, one of fairlab's functions) is loaded on
#     top.  fairlab falls back to the kernel's rule: one dmesg line names
#     the patch and the function (once, however often fairlab looks again),
#     /sys/kernel/fairlab/fallback names them and the user's policies, both
#     parameters read stock and refuse writes (EBUSY, one line each), the
#     relative:8 counters stop while stock's grow, and fl_test_other is in
#     force (a cpu.weight write fails, as it makes it).
#  2. Disabling fl_test_other (no module event: fairlab's once-a-second
#     look) restores relative:8 and idle_cpus, said in one dmesg line.
#  3. The recording: a policy_switch of kind fallback (3) at each end and
#     one more at the describe written during it; the tg_update records
#     within were decided by stock (policy 0), the ones before and after
#     by relative (3).
#  4. A cumulative livepatch that does not declare fairlab's klp state
#     (fl_test_replace) is refused by klp; fairlab stays enabled.
# The test livepatches: tests/vm/klp-others/ (make refusal-modules).
# fl_test_other's transitions run with the whole load stopped (tg_freeze
# of tests/vm/tg-check/workload.sh): on 6.12 each took about 60 s while
# the load's root-cgroup loops ran.
# fairlab-vm: --smp 2 --timeout 300
# fairlab-files: build/refusal/@KREL@/fl_test_other.ko build/refusal/@KREL@/fl_test_replace.ko
# fairlab-files: tests/vm/tg-check/workload.sh
# A transition under load can take 20 s on 6.12 (see klp-others).
: "${FL_LP_TIMEOUT:=45}"
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
R=/fairlab/build/refusal/$(uname -r)
IDP=/sys/module/fairlab/parameters/idlest_policy
FB=$FLK/fallback
# policy_attempts NAME: update attempts decided by tg policy NAME (stats)
policy_attempts() {
	awk -v p="$1" '$1 == "tg_policy" && $2 == p { print $3 }' $FLK/stats
}

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=relative:8 idlest_policy=idle_cpus || exit 1
assert_sysfs $FB none "no fallback before any other livepatch"
tg_autogroup_on
tg_tree
tg_load_until /tmp/later-stop light
FL_ALLOW_LOST=1
record_start later -e fairlab:policy_switch -e fairlab:tg_update
sleep 2

# 1. a later livepatch over one of fairlab's functions
dmesg_mark
tg_freeze 1
load_lp $R/fl_test_other.ko || exit 1
tg_freeze 0
check "fallback file names the patch" \
	wait_for 10 eval "grep -q '^fl_test_other ' $FB"
assert_sysfs $FB "fl_test_other __sched_group_set_shares tg_policy=relative:8 idlest_policy=idle_cpus" \
	"fallback: the patch, the function and the user's policies"
assert_dmesg_has '^.*fairlab: livepatch fl_test_other replaces __sched_group_set_shares after fairlab, .*the kernel.s rule is in force .* until fl_test_other is disabled; fairlab must be the topmost livepatch' \
	"dmesg names the later patch and the function"
assert_sysfs $TGP stock "tg_policy reads stock in the fallback"
assert_sysfs $IDP stock "idlest_policy reads stock in the fallback"
expect_fail "tg_policy write refused in the fallback" 'Device or resource busy' \
	sh -c "echo fixed:10 > $TGP"
expect_fail "idlest_policy write refused in the fallback" 'Device or resource busy' \
	sh -c "echo nr_running > $IDP"
assert_eq "one dmesg line per refused write" 2 \
	"$(dmesg_since | grep -c 'fairlab: [a-z_]*policy not changed: livepatch fl_test_other replaces')"
expect_fail "fl_test_other in force: cpu.weight write refused" \
	'Invalid argument' sh -c "echo 300 > $CG/tg/side/cpu.weight"
r0=$(policy_attempts relative); s0=$(policy_attempts stock)
sleep 2
echo 1 >$FLK/describe	# what a recording's start writes
echo 1 >$FLK/audit_emit
cat $FLK/audit >/dev/null
r1=$(policy_attempts relative); s1=$(policy_attempts stock)
assert_eq "no decision by relative:8 in the fallback ($r0 -> $r1)" "$r0" "$r1"
check "decisions by stock in the fallback ($s0 -> $s1)" test "$s1" -gt "$s0"
assert_eq "the later patch is named once in dmesg" 1 \
	"$(dmesg_since | grep -c 'fairlab: livepatch fl_test_other replaces')"

# 2. the later patch disabled (not unloaded): the user's policies return
dmesg_mark
tg_freeze 1
disable_lp fl_test_other
tg_freeze 0
check "fallback ends within 5 s of the disable" wait_for 5 file_is $FB none
assert_sysfs $TGP relative:8 "tg_policy relative:8 restored"
assert_sysfs $IDP idle_cpus "idlest_policy idle_cpus restored"
assert_dmesg_has 'fairlab: livepatch fl_test_other is gone: tg_policy relative:8 and idlest_policy idle_cpus are in force again' \
	"dmesg says the policies are back"
check "cpu.weight writable again" sh -c "echo 300 > $CG/tg/side/cpu.weight"
r2=$(policy_attempts relative)
sleep 2
record_stop later
check "decisions by relative:8 again ($r2 -> $(policy_attempts relative))" \
	test "$(policy_attempts relative)" -gt "$r2"
unload_mod fl_test_other
assert_sysfs $FB none "no fallback once fl_test_other is unloaded"

# 3. the recording: who decided what, between the fallback records
trace-cmd report -i "$FL_OUT/later.dat" >/tmp/later.txt 2>/dev/null
cp /tmp/later.txt "$FL_OUT/later.txt"
# A switch puts the new policy in force, waits for a grace period, then
# records it: records decided by the new policy may come just before the
# switch record, never one by the old policy after it.  So: between the
# fallback record and the one the describe repeats (nothing switches
# then) only stock decides, after the record back to relative:8 only
# relative, and on each CPU the decisions run relative, stock, relative.
awk '/ policy_switch: / && / kind=3 / { seg++; if (/ new=0:/) start++; else end++; next }
	/ tg_update: / { p = $0; sub(/.* policy=/, "", p); sub(/ .*/, "", p)
		c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c)
		if (seg == 1) { if (p == 0) n1++; else bad1++ }
		if (seg == 3) { if (p == 3) n3++; else bad3++ }
		if (!(c in last)) { last[c] = p; if (p != 3) runs++ }
		else if (p != last[c]) { last[c] = p; if (++sw[c] > 2) runs++ } }
	END { printf "%d %d %d %d %d %d %d\n", start, end, n1, bad1, n3, bad3, runs }' \
	/tmp/later.txt >/tmp/later.cnt
read -r start end n1 bad1 n3 bad3 runs </tmp/later.cnt
log "recording: fallback records $start (new stock), $end (new relative:8); in the fallback $n1 by stock, $bad1 other; after it $n3 by relative, $bad3 other"
assert_eq "fallback records to stock: at its start and at the describe" 2 "$start"
assert_eq "one fallback record back to relative:8" 1 "$end"
check "tg_update records decided by stock in the fallback ($n1)" test "${n1:-0}" -gt 0
assert_eq "none decided by another policy in the fallback" 0 "${bad1:-0}"
check "tg_update records decided by relative after it ($n3)" test "${n3:-0}" -gt 0
assert_eq "none decided by another policy after it" 0 "${bad3:-0}"
assert_eq "on each CPU: relative, stock, relative, in that order" 0 "${runs:-0}"
check "fallback record: relative:8 -> stock" \
	grep -q -E ' policy_switch: +kind=3 old=3:8 new=0:' /tmp/later.txt
check "restore record: relative:8 back" \
	grep -q -E ' policy_switch: +kind=3 old=3:8 new=3:8' /tmp/later.txt

# 4. a cumulative livepatch that does not know fairlab's state
assert_replace_refused $R/fl_test_replace.ko

touch /tmp/later-stop
tg_wait 60
assert_audit_exact "audit exact after the fallback"
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
