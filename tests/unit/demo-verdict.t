#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo's verdict (tools/experiment/verdict.awk, the verdict of
# fairlab experiment and make demo) on hand-made tables: a
# policy is dominated only when another's writes and mean |E| are both
# lower beyond the round-to-round spread (Welch's one-sided t-test, 5%),
# or lower in one and exactly equal in the other; otherwise a Pareto order
# of the means is "not distinguishable".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# row POLICY RUNS WRITES/S SD% E_MEAN SD% WRITE% SD%(of write%): a table.tsv
# row (analyze.sh's columns; skip% = 100 - write%, its stddev in % of skip%)
row() {
	awk -v p="$1" -v n="$2" -v ws="$3" -v wsd="$4" -v e="$5" -v esd="$6" -v wa="$7" -v wasd="$8" 'BEGIN {
		skip = 100 - wa; ssd = skip > 0 ? wa * wasd / skip : 0
		for (c = 1; c <= 34; c++) f[c] = ""
		f[1] = p; f[2] = n; f[3] = ws; f[4] = wsd; f[15] = e; f[16] = esd
		f[27] = skip; f[28] = ssd
		for (c = 1; c <= 34; c++) printf "%s%s", f[c], c < 34 ? "\t" : "\n"
	}'
}
# verdict_of: the verdict of the rows on stdin (after a header), in $tmp/v
verdict_of() {
	{ printf 'policy\truns\n'; cat; } >"$tmp/t"
	awk -F'\t' -f "$top/tools/experiment/verdict.awk" "$tmp/t" >"$tmp/v"
}
# line KIND SECTION: the "KIND:" line of section "by writes/s" or "by writes per attempt"
line() { awk -v sec="$2" -v k="$1" '/^  by / { on = index($0, sec) > 0 } on && index($0, k ":") { print; exit }' "$tmp/v"; }

# The run issue 13 quotes: stock 62.5% +-5 vs fixed:16 57.7% +-3 write%,
# mean |E| 5.49 +-20% vs 4.97 +-17%, 5 rounds.  write%: t = 4.8 /
# sqrt(3.125^2/5 + 1.731^2/5) = 3.00, df 6.2 -> 6, t crit 1.943: lower
# beyond the spread.  |E|: t = 0.52 / sqrt(1.098^2/5 + 0.845^2/5) = 0.84:
# not.  So stock is not dominated: not distinguishable from fixed:16.
{
	row stock 5 1965 18 5.49 20 62.5 5
	row fixed:16 5 1727 8 4.97 17 57.7 3
} | verdict_of
check "issue's run: stock not dominated by fixed:16 (|E| within the spread)" \
	eval '! line dominated "per attempt" | grep -q stock'
check "issue's run: stock 'not distinguishable' from fixed:16" \
	eval 'line "not distinguishable" "per attempt" | grep -q "stock (vs fixed:16)"'
check "issue's run: the verdict names the test" grep -q "Welch's one-sided t-test at 5%" "$tmp/v"

# force vs nonzero: both |E| 0 in every round (equal, no spread); write%
# 100 +-0 against 82.4 +-2% (1.648): t = 17.6 / 0.737 = 23.9: nonzero
# dominates force.  relative:8 (41.4% +-4%, |E| 96.11 +-16%) has fewer
# writes but far more error: not comparable, Pareto-optimal.
{
	row force 5 3076 3 0 0 100 0
	row nonzero 5 2692 6 0 0 82.4 2
	row relative:8 5 1377 11 96.11 16 41.4 4
} | verdict_of
check "force dominated by nonzero (same zero error, fewer writes beyond the spread)" \
	eval 'line dominated "per attempt" | grep -q "force (by nonzero)"'
check "nonzero and relative:8 Pareto-optimal" \
	eval 'line Pareto-optimal "per attempt" | grep -q "nonzero, relative:8"'

# The edge of the test, by hand: A writes/s 10 (sd 10% = 1), |E| 10 (sd 1),
# B |E| 11.5 (sd 1), writes/s 11.5 (sd 1), 5 rounds each:
# t = 1.5 / sqrt(0.2 + 0.2) = 2.37, df = 0.16 / (2 * 0.04 / 4) = 8,
# t crit(8) 1.860: lower, in both: B dominated.  C at 11.1: t = 1.74 < 1.860.
{
	row A 5 10 10 10 10 50 0
	row B 5 11.5 8.695652 11.5 8.695652 50 0
	row C 5 11.1 9.009009 11.1 9.009009 50 0
} | verdict_of
check "t = 2.37 > 1.860 (df 8): B dominated by A by writes/s" \
	eval 'line dominated "writes/s" | grep -q "B (by A)"'
check "t = 1.74 < 1.860: C not distinguishable from A" \
	eval 'line "not distinguishable" "writes/s" | grep -q "C (vs A)" && ! line dominated "writes/s" | grep -q "C ("'

# One round per policy (make demo QUICK=1): no spread, nothing confirmed.
{
	row stock 1 1965 0 6.05 0 64.9 0
	row fixed:16 1 1727 0 5.06 0 59.0 0
} | verdict_of
check "one round: nothing dominated" eval 'line dominated "writes/s" | grep -q "none$"'
check "one round: stock not distinguishable, and the verdict says why" \
	eval 'line "not distinguishable" "writes/s" | grep -q "stock (vs fixed:16)" && grep -q "fewer than 2 rounds" "$tmp/v"'
tap_end
