#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make headline's two steps (issue 25, part 6).
#  1. demo/headline-analyze.sh on hand-made rows: the means and stddevs,
#     the eligible policies (shares error no worse than stock's), the best,
#     its ratio to each kernel's stock with the propagated spread, the live
#     and model crossovers (a win: a lower cost at no worse an error), the
#     predicted best of the sweep, all computed by hand below.
#  2. demo/headline.sh on a make demo-shaped directory of committed
#     recordings: one row per recording from whatif (exact under its own
#     policy) and report, the model and sweep rows, and a recording whose
#     named policy is not the one it ran (whatif diverges) refused.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
A=6.1.0-57-amd64
B=6.12.117+deb12-amd64

# ---- 1. the analysis, by hand ------------------------------------------
# runs: kernel point cpus cpus_per_node policy round file idle contended xnode shares
{
	printf 'kernel\tpoint\tcpus\tcpus_per_node\tpolicy\tround\tfile\tcoh_cost_ns_per_s\tcoh_cost_contended_ns_per_s\tcoh_xnode_per_s\tshares_err_mean_pct\n'
	r() { printf '%s\t%s\t%s\t%s\t%s\t%s\tf.dat\t%s\t%s\t%s\t%s\n' "$@"; }
	# A, 16 vCPUs (8 per node): stock 1000,1200 -> 1100 ±141.421 at 1.0;
	# relative:8 400,600 -> 500 at 0.6 (eligible); force 300 at 2 (not);
	# stock/node 800 at 1.0 (eligible: equal)
	r $A cpus16 16 8 stock 1 900 1000 50 1.0
	r $A cpus16 16 8 stock 2 1100 1200 70 1.0
	r $A cpus16 16 8 relative:8 1 400 400 10 0.5
	r $A cpus16 16 8 relative:8 2 600 600 30 0.7
	r $A cpus16 16 8 force 1 300 300 5 2
	r $A cpus16 16 8 force 2 300 300 5 2
	r $A cpus16 16 8 stock/node 1 800 800 1 1.0
	r $A cpus16 16 8 stock/node 2 800 800 1 1.0
	# A, 4 vCPUs (2 per node): stock/node 150 against stock 100: 1.50
	r $A cpus4 4 2 stock 1 100 100 9 1
	r $A cpus4 4 2 stock 2 100 100 9 1
	r $A cpus4 4 2 stock/node 1 150 150 9 1
	r $A cpus4 4 2 stock/node 2 150 150 9 1
	# A, 2 vCPUs, one node: no crossover point
	r $A cpus2 2 2 stock 1 10 10 0 1
	r $A cpus2 2 2 stock 2 10 10 0 1
	r $A cpus2 2 2 stock/node 1 5 5 0 1
	r $A cpus2 2 2 stock/node 2 5 5 0 1
	# B, 16 vCPUs: stock 2000 ±0 at 1; relative:8 100 at 5 (not eligible)
	r $B cpus16 16 8 stock 1 2000 2000 80 1
	r $B cpus16 16 8 stock 2 2000 2000 80 1
	r $B cpus16 16 8 relative:8 1 100 100 1 5
	r $B cpus16 16 8 relative:8 2 100 100 1 5
} >"$tmp/runs.tsv"
# model: kernel point round file cpus_per_node C policy scaled shares;
# C = 112 first (sorted by the analysis): stock/node 1.50 at 8, 800/1000
# = 0.80 at 112 (wins from 112); stock/node:100000 0.50 at 8 and 112 but
# its error 9 > 1 (never wins)
{
	printf 'kernel\tpoint\tround\tfile\tcpus_per_node\tscale_cpus_per_node\tpolicy\tcoh_cost_contended_scaled_ns_per_s\tshares_err_mean_pct\n'
	for rd in 1 2; do
		printf '%s\tcpus16\t%s\tf.dat\t8\t112\tstock\t1000\t1\n' $A $rd
		printf '%s\tcpus16\t%s\tf.dat\t8\t112\tstock/node\t%s\t1\n' $A $rd $((rd == 1 ? 900 : 700))
		printf '%s\tcpus16\t%s\tf.dat\t8\t112\tstock/node:100000\t500\t9\n' $A $rd
		printf '%s\tcpus16\t%s\tf.dat\t8\t8\tstock\t100\t1\n' $A $rd
		printf '%s\tcpus16\t%s\tf.dat\t8\t8\tstock/node\t150\t1\n' $A $rd
		printf '%s\tcpus16\t%s\tf.dat\t8\t8\tstock/node:100000\t50\t9\n' $A $rd
	done
} >"$tmp/model.tsv"
# sweep: stock 1000,1200 at 1; relative:8/node 100,300 -> 200 at 0.9,1.1
# -> 1.0 (eligible: equal); force 50 at 3 (not): best relative:8/node,
# 1100 / 200 = 5.50x
{
	printf 'kernel\tpoint\tround\tfile\tpolicy\tcoh_cost_contended_ns_per_s\tshares_err_mean_pct\n'
	printf '%s\tcpus16\t1\tf.dat\tstock\t1000\t1\n' $A
	printf '%s\tcpus16\t2\tf.dat\tstock\t1200\t1\n' $A
	printf '%s\tcpus16\t1\tf.dat\trelative:8/node\t100\t0.9\n' $A
	printf '%s\tcpus16\t2\tf.dat\trelative:8/node\t300\t1.1\n' $A
	printf '%s\tcpus16\t1\tf.dat\tforce\t50\t3\n' $A
	printf '%s\tcpus16\t2\tf.dat\tforce\t50\t3\n' $A
	# B: whatif's "recorded" row (stock again) is not a candidate
	printf '%s\tcpus16\t1\tf.dat\trecorded\t2000\t1\n' $B
	printf '%s\tcpus16\t1\tf.dat\tstock\t2000\t1\n' $B
} >"$tmp/sweep.tsv"

"$top/demo/headline-analyze.sh" "$tmp/runs.tsv" "$tmp/model.tsv" "$tmp/sweep.tsv" "$tmp/res" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "headline-analyze succeeds on hand-made rows" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/err"
h=$tmp/res/headline.txt
# row KERNEL POINT POLICY: that row of headline.tsv
row() { awk -F'\t' -v k="$1" -v p="$2" -v q="$3" '$1 == k && $2 == p && $5 == q' "$tmp/res/headline.tsv"; }
check "headline.tsv: A 16 vCPUs stock: 2 rounds, idle 1000 ±141.421, cost 1100 ±141.421, xnode 60 ±14.1421, shares 1 ±0" \
	test "$(row $A cpus16 stock | cut -f6-14 | tr '\t' ' ')" = "2 1000 141.421 1100 141.421 60 14.1421 1 0"
check "headline.tsv: points in order (cpus2, cpus4, cpus16), kernels first-seen" \
	test "$(awk -F'\t' 'NR > 1 && !s[$1 $2]++ { printf "%s/%s ", $1, $2 }' "$tmp/res/headline.tsv")" = \
	"$A/cpus2 $A/cpus4 $A/cpus16 $B/cpus16 "
check "A 16 vCPUs: force (cheapest, error 2 > 1) not eligible, stock/node (equal error) eligible" \
	eval 'grep -q "^force .* no *$" "$h" && grep -q "^stock/node .* yes *$" "$h"'
check "A 16 vCPUs: best relative:8, 500 ns/s at 0.60%" \
	grep -q "^best at a shares error no worse than stock's: relative:8, 500.0 ±28% ns/s at 0.6000% (stock: 1100.0 ±13% ns/s at 1.00%)" "$h"
check "A 16 vCPUs: 2.20x fewer than A's stock ±31%, target not reached" \
	grep -q "^  2.20x fewer than $A stock ±31% (cross-node transfers 20.00/s against 60.00/s): target 20x not reached" "$h"
check "A 16 vCPUs: 4.00x fewer than B's stock ±28%" \
	grep -q "^  4.00x fewer than $B stock ±28% " "$h"
check "B 16 vCPUs: best stock itself; 0.55x against A's stock" \
	eval 'grep -q "^best at a shares error no worse than stock'"'"'s: stock, 2000.0 ±0% ns/s" "$h" && grep -q "^  0.55x fewer than $A stock" "$h"'
check "live crossover: stock/node 1.50 at 2/node, 0.73 at 8/node: wins from 8 (the one-node point left out)" \
	grep -q "^$A *stock/node  *2/node 1.50  8/node 0.73: wins from 8 CPUs per node" "$h"
check "model crossover: C sorted, stock/node 1.50 at 8, 0.80 at 112: wins from 112" \
	grep -q "^$A *cpus16 *stock/node  *8/node 1.50  112/node 0.80: wins from 112 CPUs per node" "$h"
check "model crossover: a cheaper layout at a worse error does not win (marked !)" \
	grep -q "^$A *cpus16 *stock/node:100000  *8/node 0.50!  112/node 0.50!: does not win in this range" "$h"
check "predicted best: relative:8/node, 5.50x fewer than stock (3 policies)" \
	grep -q "^$A *cpus16 *relative:8/node: 200.0 ns/s at 1.00% against stock's 1100.0 ns/s at 1.00%: 5.50x fewer (3 policies and layouts)" "$h"
check "predicted best: whatif's recorded row (stock again) is no candidate" \
	grep -q "^$B *cpus16 *stock: 2000.0 ns/s at 1.00% against stock's 2000.0 ns/s at 1.00%: 1.00x fewer (2 policies and layouts)" "$h"
check "the text prints what it wrote" cmp -s "$tmp/out" "$h"
# a point without stock, and a policy of one round: exit 1, named
awk -F'\t' '!($1 == "'$B'" && $5 == "stock") && !($5 == "force" && $6 == 2)' "$tmp/runs.tsv" >"$tmp/bad.tsv"
"$top/demo/headline-analyze.sh" "$tmp/bad.tsv" "$tmp/model.tsv" "$tmp/sweep.tsv" "$tmp/res2" >/dev/null 2>"$tmp/err2"
rc=$?
check "no stock at a point, a policy of one round: exit 1, both named" \
	eval '[ "$rc" = 1 ] && grep -q "no stock at: $B cpus16" "$tmp/err2" && grep -q "$A cpus16 force (1 round)" "$tmp/err2"'

# ---- 2. the gathering, on committed recordings -------------------------
need_built
d=$tmp/demo
mkdir -p "$d/recordings" "$d/vm-tg"
echo "[    0.000000] Linux version $B (debian-kernel@lists.debian.org) (gcc-12)" >"$d/vm-tg/dmesg.txt"
printf 'cpu=0 node=0 llc=0\ncpu=1 node=0 llc=0\ncpu=2 node=1 llc=2\ncpu=3 node=1 llc=2\n' >"$d/vm-tg/topology.txt"
for f in tree3-stock tree3-ratelimit-1000; do
	for rd in 1 2; do ln -s "$DATA/$f.dat" "$d/recordings/$f-r$rd.dat"; done
done
{
	printf 'kind\tpolicy\tround\tfile\thackbench_msgs_per_s\tstressng_ops_per_s\tlost_events\tsize_kb\n'
	for rd in 1 2; do
		printf 'tg\tstock\t%s\ttree3-stock-r%s.dat\t1\t1\t0\t1\n' $rd $rd
		printf 'tg\tratelimit:1000\t%s\ttree3-ratelimit-1000-r%s.dat\t1\t1\t0\t1\n' $rd $rd
	done
	printf 'idlest\tstock\t1\tnot-here.dat\t1\t1\t0\t1\n'
} >"$d/recordings/throughput.tsv"
FAIRLAB=$FAIRLAB "$top/demo/headline.sh" --scales=2,112 "$tmp/g" "$d" >"$tmp/gout" 2>"$tmp/gerr"
rc=$?
check "headline.sh on a make demo directory: exit 0" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/gerr"
"$FAIRLAB" report --csv "$DATA/tree3-stock.dat" >"$tmp/rep.csv"
"$FAIRLAB" whatif --policy=stock --contention=10 --csv "$DATA/tree3-stock.dat" >"$tmp/wi.csv"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { printf "%s %s", $c["coh_cost_ns_per_s"], $c["coh_xnode_per_s"] }' "$tmp/rep.csv")
wsh=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { printf "%s %s", $c["coh_cost_contended_ns_per_s"], $c["shares_err_mean_pct"] }' "$tmp/wi.csv")
check "runs: 4 tg rows (the idlest row left out), kernel and topology from the guest's files" \
	test "$(awk -F'\t' 'NR > 1 { printf "%s %s %s %s %s|", $1, $2, $3, $4, $5 }' "$tmp/g/headline-runs.tsv")" = \
	"$B demo 4 2 stock|$B demo 4 2 ratelimit:1000|$B demo 4 2 stock|$B demo 4 2 ratelimit:1000|"
check "runs: stock's idle cost and xnode/s are report's ($want), contended cost and shares whatif's ($wsh)" \
	test "$(awk -F'\t' 'NR == 2 { printf "%s %s|%s %s", $8 + 0, $10 + 0, $9 + 0, $11 + 0 }' "$tmp/g/headline-runs.tsv")" = \
	"$(echo $want | awk '{ printf "%s %s", $1 + 0, $2 + 0 }')|$(echo $wsh | awk '{ printf "%s %s", $1 + 0, $2 + 0 }')"
check "model: 2 stock rounds x 2 scales x 4 layouts" \
	test "$(awk -F'\t' 'NR > 1 { print $6 "/" $7 }' "$tmp/g/headline-model.tsv" | sort | uniq -c | awk '{ printf "%s x %s, ", $1, $2 }')" = \
	"2 x 112/stock, 2 x 112/stock/llc, 2 x 112/stock/node, 2 x 112/stock/node:100000, 2 x 2/stock, 2 x 2/stock/llc, 2 x 2/stock/node, 2 x 2/stock/node:100000, "
check "sweep: 2 stock rounds x 250 policies and layouts" \
	test "$(tail -n +2 "$tmp/g/headline-sweep.tsv" | wc -l)" = 500
check "the headline names the demo point" grep -q "^== $B, make demo: 4 vCPUs, 2 CPUs per node" "$tmp/g/headline.txt"
# a recording filed under a policy it did not run: whatif diverges, refused
sed -i 's/^tg\tstock\t2\t/tg\trelative:8\t2\t/' "$d/recordings/throughput.tsv"
FAIRLAB=$FAIRLAB "$top/demo/headline.sh" --scales=112 "$tmp/g2" "$d" >/dev/null 2>"$tmp/gerr2"
rc=$?
check "a recording filed under another policy: exit 1, named" \
	eval '[ "$rc" = 1 ] && grep -q "tree3-stock-r2.dat: whatif.s replay is not the recording" "$tmp/gerr2"'
"$top/demo/headline.sh" --window=0 "$tmp/g3" "$d" >/dev/null 2>&1
check "--window=0: usage error, exit 2" test $? = 2
tap_end
