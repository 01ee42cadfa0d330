#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of demo-scale: make demo-scale's host step on the guest's
# recordings, laid out as demo/scale.sh does (cpus-4/): fairlab experiment
# --report-only, then demo/scale-analyze.sh.  Asserts that the recordings
# hold 4 CPUs in 2 nodes, that the scale table has a row per policy with
# its 2 rounds and every figure, that force writes on every attempt and
# that modeled transfers were counted, and that the plots were written.
#   demo-scale.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: demo-scale.host.sh ARTIFACT_DIR}
top=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
FAIRLAB=${FAIRLAB:-$top/build/fairlab}
rc=0
t() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi; }

out=$dir/scale
rm -rf "$out"
mkdir -p "$out/cpus-4"
ln -s ../../tg/recordings "$out/cpus-4/recordings"
"$FAIRLAB" experiment --report-only -o "$out/cpus-4" >"$out/cpus-4/analysis.log" 2>&1
s=$?
t "fairlab experiment --report-only on the 4-CPU recordings: exit 0" '[ $s = 0 ]'
f=$(ls "$dir"/tg/recordings/tg-stock-r1.dat 2>/dev/null)
cpus=$("$FAIRLAB" report --csv --table=cpus "$f" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "node") c = i; next } { n++; nd[$c] = 1 } END { print n + 0, length(nd) }')
t "the recordings hold 4 CPUs in 2 nodes (cpu_topology): got ${cpus:-none}" '[ "$cpus" = "4 2" ]'

"$top/demo/scale-analyze.sh" "$out" "$out/results" >"$out/analyze.log" 2>&1
s=$?
sed 's/^/# /' "$out/analyze.log"
t "demo/scale-analyze.sh: exit 0" '[ $s = 0 ]'
tsv=$out/results/scale.tsv
t "scale.tsv: rows 4/stock and 4/force, 2 rounds each" \
	'[ "$(awk -F"\t" "NR > 1 { printf \"%s/%s/%s \", \$1, \$2, \$3 }" "$tsv")" = "4/stock/2 4/force/2 " ]'
t "scale.tsv: every figure and spread is a number" \
	'awk -F"\t" "NR > 1 { for (i = 4; i <= NF; i++) if (\$i !~ /^[0-9.e+-]+\$/) exit 1 }" "$tsv"'
t "force writes on 100% of its attempts in every round" \
	'awk -F"\t" "\$1 == 4 && \$2 == \"force\" { f = (\$12 == 100 && \$13 == 0) } END { exit !f }" "$tsv"'
t "modeled transfers counted under both policies (> 0 per attempt)" \
	'awk -F"\t" "NR > 1 && \$6 + 0 <= 0 { bad = 1 } END { exit bad }" "$tsv"'
t "plots scale.png and scale.svg written" '[ -s "$out/results/plots/scale.png" ] && [ -s "$out/results/plots/scale.svg" ]'
exit $rc
