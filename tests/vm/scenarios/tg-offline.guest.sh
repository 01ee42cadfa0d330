#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU offline while patched, under a group load.  6.8 added a second
# writer of tg->load_avg, clear_tg_load_avg(): rq_offline_fair() withdraws
# the CPU's whole contribution of every group.  On 6.12 fairlab's
# rq_offline_fair() makes that write through the core's fl_tg_clear(),
# traced (fairlab:tg_update, site clear_tg_load_avg, load 0, delta =
# -contrib) and counted (stats) like every site.  Checked here, with the
# fork/exec load of tests/vm/tg-check/workload.sh running throughout and
# CPUs 3, 2, 1 taken offline and back under stock and fixed:64:
#  - every clear record has delta = -contrib, and that contrib is the
#    cfs_rq's contribution as the previous record of that (group, CPU)
#    left it (its load if written, else its contrib): nothing between;
#  - the stats count of site clear_tg_load_avg equals the traced count;
#  - tg->load_avg == sum of contribs (audit) after each offline and online;
#  - the host half (tg-offline.host.sh, tests/vm/tg-check): audit-to-audit
#    completeness with the clear records among the written deltas, and
#    every decided attempt follows its policy.
# 6.1 has no such writer: the same run must record no clear record and
# count none.
# fairlab-vm: --smp 4 --mem 2048 --timeout 300
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
FL_TRACE_BUF_KB=${TG_BUF_KB:-65536}
SYSCPU=/sys/devices/system/cpu

t() { log "t=$(cut -d' ' -f1 /proc/uptime) $*"; }
emit() {
	t "audit $1"
	echo 1 >$FLK/audit_emit || not_ok "audit_emit $1" "write failed"
}
# clear_stats: "attempts writes" of site clear_tg_load_avg in stats
clear_stats() {
	awk '$1 == "site" && $2 == "clear_tg_load_avg" { print $3, $4 }' $FLK/stats
}
# cpu_set CPU 0|1: take CPU offline (0) or online (1), checked
cpu_set() {
	check "cpu$1 online=$2" sh -c "echo $2 > $SYSCPU/cpu$1/online"
}

case $(uname -r) in
6.1.*) clears=no ;;
*) clears=yes ;;
esac

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
assert_eq "site clear_tg_load_avg listed in stats, nothing counted yet" "0 0" \
	"$(clear_stats)"
tg_autogroup_on
tg_tree

record_start offline -e fairlab:tg_update -e fairlab:tg_audit \
	-e fairlab:policy_switch -e fairlab:tg_info || exit 1
tg_load 14
sleep 1.5
echo 1 >$FLK/describe
emit 1
sleep 1
t "cpu3 offline (stock)"
cpu_set 3 0
sleep 0.5
assert_audit_exact "audit exact with cpu3 offline"
emit 2
t "switch to fixed:64"
echo fixed:64 >$TGP
assert_sysfs $TGP fixed:64
sleep 1
t "cpu2 offline (fixed:64)"
cpu_set 2 0
sleep 0.5
emit 3
t "cpu2, cpu3 online"
cpu_set 2 1
cpu_set 3 1
sleep 1
assert_audit_exact "audit exact with cpus 2, 3 back online"
echo 1 >$FLK/describe
emit 4
t "cpu1 offline and online (fixed:64)"
cpu_set 1 0
sleep 0.5
cpu_set 1 1
sleep 1
echo 1 >$FLK/describe
emit 5
tg_wait 60
record_stop offline
cp $FLK/stats "$FL_OUT/stats.txt"
after=$(clear_stats)
assert_audit_exact "audit exact after the recording"

# the clear records, each against its cfs_rq's previous record
trace-cmd report -i "$FL_OUT/offline.dat" 2>/dev/null |
	grep 'tg_update:' >/tmp/upd.txt
awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	k = v["tg"] " " v["cfs_cpu"]
	# site 16, or its name where the fairlab plugin prints names
	if (v["site"] == 16 || v["site"] == "clear_tg_load_avg") {
		n++
		if (v["delta"] != -v["contrib"] || v["load"] != 0 || v["written"] != 1) {
			bad++
			if (!first) first = $0
		}
		if (k in after) {
			chained++
			if (after[k] != v["contrib"]) {
				unchained++
				if (!ufirst) ufirst = k " after " after[k] ": " $0
			}
		}
		if (v["contrib"] > 0)
			nonzero++
		cpus[v["cfs_cpu"]] = 1
	}
	after[k] = v["written"] == 1 ? v["load"] : v["contrib"]
}
END {
	nc = 0
	for (c in cpus) { nc++; cl = cl (cl == "" ? "" : ",") c }
	printf "%d %d %d %d %d %s|%s|%s\n", n, bad, chained, unchained, nonzero,
		cl == "" ? "-" : cl, first, ufirst
}' /tmp/upd.txt >/tmp/clear.txt
IFS='|' read -r nums first ufirst </tmp/clear.txt
set -- $nums
n=$1 bad=$2 chained=$3 unchained=$4 nonzero=$5 cpus=$6
log "tg_update records: $(wc -l </tmp/upd.txt); clear_tg_load_avg: $n (of cfs_rqs on CPUs $cpus; $nonzero with contrib > 0; $chained after an earlier record of their cfs_rq); stats: $after"
assert_eq "stats count of clear_tg_load_avg (attempts writes) == traced records" \
	"$n $n" "$after"
if [ $clears = no ]; then
	assert_eq "$(uname -r): no clear_tg_load_avg writer, no record" 0 "$n"
else
	check "clear_tg_load_avg records traced ($n)" test "$n" -gt 0
	check "clear_tg_load_avg withdrew a non-zero contribution ($nonzero records)" \
		test "$nonzero" -gt 0
	if [ "$bad" = 0 ]; then
		ok "every clear_tg_load_avg record: written, load 0, delta = -contrib"
	else
		not_ok "every clear_tg_load_avg record: written, load 0, delta = -contrib" \
			"$bad bad, first: $first"
	fi
	check "clear records that follow a record of their cfs_rq ($chained)" \
		test "$chained" -gt 0
	if [ "$unchained" = 0 ]; then
		ok "each clear withdraws the contrib its cfs_rq's previous record left"
	else
		not_ok "each clear withdraws the contrib its cfs_rq's previous record left" \
			"$unchained differ, first: $ufirst"
	fi
fi

echo stock >$TGP
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
