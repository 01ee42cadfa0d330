#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo's verdict (tools/experiment/verdict.awk, the verdict of
# fairlab experiment and make demo) on hand-made tables: a
# policy is dominated only when another's writes and error (the shares
# error when every row has it, else mean |E|) are both
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
# row_sh ... SH SD%: the same row with the shares error (columns 30-31)
row_sh() {
	row "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" |
		awk -F'\t' -v OFS='\t' -v sh="$9" -v shsd="${10}" '{ $30 = sh; $31 = shsd; print }'
}
# row_x ... SH SD% XN SD%: row_sh with modeled cross-node transfers/s (columns 41-42)
row_x() {
	row_sh "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" |
		awk -F'\t' -v OFS='\t' -v x="${11}" -v xsd="${12}" '{ $41 = x; $42 = xsd; print }'
}
# verdict_of [AWK-ARGS]: the verdict of the rows on stdin (after a header), in $tmp/v
verdict_of() {
	{ printf 'policy\truns\n'; cat; } >"$tmp/t"
	awk -F'\t' "$@" -f "$top/tools/experiment/verdict.awk" "$tmp/t" >"$tmp/v"
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
# The shares error is the verdict's error when every row has it.  X has
# half stock's writes/s (1000 vs 2000, sd 1%: t = 1000 / sqrt(20^2/5 +
# 10^2/5) = 100), twice its |E| (10 vs 5, sd 1%) but a sixteenth of its
# shares error (0.2% vs 3.2%, sd 1%): by the shares error X dominates
# stock; by |E| neither dominates (each is lower in one figure).
rows_xs() {
	row_sh stock 5 2000 1 5 1 60 1 3.2 1
	row_sh X 5 1000 1 10 1 30 1 0.2 1
}
rows_xs | verdict_of
check "shares error: stock dominated by X (fewer writes, smaller shares error)" \
	eval 'line dominated "writes/s" | grep -q "stock (by X)"'
check "shares error: the verdict names its error" grep -q "error: the time-weighted mean shares error" "$tmp/v"
rows_xs | verdict_of -v err=load
check "err=load: by |E| nothing dominated (X writes less, stock errs less)" \
	eval 'line dominated "writes/s" | grep -q "none$" && line Pareto-optimal "writes/s" | grep -q "stock, X"'
check "err=load: the verdict names |E|" grep -q "error: the time-weighted mean |E|" "$tmp/v"
{
	row_sh stock 5 2000 1 5 1 60 1 3.2 1
	row X 5 1000 1 10 1 30 1
} | verdict_of
check "a row without the shares error: |E| for all, and the verdict says so" \
	eval 'grep -q "no shares error for X" "$tmp/v" && line dominated "writes/s" | grep -q "none$"'
# The Pareto picture (pareto-plot.sh) draws each verdict's frontier: the
# shares row from verdict.txt, the |E| row from verdict-load.txt, labels
# alternating above (1) and below (-1) by increasing writes.  Y has the
# fewest writes and the largest shares error, so by the shares error
# stock stays dominated by X and Y and X are optimal; by |E| X is
# dominated by Y (fewer writes, less |E|) and Y and stock are optimal.
{
	mkdir -p "$tmp/res"
	{
		printf 'policy\truns\n'
		rows_xs
		row_sh Y 5 500 1 8 1 20 1 5 1
	} >"$tmp/res/table.tsv"
	awk -F'\t' -f "$top/tools/experiment/verdict.awk" "$tmp/res/table.tsv" >"$tmp/res/verdict.txt"
	awk -F'\t' -v err=load -f "$top/tools/experiment/verdict.awk" "$tmp/res/table.tsv" >"$tmp/res/verdict-load.txt"
	bash "$top/tools/experiment/pareto-plot.sh" "$tmp/res"
	check "pareto-plot: a PNG" test -s "$tmp/res/plots/pareto-policies.png"
	check "pareto-plot: shares frontier = verdict.txt's optimal, by writes, labels alternating" \
		eval '[ "$(cut -f3,4 "$tmp/res/plots/pareto-front-sh-ws.tsv" | tr "\t\n" ":,")" = "Y:1,X:-1," ]'
	check "pareto-plot: |E| frontier = verdict-load.txt's optimal (X dominated by Y)" \
		eval '[ "$(cut -f3 "$tmp/res/plots/pareto-front-ws.tsv" | tr "\n" ,)" = "Y,stock," ]'
	# with modeled cross-node transfers (columns 41-42): a third column of
	# panels, its frontier the verdict's by them.  stock/node: fewer
	# transfers (100 against stock's 500), equal shares error with no
	# spread: it alone is optimal by transfers (row_x's case above).
	mkdir -p "$tmp/xs"
	{
		printf 'policy\truns\n'
		row_x stock 5 1000 1 5 10 60 2 1.0 0 500 1
		row_x stock/node 5 1000 1 5 10 60 2 1.0 0 100 1
	} >"$tmp/xs/table.tsv"
	awk -F'\t' -f "$top/tools/experiment/verdict.awk" "$tmp/xs/table.tsv" >"$tmp/xs/verdict.txt"
	bash "$top/tools/experiment/pareto-plot.sh" "$tmp/xs"
	check "pareto-plot: cross-node transfers' frontier = the verdict's optimal (stock/node alone)" \
		eval '[ "$(cut -f1,3 "$tmp/xs/plots/pareto-front-sh-xs.tsv" | tr "\t\n" ":,")" = "100:stock/node," ]'
	check "pareto-plot: three columns of panels" grep -q "set multiplot layout 2,3" "$tmp/xs/plots/pareto-policies.gp"
	check "pareto-plot: no cross-node columns, two columns of panels" \
		grep -q "set multiplot layout 2,2" "$tmp/res/plots/pareto-policies.gp"
	# one policy: every frontier has one point, labelled above only
	mkdir -p "$tmp/one"
	{ printf 'policy\truns\n'; row stock 2 475 0 6.8 0 47 0; } >"$tmp/one/table.tsv"
	awk -F'\t' -f "$top/tools/experiment/verdict.awk" "$tmp/one/table.tsv" >"$tmp/one/verdict.txt"
	bash "$top/tools/experiment/pareto-plot.sh" "$tmp/one" 2>"$tmp/one/err"
	rc=$?
	check "pareto-plot: one policy, no label below: exit 0 and a PNG (rc $rc)" \
		eval '[ "$rc" = 0 ] && test -s "$tmp/one/plots/pareto-policies.png"'
}

rows_xs | verdict_of -v err=bogus 2>"$tmp/e"
rc=$?
check "err=bogus: exit 2 with a message" eval '[ "$rc" = 2 ] && grep -q "err must be shares or load" "$tmp/e"'

# The cost the verdict weighs first: modeled cross-node transfers/s.
# stock 500 +-1% (sd 5) against stock/node 100 +-1% (sd 1), 5 rounds
# each: t = 400 / sqrt(25/5 + 1/5) = 175, lower beyond the spread; the
# shares error 1.0 +-0 on both: exactly equal, no spread.  So stock/node
# dominates stock by cross-node transfers, while by writes/s (1000 +-1%
# both: equal means) neither is before the other: both Pareto-optimal.
{
	row_x stock 5 1000 1 5 10 60 2 1.0 0 500 1
	row_x stock/node 5 1000 1 5 10 60 2 1.0 0 100 1
} | verdict_of
check "xnode: a verdict by modeled cross-node transfers, before the one by writes" \
	eval 'test "$(grep -n "by modeled cross-node transfers/s:" "$tmp/v" | cut -d: -f1)" -lt "$(grep -n "by writes/s:" "$tmp/v" | cut -d: -f1)"'
check "xnode: stock dominated by stock/node (fewer transfers, equal error)" \
	eval 'line dominated "cross-node" | grep -q "stock (by stock/node)"'
check "xnode: by writes/s, stock and stock/node both Pareto-optimal" \
	eval 'line Pareto-optimal "writes/s" | grep -q "stock, stock/node"'
# a table without the columns (an older analyze.sh): said, not guessed
{
	row_sh stock 5 1000 1 5 10 60 2 1.0 0
	row_x stock/node 5 1000 1 5 10 60 2 1.0 0 100 1
} | verdict_of
check "xnode: a row without them: no verdict by them, and it says so" \
	eval '! grep -q "by modeled cross-node" "$tmp/v" && grep -q "no modeled cross-node transfers in the table" "$tmp/v"'
tap_end
