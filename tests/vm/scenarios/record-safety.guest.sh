#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A recording cannot leave the host changed (fairlab record, experiment,
# reset on the VM's kernel):
#  - kill -9 of fairlab record --policy: the experimental policy is still
#    in force (nothing could restore it), trace-cmd ends with its parent
#    (its parent-death signal) and leaves a readable file; fairlab reset
#    then restores the saved policy, says so, removes the state file; a
#    second reset has nothing to undo;
#  - kill -9 of an experiment: the next fairlab record undoes it first
#    (automatic reset), then records;
#  - a leftover trace-cmd named in the state file (a real trace-cmd record
#    started by hand): reset stops it with SIGINT and says so;
#  - SIGHUP (a dropped ssh session), SIGQUIT and SIGTERM end a recording as
#    Ctrl-C does: exit 128+N, policy restored, no trace-cmd left, no state
#    file, the file complete (describe and both audits in it);
#  - a policy with a typo is a usage error (exit 2) before anything runs.
# fairlab-vm: --smp 2 --mem 1024 --timeout 600
# fairlab-files: build/fairlab
. "$FL_LIB"
PATH=/fairlab/build:$PATH
P=/sys/module/fairlab/parameters
STATE=/run/fairlab/state

# pids of running trace-cmd processes (argv[0] trace-cmd, zombies aside;
# trace-cmd record's per-CPU readers among them)
tc_pids() {
	for d in /proc/[0-9]*; do
		[ "$(tr '\0' '\n' <$d/cmdline 2>/dev/null | head -n1)" = trace-cmd ] || continue
		grep -q '^State:.*Z' $d/status 2>/dev/null || echo "${d#/proc/}"
	done
}
no_tc() { [ -z "$(tc_pids)" ]; }
recorder_in_state() { grep -q '^recorder [1-9]' $STATE 2>/dev/null; }

load_mod fairlab_trace || exit 1
load_lp fairlab || exit 1
echo nonzero >$P/tg_policy
# tg_update traffic for every recording below (an idle 6.1 guest has
# almost none): a fork loop in a cgroup of its own
mkdir -p /sys/fs/cgroup/rs && echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
sh -c 'echo $$ >/sys/fs/cgroup/rs/cgroup.procs; while :; do /bin/true; done' &
loadpid=$!

# ---- a typo in a policy: nothing runs
fairlab experiment --policies stock,force,relativ:8 -d 1 -o /tmp/typo >/tmp/t.out 2>/tmp/t.err
rc=$?
check "experiment with a typo in its last policy: exit 2 before anything runs (no DIR, no trace-cmd, policy untouched)" \
	eval "[ $rc = 2 ] && grep -q \"'relativ:8' is not a tg policy\" /tmp/t.err && [ ! -e /tmp/typo ] && no_tc && [ \"\$(cat $P/tg_policy)\" = nonzero ]"

# ---- kill -9 of fairlab record
fairlab record --policy relative:8 -d 300 -o /out/k9.dat >/tmp/k9.out 2>/tmp/k9.err &
pid=$!
wait_for 60 recorder_in_state || not_ok "record: no recorder in $STATE within 60 s" "$(cat /tmp/k9.err)"
tc=$(sed -n 's/^recorder //p' $STATE)
log "state file while recording: $(tr '\n' ';' <$STATE)"
check "while recording: the state file saves the policy to restore (nonzero) and names the running trace-cmd (pid $tc)" \
	eval "grep -qx 'policy nonzero' $STATE && tc_pids | grep -qx '$tc'"
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
sed 's/^/# /' /tmp/k9.out /tmp/k9.err
check "after kill -9: tg_policy is still the experimental relative:8 (nothing restored it)" \
	test "$(cat $P/tg_policy)" = relative:8
check "after kill -9: the state file is still there" test -e $STATE
if wait_for 60 no_tc; then
	ok "after kill -9: trace-cmd (pid $tc) ended with its parent"
else
	not_ok "after kill -9: trace-cmd still runs 60 s later" "$(tc_pids)"
fi
check "after kill -9: trace-cmd wrote a readable file" \
	eval "trace-cmd report -i /out/k9.dat 2>/dev/null | grep -q ' tg_update: '"
fairlab reset >/tmp/reset.out 2>/tmp/reset.err
rc=$?
sed 's/^/# /' /tmp/reset.out /tmp/reset.err
check "reset: exit 0, tg_policy restored to nonzero, and it says so" \
	eval "[ $rc = 0 ] && [ \"\$(cat $P/tg_policy)\" = nonzero ] && grep -q 'tg_policy restored to nonzero (it was relative:8)' /tmp/reset.out"
check "reset: says trace-cmd (pid $tc) is already gone, none left, state file removed" \
	eval "grep -q 'trace-cmd (pid $tc) is already gone' /tmp/reset.out && no_tc && [ ! -e $STATE ]"
fairlab reset >/tmp/reset2.out 2>&1
check "a second reset: exit 0, nothing to undo" \
	eval "[ $? = 0 ] && grep -q 'nothing to undo' /tmp/reset2.out"

# ---- kill -9 of an experiment; the next record resets first
fairlab experiment --policies force,stock -d 300 --no-report -o /tmp/exp9 >/tmp/e9.out 2>/tmp/e9.err &
pid=$!
wait_for 60 recorder_in_state || not_ok "experiment: no recorder in $STATE within 60 s" "$(cat /tmp/e9.err)"
# kill it once its trace-cmd records (its per-CPU files exist): a SIGINT
# that reaches trace-cmd 3.1.6 while it is still starting can leave it
# hung, which only fairlab reset's SIGKILL ends (seen under TCG)
wait_for 60 sh -c 'find /tmp/exp9 -name "*.dat.cpu0" 2>/dev/null | grep -q .' ||
	log "experiment: no per-CPU trace file under /tmp/exp9 within 60 s"
sleep 2
kill -9 $pid
wait $pid 2>/dev/null
check "after kill -9 of an experiment: tg_policy is its force" test "$(cat $P/tg_policy)" = force
wait_for 60 no_tc || not_ok "experiment's trace-cmd still runs 60 s after kill -9"
fairlab record -d 1 -o /tmp/after.dat >/tmp/a.out 2>/tmp/a.err
rc=$?
sed 's/^/# /' /tmp/a.out /tmp/a.err
check "the next record: resets first (says tg_policy restored to nonzero), then records, exit 0" \
	eval "[ $rc = 0 ] && grep -q 'did not end cleanly' /tmp/a.err && grep -q 'tg_policy restored to nonzero (it was force)' /tmp/a.err && [ \"\$(cat $P/tg_policy)\" = nonzero ] && [ -s /tmp/after.dat ] && [ ! -e $STATE ]"

# ---- a leftover trace-cmd (as a crash before the death signal was set
# would leave): reset stops it
trace-cmd record -e fairlab:tg_update -o /tmp/orphan.dat >/tmp/orphan.log 2>&1 &
orphan=$!
wait_for 30 test -e /tmp/orphan.dat.cpu0
mkdir -p /run/fairlab
printf 'owner 999999\nknob tg\npolicy stock\nrecorder %d\noutput /tmp/orphan.dat\n' $orphan >$STATE
fairlab reset >/tmp/reset3.out 2>&1
rc=$?
sed 's/^/# /' /tmp/reset3.out
wait $orphan 2>/dev/null
check "reset: stops the leftover trace-cmd (pid $orphan) with SIGINT, says so, none left" \
	eval "[ $rc = 0 ] && grep -q 'stopped the leftover trace-cmd (pid $orphan) with SIGINT' /tmp/reset3.out && no_tc"
check "reset: the leftover's file is complete (trace-cmd reads it)" \
	eval "trace-cmd report -i /tmp/orphan.dat >/dev/null 2>&1"
check "reset: tg_policy set to the saved stock" test "$(cat $P/tg_policy)" = stock

# ---- SIGHUP, SIGQUIT, SIGTERM: a clean stop
echo nonzero >$P/tg_policy
for sig in HUP:1 QUIT:3 TERM:15; do
	want=$((128 + ${sig#*:})) sig=${sig%:*}
	fairlab record --policy relative:8 -d 300 -o /out/$sig.dat >/tmp/$sig.out 2>/tmp/$sig.err &
	pid=$!
	wait_for 60 recorder_in_state || not_ok "SIG$sig: no recorder within 60 s"
	# the signal must come once trace-cmd records (its per-CPU files
	# exist), not while it starts: then the file has no records at all
	wait_for 60 sh -c "ls /out/$sig.dat.cpu* >/dev/null 2>&1" ||
		log "SIG$sig: no per-CPU trace file within 60 s"
	sleep 2
	kill -$sig $pid
	wait $pid
	rc=$?
	sed 's/^/# /' /tmp/$sig.out /tmp/$sig.err
	check "SIG$sig: exit $want, tg_policy restored to nonzero, no trace-cmd, no state file" \
		eval "[ $rc = $want ] && [ \"\$(cat $P/tg_policy)\" = nonzero ] && no_tc && [ ! -e $STATE ]"
	wins=$(fairlab report /out/$sig.dat 2>/dev/null | awk '/audit windows \(n\)/ { print $NF }')
	check "SIG$sig: the recording is complete: summary line, ${wins:-no} audit windows between its two audits" \
		eval "grep -q '^fairlab record: /out/$sig.dat: ' /tmp/$sig.out && [ \"${wins:-0}\" -gt 0 ]"
done

kill $loadpid
wait $loadpid 2>/dev/null
echo stock >$P/tg_policy
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
