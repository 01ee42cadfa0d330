#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-scale's host step (demo/scale-analyze.sh) on the hand-made
# reports of tests/data/demo-scale/: per CPU count and policy, the mean and
# sample stddev over the rounds of modeled transfers per second and per
# attempt, shares error mean and p99 and write%, computed by hand below;
# the segment "all" of a recording with several; the table's headers carry
# units; PNG and SVG plots with one line per policy; a point of one round
# (no spread) or a recording without its report is an error.  Layouts:
# policies named POLICY/LAYOUT (stock/node, stock/node:100000; files
# tg-stock_node-rN, tg-stock_node-100000-rN) keyed and titled by that
# name, and the modeled cross-node transfers/s (coh_xnode_per_s; "nan"
# where a report has none) as a sixth figure and panel.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
data=$top/tests/data/demo-scale
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$top/demo/scale-analyze.sh" "$data" "$tmp/res" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "scale-analyze succeeds on the sample data" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/err"

# row CPUS POLICY: that row of scale.tsv, tab-separated, numbers as written
row() { awk -F'\t' -v c="$1" -v p="$2" '$1 == c && $2 == p' "$tmp/res/scale.tsv"; }
# near A B: |A - B| <= 1e-4 relative (or 1e-6 absolute)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-6 || d <= 1e-4 * m) }'; }
# fig CPUS POLICY COL: column COL of that row
fig() { row "$1" "$2" | cut -f"$3"; }
# expect NAME CPUS POLICY ROUNDS then 10 numbers: mean, sd of each figure
expect() {
	local name=$1 c=$2 p=$3 r=$4 i=4 bad=; shift 4
	[ "$(fig "$c" "$p" 3)" = "$r" ] || bad="rounds $(fig "$c" "$p" 3) != $r"
	for want in "$@"; do
		got=$(fig "$c" "$p" $i)
		near "$got" "$want" || bad="$bad column $i: $got != $want"
		i=$((i + 1))
	done
	if [ -z "$bad" ]; then ok "$name"; else not_ok "$name:$bad"; fi
}
# 2 CPUs, stock: transfers/s 100,200,300 -> 200 +-100; per attempt
# 100/1000, 400/2000, 300/1000 -> 0.2 +-0.1; shares mean 1,2,3 -> 2 +-1;
# p99 10,10,10 -> 10 +-0; write% 100-60, 100-50, 100-40 -> 50 +-10.  Round
# 3 has segments 0 (force), 1 and "all": only "all" is taken.
expect "2 CPUs stock: means and stddevs over 3 rounds (segment 'all' of r3)" 2 stock 3 \
	200 100 0.2 0.1 2 1 10 0 50 10
expect "2 CPUs force: equal rounds give stddev 0" 2 force 3 \
	500 0 0.5 0 0 0 0 0 100 0
# 4 CPUs, force: 800, 1000 -> 900 +-141.421 (sqrt(20000)); 0.8, 1.0 ->
# 0.9 +-0.141421; shares 0.001, 0.003 -> 0.002 +-0.00141421
expect "4 CPUs force: 2 rounds" 4 force 2 \
	900 141.421 0.9 0.141421 0.002 0.00141421 0.01 0 100 0
# 4 CPUs, ratelimit:1000 (file tg-ratelimit-1000-rN, policy from throughput.tsv)
expect "4 CPUs ratelimit:1000: its files found through throughput.tsv" 4 ratelimit:1000 2 \
	60 14.1421 0.06 0.0141421 6 1.41421 60 14.1421 40 14.1421
# 4 CPUs, stock/node: 200, 300 -> 250 +-70.7107; 400/1000, 600/2000 ->
# 0.35 +-0.0707107; shares 2, 4 -> 3 +-1.41421; p99 20 +-0; write 40 +-0;
# cross-node 30, 50 -> 40 +-14.1421
expect "4 CPUs stock/node: a layout's name, its files (tg-stock_node-rN), cross-node transfers" 4 stock/node 2 \
	250 70.7107 0.35 0.0707107 3 1.41421 20 0 40 0 40 14.1421
expect "4 CPUs stock/node:100000: '/' and ':' in a name" 4 stock/node:100000 2 \
	100 0 0.1 0 11 1.41421 40 0 40 0 5 0
check "a report without coh_xnode_per_s: nan, not 0 (4 CPUs force: $(fig 4 force 14) $(fig 4 force 15))" \
	test "$(fig 4 force 14) $(fig 4 force 15)" = "nan nan"
check "rows in CPU order, policies in first-seen order" \
	test "$(awk -F'\t' 'NR > 1 { printf "%s/%s ", $1, $2 }' "$tmp/res/scale.tsv")" = \
	"2/stock 2/force 4/force 4/ratelimit:1000 4/stock/node 4/stock/node:100000 "
hdr=$(head -1 "$tmp/res/scale.txt")
check "text table: a unit in every figure's header" eval \
	'for u in "transfers (1/s)" "transfers/attempt" "mean (%)" "p99 (%)" "write (%)" "xnode transfers (1/s)"; do [[ $hdr == *"$u"* ]] || exit 1; done'
check "text table: mean ±stddev cells" grep -q '^2 .*stock .*200\.0 ±100\.0 .*0\.2000 ±0\.1000' "$tmp/res/scale.txt"
for t in png svg; do
	check "plot scale.$t written" test -s "$tmp/res/plots/scale.$t"
done
check "PNG is a PNG" eval 'head -c 8 "$tmp/res/plots/scale.png" | grep -q PNG'
check "text table: a layout's row" grep -q '^4 *stock/node:100000 *2  *100\.0 ±0 .* 5\.00 ±0' "$tmp/res/scale.txt"
# the key of each of the 6 panels names every policy (5 here)
for p in ratelimit:1000 stock/node:100000; do
	check "SVG: $p in the key of each of the 6 panels" \
		test "$(grep -c "<text>$p</text>" "$tmp/res/plots/scale.svg")" = 6
done

# a point of one round has no spread: refused
cp -r "$data" "$tmp/thin"
awk -F'\t' '!($2 == "force" && $3 == 2)' "$data/cpus-4/recordings/throughput.tsv" \
	>"$tmp/thin/cpus-4/recordings/throughput.tsv"
"$top/demo/scale-analyze.sh" "$tmp/thin" "$tmp/res2" >/dev/null 2>"$tmp/err2"
rc=$?
check "a point of one round: exit 1" test "$rc" = 1
check "... naming the point" grep -q "4 CPUs/force (1 round)" "$tmp/err2"
# a recording without its report
cp -r "$data" "$tmp/norep"
rm "$tmp/norep/cpus-2/results/report/tg-stock-r2.csv"
"$top/demo/scale-analyze.sh" "$tmp/norep" "$tmp/res3" >/dev/null 2>"$tmp/err3"
rc=$?
check "a recording without a report: exit 1, named" eval \
	'[ "$rc" = 1 ] && grep -q "no report for 2 CPUs, tg-stock-r2.dat" "$tmp/err3"'
tap_end
