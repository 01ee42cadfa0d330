#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of the smoke scenario: smoke.dat must decode with the host's
# trace-cmd and contain sched_process_fork events.
#   smoke.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: smoke.host.sh ARTIFACT_DIR}
dat=$dir/smoke.dat
rc=0

if [ ! -s "$dat" ]; then
	echo "not ok - smoke.host: $dat missing or empty"
	exit 1
fi
if trace-cmd report -i "$dat" >"$dir/smoke.report.txt" 2>"$dir/smoke.report.err"; then
	echo "ok - smoke.host: trace-cmd report decodes smoke.dat"
else
	echo "not ok - smoke.host: trace-cmd report failed: $(head -2 "$dir/smoke.report.err")"
	exit 1
fi
forks=$(grep -c 'sched_process_fork:' "$dir/smoke.report.txt" || true)
if [ "$forks" -gt 0 ]; then
	echo "ok - smoke.host: $forks sched_process_fork events"
else
	echo "not ok - smoke.host: no sched_process_fork events in smoke.dat"
	rc=1
fi
if trace-cmd report -i "$dat" -E 2>/dev/null | grep -q '^fairlab:tg_update'; then
	echo "ok - smoke.host: fairlab event formats stored in smoke.dat"
else
	echo "not ok - smoke.host: fairlab event formats missing from smoke.dat"
	rc=1
fi
exit $rc
