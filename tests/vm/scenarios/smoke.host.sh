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
# the policy recording: the fairlab tool reads it, segment by segment
fl=${TOP:-.}/build/fairlab
pol=$dir/policies.dat
if [ ! -x "$fl" ]; then
	echo "not ok - smoke.host: $fl missing (make userspace)"
	rc=1
elif "$fl" report "$pol" >"$dir/policies.report.txt" 2>"$dir/policies.report.err"; then
	# a segment per policy: "== Segment N: tg policy P, idlest policy I =="
	seg=$(sed -n 's/^== Segment [0-9]*: tg policy \([^,]*\), idlest policy \([^ ]*\) ==$/\1 \2/p' \
		"$dir/policies.report.txt")
	miss=
	for p in stock force nonzero relative:8 turner1 turner2 fixed:64 log2:8 ratelimit:1000 budget:5; do
		echo "$seg" | awk -v p="$p" '$1 == p { f = 1 } END { exit !f }' || miss="$miss $p"
	done
	for p in idle_cpus nr_running; do
		echo "$seg" | awk -v p="$p" '$2 == p { f = 1 } END { exit !f }' || miss="$miss $p"
	done
	if [ -z "$miss" ]; then
		echo "ok - smoke.host: fairlab report reads policies.dat: a segment for every policy"
	else
		echo "not ok - smoke.host: fairlab report of policies.dat has no segment for:$miss"
		rc=1
	fi
else
	echo "not ok - smoke.host: fairlab report policies.dat failed: $(head -2 "$dir/policies.report.err")"
	rc=1
fi
exit $rc
