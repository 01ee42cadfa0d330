#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of record-experiment: fairlab experiment --report-only on the
# experiment the guest recorded writes the table, verdict and plots of
# make demo, with a row per policy; and the interrupted-then-resumed one
# reports the same way.
#   record-experiment.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: record-experiment.host.sh ARTIFACT_DIR}
top=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
FAIRLAB=${FAIRLAB:-$top/build/fairlab}
rc=0
t() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi; }

for e in exp int; do
	"$FAIRLAB" experiment --report-only -o "$dir/$e" >"$dir/$e.report.txt" 2>&1
	s=$?
	sed 's/^/# /' "$dir/$e.report.txt"
	t "experiment --report-only ($e): exit 0" '[ $s = 0 ]'
	t "$e: table.txt has a row for stock and for force, 2 runs each" \
		'[ "$(awk '\''$1 == "stock" || $1 == "force" { print $1 $2 }'\'' "$dir/$e/results/table.txt" | sort | tr "\n" " ")" = "force2 stock2 " ]'
	t "$e: verdict.txt and the Pareto plots written" \
		'grep -q "^Verdict:" "$dir/$e/results/verdict.txt" && [ -s "$dir/$e/results/plots/pareto.png" ] && [ -s "$dir/$e/results/plots/pareto-policies.png" ]'
done
t "fairlab report reads the record --policy recording" \
	'"$FAIRLAB" report "$dir/rec.dat" >"$dir/rec.report.txt" 2>&1'
exit $rc
