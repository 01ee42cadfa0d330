#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Completeness: with tracing on after the patch transition,
# between two audits the change of every group's tg->load_avg equals the
# sum of the written deltas traced for it, exactly.  A fork/exec-heavy
# load (hackbench, stress-ng --exec as a user, fork loops, setsid'd
# sessions = autogroups) runs ~9 s in a 3-level cgroup tree; five audits
# (audit_emit, recorded as tg_audit) cut it into windows under stock,
# across a switch to fixed:64 (resync records), under fixed:64 and across
# a switch to relative:8.  Each group's row of an audit is placed in the
# recording by its snap_ns (the mono-clock time its batch was read with
# every rq lock held; record_start records with -C mono).  The host
# half (tg-complete.host.sh, tests/vm/tg-check) does the check; a lost
# event fails the run (record_stop and the checker).
# fairlab-vm: --smp 4 --mem 2048 --timeout 240
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
FL_TRACE_BUF_KB=${TG_BUF_KB:-65536}
: "${TG_SECS:=9}"

t() { log "t=$(cut -d' ' -f1 /proc/uptime) $*"; }
emit() {
	t "audit $1"
	echo 1 >$FLK/audit_emit || not_ok "audit_emit $1" "write failed"
}

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree

# A plain "trace-cmd record -e fairlab" names every task group
# and CPU by itself (tg_info, cpu_topology when their tracing starts), no
# describe request needed.  Before the load, so that the groups are those
# the audit lists.
record_start named -e fairlab || exit 1
sleep 3
record_stop named
trace-cmd report -i "$FL_OUT/named.dat" >/tmp/named.txt 2>&1
possible=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
assert_eq "trace start: cpu_topology for each of the $possible possible CPUs" \
	"$possible" "$(grep -c 'cpu_topology:' /tmp/named.txt)"
# task group ids are decimal everywhere (trace formats, audit file, fairlab)
sed -n 's/.*tg_info:.* tg=\([0-9]*\) .*/\1/p' /tmp/named.txt >/tmp/named.ids
awk '!/^#/ { print $1 }' /sys/kernel/fairlab/audit >/tmp/audit.ids
missing=$(awk 'FILENAME == ARGV[1] { a[$1]; next } !($1 in a) { m++ }
	END { print m + 0 }' /tmp/named.ids /tmp/audit.ids)
check "trace start: tg_info names the $(wc -l </tmp/audit.ids) audited groups ($missing missing)" \
	test "$missing" = 0 -a -s /tmp/audit.ids -a -s /tmp/named.ids
record_start complete -e fairlab:tg_update -e fairlab:tg_audit \
	-e fairlab:policy_switch -e fairlab:tg_info || exit 1
tg_load $((TG_SECS + 1))
sleep 0.7
echo 1 >$FLK/describe
emit 1				# stock
sleep 1.8
echo 1 >$FLK/describe		# names autogroups born since
emit 2
sleep 0.5
t "switch to fixed:64"
echo fixed:64 >$TGP		# resync inside window 2-3
assert_sysfs $TGP fixed:64
sleep 1.5
emit 3
sleep 2
echo 1 >$FLK/describe
emit 4				# fixed:64 only
sleep 0.5
t "switch to relative:8"
echo relative:8 >$TGP
sleep 1.5
echo 1 >$FLK/describe
emit 5
tg_wait 60
record_stop complete
cp $FLK/stats "$FL_OUT/stats.txt"
assert_audit_exact "audit exact after the recording"
echo stock >$TGP
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
