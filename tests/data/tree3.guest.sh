#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A second workload for checking fairlab whatif's predictions against live
# runs, one make demo does not use: a 3-level cgroup tree
# t3/{fg/{ui,net},bg/job} with other weights, a pipe hackbench loop in
# fg/ui, short bursts with 10 ms sleeps in fg/net, stress-ng --cpu at a 60%
# duty cycle in bg/job, and the last CPU taken offline and back every
# 0.5 s (hotplug).  Recorded by make demo's guest (demo/demo.guest.sh,
# fairlab experiment) under each of T3_POLICIES, T3_ROUNDS rounds of
# T3_SECS s; the recordings in the artifact directory, tg/recordings/.
#
#   tests/vm/run-scenario.sh --smp 4 --numa --mem 2048 --timeout 900 \
#       --out DIR tests/data/tree3.guest.sh
#
# fairlab-vm: --smp 4 --numa --mem 2048
# fairlab-files: demo/demo.guest.sh build/fairlab
: "${T3_ROUNDS:=3}"
: "${T3_SECS:=3}"
: "${T3_POLICIES:=stock,ratelimit:1000,relative:8,fixed:64,force,nonzero,log2:8}"
DEMO_ROUNDS=$T3_ROUNDS
DEMO_SECS=$T3_SECS
DEMO_POLICIES=$T3_POLICIES
DEMO_IDLEST=none
DEMO_WORKLOAD=/tmp/tree3.sh
cat >/tmp/tree3.sh <<'EOS'
secs=$1
C=/sys/fs/cgroup/t3
mkdir -p $C && echo +cpu >$C/cgroup.subtree_control &&
	mkdir -p $C/fg $C/bg && echo +cpu >$C/fg/cgroup.subtree_control &&
	echo +cpu >$C/bg/cgroup.subtree_control &&
	mkdir -p $C/fg/ui $C/fg/net $C/bg/job || exit 1
echo 50 >$C/bg/cpu.weight
echo 300 >$C/fg/ui/cpu.weight
cg_run() { _cg=$1; shift; sh -c 'echo $$ > "/sys/fs/cgroup/t3/$0/cgroup.procs" && exec "$@"' "$_cg" "$@"; }
cg_run fg/ui sh -c 'end=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt $end ]; do hackbench -p -g 1 -f 3 -l 40 >/dev/null 2>&1; done' hb "$secs" &
w1=$!
cg_run fg/net sh -c 'end=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt $end ]; do
		i=0; while [ $i -lt 300 ]; do i=$((i + 1)); done; sleep 0.01
	done' burst "$secs" &
w2=$!
cg_run bg/job stress-ng --cpu 2 --cpu-load 60 -t "${secs}s" >/dev/null 2>&1 &
w3=$!
last=$(($(nproc --all 2>/dev/null || echo 4) - 1))
end=$(( $(date +%s) + secs ))
while [ "$(date +%s)" -lt $end ]; do
	echo 0 >/sys/devices/system/cpu/cpu$last/online; sleep 0.2
	echo 1 >/sys/devices/system/cpu/cpu$last/online; sleep 0.3
done
wait $w1 $w2 $w3
EOS
. /fairlab/demo/demo.guest.sh
