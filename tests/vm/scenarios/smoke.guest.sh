#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the VM pipeline and of a build's modules: fairlab_trace.ko
# loads and registers its events, trace-cmd records in the guest, hackbench
# runs in a cgroup, and the trace comes back to the host (smoke.host.sh
# decodes it); then fairlab.ko patches, every tg and idlest policy runs
# once under hackbench while trace-cmd records (policies.dat, which
# smoke.host.sh has `fairlab report` read), and it unpatches and unloads.
# What make check-builds runs on every served build.
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

# The livepatch: every policy once (one argument each), recorded
TGP=/sys/module/fairlab/parameters/tg_policy
IDP=/sys/module/fairlab/parameters/idlest_policy
load_lp fairlab || exit 1
record_start policies -e fairlab
cg_run smoke sh -c 'while :; do hackbench -g 2 -f 5 -l 50; done' >/dev/null 2>&1 &
hb=$!
for p in stock force nonzero relative:8 turner1 turner2 fixed:64 log2:8 \
	ratelimit:1000 budget:5 stock; do
	echo "$p" >$TGP 2>/dev/null
	assert_eq "tg_policy $p" "$p" "$(cat $TGP)"
	sleep 0.5
done
for p in idle_cpus nr_running stock; do
	echo "$p" >$IDP 2>/dev/null
	assert_eq "idlest_policy $p" "$p" "$(cat $IDP)"
	sleep 0.5
done
record_stop policies
# the load stops before the unpatch (the unpatch under load is
# unpatch-race's): on 6.12 an unpatch under this load takes about 50 s
check "hackbench loop stopped" cg_kill smoke
wait $hb 2>/dev/null
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
