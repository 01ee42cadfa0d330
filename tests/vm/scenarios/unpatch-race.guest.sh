#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tg_policy and idlest_policy written in a loop, as fast as a shell can,
# through an unpatch under load (policy_switch recorded):
#  - the recording holds one policy_switch of kind unpatch and no switch
#    of kind tg or idlest after it: every write either took effect before
#    pre_unpatch recorded the unpatch, or was refused;
#  - every write the loop saw accepted is one tg/idlest record, all of
#    them before the unpatch record: no write accepted after pre_unpatch;
#  - the loop saw writes refused (it ran through the unpatch), each with
#    its dmesg line.
# fairlab-vm: --smp 4 --mem 2048 --timeout 300
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
IDP=/sys/module/fairlab/parameters/idlest_policy

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree
# stops after 40 refusals: each is a dmesg line, and a flood would push
# this scenario's dmesg mark out of the ring
cat >/tmp/writer.sh <<EOS
r=0
while [ ! -e /tmp/stop ] && [ \$r -lt 40 ]; do
	for p in force stock relative:8; do
		if echo \$p 2>/dev/null >$TGP; then echo ok tg; else echo refused tg; r=\$((r + 1)); fi
	done
	if echo idle_cpus 2>/dev/null >$IDP; then echo ok idlest; else echo refused idlest; r=\$((r + 1)); fi
done
EOS
rm -f /tmp/stop
dmesg_mark
record_start race -e fairlab:policy_switch || exit 1
tg_load 40
sh /tmp/writer.sh >/tmp/writes.txt 2>&1 &
wp=$!
sleep 3
disable_lp fairlab
sleep 1
touch /tmp/stop
wait $wp
tg_wait 90
record_stop race
cp /tmp/writes.txt "$FL_OUT/writes.txt"
trace-cmd report -i "$FL_OUT/race.dat" 2>/dev/null | grep ' policy_switch: ' >"$FL_OUT/race.txt"
# kind: 0 tg, 1 idlest, 2 unpatch (fairlab_abi.h)
set -- $(awk '{ k = $0; sub(/.*kind=/, "", k); sub(/ .*/, "", k)
	if (k == 2) { u++; next }
	if (u) after++; else before[k]++ }
	END { printf "%d %d %d %d", u, after, before[0], before[1] }' "$FL_OUT/race.txt")
unp=$1 after=$2 rec_tg=$3 rec_id=$4
ok_tg=$(grep -c '^ok tg' /tmp/writes.txt)
ok_id=$(grep -c '^ok idlest' /tmp/writes.txt)
refused=$(grep -c '^refused' /tmp/writes.txt)
log "writes: tg $ok_tg accepted, idlest $ok_id accepted, $refused refused; records: $rec_tg tg, $rec_id idlest before the unpatch, $after after"
assert_eq "one unpatch record" 1 "$unp"
assert_eq "no tg or idlest switch recorded after the unpatch record" 0 "$after"
assert_eq "every accepted tg_policy write recorded before the unpatch ($ok_tg)" "$ok_tg" "$rec_tg"
assert_eq "every accepted idlest_policy write recorded before the unpatch ($ok_id)" "$ok_id" "$rec_id"
check "the loop ran through the unpatch: writes refused ($refused)" test "$refused" -gt 0
check "accepted writes before the unpatch ($ok_tg)" test "$ok_tg" -gt 0
n=$(dmesg_since | grep -c 'not changed: the patch is disabled')
assert_eq "one dmesg line per refused write ($refused)" "$refused" "$n"
unload_mod fairlab
unload_mod fairlab_trace
assert_taint_ok
