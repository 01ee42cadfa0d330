#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make demo` (demo/demo.sh) and of the make-check
# scenario tests/vm/scenarios/demo-quick.guest.sh, which sources this file.
#
# fairlab.ko is loaded once.  A 3-level cgroup tree demo/{web/{a,b},batch/c}
# runs the same workload (/tmp/workload.sh) under each tg->load_avg policy:
# `fairlab experiment --policies DEMO_POLICIES --rounds DEMO_ROUNDS
# --no-report -o /out/tg -- sh /tmp/workload.sh DEMO_SECS`, the command a
# user runs on a real host; it switches the policy, records (trace-cmd
# record -C mono, describe, workload, audit), keeps
# /out/tg/recordings/tg-TAG-rN.dat and a row of throughput.tsv per run.
# The workload (hackbench loop in web/a, stress-ng --fork/--exec as user
# fl in batch/c, a sleeper in web/b) writes its own throughput to
# $FAIRLAB_METRICS.  Then each idlest policy on aim9-style process
# creation, the same way (--idlest): /tmp/spawn.sh, an exec loop then a
# fork loop (build/spawnloop), each DEMO_SECS, their operations/s as the
# two throughputs; /out/idlest/recordings/idlest-NAME-rN.dat, and the
# sched domains and groups of the VM in /out/sched-domains.txt.  The
# analysis runs on the host (fairlab experiment --report-only).
#
# Knobs (run-scenario.sh --append "K=V ..."; lists comma-separated):
#   DEMO_ROUNDS=3  DEMO_SECS=3  DEMO_POLICIES=stock,force,...
#   DEMO_IDLEST=stock,idle_cpus,nr_running  DEMO_IDLEST_ROUNDS=1
#   DEMO_WORKLOAD=/tmp/workload.sh: the tg experiment's CMD (sh SCRIPT SECS;
#   make demo-scale's demo/scale.guest.sh sets its per-CPU workload here)
# Progress lines on the console start with "# demo:".
# fairlab-files: build/fairlab ?build/spawnloop
. "$FL_LIB"
: "${DEMO_ROUNDS:=3}"
: "${DEMO_SECS:=3}"
: "${DEMO_POLICIES:=stock,force,nonzero,relative:8,fixed:16,log2:8,ratelimit:1000,budget:5}"
: "${DEMO_IDLEST:=stock,idle_cpus,nr_running}"
: "${DEMO_IDLEST_ROUNDS:=1}"
: "${DEMO_WORKLOAD:=/tmp/workload.sh}"
: "${FL_TRACE_BUF_KB:=32768}"	# trace buffer per CPU (KB)
CG=/sys/fs/cgroup
P=/sys/module/fairlab/parameters
FAIRLAB=/fairlab/build/fairlab

# /tmp/workload.sh SECS: the workload of one recording, run by fairlab
# experiment as its CMD; writes "hackbench_msgs_per_s stressng_ops_per_s"
# to $FAIRLAB_METRICS (measured here, not by the analyzer).
cat >/tmp/workload.sh <<'EOS'
secs=$1
wl=$(mktemp -d /tmp/wl.XXXXXX)
: >"$wl/hb.log"
# cg_run GROUP CMD...: CMD in cgroup GROUP
cg_run() { _cg=$1; shift; sh -c 'echo $$ > "/sys/fs/cgroup/$0/cgroup.procs" && exec "$@"' "$_cg" "$@"; }
# hackbench runs until SECS have passed; its "Time:" lines go to hb.log
cg_run demo/web/a sh -c 'end=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt $end ]; do
		hackbench -g 2 -f 4 -l 20 2>&1 | grep "^Time:" >>"$2"
	done' hbloop "$secs" "$wl/hb.log" &
w1=$!
cg_run demo/web/b sh -c 'end=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt $end ]; do sleep 0.005; done' sleeper "$secs" &
w2=$!
# stress-ng --fork (root) and --exec (user fl: stress-ng refuses to exec as root)
cg_run demo/batch/c stress-ng --fork 2 -t "${secs}s" --metrics-brief >"$wl/sng.log" 2>&1 &
w3=$!
cg_run demo/batch/c su -s /bin/sh fl -c "cd /tmp && exec stress-ng \
	--exec 1 -t ${secs}s --metrics-brief" >"$wl/sng-exec.log" 2>&1 &
w4=$!
wait $w1 $w2 $w3 $w4
cat "$wl/sng-exec.log" >>"$wl/sng.log"
cat "$wl/sng.log" >>/out/stress-ng.log
# hackbench -g 2 -f 4 -l 20: 2 groups x 4 senders x 4 receivers x 20 loops = 640 messages
hb=$(awk '{ t += $2; n++ } END { if (t > 0) printf "%.0f", n * 640 / t; else print "nan" }' "$wl/hb.log")
# --metrics-brief: "... fork  OPS  REAL-TIME  USR  SYS  OPS/S  OPS/S";
# sum over stressors of bogo ops / real time
sn=$(awk '{ for (i = 1; i < NF; i++)
		if (($i == "fork" || $i == "exec") && $(i + 1) ~ /^[0-9]+$/ && $(i + 2) > 0) { r += $(i + 1) / $(i + 2); n++ } }
	END { if (n) printf "%.1f", r; else print "nan" }' "$wl/sng.log")
[ -z "$FAIRLAB_METRICS" ] || echo "$hb $sn" >"$FAIRLAB_METRICS"
echo "hackbench/stress-ng $hb $sn"
rm -rf "$wl"
EOS

# /tmp/spawn.sh SECS: the idlest experiment's workload, aim9's exec_test
# and fork_test (demo/spawnloop.c) one after the other; writes
# "exec_ops_per_s fork_ops_per_s" to $FAIRLAB_METRICS.
cat >/tmp/spawn.sh <<'EOS'
ex=$(/fairlab/build/spawnloop exec "$1") || ex=nan
fk=$(/fairlab/build/spawnloop fork "$1") || fk=nan
[ -z "$FAIRLAB_METRICS" ] || echo "$ex $fk" >"$FAIRLAB_METRICS"
echo "exec/fork $ex $fk"
EOS

# trace-cmd stores /proc/kallsyms in every file (megabytes); the fairlab
# events hold no addresses, so it gets an empty one while recording.
: >/tmp/no-kallsyms
mount -o bind /tmp/no-kallsyms /proc/kallsyms 2>/dev/null ||
	log "cannot hide /proc/kallsyms: recordings will be larger"

load_mod fairlab_trace || exit 1
load_lp fairlab || exit 1
mkdir -p $CG/demo && echo +cpu >$CG/demo/cgroup.subtree_control &&
	mkdir -p $CG/demo/web $CG/demo/batch &&
	echo +cpu >$CG/demo/web/cgroup.subtree_control &&
	echo +cpu >$CG/demo/batch/cgroup.subtree_control &&
	mkdir -p $CG/demo/web/a $CG/demo/web/b $CG/demo/batch/c ||
	die "cannot build the cgroup tree"
echo 200 >$CG/demo/web/cpu.weight

# experiment NAME ARGS...: fairlab experiment ARGS, its lines as progress
# ("# demo:" prefix), ok/not ok by its exit status and the restored policy
experiment() {
	_n=$1; shift
	"$FAIRLAB" experiment --no-report --allow-lost -b "$FL_TRACE_BUF_KB" "$@" \
		-- sh "$_wl" "$DEMO_SECS" 2>&1 | sed 's/^/# demo: /'
	# busybox sh has no PIPESTATUS: the rows say what was recorded
	_rows=$(($(wc -l <"$FL_OUT/$_n/recordings/throughput.tsv") - 1))
	if [ "$_rows" = "$_want" ]; then
		ok "fairlab experiment $_n: $_rows recordings"
	else
		not_ok "fairlab experiment $_n" "$_rows recordings, expected $_want"
	fi
}

# "none" for an empty list
[ "$DEMO_POLICIES" = none ] && DEMO_POLICIES=
[ "$DEMO_IDLEST" = none ] && DEMO_IDLEST=
if [ -n "$DEMO_POLICIES" ]; then
	_want=$(($(echo "$DEMO_POLICIES" | tr ',' '\n' | grep -c .) * DEMO_ROUNDS))
	_wl=$DEMO_WORKLOAD
	experiment tg --policies "$DEMO_POLICIES" --rounds "$DEMO_ROUNDS" -o "$FL_OUT/tg"
	check "tg_policy restored to stock" test "$(cat $P/tg_policy)" = stock
	check "tg_layout restored to global" test "$(cat $P/tg_layout)" = global
	# where the layouts' domains lie in this VM: the kernel's node and LLC
	# (sd_llc_id) of each CPU, from a recording's cpu_topology records;
	# with one LLC per node, llc is the same split as node
	for _f in "$FL_OUT"/tg/recordings/*.dat; do
		[ -s "$_f" ] || continue
		trace-cmd report "$_f" 2>/dev/null | sed -n 's/.*cpu_topology: *\(cpu=.*\)$/\1/p' |
			sort -u -t' ' -k1,1 >"$FL_OUT/topology.txt"
		break
	done
	if [ -s "$FL_OUT/topology.txt" ]; then
		_nn=$(sed 's/.* node=\([0-9-]*\).*/\1/' "$FL_OUT/topology.txt" | sort -u | wc -l)
		_nl=$(sed 's/.* llc=\([0-9-]*\).*/\1/' "$FL_OUT/topology.txt" | sort -u | wc -l)
		_nd=$(sed 's/^cpu=[0-9]* //' "$FL_OUT/topology.txt" | sort -u | wc -l)
		log "demo: topology: $(wc -l <"$FL_OUT/topology.txt") CPUs, $_nn node(s), $_nl LLC(s)$( [ "$_nd" = "$_nn" ] && [ "$_nl" = "$_nn" ] && echo ': one LLC per node, tg_layout llc = node here')"
	fi
fi
# update_pick_idlest policies on aim9-style exec and fork loops
if [ -n "$DEMO_IDLEST" ]; then
	[ -x /fairlab/build/spawnloop ] || die "/fairlab/build/spawnloop missing (demo/demo.sh builds it)"
	# the domains and their groups (sched_verbose's boot lines, then
	# debugfs' domain names and flags), for the report
	{
		dmesg | grep -E "attaching sched-domain|domain-[0-9]+:|groups:" || true
		for _d in /sys/kernel/debug/sched/domains/cpu0/domain*; do
			[ -d "$_d" ] && echo "cpu0 $(basename "$_d"): $(cat "$_d/name") flags: $(cat "$_d/flags")"
		done
	} >"$FL_OUT/sched-domains.txt" 2>&1
	log "demo: sched domains: $(grep -c . "$FL_OUT/sched-domains.txt") lines in sched-domains.txt"
	_want=$(($(echo "$DEMO_IDLEST" | tr ',' '\n' | grep -c .) * DEMO_IDLEST_ROUNDS))
	_wl=/tmp/spawn.sh
	experiment idlest --idlest --policies "$DEMO_IDLEST" --rounds "$DEMO_IDLEST_ROUNDS" \
		-e fairlab:pick_idlest -e fairlab:policy_switch -e fairlab:tg_info \
		-e fairlab:cpu_topology -o "$FL_OUT/idlest"
	check "idlest_policy restored to stock" test "$(cat $P/idlest_policy)" = stock
fi

umount /proc/kallsyms 2>/dev/null
cp /sys/kernel/fairlab/stats "$FL_OUT/stats.txt" 2>/dev/null
log "demo: done; $(du -sk "$FL_OUT" | cut -f1) KB of artifacts"
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
