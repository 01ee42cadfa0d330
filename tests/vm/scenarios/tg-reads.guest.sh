#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Reads recorded: every read of tg->load_avg by
# calc_group_shares() (fairlab's update_cfs_group(), port reads.c) is
# counted on the reading CPU in /sys/kernel/fairlab/stats (tg_read rows)
# and, while fairlab:tg_read is enabled, recorded.  Under the tg-*
# fork/exec load in a 3-level cgroup tree on 4 vCPUs:
#  - update_cfs_group is patched; untraced, every CPU's count grows, and
#    the per-CPU rows, read after the total in the same file read, add up
#    to at least the total; unpatched (vmlinux's own reader back), the
#    count stands still under the same load;
#  - traced: two stats snapshots inside the recording bracket a loaded
#    window; the host half (tg-reads.host.sh) checks that for each CPU the
#    records whose nr (the CPU's count, this read included) lies between
#    the snapshots are exactly as many as the count grew by, that each
#    CPU's nr run has no gap, and that every record's shares equals
#    calc_group_shares() recomputed from its fields; and that the analyzer
#    (fairlab report) finds the same reads, no gap, no dispute, and a
#    shares error (every fairlab event is recorded, tg_update included);
#  - the patch disabled while recording under load: the recording holds
#    one policy_switch of kind unpatch, and the analyzer counts no record
#    missed and no audit window short of writes, those after the unpatch
#    began (the kernel's own, untraced publishes) apart.
# fairlab-vm: --smp 4 --mem 2048 --timeout 240
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
FL_TRACE_BUF_KB=${TG_BUF_KB:-65536}

# reads CPU: the tg_read row of CPU ("all" for the total) in stats file $2
reads() { awk -v c="$1" '$1 == "tg_read" && $2 == c { print $3 }' "$2"; }

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree
ncpu=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)

check "update_cfs_group patched (the reader)" \
	test -d "$FL_LIVEPATCH/fairlab/vmlinux/update_cfs_group,1"
cat $FLK/stats >/tmp/u0.txt
tg_load 3
tg_wait 60
cat $FLK/stats >/tmp/u1.txt
assert_eq "stats: one tg_read row per possible CPU" "$ncpu" \
	"$(awk '$1 == "tg_read" && $2 ~ /^cpu[0-9]+$/' /tmp/u1.txt | wc -l)"
grown=0
c=0
while [ $c -lt "$ncpu" ]; do
	a=$(reads cpu$c /tmp/u0.txt); b=$(reads cpu$c /tmp/u1.txt)
	log "cpu$c: $a -> $b reads"
	[ "$b" -gt "$a" ] && grown=$((grown + 1))
	c=$((c + 1))
done
assert_eq "untraced load: the read count grew on every CPU" "$ncpu" "$grown"
sum=$(awk '$1 == "tg_read" && $2 ~ /^cpu/ { s += $3 } END { print s + 0 }' /tmp/u1.txt)
all=$(reads all /tmp/u1.txt)
check "per-CPU reads ($sum) >= total read before them ($all) > 0" \
	test "$sum" -ge "$all" -a "$all" -gt 0

record_start reads -e fairlab || exit 1
sleep 1
cp $FLK/stats "$FL_OUT/stats-before.txt"
tg_load 3
tg_wait 60
cp $FLK/stats "$FL_OUT/stats-after.txt"
sleep 0.5
record_stop reads
log "traced window: $(reads all "$FL_OUT/stats-before.txt") -> $(reads all "$FL_OUT/stats-after.txt") reads"
# the unpatch recorded under load, after an audit: its policy_switch of
# kind unpatch tells the analyzer from where the kernel's own, untraced
# functions run (tg-reads.host.sh)
record_start unpatch -e fairlab || exit 1
tg_load 3
sleep 1
check "audit emitted before the unpatch" sh -c "echo 1 > $FLK/audit_emit"
disable_lp fairlab || exit 1
tg_wait 60
record_stop unpatch
# unpatched, vmlinux's own update_cfs_group() reads: nothing is counted
cat $FLK/stats >/tmp/d0.txt
tg_load 2
tg_wait 60
cat $FLK/stats >/tmp/d1.txt
assert_eq "unpatched: no read counted under load" \
	"$(reads all /tmp/d0.txt)" "$(reads all /tmp/d1.txt)"
unload_mod fairlab
unload_mod fairlab_trace
assert_taint_ok
