#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo [QUICK=1]: the policy comparison experiment, end to end.
#
#   1. VM, 4 vCPUs in 2 NUMA nodes, 2 GB: fairlab.ko loaded, a 3-level
#      cgroup tree, the same workload (hackbench + stress-ng fork/exec) under
#      each tg->load_avg policy, ROUNDS rounds, one recording per (policy,
#      round), made by `fairlab experiment` in the guest (demo/demo.guest.sh);
#      the full demo also runs stock under the tg_layouts (where each
#      group's sum lives: POLICY/LAYOUT, docs/module.md): node, llc and two
#      per-node read caches.  The VM has one socket, so one L3, per node
#      (run-scenario.sh --numa: -smp 4,sockets=2): there llc is node, two
#      domains of 2 CPUs, and stock/llc is a second measurement of that
#      split (the table says so), not a third layout
#   2. VM, 8 vCPUs: one socket of 4 cores with 2 SMT threads each: each
#      update_pick_idlest policy on aim9-style exec and fork loops
#      (demo/spawnloop.c).  The MC domain then has 4 groups of 2 CPUs (the
#      cores), so update_pick_idlest chooses between 3 candidates of
#      several CPUs, where the policies' tie-breaks differ (both kernels:
#      the VM's CPU says GenuineIntel, from whose CPUID leaf 0xB 6.1 too
#      reads the SMT threads).  A level with
#      only 2 groups (the SMT domain; every level of 2 nodes of 2 cores x 2
#      threads, the NUMA shapes that fit in 8 vCPUs) has one candidate and
#      no choice to make.
#   3. host: `fairlab experiment --report-only` (tools/experiment/analyze.sh):
#      one table (fairlab compare), plots (fairlab plot), the Pareto
#      verdict; then demo/whatif.sh: the live runs against their replays.
#
# KERNEL: the kernel to run it on (a port, 6.1 or 6.12; default the newest).
#
# Output: build/demo/<release>/ (DEMO_OUT): vm-tg/ and vm-idlest/ (artifacts and
# console), recordings/ (every .dat + throughput.tsv), results/ (table.txt,
# table.tsv, idlest.txt, verdict.txt, plots/).
#
# Environment: QUICK=1 (1 round of 2 s, the 8 required policies, no
# layouts; < 3 min),
# DEMO_ROUNDS, DEMO_SECS, DEMO_POLICIES (comma-separated), DEMO_IDLEST,
# DEMO_IDLEST_ROUNDS, DEMO_OUT, DEMO_ONLY (tg or idlest: that VM only).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

QUICK=${QUICK:-0}
[ "$QUICK" = 0 ] || [ "$QUICK" = 1 ] || { echo "demo: QUICK must be 0 or 1" >&2; exit 2; }
required=stock,force,nonzero,relative:8,fixed:16,log2:8,ratelimit:1000,budget:5
if [ "$QUICK" = 1 ]; then
	: "${DEMO_ROUNDS:=1}" "${DEMO_SECS:=2}" "${DEMO_POLICIES:=$required}"
	: "${DEMO_IDLEST_ROUNDS:=1}"
else
	: "${DEMO_ROUNDS:=5}" "${DEMO_SECS:=3}"
	# The layouts, and the read caches chosen with `fairlab whatif
	# --policy=stock --layout=node:100,node:1000,node:10000,node:100000
	# --error=shares` on make demo-quick's stock recording (2026-12-03,
	# 2 s, 6.12; 6.1 the same picture): node:100 to node:10000 move as many
	# cross-node transfers as the plain split (3,678 to 3,801 against
	# node's 3,678 and global's 2,588) at a shares error from 0.79% to
	# 7.2% (global 0.77%); node:100000 (100 ms) is the only refresh that
	# cuts them, 3.1x below global (838), at 9.4%: the best read cache.
	# node:1000 (1 ms) stays beside it as the short refresh that keeps
	# stock's error (0.94%), to show that price live.
	: "${DEMO_POLICIES:=$required,relative:16,turner1,turner2,stock/node,stock/llc,stock/node:1000,stock/node:100000}"
	: "${DEMO_IDLEST_ROUNDS:=3}"
fi
: "${DEMO_IDLEST:=stock,idle_cpus,nr_running}"
: "${DEMO_ONLY:=}"
case $DEMO_ONLY in
"") ;;
tg) DEMO_IDLEST= ;;
idlest) DEMO_POLICIES= ;;
*) echo "demo: DEMO_ONLY must be tg or idlest, not '$DEMO_ONLY'" >&2; exit 2 ;;
esac
. scripts/ports.sh
KERNEL=${KERNEL:-$(fl_ready_ports | tail -n1)}
KREL=$(fl_kernel_krel "$KERNEL")
[ -n "$KREL" ] || { echo "demo: no port for kernel '$KERNEL'; supported builds: $(fl_supported)" >&2; exit 2; }
export KERNEL
out=${DEMO_OUT:-$top/build/demo/$KREL}
t0=$SECONDS

# ------------------------------------------------ set-up
. demo/vm.sh
demo_setup demo
# the idlest VM's workload: static, so the guest needs no libc for it
if [ -n "$DEMO_IDLEST" ] && { [ ! -x build/spawnloop ] || [ demo/spawnloop.c -nt build/spawnloop ]; }; then
	${CC:-cc} -std=c11 -O2 -Wall -Wextra -static -o build/spawnloop demo/spawnloop.c
fi
echo "demo: kernel $KREL"
mkdir -p "$out"

npol=$(echo "$DEMO_POLICIES" | tr ',' '\n' | grep -c . || true)
nidl=$(echo "$DEMO_IDLEST" | tr ',' '\n' | grep -c . || true)
echo "demo: $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) host cores; QUICK=$QUICK:" \
	"$npol tg policies x $DEMO_ROUNDS round(s) x ${DEMO_SECS}s," \
	"$nidl idlest policies x $DEMO_IDLEST_ROUNDS round(s)"
echo "demo: output in $out"

# guest time per recording: the workload plus ~7 s of trace-cmd start/stop
# and fairlab experiment reading the file back (seen in demo-quick);
# TCG on a shared host is slower, hence the factor 3.  Each VM runs its
# vCPUs on one host thread (run-scenario.sh --tcg), so with two host cores
# the two VMs run side by side.
failed=
tgpid=
if [ "$npol" -gt 0 ]; then
	tmo=$(( 90 + 3 * npol * DEMO_ROUNDS * (DEMO_SECS + 7) ))
	echo "demo: VM tg: tg->load_avg policies, 4 vCPUs in 2 NUMA nodes (limit ${tmo}s)"
	vm tg "$tmo" demo/demo.guest.sh --smp 4 --numa --mem 2048 -- \
		"DEMO_ROUNDS=$DEMO_ROUNDS DEMO_SECS=$DEMO_SECS DEMO_POLICIES=$DEMO_POLICIES DEMO_IDLEST=none" &
	tgpid=$!
	[ "$(nproc)" -ge 2 ] || { wait $tgpid || failed="$failed tg"; tgpid=; }
fi
if [ "$nidl" -gt 0 ]; then
	# the workload runs 2 x DEMO_SECS (exec loop, fork loop); 8 vCPUs on
	# one host thread boot and record slower, hence the factor 4
	tmo=$(( 120 + 4 * nidl * DEMO_IDLEST_ROUNDS * (2 * DEMO_SECS + 7) ))
	echo "demo: VM idlest: update_pick_idlest policies on exec and fork loops, 8 vCPUs: 4 cores x 2 threads (limit ${tmo}s)"
	# sched_verbose: the boot prints every domain and its groups
	vm idlest "$tmo" demo/demo.guest.sh --smp 8 --threads 2 --mem 1024 -- \
		"sched_verbose DEMO_ROUNDS=0 DEMO_SECS=$DEMO_SECS DEMO_POLICIES=none DEMO_IDLEST=$DEMO_IDLEST DEMO_IDLEST_ROUNDS=$DEMO_IDLEST_ROUNDS" ||
		failed="$failed idlest"
fi
[ -z "$tgpid" ] || wait $tgpid || failed="$failed tg"

# ------------------------------------------------ recordings in one place
# (a failed VM run brings back its console only: its part is missing below)
rm -rf "$out/recordings"
mkdir -p "$out/recordings"
first=1
for d in "$out/vm-tg/tg/recordings" "$out/vm-idlest/idlest/recordings"; do
	[ -s "$d/throughput.tsv" ] || continue
	if [ $first = 1 ]; then head -1 "$d/throughput.tsv" >"$out/recordings/throughput.tsv"; first=0; fi
	tail -n +2 "$d/throughput.tsv" >>"$out/recordings/throughput.tsv"
	for f in "$d"/*.dat; do [ -e "$f" ] && ln -s "../${f#"$out"/}" "$out/recordings/"; done
done
[ $first = 0 ] || { echo "demo: no recordings came back" >&2; exit 1; }
echo "demo: [$(( (SECONDS - t0) / 60 )):$(printf %02d $(( (SECONDS - t0) % 60 )))]" \
	"$(ls "$out"/recordings/*.dat | wc -l) recordings, $(du -shL "$out/recordings" | cut -f1); analysing"
echo

# ------------------------------------------------ analysis
arc=0
build/fairlab experiment --report-only -o "$out" || arc=$?
echo
# the replay against the live runs (whatif.txt, plots/whatif-pareto.png)
[ "$npol" = 0 ] || { demo/whatif.sh "$out/recordings" "$out/results" && echo || arc=$?; }
if [ -n "$failed" ] || [ $arc != 0 ]; then
	echo "demo: FAILED after $(( (SECONDS - t0) / 60 ))m$(printf %02d $(( (SECONDS - t0) % 60 )))s:" \
		"${failed:+VM run(s)$failed failed (their part is missing above)}${failed:+; }analysis exit $arc" >&2
	exit 1
fi
echo "demo: done in $(( (SECONDS - t0) / 60 ))m$(printf %02d $(( (SECONDS - t0) % 60 )))s; results in $out/results/" \
	"(table.txt, table.tsv, idlest.txt, verdict.txt, plots/pareto.png)"
