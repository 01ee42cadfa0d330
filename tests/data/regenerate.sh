#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerates the analyzer's test recordings (see README.md here) from three
# VM runs of tests/vm/scenarios/analyzer-data.guest.sh (about 25 s each).
# Needs what `make check-vm` needs: the modules built (make) and the
# kernel unpacked (make deps).
#
#   tests/data/regenerate.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
scenario=tests/vm/scenarios/analyzer-data.guest.sh

# On 6.1 (the recordings the tests pin were made there).
# 8 vCPUs on 2 NUMA nodes, trace clock mono: the reference recording (at
# 8 CPUs, find_idlest_group() compares groups: real pick_idlest verdicts).
tests/vm/run-scenario.sh --kernel 6.1 --smp 8 --numa --out build/vm/analyzer-data-numa "$scenario"
cp build/vm/analyzer-data-numa/analyzer.dat tests/data/analyzer-numa.dat
# recorded before fairlab_trace.ko was loaded: no fairlab event formats
cp build/vm/analyzer-data-numa/plain.dat tests/data/sched-only.dat

# Per-CPU clock, and a one-page buffer per CPU not read during the first
# workload: a recording with lost events and a clock that is not global,
# which the analyzer must warn about.
tests/vm/run-scenario.sh --kernel 6.1 --smp 2 --out build/vm/analyzer-data-lossy \
	--append "FL_DATA_CLOCK=local FL_TRACE_BUF_KB=4 FL_DATA_PAUSE=1 FL_ALLOW_LOST=1" "$scenario"
cp build/vm/analyzer-data-lossy/analyzer.dat tests/data/analyzer-local-lossy.dat

# Every tg policy in turn, one second each (stock ... budget:5): real
# decisions of each policy for the what-if replay's exactness test.
tests/vm/run-scenario.sh --kernel 6.1 --smp 4 --numa --out build/vm/analyzer-data-policies \
	--append "FL_DATA_POLICIES=stock,force,nonzero,relative:8,turner1,turner2,fixed:16,log2:8,ratelimit:1000,budget:5" \
	"$scenario"
cp build/vm/analyzer-data-policies/analyzer.dat tests/data/analyzer-policies.dat

ls -l tests/data/*.dat
