#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fairlab record and fairlab experiment as a user runs them on a real host
# (here on the VM's kernel):
#  - refused, exit 1 and a message naming what to load, without
#    fairlab_trace.ko and without fairlab.ko, before touching anything;
#  - record --policy relative:8 -- CMD: exit 0, one summary line, a file
#    whose every tg_update was decided by relative:8, with the describe
#    (tg_info, cpu_topology) and the closing audit (tg_audit) in it; the
#    policy active before it (nonzero) is back afterwards; a policy
#    policy.c refuses is a usage error (exit 2) and leaves it alone;
#  - record --duration without CMD;
#  - experiment, 2 policies x 2 rounds: 4 recordings and 4 rows, round 2
#    in the rotated order, the previous policy restored (analysed on the
#    host: record-experiment.host.sh);
#  - SIGINT to an experiment in its second run: exit 130, the finished
#    run kept (file and row), the interrupted one set aside, the policy
#    restored, the resume and report command lines printed; the printed
#    resume command then records exactly the missing runs.
# fairlab-vm: --smp 2 --mem 1024
# fairlab-files: build/fairlab
. "$FL_LIB"
PATH=/fairlab/build:$PATH
P=/sys/module/fairlab/parameters

# /tmp/load.sh SECS: fork loops in two cgroups (tg_update traffic)
cat >/tmp/load.sh <<'EOS'
end=$(( $(date +%s) + $1 ))
for g in a b; do
	sh -c 'echo $$ >/sys/fs/cgroup/rec/$0/cgroup.procs
		while [ "$(date +%s)" -lt "$1" ]; do /bin/true; done' $g $end &
done
wait
EOS
mkdir -p /sys/fs/cgroup/rec && echo +cpu >/sys/fs/cgroup/rec/cgroup.subtree_control &&
	mkdir -p /sys/fs/cgroup/rec/a /sys/fs/cgroup/rec/b || die "cannot build the cgroups"

# refused ERR-RE NAME: record refused with exit 1, ERR-RE on stderr, no file
refused() {
	fairlab record -d 1 -o /tmp/refused.dat >/tmp/ref.out 2>/tmp/ref.err
	_rc=$?
	if [ $_rc = 1 ] && grep -Eq "$1" /tmp/ref.err && [ ! -e /tmp/refused.dat ]; then
		ok "record refused $2: $(cat /tmp/ref.err)"
	else
		not_ok "record refused $2" "exit $_rc, stderr: $(cat /tmp/ref.err)"
	fi
}
refused "fairlab_trace.ko is not loaded.*insmod fairlab_trace.ko" "without fairlab_trace.ko"
load_mod fairlab_trace || exit 1
refused "fairlab.ko is not loaded.*insmod fairlab.ko" "without fairlab.ko"
load_lp fairlab || exit 1

# ---- fairlab record
echo nonzero >$P/tg_policy
fairlab record --policy relative:8 -o /out/rec.dat -- sh /tmp/load.sh 3 >/tmp/rec.out 2>/tmp/rec.err
rc=$?
cat /tmp/rec.out /tmp/rec.err | sed 's/^/# /'
check "record --policy relative:8 -- CMD: exit 0" test $rc = 0
check "record: one summary line with records, lost events, size" \
	grep -Eq "^fairlab record: /out/rec.dat: [1-9][0-9]* records \([0-9]+ fairlab\), 0 lost events, [0-9]+ KB$" /tmp/rec.out
check "record: tg_policy restored to nonzero" test "$(cat $P/tg_policy)" = nonzero
trace-cmd report -i /out/rec.dat >/tmp/rec.txt 2>/dev/null
n_upd=$(grep -c ' tg_update: ' /tmp/rec.txt)
n_other=$(grep ' tg_update: ' /tmp/rec.txt | grep -vc ' policy=3 arg=8 ')
check "record: $n_upd tg_update records, every one decided by relative:8 (policy=3 arg=8): $n_other not" \
	test "$n_upd" -gt 0 -a "$n_other" = 0
check "record: the describe is in it (tg_info, cpu_topology)" \
	eval "grep -q ' tg_info: ' /tmp/rec.txt && grep -q ' cpu_topology: ' /tmp/rec.txt"
# an opening audit right after the describe (its records in the first
# tenth) and the closing one after the workload (other tasks' updates may
# follow it until trace-cmd stops: its last record is in the last half)
check "record: an opening audit, before the workload's events" \
	awk '/ tg_audit: / && !a { a = NR } END { exit !(a && a < NR / 10) }' /tmp/rec.txt
check "record: the closing audit is in it, after the workload's events" \
	awk '/ tg_audit: / { z = NR } END { exit !(z && z > NR / 2) }' /tmp/rec.txt
fairlab report /out/rec.dat >/tmp/rec.report 2>/dev/null
wins=$(awk '/audit windows \(n\)/ { print $NF }' /tmp/rec.report)
bad=$(awk '/where delta tg->load_avg != sum written \(n\)/ { print $NF }' /tmp/rec.report)
check "record: report checks ${wins:-no} audit windows between the two audits, ${bad:-?} off the traced writes" \
	test "${wins:-0}" -gt 0 -a "${bad:-x}" = 0
check "record: recorded on the mono clock (global, tg_audit's snap_ns clock)" \
	eval "fairlab report --json /out/rec.dat 2>/dev/null | grep -q '\"clock\": \"mono\"'"
check "record: no FILE.record.log left behind" test ! -e /out/rec.dat.record.log

fairlab record --policy Bogus -d 1 -o /tmp/bogus.dat >/tmp/b.out 2>/tmp/b.err
rc=$?
check "record --policy Bogus: exit 2 (policy.c refuses it before anything runs), policy unchanged, no file" \
	eval "[ $rc = 2 ] && grep -q \"'Bogus' is not a tg policy\" /tmp/b.err && [ \"\$(cat $P/tg_policy)\" = nonzero ] && [ ! -e /tmp/bogus.dat ]"

sh /tmp/load.sh 4 &
fairlab record -d 2 -o /out/dur.dat >/tmp/d.out 2>/tmp/d.err
rc=$?
wait
check "record --duration 2 without CMD: exit 0, a file with tg_update records" \
	eval "[ $rc = 0 ] && trace-cmd report -i /out/dur.dat 2>/dev/null | grep -q ' tg_update: '"

# ---- fairlab experiment
fairlab experiment --policies stock,force --rounds 2 --no-report -o /out/exp \
	-- sh /tmp/load.sh 2 >/tmp/exp.out 2>/tmp/exp.err
rc=$?
sed 's/^/# /' /tmp/exp.out /tmp/exp.err
tsv=/out/exp/recordings/throughput.tsv
check "experiment 2 policies x 2 rounds: exit 0" test $rc = 0
order=$(awk -F'\t' 'NR > 1 { printf "%s/%s ", $2, $3 }' $tsv)
check "experiment: 4 rows, round 2 in the rotated order (got: $order)" \
	test "$order" = "stock/1 force/1 force/2 stock/2 "
nfiles=0
for f in $(awk -F'\t' 'NR > 1 { print $4 }' $tsv); do [ -s "/out/exp/recordings/$f" ] && nfiles=$((nfiles + 1)); done
check "experiment: every row's recording is there ($nfiles of 4)" test $nfiles = 4
check "experiment: progress lines with round, policy and ETA" \
	eval "[ \$(grep -c '^experiment: \[[0-9]*:[0-9][0-9]\] round [12]/2, policy [12]/2 .* ETA ' /tmp/exp.out) = 4 ]"
check "experiment: tg_policy restored to nonzero" test "$(cat $P/tg_policy)" = nonzero
fairlab experiment --policies stock -d 1 --no-report -o /out/exp >/tmp/again.out 2>&1
rc=$?
check "experiment: a second one into the same DIR is refused (exit 1, says --resume)" \
	eval "[ $rc = 1 ] && grep -q 'already holds an experiment: --resume' /tmp/again.out"

# ---- SIGINT in the middle
echo relative:8 >$P/tg_policy
fairlab experiment --policies stock,force --rounds 2 --no-report -o /out/int \
	-- sh /tmp/load.sh 4 >/tmp/int.out 2>/tmp/int.err &
pid=$!
tsv=/out/int/recordings/throughput.tsv
rows() { if [ -f $tsv ]; then echo $(($(wc -l <$tsv) - 1)); else echo 0; fi; }
wait_for 60 eval '[ "$(rows)" -ge 1 ]' || not_ok "experiment: the first run did not finish in 60 s"
sleep 1		# into the second run's workload
kill -INT $pid
wait $pid
rc=$?
sed 's/^/# /' /tmp/int.out /tmp/int.err
check "SIGINT: exit 130" test $rc = 130
check "SIGINT: the finished run kept, file and row" \
	eval "[ $(rows) = 1 ] && [ -s /out/int/recordings/tg-stock-r1.dat ]"
check "SIGINT: the interrupted run set aside" test -s /out/int/recordings/tg-force-r1.interrupted.dat
check "SIGINT: tg_policy restored to relative:8" test "$(cat $P/tg_policy)" = relative:8
check "SIGINT: says how to resume and report" \
	eval "grep -q '^  resume:  fairlab experiment --resume ' /tmp/int.err && grep -q 'fairlab experiment --report-only -o /out/int' /tmp/int.err"
resume=$(sed -n 's/^  resume:  //p' /tmp/int.err)
eval "$resume" >/tmp/res.out 2>/tmp/res.err
rc=$?
sed 's/^/# /' /tmp/res.out /tmp/res.err
order=$(awk -F'\t' 'NR > 1 { printf "%s/%s ", $2, $3 }' $tsv)
check "resume: exit 0, the 3 missing runs recorded once each (rows: $order)" \
	eval "[ $rc = 0 ] && [ \"$order\" = 'stock/1 force/1 force/2 stock/2 ' ]"
check "resume: tg_policy restored to relative:8" test "$(cat $P/tg_policy)" = relative:8
rm -f /out/int/recordings/*.interrupted.dat

echo stock >$P/tg_policy
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
