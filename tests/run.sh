#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fairlab test runner (make check).  Runs every unit test (tests/unit/*.t,
# no root, no VM) and every VM scenario (tests/vm/scenarios/*.guest.sh,
# through tests/vm/run-scenario.sh), and ends with "N passed, N failed".
#
# A scenario may name its VM shape in a "# fairlab-vm: --smp 4 --numa" line.
# A test prints "ok - NAME" / "not ok - NAME" lines (TAP-like); each counts.
# A test that exits non-zero without a "not ok" line counts as one failure,
# one that exits 0 without an "ok" line as one pass.
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
	-h|--help) sed -n '3,13p' "$0"; exit 0 ;;
	*) filter=$a ;;
	esac
done

passed=0
failed=0
failures=()
logdir=$top/build/test-logs
mkdir -p "$logdir"
t0=$(date +%s)

# run_one NAME COMMAND...: run, stream output, count ok/not ok lines.
run_one() {
	local name=$1; shift
	local log=$logdir/$(echo "$name" | tr '/ ' '__').log
	local s=$(date +%s)
	printf '=== %s\n' "$name"
	"$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]}
	local ok nok
	ok=$(grep -c '^ok ' "$log")
	nok=$(grep -c '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
		nok=1
		echo "not ok - $name (exit status $rc)"
	fi
	[ "$rc" -eq 0 ] && [ "$ok" -eq 0 ] && [ "$nok" -eq 0 ] && ok=1
	passed=$((passed + ok))
	failed=$((failed + nok))
	[ "$nok" -gt 0 ] && failures+=("$name")
	printf -- '--- %s: %d ok, %d not ok, %ds (log %s)\n' "$name" "$ok" "$nok" \
		$(( $(date +%s) - s )) "${log#$top/}"
}

if [ "$mode" != vm ]; then
	for t in tests/unit/*.t; do
		[ -x "$t" ] || continue
		[ -n "$filter" ] && [[ $t != *$filter* ]] && continue
		run_one "$t" "$t"
	done
fi

if [ "$mode" != unit ]; then
	for s in tests/vm/scenarios/*.guest.sh; do
		[ -e "$s" ] || continue
		[ -n "$filter" ] && [[ $s != *$filter* ]] && continue
		# "# fairlab-vm: OPTIONS" in a scenario: its VM shape (--smp 4 ...)
		vmopts=$(sed -n 's/^#[[:space:]]*fairlab-vm:[[:space:]]*//p' "$s" | head -n1)
		# shellcheck disable=SC2086
		run_one "$s" tests/vm/run-scenario.sh $vmopts "$s"
	done
fi

echo
echo "total time: $(( $(date +%s) - t0 ))s"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed tests:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
