#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The per-CPU workload of make demo-scale (demo/scale.guest.sh), run by
# fairlab experiment in the guest as its CMD:  sh scale-workload.sh SECS
#
# With N = the guest's CPUs, for SECS seconds, in demo.guest.sh's cgroup
# tree: N hackbench groups (2 senders x 2 receivers each, in a loop) in
# demo/web/a, N stress-ng fork workers in demo/batch/c and N sleepers
# (5 ms naps) in demo/web/b.  So every CPU has runnable tasks of each
# group, and the groups' tg->load_avg is updated and read from all N CPUs:
# the contention the scaling experiment is about.  Writes
# "hackbench_msgs_per_s stressng_fork_ops_per_s" to $FAIRLAB_METRICS.
secs=${1:?usage: scale-workload.sh SECS}
n=$(grep -c '^processor' /proc/cpuinfo)
wl=$(mktemp -d /tmp/wl.XXXXXX)
: >"$wl/hb.log"
# cg_run GROUP CMD...: CMD in cgroup GROUP
cg_run() { _cg=$1; shift; sh -c 'echo $$ > "/sys/fs/cgroup/$0/cgroup.procs" && exec "$@"' "$_cg" "$@"; }
cg_run demo/web/a sh -c 'end=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt $end ]; do
		hackbench -g $3 -f 2 -l 10 2>&1 | grep "^Time:" >>"$2"
	done' hbloop "$secs" "$wl/hb.log" "$n" &
pids=$!
i=0
while [ $i -lt "$n" ]; do
	cg_run demo/web/b sh -c 'end=$(( $(date +%s) + $1 ))
		while [ "$(date +%s)" -lt $end ]; do sleep 0.005; done' sleeper "$secs" &
	pids="$pids $!"
	i=$((i + 1))
done
cg_run demo/batch/c stress-ng --fork "$n" -t "${secs}s" --metrics-brief >"$wl/sng.log" 2>&1 &
pids="$pids $!"
wait $pids
# hackbench -g N -f 2 -l 10: N groups x 2 senders x 2 receivers x 10 loops
hb=$(awk -v m=$((n * 40)) '{ t += $2; k++ } END { if (t > 0) printf "%.0f", k * m / t; else print "nan" }' "$wl/hb.log")
# --metrics-brief: "... fork  OPS  REAL-TIME  USR  SYS  OPS/S  OPS/S"
sn=$(awk '{ for (i = 1; i < NF; i++)
		if ($i == "fork" && $(i + 1) ~ /^[0-9]+$/ && $(i + 2) > 0) { r += $(i + 1) / $(i + 2); k++ } }
	END { if (k) printf "%.1f", r; else print "nan" }' "$wl/sng.log")
[ -z "$FAIRLAB_METRICS" ] || echo "$hb $sn" >"$FAIRLAB_METRICS"
echo "cpus $n: hackbench/stress-ng fork $hb $sn"
rm -rf "$wl"
