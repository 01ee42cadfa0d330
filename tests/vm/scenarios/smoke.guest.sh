#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the VM pipeline: fairlab_trace.ko loads and registers its
# events, trace-cmd records in the guest, hackbench runs in a cgroup, and
# the trace comes back to the host (smoke.host.sh decodes it).
# Needs only fairlab_trace.ko.
. "$FL_LIB"

load_mod fairlab_trace || exit 1
for e in tg_update pick_idlest policy_switch tg_info cpu_topology tg_audit; do
	check "event fairlab:$e exists" test -d "$FL_TRACING/events/fairlab/$e"
done

cg_create smoke || die "cannot create cgroup"
record_start smoke -e fairlab -e sched:sched_process_fork
log "t=$(cut -d" " -f1 /proc/uptime) hackbench"
cg_run smoke hackbench -g 2 -f 5 -l 50 >/tmp/hackbench.log 2>&1 &
hb=$!
sleep 2
record_stop smoke
check "hackbench completed" wait_for 60 eval "! kill -0 $hb 2>/dev/null"
wait $hb
check "hackbench exit 0" test $? = 0
cp /tmp/hackbench.log "$FL_OUT/"

log "t=$(cut -d" " -f1 /proc/uptime) stress-ng"
check "stress-ng --exec as user" run_as_user stress-ng --exec 1 -t 2s -q
unload_mod fairlab_trace
assert_taint_ok
