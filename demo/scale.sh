#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-scale: how tg->load_avg's contention and error grow with the
# CPU count.
#
#   1. for each CPU count in SCALE_CPUS, one VM (2 NUMA nodes from 4 vCPUs
#      up, 2 GB; from 16 vCPUs up 2 dies per node, see below):
#      demo/scale.guest.sh runs `fairlab experiment` over
#      SCALE_POLICIES x SCALE_ROUNDS recordings of the per-CPU workload
#      demo/scale-workload.sh (N hackbench groups, N fork workers, N
#      sleepers for N CPUs) of SCALE_SECS seconds each
#   2. host, per CPU count: `fairlab experiment --report-only` (the table
#      of make demo for that count: cpus-N/results/table.txt)
#   3. host: demo/scale-analyze.sh: per CPU count and policy, the mean and
#      stddev over the rounds of the modeled coherence transfers per second
#      and per tg_update attempt, the shares error (mean, p99) and write%;
#      results/scale.txt, scale.tsv and plots/scale.png/.svg against the
#      CPU count, one line per policy, error bars = stddev over the rounds
#
# The tg_layouts (POLICY/LAYOUT, docs/module.md) run as policies:
# stock/node, stock/llc and stock/node:100000, the read cache make demo
# found best (demo/demo.sh), so each layout's cost is a curve against the
# CPUs per node.  The LLCs: run-scenario.sh --numa gives one socket per
# node, and QEMU 7.2's x86 CPUID leaf 4 shares the L3 per die, so up to 8
# vCPUs llc is node (one die per socket).  From 16 vCPUs up the VM gets
# --dies 2 (-smp N,sockets=2,dies=2: the CPU says GenuineIntel, whose
# leaf 4 both kernels read): 2 LLCs of N/4 CPUs per node, and llc becomes
# a split of its own.  The guest logs the nodes and LLCs the kernel made
# ("topology:" in the progress lines, vm-cpusN/topology.txt).
#
# KERNEL: the kernel to run it on (a port, 6.1 or 6.12; default the newest).
# Output: build/demo-scale/<release>/ (SCALE_OUT): vm-cpusN/ (artifacts),
# vm-cpusN.log (console), cpus-N/ (recordings, results), results/.
#
# Environment: SCALE_CPUS (default 2,4,8,16), SCALE_POLICIES (default
# stock,ratelimit:1000,relative:8,force,stock/node,stock/llc,stock/node:100000),
# SCALE_ROUNDS (default 3: 4 x 7 x 3 = 84 runs, as many as the 80 of 4
# policies x 5 rounds before the layouts, so about the same 11-12 min on
# 2 host cores; at least 2, so that every point has a spread), SCALE_SECS
# (default 3), SCALE_OUT.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

: "${SCALE_CPUS:=2,4,8,16}"
: "${SCALE_POLICIES:=stock,ratelimit:1000,relative:8,force,stock/node,stock/llc,stock/node:100000}"
: "${SCALE_ROUNDS:=3}" "${SCALE_SECS:=3}"
[[ $SCALE_ROUNDS =~ ^[0-9]+$ ]] && [ "$SCALE_ROUNDS" -ge 2 ] ||
	{ echo "demo-scale: SCALE_ROUNDS must be 2 or more (a point needs its spread)" >&2; exit 2; }
[[ $SCALE_SECS =~ ^[1-9][0-9]*$ ]] || { echo "demo-scale: SCALE_SECS must be a positive integer" >&2; exit 2; }
cpus=$(echo "$SCALE_CPUS" | tr ',' ' ')
for n in $cpus; do
	[[ $n =~ ^[1-9][0-9]*$ ]] && { [ "$n" -lt 4 ] || [ $((n % 2)) = 0 ]; } ||
		{ echo "demo-scale: SCALE_CPUS: '$n' is not 1-3 or an even count" >&2; exit 2; }
done
. scripts/ports.sh
KERNEL=${KERNEL:-$(fl_ready_ports | tail -n1)}
KREL=$(fl_kernel_krel "$KERNEL")
[ -n "$KREL" ] || { echo "demo-scale: no port for kernel '$KERNEL'; supported builds: $(fl_supported)" >&2; exit 2; }
export KERNEL
out=${SCALE_OUT:-$top/build/demo-scale/$KREL}
t0=$SECONDS

# ------------------------------------------------ set-up (as demo/demo.sh)
. demo/vm.sh
demo_setup demo-scale
mkdir -p "$out"

npol=$(echo "$SCALE_POLICIES" | tr ',' '\n' | grep -c .)
nvm=$(echo $cpus | wc -w)
total=$((nvm * npol * SCALE_ROUNDS))
echo "demo-scale: $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) host cores, kernel $KREL:" \
	"CPU counts $SCALE_CPUS x $npol policies x $SCALE_ROUNDS rounds x ${SCALE_SECS}s = $total runs"
echo "demo-scale: output in $out"

# progress: each run's line ("run i/n" of its VM) gets the run's place in
# the whole experiment and an ETA from the mean host time per run so far
# (boots included; a 16-vCPU run takes longer than a 2-vCPU one, so the
# ETA grows a little at each larger count)
done_before=0
progress_line() {
	local eta='?' i k re='^experiment: \[[0-9:]+\] (.*) \(run ([0-9]+)/[0-9]+, ETA [^)]*\)$'
	if [[ $2 =~ $re ]]; then
		i=$((done_before + BASH_REMATCH[2]))
		k=$((i - 1))
		if [ $k -gt 0 ]; then
			eta=$(( (SECONDS - t0) * (total - k) / k ))
			eta=$(printf '%d:%02d' $((eta / 60)) $((eta % 60)))
		fi
		printf '[%6s] %s: run %d/%d (ETA %s): %s\n' "$(elapsed)" "$1" "$i" "$total" "$eta" "${BASH_REMATCH[1]}"
		return
	fi
	printf '[%6s] %s: %s\n' "$(elapsed)" "$1" "$2"
}

# ------------------------------------------------ one VM per CPU count
failed=
for n in $cpus; do
	numa=; [ "$n" -ge 4 ] && numa=--numa
	# 2 LLCs per node where a die of 4 or more CPUs fits (see the header)
	dies=; [ "$n" -ge 16 ] && [ $((n % 4)) = 0 ] && dies="--dies 2"
	# per run: the workload, ~7 s of trace-cmd start/stop and read-back at
	# 4 vCPUs, more with more vCPUs on the one host thread; x3 for a host
	# shared with other VMs
	tmo=$(( 120 + 2 * n + 3 * npol * SCALE_ROUNDS * (SCALE_SECS + 7 + n / 2) ))
	echo "demo-scale: [$(elapsed)] VM cpus$n: $n vCPUs${numa:+ in 2 NUMA nodes}${dies:+ of 2 dies (LLCs) each}, 2 GB (limit ${tmo}s)"
	vm "cpus$n" "$tmo" demo/scale.guest.sh --smp "$n" $numa $dies --mem 2048 -- \
		"DEMO_ROUNDS=$SCALE_ROUNDS DEMO_SECS=$SCALE_SECS DEMO_POLICIES=$SCALE_POLICIES FL_TRACE_BUF_KB=8192" ||
		failed="$failed cpus$n"
	done_before=$((done_before + npol * SCALE_ROUNDS))
	rec=$out/vm-cpus$n/tg/recordings
	rm -rf "$out/cpus-$n"
	mkdir -p "$out/cpus-$n"
	[ -s "$rec/throughput.tsv" ] && ln -s "../vm-cpus$n/tg/recordings" "$out/cpus-$n/recordings"
done

# ------------------------------------------------ analysis
echo "demo-scale: [$(elapsed)] analysing"
arc=0
for n in $cpus; do
	[ -e "$out/cpus-$n/recordings" ] || continue
	build/fairlab experiment --report-only -o "$out/cpus-$n" >"$out/cpus-$n/analysis.log" 2>&1 || {
		echo "demo-scale: the analysis of cpus-$n failed (see $out/cpus-$n/analysis.log)" >&2; arc=1; }
done
echo
demo/scale-analyze.sh "$out" "$out/results" || arc=$?
if [ -n "$failed" ] || [ $arc != 0 ]; then
	echo "demo-scale: FAILED after $(elapsed):${failed:+ VM run(s)$failed failed;} analysis exit $arc" >&2
	exit 1
fi
echo "demo-scale: done in $(elapsed) (m:ss); results in $out/results/" \
	"(scale.txt, scale.tsv, plots/scale.png, plots/scale.svg; per CPU count: cpus-N/results/table.txt)"
