#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The what-if part of `make demo` (after analyze.sh): the live recordings
# against their replays, through the analyzer CLI (build/fairlab) only.
#
#   demo/whatif.sh RECDIR RESDIR
#
#  1. Exact on its own policy: every tg recording replayed under the
#     policy it was recorded with (fairlab whatif --policy=P, P as
#     throughput.tsv names it: POLICY/LAYOUT for a run under a split
#     tg_layout, so the replay keeps that layout) must take every recorded
#     decision and give fairlab report's figures, the modeled transfers
#     included (the layout's own lines).
#  2. Validation: each stock recording replayed under every other live
#     policy and layout (stock/node, stock/node:1000: a global recording
#     answers "what would this layout have cost"); per policy the
#     predicted write%, mean shares error (the headline, % of tg->shares),
#     modeled cross-node transfers per second (xfer.xnode over the
#     recording's duration) and mean |E| (mean ±stddev over the stock
#     rounds) beside the measured ones (mean ±stddev over that policy's
#     live rounds).  A prediction is named when the two intervals do not
#     overlap, with the reason.  A policy under which every stock round
#     replays with 0 diverged decisions is stock's rule on this kernel
#     (ratelimit:1000 on 6.7+): its "prediction" is the stock rounds' own
#     figures, so it is labelled live against live.  Not so a layout of
#     stock (stock/node): its decisions are stock's, but its lines, and
#     with a read cache its shares error, are the layout's: a prediction.
#  3. Plot: the replayed Pareto frontier (writes per attempt against the
#     mean shares error) of the first stock recording (the default 50
#     policies, fairlab whatif --error=shares) as a line, the live policies
#     as points with their spread, the predictions as open points.
# Writes RESDIR/whatif.txt (printed), whatif.tsv, whatif/ (per-file CSVs),
# plots/whatif-pareto.png.  Exit 1 when a replay under its own policy is
# not exact (the other figures are measurements, not assertions).
set -uo pipefail
rec=${1:?usage: whatif.sh RECDIR RESDIR}
res=${2:?usage: whatif.sh RECDIR RESDIR}
top=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
FAIRLAB=${FAIRLAB:-$top/build/fairlab}
tsv=$rec/throughput.tsv
out=$res/whatif
mkdir -p "$out" "$res/plots"

# "policy file" of every tg recording there is, in throughput.tsv order
awk -F'\t' -v d="$rec" 'NR > 1 && $1 == "tg" { print $2 "\t" d "/" $4 }' "$tsv" |
	while IFS=$'\t' read -r p f; do [ -s "$f" ] && printf '%s\t%s\n' "$p" "$f"; done >"$out/files.tsv"
[ -s "$out/files.tsv" ] || { echo "whatif.sh: no tg recordings in $rec" >&2; exit 1; }

# col CSV KEY...: the named columns of a CSV's second line (one-row CSVs)
col() {
	awk -F, -v keys="${*:2}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		NR == 2 { n = split(keys, k, " "); for (j = 1; j <= n; j++) printf "%s%s", (j > 1 ? "\t" : ""), $(c[k[j]]); print "" }' "$1"
}

# ---- 1. each live recording under its own policy: exact? -------------------
: >"$out/live.tsv"
nfile=0; nexact=0; bad= why=
while IFS=$'\t' read -r p f; do
	stem=$(basename "$f" .dat)
	nfile=$((nfile + 1))
	"$FAIRLAB" report --csv "$f" >"$out/$stem.report.csv" 2>/dev/null &&
		"$FAIRLAB" whatif --csv --policy="$p" "$f" >"$out/$stem.self.csv" 2>/dev/null || { bad="$bad $stem"; continue; }
	# the report's row of the whole recording: a recording of one policy
	# has one segment, its only row.  A run under a split tg_layout
	# (P/LAYOUT) may have more: the records before the first one that names
	# the layout (going live, describe) are a segment of P alone; its
	# segment "all" is then the whole recording under P/LAYOUT.  Any other
	# mix of policies is no recording of one policy: not exact.
	whole=1
	awk -F, -v p="$p" 'NR == 1 { h = $0; for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["segment"]) == "all" { all = $0; next }
		{ n++; one = $0; t = $(c["tg_policy"]); s = index(p, "/")
		  if (t != p && !(s && t == substr(p, 1, s - 1))) mixed = 1 }
		END { print h
		      if (n == 1) print one
		      else { print (all != "" ? all : one); if (mixed || !index(p, "/") || all == "") exit 1 } }' \
		"$out/$stem.report.csv" >"$out/$stem.live.csv" || whole=0
	keys="attempts_n writes_n switches_n err_max_load err_mean_load err_p99_load shares_err_mean_pct shares_err_p99_pct coh_transfers_n"
	# the figures that differ (numerically: report prints the transfers
	# as an integer, whatif with %.3f), and decisions taken otherwise
	differ=$(awk -F, -v keys="$keys" 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
		FNR == 2 { n = split(keys, k, " "); for (j = 1; j <= n; j++) v[FILENAME, j] = $(c[FILENAME, k[j]]); f[++nf] = FILENAME }
		END { for (j = 1; j <= n; j++) { a = v[f[1], j]; b = v[f[2], j]
			if (a == "" || b == "" || (a != b && a + 0 != b + 0)) printf " %s", k[j] } }' \
		"$out/$stem.live.csv" "$out/$stem.self.csv")
	div=$(col "$out/$stem.self.csv" diverged_n)
	[ "$div" = 0 ] || differ="$differ diverged_n=$div"
	[ $whole = 1 ] || differ="$differ segments"
	if [ -z "$differ" ]; then
		nexact=$((nexact + 1))
	else
		bad="$bad $stem"
		why="$why$stem:$differ"$'\n'
	fi
	# live write%, mean |E|, mean shares error and modeled cross-node
	# transfers per second of this recording
	printf '%s\t%s\n' "$p" "$(col "$out/$stem.live.csv" attempts_n writes_n err_mean_load shares_err_mean_pct coh_xnode_per_s)" >>"$out/live.tsv"
done <"$out/files.tsv"

# ---- 2. the stock recordings under every live policy ----------------------
live_pols=$(cut -f1 "$out/files.tsv" | awk '!seen[$0]++' | paste -sd, -)
: >"$out/pred.tsv"
first_stock=
while IFS=$'\t' read -r p f; do
	[ "$p" = stock ] || continue
	stem=$(basename "$f" .dat)
	first_stock=${first_stock:-$f}
	# --layout=global: the plain policies as recorded (global), with the
	# columns by distance (coh_xnode_n) that a layout brings; a
	# POLICY/LAYOUT keeps its own layout
	"$FAIRLAB" whatif --csv --layout=global --policy="$live_pols" "$f" >"$out/$stem.pred.csv" 2>/dev/null || continue
	# per second over the recording's duration (report's, as its coh_xnode_per_s)
	dur=$(col "$out/$stem.live.csv" duration_s 2>/dev/null)
	awk -F, -v dur="$dur" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ x = ("coh_xnode_n" in c) && $(c["coh_xnode_n"]) != "" && dur + 0 > 0 ? sprintf("%.4f", $(c["coh_xnode_n"]) / dur) : ""
		  print $(c["policy"]) "\t" $(c["attempts_n"]) "\t" $(c["writes_n"]) "\t" $(c["err_mean_load"]) "\t" $(c["shares_err_mean_pct"]) "\t" $(c["diverged_n"]) "\t" x }' \
		"$out/$stem.pred.csv" >>"$out/pred.tsv"
done <"$out/files.tsv"

# per policy: mean and stddev of write%, mean shares error, cross-node
# transfers/s and mean |E|, live and predicted; named when the intervals
# mean ±stddev do not overlap (a recording without tg_read records has no
# shares error, one with a CPU no cpu_topology record placed no cross-node
# figure: "-")
awk -F'\t' -v order="$live_pols" '
	function add(k, x) { n[k]++; s[k] += x; q[k] += x * x }
	function m(k) { return n[k] ? s[k] / n[k] : 0 }
	function sd(k,   v) { if (n[k] < 2) return 0; v = (q[k] - n[k] * m(k) * m(k)) / (n[k] - 1); return v > 0 ? sqrt(v) : 0 }
	function cell(k) { return n[k] ? sprintf("%.2f ±%.2f", m(k), sd(k)) : "-" }
	function cell1(k) { return n[k] ? sprintf("%.1f ±%.1f", m(k), sd(k)) : "-" }
	function cell3(k) { return n[k] ? sprintf("%.3f ±%.3f", m(k), sd(k)) : "-" }
	function sh(k, x) { if (x != "" && x != "nan" && x != "-nan") add(k, x) }
	function apart(a, b) { return (m(a) - m(b) > sd(a) + sd(b) + 1e-9) || (m(b) - m(a) > sd(a) + sd(b) + 1e-9) }
	FNR == NR { add($1 " lw", 100 * $3 / $2); add($1 " le", $4); sh($1 " ls", $5); sh($1 " lx", $6); next }
	{ add($1 " pw", 100 * $3 / $2); add($1 " pe", $4); sh($1 " ps", $5); dv[$1] += $6; sh($1 " px", $7) }
	END {
		np = split(order, pol, ",")
		printf "%-18s %5s %5s  %-16s %-16s %-17s %-17s %-16s %-16s %-18s %-18s %s\n", "tg_policy", "live", "pred", "write% measured", "write% predicted", "shares% measured", "shares% predicted", "xnode/s measured", "xnode/s predicted", "|E|mean measured", "|E|mean predicted", "prediction"
		for (i = 1; i <= np; i++) {
			p = pol[i]
			if (p == "stock") v = "its own input (exact by construction: not a validation)"
			# every attempt of every stock round decided as recorded: P is
			# the rule of stock on this kernel (ratelimit:1000 on 6.7+), its
			# prediction the figures of the stock rounds themselves.  A
			# layout (P/LAYOUT) decides as its policy but moves other lines
			# (and reads cached sums): its figures are still a prediction.
			else if (n[p " pw"] && dv[p] == 0 && index(p, "/") == 0)
				v = "= the recorded stock decisions (0 diverged: the rule of stock here): live against live, not a validation"
			else if (n[p " lw"] < 2) v = "one live round: no spread to compare with"
			else {
				compared++
				w = apart(p " lw", p " pw"); e = apart(p " le", p " pe")
				x = n[p " ls"] && n[p " ps"] && apart(p " ls", p " ps")
				xn = n[p " lx"] && n[p " px"] && apart(p " lx", p " px")
				v = (w || e || x || xn) ? "OUTSIDE the live spread:" (w ? " write%" : "") (x ? " shares%" : "") (xn ? " xnode/s" : "") (e ? " |E|mean" : "") : "within the live spread"
				if (w || e || x || xn) named = named (named ? ", " : "") p
			}
			printf "%-18s %5d %5d  %-16s %-16s %-17s %-17s %-16s %-16s %-18s %-18s %s\n", p, n[p " lw"], n[p " pw"], cell(p " lw"), cell(p " pw"), cell3(p " ls"), cell3(p " ps"), cell1(p " lx"), cell1(p " px"), cell(p " le"), cell(p " pe"), v
			printf "%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f", p, n[p " lw"], n[p " pw"], m(p " lw"), sd(p " lw"), m(p " pw"), sd(p " pw"), m(p " le"), sd(p " le"), m(p " pe"), sd(p " pe") > "/dev/stderr"
			if (n[p " ls"] && n[p " ps"])
				printf "\t%.6f\t%.6f\t%.6f\t%.6f", m(p " ls"), sd(p " ls"), m(p " ps"), sd(p " ps") > "/dev/stderr"
			else
				printf "\t\t\t\t" > "/dev/stderr"
			if (n[p " lx"] && n[p " px"])
				printf "\t%.4f\t%.4f\t%.4f\t%.4f\n", m(p " lx"), sd(p " lx"), m(p " px"), sd(p " px") > "/dev/stderr"
			else
				printf "\t\t\t\t\n" > "/dev/stderr"
		}
		print ""
		if (named != "") {
			print "Outside the live spread: " named "."
			print "Why: the replay feeds each policy the loads recorded under stock, and cannot see feedback."
			print "Under the live policy tg->load_avg differs, so the group weights (calc_group_shares()) and"
			print "with them the cfs_rq loads themselves differ; the workload also ran differently (a VM under"
			print "TCG on a shared host), which moves when update attempts happen (ratelimit and the error)"
			print "and which CPUs write and read a group line in turn (the transfers)."
		} else if (compared) {
			print "Every prediction lies within the live spread."
		} else {
			print "One live round per policy: no spread to compare the predictions with (make demo runs 5)."
		}
	}' "$out/live.tsv" "$out/pred.tsv" 2>"$res/whatif.tsv.body" >"$out/table.txt"
{
	printf 'policy\tlive_runs\tpredicted_runs\twrite_pct\twrite_pct_stddev\tpredicted_write_pct\tpredicted_write_pct_stddev\terr_mean_load\terr_mean_load_stddev\tpredicted_err_mean_load\tpredicted_err_mean_load_stddev\tshares_err_mean_pct\tshares_err_mean_pct_stddev\tpredicted_shares_err_mean_pct\tpredicted_shares_err_mean_pct_stddev\tcoh_xnode_per_s\tcoh_xnode_per_s_stddev\tpredicted_coh_xnode_per_s\tpredicted_coh_xnode_per_s_stddev\n'
	cat "$res/whatif.tsv.body"
} >"$res/whatif.tsv"
rm -f "$res/whatif.tsv.body"

{
	echo "What-if: each recording replayed under the policy (and tg_layout) it was recorded with (fairlab whatif --policy=P[/LAYOUT]):"
	echo "  exact (every decision as recorded, fairlab report's figures and modeled transfers) for $nexact of $nfile recordings${bad:+; NOT for:$bad}"
	[ -z "$why" ] || { echo "  the figures that differ from the report's:"; printf '%s' "$why" | sed 's/^/    /'; }
	echo
	echo "The stock recordings replayed under every live policy and layout: predicted against measured (mean"
	echo "±stddev over the rounds; write% = writes per attempt; shares% = time-weighted mean shares error, % of"
	echo "tg->shares, the headline error; xnode/s = modeled cross-node transfers of the tg->load_avg lines per"
	echo "second (fairlab's coherence model, a lower bound; a layout's own domain lines); |E|mean ="
	echo "time-weighted mean |E| per group, load units)."
	echo "A prediction is outside the live spread when mean ±stddev of the two do not overlap."
	cat "$out/table.txt"
} >"$res/whatif.txt"
cat "$res/whatif.txt"

# ---- 3. plot: replayed frontier of one stock recording, live policies -------
if [ -n "$first_stock" ] && command -v "${GNUPLOT:-gnuplot}" >/dev/null; then
	# the headline error, the shares error (% of tg->shares, 0 drawn at
	# 0.001), when every live policy has it; else mean |E| (0 at 0.01)
	if awk -F'\t' 'NR > 1 && ($12 == "" || $14 == "") { f = 1 } END { exit f }' "$res/whatif.tsv"; then
		err=shares ecol=shares_err_mean_pct lo=0.001 ly=12 lsd=13 py=14
		ylabel="time-weighted mean shares error (% of tg->shares; 0 drawn at 0.001)"
	else
		err=abs ecol=err_mean_load lo=0.01 ly=8 lsd=9 py=10
		ylabel="time-weighted mean |E| per group (load; 0 drawn at 0.01)"
	fi
	# the cost axis: the modeled cross-node transfers of the tg->load_avg
	# lines per second (what a tg_layout moves, the demo verdict's cost)
	# when every live policy has them, else write%; the frontier of the
	# first stock recording replayed under 50 policies, computed here on
	# that axis (no other policy with both a lower or equal cost and error,
	# one lower)
	if awk -F'\t' 'NR > 1 && ($16 == "" || $18 == "") { f = 1 } END { exit f }' "$res/whatif.tsv"; then
		xcol=xnode lx=16 lxsd=17 px=18
		xlabel="modeled cross-node transfers of the tg->load_avg lines (1/s)"
	else
		xcol=write lx=4 lxsd=5 px=6
		xlabel="writes per tg_update attempt (%)"
	fi
	dur=$(col "$out/$(basename "$first_stock" .dat).live.csv" duration_s 2>/dev/null)
	"$FAIRLAB" whatif --csv --layout=global --error=$err "$first_stock" 2>/dev/null |
		awk -F, -v ec=$ecol -v lo=$lo -v xc=$xcol -v dur="$dur" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ e = $(c[ec]) + 0; x = xc == "xnode" ? (dur > 0 ? $(c["coh_xnode_n"]) / dur : 0) : $(c["write_pct"])
			  print x "\t" (e < lo ? lo : e) "\t" $(c["policy"]) }' |
		sort -t$'\t' -k1,1g -k2,2g |
		awk -F'\t' 'NR == 1 || $2 < best { print; best = $2 }' >"$res/plots/whatif-frontier.tsv"
	# policy, cost, its sd, error, its sd, predicted cost, predicted error
	awk -F'\t' -v lo=$lo -v ly=$ly -v lsd=$lsd -v py=$py -v lx=$lx -v lxsd=$lxsd -v px=$px 'NR > 1 {
		y = ($ly < lo) ? lo : $ly; p = ($py < lo) ? lo : $py
		print $1 "\t" $lx "\t" $lxsd "\t" y "\t" $lsd "\t" $px "\t" p }' "$res/whatif.tsv" >"$res/plots/whatif-live.tsv"
	pols=$(cut -f1 "$res/plots/whatif-live.tsv" | tr '\n' ' ')
	# one colour and marker per live policy (16: make demo's 11 policies
	# and 4 layouts), named by the legend (no
	# labels to collide); its prediction: the same colour, the open marker;
	# error bars stop at the log axis's floor
	cat >"$res/plots/whatif-pareto.gp" <<EOG
set terminal pngcairo size 1100,700 font ",10"
set output "$res/plots/whatif-pareto.png"
set datafile separator "\t"
set title "Live policies (filled, mean ±stddev over the rounds), their predictions from the stock recordings (open)\nand the Pareto frontier of $(basename "$first_stock") replayed under 50 policies (fairlab whatif --error=$err)" noenhanced
set xlabel "$xlabel" noenhanced
set ylabel "$ylabel" noenhanced
set logscale y
set format y "%g"
$([ $xcol = write ] && echo 'set xrange [0:110]' || echo 'set xrange [0:*]')
set grid
set key outside right top box noenhanced
pols = "$pols"
cols = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #bcbd22 #000000 #7f7f7f #aec7e8 #393b79 #8c6d31 #ce6dbd #637939"
filled = "5 7 9 11 13 15 5 7 9 11 13 15 7 9 11 13"
hollow = "4 6 8 10 12 14 4 6 8 10 12 14 6 8 10 12"
plot "$res/plots/whatif-frontier.tsv" using 1:2 with linespoints lw 2 pt 6 ps 0.5 lc rgb "#555555" title "replayed frontier", \\
     for [i=1:words(pols)] "$res/plots/whatif-live.tsv" using (strcol(1) eq word(pols, i) ? \$2 : NaN):4:(\$2 - \$3):(\$2 + \$3):(\$4 - \$5 < $lo ? $lo : \$4 - \$5):(\$4 + \$5) \\
       with xyerrorbars lc rgb word(cols, (i - 1) % 16 + 1) pt (word(filled, (i - 1) % 16 + 1) + 0) ps 1.4 title word(pols, i), \\
     for [i=1:words(pols)] "$res/plots/whatif-live.tsv" using (strcol(1) eq word(pols, i) ? \$6 : NaN):7 \\
       with points lc rgb word(cols, (i - 1) % 16 + 1) pt (word(hollow, (i - 1) % 16 + 1) + 0) ps 1.8 notitle
EOG
	if "${GNUPLOT:-gnuplot}" "$res/plots/whatif-pareto.gp" 2>"$res/plots/whatif-pareto.err"; then
		echo
		echo "plot: $res/plots/whatif-pareto.png (replayed frontier of $(basename "$first_stock") and the live policies)"
	else
		echo "whatif-pareto plot failed: $(head -2 "$res/plots/whatif-pareto.err")"
	fi
fi
[ -z "$bad" ]
