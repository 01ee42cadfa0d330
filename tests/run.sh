#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fairlab test runner (make check).  Runs every unit test (tests/unit/*.t,
# no root, no VM) and every VM scenario (tests/vm/scenarios/*.guest.sh,
# through tests/vm/run-scenario.sh), and ends with "N passed, N failed".
#
# Every VM scenario runs once per supported kernel (a port with a port.c:
# module/port/*/), named "SCENARIO [PORT]"; a "# fairlab-kernels: 6.12"
# line runs a scenario on the kernels it names instead, written ports or
# not (such a scenario must not need fairlab.ko); FAIRLAB_TEST_KERNELS
# (e.g. "6.1") restricts the whole run.  The smoke scenario also runs on
# each port's smoke build ("smoke [6.1.0-57-cloud-amd64]": a served build
# in another flavour, scripts/ports.sh fl_smoke_build; make smoke-modules
# builds its modules).
# A scenario may name its VM shape in a "# fairlab-vm: --smp 4 --numa" line.
# Opt-in scenarios (tests/vm/optin/*.guest.sh) run only when FILTER names
# them (make check-layout: tests/run.sh --vm-only tg-layout).
# A test prints "ok - NAME" / "not ok - NAME" lines (TAP-like); each counts.
# A test that exits non-zero without a "not ok" line counts as one failure,
# one that exits 0 without an "ok" line as one pass.
#
# VM scenarios (and, in a full run, the unit tests after them) run
# FAIRLAB_TEST_JOBS at a time (default: the number of host
# CPUs, at most 2): each QEMU runs its vCPUs on one host thread (see --tcg in
# tests/vm/run-scenario.sh), so two of them keep two cores busy.  A
# scenario's output is printed in one block when it finishes.
#
#   tests/run.sh [--unit-only | --vm-only] [FILTER]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

mode=all
filter=
for a in "$@"; do
	case $a in
	--unit-only) mode=unit ;;
	--vm-only) mode=vm ;;
	-h|--help) sed -n '3,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) filter=$a ;;
	esac
done

passed=0
failed=0
failures=()
logdir=$top/build/test-logs
mkdir -p "$logdir"
t0=$(date +%s)

logof() { echo "$logdir/$(echo "$1" | tr '/ ' '__').log"; }

# account NAME LOG RC SECONDS: count the ok/not ok lines of a finished test.
account() {
	local name=$1 log=$2 rc=$3 secs=$4
	local ok nok
	ok=$(grep -c '^ok ' "$log")
	nok=$(grep -c '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
		nok=1
		echo "not ok - $name (exit status $rc)" | tee -a "$log"
	fi
	[ "$rc" -eq 0 ] && [ "$ok" -eq 0 ] && [ "$nok" -eq 0 ] && ok=1
	passed=$((passed + ok))
	failed=$((failed + nok))
	[ "$nok" -gt 0 ] && failures+=("$name")
	printf -- '--- %s: %d ok, %d not ok, %ds (log %s)\n' "$name" "$ok" "$nok" \
		"$secs" "${log#$top/}"
}

# run_one NAME COMMAND...: run in the foreground, stream output, count.
run_one() {
	local name=$1; shift
	local log s
	log=$(logof "$name")
	s=$(date +%s)
	printf '=== %s\n' "$name"
	"$@" 2>&1 | tee "$log"
	account "$name" "$log" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))
}

# A pool of background tests: start_bg NAME COMMAND... starts one, finish_bg
# waits for any one to end and prints its block.
declare -A bg_name=() bg_start=()
start_bg() {
	local name=$1; shift
	local log
	log=$(logof "$name")
	"$@" >"$log" 2>&1 &
	bg_name[$!]=$name
	bg_start[$!]=$(date +%s)
}
finish_bg() {
	local pid rc name log
	wait -n -p pid; rc=$?
	name=${bg_name[$pid]}
	log=$(logof "$name")
	printf '=== %s\n' "$name"
	cat "$log"
	account "$name" "$log" "$rc" $(( $(date +%s) - ${bg_start[$pid]} ))
	unset "bg_name[$pid]" "bg_start[$pid]"
}

jobs_max=${FAIRLAB_TEST_JOBS:-$(nproc)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: FAIRLAB_TEST_JOBS must be a positive integer" >&2; exit 2; }
[ "${FAIRLAB_TEST_JOBS:-}" ] || [ "$jobs_max" -le 2 ] || jobs_max=2

units=()
if [ "$mode" != vm ]; then
	for t in tests/unit/*.t; do
		[ -x "$t" ] || continue
		[ -n "$filter" ] && [[ $t != *$filter* ]] && continue
		units+=("$t")
	done
fi
# Alone, the unit tests stream in the foreground.  With the VM scenarios
# they join the pool after them: they take minutes of host CPU, and run
# serially first they left one of the two cores idle all that time.
if [ "$mode" = unit ]; then
	for t in "${units[@]}"; do run_one "$t" "$t"; done
fi

if [ "$mode" != unit ]; then
	# longest first (by the --timeout a scenario asks for), so that the
	# pool does not end with one long scenario running alone
	. scripts/ports.sh
	kernels=${FAIRLAB_TEST_KERNELS:-$(fl_ready_ports)}
	# tests/vm/optin/: scenarios that run only when named (FILTER)
	optin=
	[ -z "$filter" ] || optin=$(echo tests/vm/optin/*.guest.sh)
	# shellcheck disable=SC2086
	for ks in $(for f in tests/vm/scenarios/*.guest.sh $optin; do
			[ -e "$f" ] || continue
			t=$(sed -n 's/^#[[:space:]]*fairlab-vm:.*--timeout[= ]\([0-9]*\).*/\1/p' "$f" | head -n1)
			only=$(sed -n 's/^#[[:space:]]*fairlab-kernels:[[:space:]]*//p' "$f" | head -n1)
			# a scenario naming its kernels runs on each of them that is
			# fetched (kernel.conf), written port or not: it needs no fairlab.ko
			for k in ${only:-$kernels}; do
				[ -f "module/port/$k/kernel.conf" ] || continue
				[ -z "${FAIRLAB_TEST_KERNELS:-}" ] || [[ " $FAIRLAB_TEST_KERNELS " == *" $k "* ]] || continue
				echo "${t:-300} $k:$f"
				# the smoke scenario also runs on one more served
				# build of each series (its image, its modules)
				if [ "$(basename "$f")" = smoke.guest.sh ] && [ -z "$only" ]; then
					sb=$(fl_smoke_build "$k")
					[ -z "$sb" ] || echo "${t:-300} $sb:$f"
				fi
			done
		done | sort -s -k1,1nr | cut -d' ' -f2); do
		k=${ks%%:*}
		s=${ks#*:}
		[ -n "$filter" ] && [[ "$s [$k]" != *$filter* ]] && continue
		[ ${#bg_name[@]} -lt "$jobs_max" ] || finish_bg
		# the VM shape: the scenario's "# fairlab-vm:" line, which
		# run-scenario.sh reads
		start_bg "$s [$k]" tests/vm/run-scenario.sh --kernel "$k" \
			${FAIRLAB_TEST_APPEND:+--append "$FAIRLAB_TEST_APPEND"} "$s"
	done
	for t in "${units[@]}"; do
		[ ${#bg_name[@]} -lt "$jobs_max" ] || finish_bg
		start_bg "$t" "$t"
	done
	while [ ${#bg_name[@]} -gt 0 ]; do finish_bg; done
fi

echo
echo "total time: $(( $(date +%s) - t0 ))s"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed tests:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
