#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The audit on a machine with many possible CPUs: 255 of them, 4 online
# (QEMU's -smp 4,maxcpus=255 lists 251 hot-pluggable CPUs in the MADT as
# "not enabled").  6.1 counts those as possible.  6.12 counts a not-enabled
# entry only when a hypervisor is detected (acpi_is_processor_usable() in
# arch/x86/kernel/acpi/boot.c: on bare metal, with firmware older than
# ACPI 6.3, it cannot tell a hot-pluggable CPU from a broken one), and TCG
# announces none: so the VM presents the one 6.12 detects from firmware
# alone, VMware (vmware_platform(): no CPUID hypervisor bit, "VMware" in
# the DMI serial, and an answer on the VMware backdoor port, which QEMU's
# vmport device gives).  Both kernels then boot with 255 possible CPUs;
# no_timer_check: under a loaded TCG host 6.12 can fail the IO-APIC timer
# check at boot with this shape and panic), 1,000 cgroup v2 groups and the
# tg-* fork/exec load, under several policies:
#  - the audit file and audit_emit are exact: tg_load_avg == sum_contrib
#    in every row, every row checked (an exact cut: module/audit.c), at
#    least 1,000 groups; the tg_audit records say the same;
#  - every hold of the audit and of the resync took one rq lock and no
#    other (stats: lockhold_locks = 1), the audit's held at most 64
#    groups whatever the CPU count (lockhold_max), and the holds add up
#    to two passes over every possible CPU per batch of 64 groups per
#    audit (lockhold); the hold times (ns) are logged;
#  - no RCU stall, soft or hard lockup.
# fairlab-vm: --smp 4 --mem 2048 --timeout 1200 --qemu-arg=-smp --qemu-arg=4,maxcpus=255 --qemu-arg=-cpu --qemu-arg=max,hypervisor=off --qemu-arg=-smbios --qemu-arg=type=1,serial=VMware-fairlab --append=possible_cpus=255 --append=no_timer_check
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
: "${AB_GROUPS:=1000}"
: "${AB_LOADED:=40}"		# groups of the 1,000 that run a fork/exec loop
: "${AB_ONLINE:=4}"
# per possible CPU: 255 x 512 KB; one snapshot's records come from one CPU
FL_TRACE_BUF_KB=${AB_BUF_KB:-512}
PER_HOLD=64			# FL_AUDIT_GROUPS_PER_HOLD
hold() { awk -v k="$1" -v n="$2" -v c="$3" '$1 == k && $2 == n { print $c }' $FLK/stats; }
rows() { awk '!/^#/ { n++ } END { print n + 0 }' /tmp/fl-audit.txt; }

possible=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
online=$(grep -c ^processor /proc/cpuinfo)
log "CPUs: possible $(cat /sys/devices/system/cpu/possible) ($possible), online $(cat /sys/devices/system/cpu/online) ($online)"
# AB_ONLINE: the online CPUs the VM was given (a run by hand with more:
# --smp N --qemu-arg=-smp --qemu-arg=N,maxcpus=255 --append AB_ONLINE=N)
check "255 possible CPUs ($possible), $AB_ONLINE online ($online)" \
	test "$possible" -eq 255 -a "$online" -eq "$AB_ONLINE"

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree
mkdir -p $CG/ab && echo +cpu >$CG/ab/cgroup.subtree_control
i=1
while [ $i -le "$AB_GROUPS" ]; do
	mkdir $CG/ab/g$i || break
	i=$((i + 1))
done
check "$AB_GROUPS cgroups made" test -d $CG/ab/g$AB_GROUPS
log "$(grep -E 'MemFree|Slab' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"

tg_load 60
i=1
while [ $i -le "$AB_LOADED" ]; do
	cg_run ab/g$(( i * AB_GROUPS / AB_LOADED )) sh /tmp/tg-loop.sh 50 /bin/true &
	TG_PIDS="$TG_PIDS $!"
	i=$((i + 1))
done
sleep 2
audits=0
for p in force stock relative:8 ratelimit:1000 log2:2; do
	check "switch to $p under load" sh -c "echo $p > $TGP"
	sleep 1
	assert_audit_exact "audit exact under $p"
	n=$(rows)
	check "audit under $p: at least $AB_GROUPS groups ($n)" test "$n" -ge "$AB_GROUPS"
	audits=$((audits + 1))
	check "audit_emit under load" sh -c "echo 1 > $FLK/audit_emit"
	audits=$((audits + 1))
done
# the tg_audit records of one snapshot under load
record_start audit -e fairlab:tg_audit || exit 1
# trace-cmd starts one reader per possible CPU before it turns tracing on:
# with 255 possible CPUs under TCG that takes seconds after the first
# per-CPU file appears, and an emit before it would go unrecorded.
check "recording on every possible CPU, tracing on" wait_for 120 sh -c \
	"[ \$(ls $FL_OUT/audit.dat.cpu* 2>/dev/null | wc -l) -ge $possible ] &&
	 [ \$(cat $FL_TRACING/tracing_on) = 1 ] &&
	 [ \$(cat $FL_TRACING/events/fairlab/tg_audit/enable) = 1 ]"
sleep 1
check "audit_emit while recording" sh -c "echo 1 > $FLK/audit_emit"
audits=$((audits + 1))
sleep 1
record_stop audit
trace-cmd report -i "$FL_OUT/audit.dat" 2>/dev/null | grep ' tg_audit: ' >/tmp/rec.txt
# the first record unchecked or broken is named, so that a failure says
# which group (an autogroup's tg is 2^62 + its id: module/policy/fairlab_abi.h)
r=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	n++; bad = 0
	if (v["checked"] != "1") { u++; bad = 1 } else if (v["tg_load_avg"] != v["sum_contrib"]) { b++; bad = 1 }
	if (bad && !f) f = "tg=" v["tg"] " checked=" v["checked"] " tg_load_avg=" v["tg_load_avg"] " sum_contrib=" v["sum_contrib"] }
	END { printf "%d %d %d %s", n, u, b, f ? f : "none" }' /tmp/rec.txt)
set -- $r
n=$1 u=$2 b=$3
shift 3
check "tg_audit records: >= $AB_GROUPS ($n), all checked (unchecked $u), all exact (broken $b; first: $*)" \
	test "$n" -ge "$AB_GROUPS" -a "$u" -eq 0 -a "$b" -eq 0
tg_wait 120
groups=$(rows)
cp $FLK/stats "$FL_OUT/stats.txt"
grep -E '^lockhold|^audit_' $FLK/stats | while read -r l; do log "stats: $l"; done

check "audit: one rq lock held at a time (lockhold_locks $(hold lockhold_locks audit 3))" \
	test "$(hold lockhold_locks audit 3)" -eq 1
check "resync: one rq lock held at a time (lockhold_locks $(hold lockhold_locks resync 3))" \
	test "$(hold lockhold_locks resync 3)" -eq 1
check "audit: at most $PER_HOLD groups per hold on $possible CPUs ($(hold lockhold_max audit 3))" \
	test "$(hold lockhold_max audit 3)" -le $PER_HOLD
check "resync: at most 64 groups per hold ($(hold lockhold_max resync 3))" \
	test "$(hold lockhold_max resync 3)" -le 64
# each audit read at least $AB_GROUPS groups (checked above and below)
batches=$(( (AB_GROUPS + PER_HOLD - 1) / PER_HOLD ))
want=$(( audits * 2 * possible * batches ))
check "audit holds: >= $audits audits x 2 passes x $possible CPUs x $batches batches = $want ($(hold lockhold audit 3))" \
	test "$(hold lockhold audit 3)" -ge $want
# every read of a row is one cfs_rq in each of two holds per possible CPU:
# a row given, a re-read at once, or the first read in a later round of a
# row put off (the groups' count changes between audits, so the module's
# own count of the rows it gave, not the last audit's, is the bound)
arows=$(( $(hold audit_rows - 3) + $(hold audit_retries - 3) + $(hold audit_retries - 4) ))
check "audit rows read: >= ($(hold audit_rows - 3) rows + $(hold audit_retries - 3) re-reads + $(hold audit_retries - 4) put off) x 2 x $possible cfs_rqs ($(hold lockhold audit 4))" \
	test "$(hold audit_rows - 3)" -ge $(( audits * AB_GROUPS )) -a \
	     "$(hold lockhold audit 4)" -ge $(( arows * 2 * possible ))
check "audit rows: none unchecked ($(hold audit_rows - 4) of $(hold audit_rows - 3); $(hold audit_retries - 3) re-reads, $(hold audit_retries - 4) put off to a later round)" \
	test "$(hold audit_rows - 4)" -eq 0
log "hold times: audit $(hold lockhold audit 3) holds, $(hold lockhold_ns audit 3) ns in all, max $(hold lockhold_max audit 4) ns ($(hold lockhold_max audit 3) groups); resync $(hold lockhold resync 3) holds, max $(hold lockhold_max resync 4) ns; $groups groups, $possible possible CPUs, $online online"

assert_dmesg_lacks "rcu_sched self-detected stall|rcu: INFO|soft lockup|hard LOCKUP|hung_task|blocked for more than"
echo stock >$TGP
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
