#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo's what-if validation (demo/whatif.sh) on real recordings of
# tests/data laid out as fairlab experiment leaves them: each replayed
# exactly under its own policy; the stock recording replayed under the
# live policies; a policy whose replay of every stock round takes every
# recorded decision (ratelimit:1000 on 6.12, where stock is the kernel's
# own 1 ms rate limit) labelled live against live, not a validation, and
# a policy that decides otherwise (relative:8) not.  Layouts: a global
# recording listed as a stock/node run is not exact under its listed
# layout (same decisions, other lines: caught by the modeled transfers);
# stock/node's row is a prediction (not "the recorded stock decisions")
# with its cross-node transfers/s from the stock recording's replay.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rec=$tmp/rec res=$tmp/res
mkdir -p "$rec"
printf 'kind\tpolicy\tround\tfile\n' >"$rec/throughput.tsv"
for p in stock ratelimit:1000 relative:8; do
	f=tree3-$(echo "$p" | tr : -).dat
	cp "$DATA/$f" "$rec/$f"
	printf 'tg\t%s\t1\t%s\n' "$p" "$f" >>"$rec/throughput.tsv"
done
GNUPLOT=/nonexistent FAIRLAB=$FAIRLAB "$top/demo/whatif.sh" "$rec" "$res" >"$tmp/out" 2>"$tmp/err"
s=$?
check "whatif.sh: exit 0, no sanitizer report" eval 'test $s = 0 && ! grep -qE "$SAN_REPORT" "$tmp/err"'
check "whatif.sh: each recording exact under its own policy (3 of 3)" \
	grep -q "exact (every decision as recorded, fairlab report's figures and modeled transfers) for 3 of 3 recordings" "$tmp/out"
# row POLICY: its line of the table
row() { awk -v p="$1" '$1 == p' "$tmp/out"; }
check "ratelimit:1000 on 6.12: the recorded stock decisions, live against live ($(row ratelimit:1000 | cut -c 1-60))" \
	eval 'row ratelimit:1000 | grep -q "= the recorded stock decisions (0 diverged.*not a validation"'
check "ratelimit:1000 predicted = stock measured, to the digit" \
	eval 'test "$(row ratelimit:1000 | awk "{ print \$6, \$7 }")" = "$(row stock | awk "{ print \$4, \$5 }")"'
check "relative:8 decides otherwise: not labelled ($(row relative:8 | cut -c 60-))" \
	eval 'row relative:8 | grep -q "one live round" && ! row relative:8 | grep -q "recorded stock decisions"'
check "the table has cross-node transfers/s, measured and predicted" \
	eval 'grep -q "xnode/s measured  *xnode/s predicted" "$tmp/out"'

# the stock recording again, listed as a run under tg_layout=node
rec2=$tmp/rec2 res2=$tmp/res2
cp -r "$rec" "$rec2"
cp "$DATA/tree3-stock.dat" "$rec2/tg-stock_node-r1.dat"
printf 'tg\tstock/node\t1\ttg-stock_node-r1.dat\n' >>"$rec2/throughput.tsv"
GNUPLOT=/nonexistent FAIRLAB=$FAIRLAB "$top/demo/whatif.sh" "$rec2" "$res2" >"$tmp/out2" 2>"$tmp/err2"
s=$?
check "a global recording listed as stock/node: exit 1, no sanitizer report" \
	eval 'test $s = 1 && ! grep -qE "$SAN_REPORT" "$tmp/err2"'
check "... named: exact for 3 of 4, NOT for tg-stock_node-r1" \
	grep -q "modeled transfers) for 3 of 4 recordings; NOT for: tg-stock_node-r1$" "$tmp/out2"
row2() { awk -v p="$1" '$1 == p' "$tmp/out2"; }
check "stock/node: a prediction, not the recorded stock decisions ($(row2 stock/node | cut -c 60-))" \
	eval 'row2 stock/node | grep -q "one live round" && ! row2 stock/node | grep -q "recorded stock decisions"'
# its predicted xnode/s: the replay's coh_xnode_n under stock/node over
# the stock recording's duration (report's duration_s), from the CLI here
# csvcol KEY [POLICY]: KEY of the CSV on stdin (of POLICY's row)
csvcol() { awk -F, -v k="$1" -v p="${2:-}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	p == "" || $(c["policy"]) == p { print $(c[k]); exit }'; }
dur=$("$FAIRLAB" report --csv "$DATA/tree3-stock.dat" 2>/dev/null | csvcol duration_s)
xn=$("$FAIRLAB" whatif --csv --policy=stock/node "$DATA/tree3-stock.dat" 2>/dev/null | csvcol coh_xnode_n stock/node)
want=$(awk -v x="$xn" -v d="$dur" 'BEGIN { printf "%.4f", x / d }')
got=$(awk -F'\t' '$1 == "stock/node" { print $18 }' "$res2/whatif.tsv")
check "stock/node's predicted xnode/s in whatif.tsv = coh_xnode_n / duration_s ($got, $want)" \
	eval 'test -n "$got" && test "$got" = "$want"'
# the plot: cross-node transfers/s against the shares error, the replayed
# frontier on that axis (x rising, error strictly falling), the live
# points at whatif.tsv's measured xnode/s (gnuplot: make deps installs it)
if command -v gnuplot >/dev/null; then
	FAIRLAB=$FAIRLAB "$top/demo/whatif.sh" "$rec" "$tmp/res3" >/dev/null 2>&1
	fr=$tmp/res3/plots/whatif-frontier.tsv
	check "plot: whatif-pareto.png written, x axis the cross-node transfers" \
		eval 'test -s "$tmp/res3/plots/whatif-pareto.png" && grep -q "set xlabel \"modeled cross-node transfers" "$tmp/res3/plots/whatif-pareto.gp"'
	check "plot: the frontier ($(wc -l <"$fr") points) rises in xnode/s as its error falls" \
		awk -F'\t' 'NR > 1 && !($1 >= x && $2 < y) { bad = 1 } { x = $1; y = $2 } END { exit bad || NR < 2 }' "$fr"
	# stock's replay is on the frontier or dominated by it: its xnode/s is
	# stock's measured one (the same recording, replayed exactly)
	sx=$(awk -F'\t' '$1 == "stock" { print $2 }' "$tmp/res3/plots/whatif-live.tsv")
	check "plot: stock's live point at whatif.tsv's measured xnode/s ($sx)" \
		test "$sx" = "$(awk -F'\t' '$1 == "stock" { print $16 }' "$tmp/res3/whatif.tsv")"
	check "plot: no policy of the frontier dominated by another replayed one" \
		awk -F'\t' 'FNR == NR { x[NR] = $1; y[NR] = $2; n = NR; next } { for (i = 1; i <= n; i++) if (x[i] <= $1 && y[i] < $2 && x[i] != $1) bad = 1 } END { exit bad }' "$fr" "$fr"
fi
tap_end
