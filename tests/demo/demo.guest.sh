#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make demo` (tests/demo/demo.sh) and of the make-check
# scenario tests/vm/scenarios/demo-quick.guest.sh, which sources this file.
#
# fairlab.ko is loaded once.  A 3-level cgroup tree demo/{web/{a,b},batch/c}
# runs the same workload under each tg->load_avg policy, DEMO_ROUNDS rounds
# (policies interleaved within a round), one trace-cmd recording per
# (policy, round): /out/tg-TAG-rN.dat, TAG = policy with ':' -> '-'.
# Each recording: switch the policy, start `trace-cmd record -e fairlab
# -C mono`, describe (tg_info + cpu_topology), run the workload DEMO_SECS s
# (hackbench loop in web/a, stress-ng --fork/--exec as user fl in batch/c,
# a sleeper in web/b), emit an audit, stop.  The workload's own throughput
# goes to /out/throughput.tsv (measured here, not by the analyzer).
# Then each idlest policy on a fork burst: /out/idlest-NAME-rN.dat.
#
# Knobs (run-scenario.sh --append "K=V ..."; lists comma-separated):
#   DEMO_ROUNDS=3  DEMO_SECS=3  DEMO_POLICIES=stock,force,...
#   DEMO_IDLEST=stock,idle_cpus,nr_running  DEMO_IDLEST_ROUNDS=1
# Progress lines on the console start with "# demo:".
. "$FL_LIB"
: "${DEMO_ROUNDS:=3}"
: "${DEMO_SECS:=3}"
: "${DEMO_POLICIES:=stock,force,nonzero,relative:8,fixed:16,log2:8,ratelimit:1000,budget:5}"
: "${DEMO_IDLEST:=stock,idle_cpus,nr_running}"
: "${DEMO_IDLEST_ROUNDS:=1}"
: "${FL_TRACE_BUF_KB:=32768}"
export FL_TRACE_BUF_KB
FL_ALLOW_LOST=1		# lost events are counted and reported, not fatal
CG=/sys/fs/cgroup
P=/sys/module/fairlab/parameters
K=/sys/kernel/fairlab
T0=$(cut -d' ' -f1 /proc/uptime)

progress() {
	echo "# demo: [$(awk -v t0="$T0" '{ printf "%5.1fs", $1 - t0 }' /proc/uptime)] $*"
}

# /tmp/hbloop.sh SECS LOG: hackbench runs until SECS have passed; its
# "Time:" lines go to LOG
cat >/tmp/hbloop.sh <<'EOS'
end=$(( $(date +%s) + $1 ))
while [ "$(date +%s)" -lt $end ]; do
	hackbench -g 2 -f 4 -l 20 2>&1 | grep '^Time:' >>"$2"
done
EOS
cat >/tmp/sleeper.sh <<'EOS'
end=$(( $(date +%s) + $1 ))
while [ "$(date +%s)" -lt $end ]; do sleep 0.005; done
EOS

# hackbench -g 2 -f 4 -l 20: 2 groups x 4 senders x 4 receivers x 20 loops
HB_MSGS=640

# throughput LOGDIR: "hackbench_msgs_per_s stressng_ops_per_s"
throughput() {
	_hb=$(awk -v m=$HB_MSGS '{ t += $2; n++ } END { if (t > 0) printf "%.0f", n * m / t; else print "nan" }' "$1/hb.log")
	# --metrics-brief: "... fork  OPS  REAL-TIME  USR  SYS  OPS/S  OPS/S"
	# sum over stressors of bogo ops / real time
	_sn=$(awk '{ for (i = 1; i < NF; i++)
			if (($i == "fork" || $i == "exec") && $(i + 1) ~ /^[0-9]+$/ && $(i + 2) > 0) { r += $(i + 1) / $(i + 2); n++ } }
		END { if (n) printf "%.1f", r; else print "nan" }' "$1/sng.log")
	echo "$_hb $_sn"
}

# workload SECS LOGDIR: hackbench loop in web/a, a sleeper in web/b,
# stress-ng --fork (root) and --exec (user fl: stress-ng refuses to exec as
# root) in batch/c
workload() {
	mkdir -p "$2"; : >"$2/hb.log"
	cg_run demo/web/a sh /tmp/hbloop.sh "$1" "$2/hb.log" &
	_w1=$!
	cg_run demo/web/b sh /tmp/sleeper.sh "$1" &
	_w2=$!
	cg_run demo/batch/c stress-ng --fork 2 -t "${1}s" --metrics-brief \
		>"$2/sng.log" 2>&1 &
	_w3=$!
	# cg_run execs its command: run_as_user (a function) cannot follow it
	cg_run demo/batch/c su -s /bin/sh fl -c "cd /tmp && exec stress-ng \
		--exec 1 -t ${1}s --metrics-brief" >"$2/sng-exec.log" 2>&1 &
	_w4=$!
	# not a bare wait: trace-cmd runs in the background of this shell
	wait $_w1 $_w2 $_w3 $_w4
	cat "$2/sng-exec.log" >>"$2/sng.log"
}

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

# "none" for an empty list
[ "$DEMO_POLICIES" = none ] && DEMO_POLICIES=
[ "$DEMO_IDLEST" = none ] && DEMO_IDLEST=
policies=$(echo "$DEMO_POLICIES" | tr ',' ' ')
npol=$(echo $policies | wc -w)
printf 'kind\tpolicy\tround\tfile\thackbench_msgs_per_s\tstressng_ops_per_s\tlost_events\tsize_kb\n' \
	>"$FL_OUT/throughput.tsv"
[ -z "$policies" ] ||
	progress "tg policies: $policies; $DEMO_ROUNDS round(s) of ${DEMO_SECS}s each"

# describe: tg_info + cpu_topology into the recording just started.
# record_start returns once trace-cmd's per-CPU files exist, which can be
# before it turns tracing on (seen: a recording without cpu_topology):
# wait for tracing_on, which trace-cmd clears at start and sets last.
describe() {
	wait_for 5 file_is $FL_TRACING/tracing_on 1 ||
		log "tracing_on still 0 after 5 s: describing anyway"
	echo 1 >$K/describe
}

# record NAME KIND POLICY ROUND: stop the named recording, log its row
finish() {
	record_stop "$1"
	_tp=$(throughput "/tmp/wl-$1")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$1.dat" \
		$_tp "$FL_LOST" "$(du -k "$FL_OUT/$1.dat" | cut -f1)" >>"$FL_OUT/throughput.tsv"
	progress "  $1: $(du -k "$FL_OUT/$1.dat" | cut -f1) KB, lost $FL_LOST, hackbench/stress-ng $_tp"
	rm -f "$FL_OUT/$1.record.log"
	cat "/tmp/wl-$1/sng.log" >>"$FL_OUT/stress-ng.log" 2>/dev/null
}

r=1
while [ $r -le "$DEMO_ROUNDS" ]; do
	i=0
	for pol in $policies; do
		i=$((i + 1))
		tag=$(echo "$pol" | tr ':' '-')
		n=tg-$tag-r$r
		progress "round $r/$DEMO_ROUNDS policy $i/$npol $pol"
		sh -c "echo $pol > $P/tg_policy" || { not_ok "tg_policy $pol" "rejected"; continue; }
		record_start "$n" -e fairlab || continue
		describe
		workload "$DEMO_SECS" "/tmp/wl-$n"
		echo 1 >$K/audit_emit
		finish "$n" tg "$pol" "$r"
	done
	r=$((r + 1))
done
echo stock >$P/tg_policy

# update_pick_idlest policies on a fork burst
r=1
while [ $r -le "$DEMO_IDLEST_ROUNDS" ]; do
	for ip in $(echo "$DEMO_IDLEST" | tr ',' ' '); do
		n=idlest-$ip-r$r
		progress "round $r/$DEMO_IDLEST_ROUNDS idlest policy $ip (fork burst)"
		sh -c "echo $ip > $P/idlest_policy" || { not_ok "idlest_policy $ip" "rejected"; continue; }
		record_start "$n" -e fairlab:pick_idlest -e fairlab:policy_switch \
			-e fairlab:tg_info -e fairlab:cpu_topology || continue
		describe
		workload "$DEMO_SECS" "/tmp/wl-$n"
		finish "$n" idlest "$ip" "$r"
	done
	r=$((r + 1))
done
echo stock >$P/idlest_policy

umount /proc/kallsyms 2>/dev/null
cp $K/stats "$FL_OUT/stats.txt" 2>/dev/null
progress "done; $(du -sk "$FL_OUT" | cut -f1) KB of artifacts"
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
