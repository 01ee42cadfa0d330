#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fork bursts in cgroups under each idlest policy, recorded
# with trace-cmd; idlest-verdicts.host.sh checks every recorded verdict
# against the policy's rule applied to the recorded statistics.
# fairlab-vm: --smp 4
. "$FL_LIB"
P=/sys/module/fairlab/parameters/idlest_policy

load_mod fairlab_trace || exit 1
load_lp fairlab || exit 1
cg_create burst || die "cgroup"
cg_create burst/a
cg_create burst/b
record_start verdicts -e fairlab:pick_idlest -e fairlab:policy_switch || exit 1
for p in stock idle_cpus nr_running; do
	echo $p > $P
	cg_run burst/a hackbench -g 2 -f 4 -l 30 >/dev/null 2>&1 &
	hb=$!
	cg_run burst/b run_as_user stress-ng --exec 2 --fork 2 -t 3s -q >/dev/null 2>&1
	wait $hb	# not a bare wait: trace-cmd runs in the background
done
record_stop verdicts
grep . /sys/kernel/fairlab/stats | grep idlest_policy > "$FL_OUT/stats.txt"
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
