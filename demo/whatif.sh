#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The what-if part of `make demo` (after analyze.sh): the live recordings
# against their replays, through the analyzer CLI (build/fairlab) only.
#
#   demo/whatif.sh RECDIR RESDIR
#
#  1. Exact on its own policy: every tg recording replayed under the
#     policy it was recorded with (fairlab whatif --policy=P) must take
#     every recorded decision and give fairlab report's figures.
#  2. Validation: each stock recording replayed under every other live
#     policy; per policy the predicted write% and mean |E| (mean ±stddev
#     over the stock rounds) beside the measured ones (mean ±stddev over
#     that policy's live rounds).  A prediction is named when the two
#     intervals do not overlap, with the reason.  A policy under which
#     every stock round replays with 0 diverged decisions is stock's rule
#     on this kernel (ratelimit:1000 on 6.7+): its "prediction" is the
#     stock rounds' own figures, so it is labelled live against live.
#  3. Plot: the replayed Pareto frontier of the first stock recording (the
#     default 50 policies) as a line, the live policies as points with
#     their spread, the predictions as open points.
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
nfile=0; nexact=0; bad=
while IFS=$'\t' read -r p f; do
	stem=$(basename "$f" .dat)
	nfile=$((nfile + 1))
	"$FAIRLAB" report --csv "$f" >"$out/$stem.report.csv" 2>/dev/null &&
		"$FAIRLAB" whatif --csv --policy="$p" "$f" >"$out/$stem.self.csv" 2>/dev/null || { bad="$bad $stem"; continue; }
	# a recording of one policy has one segment: the report's only row
	live=$(col "$out/$stem.report.csv" attempts_n writes_n switches_n err_max_load err_mean_load err_p99_load)
	self=$(col "$out/$stem.self.csv" attempts_n writes_n switches_n err_max_load err_mean_load err_p99_load)
	div=$(col "$out/$stem.self.csv" diverged_n)
	if [ "$(wc -l <"$out/$stem.report.csv")" = 2 ] && [ "$div" = 0 ] && [ "$live" = "$self" ]; then
		nexact=$((nexact + 1))
	else
		bad="$bad $stem"
	fi
	# live write% and mean |E| of this recording
	printf '%s\t%s\n' "$p" "$(col "$out/$stem.report.csv" attempts_n writes_n err_mean_load)" >>"$out/live.tsv"
done <"$out/files.tsv"

# ---- 2. the stock recordings under every live policy ----------------------
live_pols=$(cut -f1 "$out/files.tsv" | awk '!seen[$0]++' | paste -sd, -)
: >"$out/pred.tsv"
first_stock=
while IFS=$'\t' read -r p f; do
	[ "$p" = stock ] || continue
	stem=$(basename "$f" .dat)
	first_stock=${first_stock:-$f}
	"$FAIRLAB" whatif --csv --policy="$live_pols" "$f" >"$out/$stem.pred.csv" 2>/dev/null || continue
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $(c["policy"]) "\t" $(c["attempts_n"]) "\t" $(c["writes_n"]) "\t" $(c["err_mean_load"]) "\t" $(c["diverged_n"]) }' \
		"$out/$stem.pred.csv" >>"$out/pred.tsv"
done <"$out/files.tsv"

# per policy: mean and stddev of write% and mean |E|, live and predicted;
# named when the intervals mean ±stddev do not overlap
awk -F'\t' -v order="$live_pols" '
	function add(k, x) { n[k]++; s[k] += x; q[k] += x * x }
	function m(k) { return n[k] ? s[k] / n[k] : 0 }
	function sd(k,   v) { if (n[k] < 2) return 0; v = (q[k] - n[k] * m(k) * m(k)) / (n[k] - 1); return v > 0 ? sqrt(v) : 0 }
	function cell(k) { return sprintf("%.2f ±%.2f", m(k), sd(k)) }
	function apart(a, b) { return (m(a) - m(b) > sd(a) + sd(b) + 1e-9) || (m(b) - m(a) > sd(a) + sd(b) + 1e-9) }
	FNR == NR { add($1 " lw", 100 * $3 / $2); add($1 " le", $4); next }
	{ add($1 " pw", 100 * $3 / $2); add($1 " pe", $4); dv[$1] += $5 }
	END {
		np = split(order, pol, ",")
		printf "%-15s %5s %5s  %-16s %-16s %-18s %-18s %s\n", "tg_policy", "live", "pred", "write% measured", "write% predicted", "|E|mean measured", "|E|mean predicted", "prediction"
		for (i = 1; i <= np; i++) {
			p = pol[i]
			if (p == "stock") v = "its own input (exact by construction: not a validation)"
			# every attempt of every stock round decided as recorded: P is
			# the rule of stock on this kernel (ratelimit:1000 on 6.7+), its
			# prediction the figures of the stock rounds themselves
			else if (n[p " pw"] && dv[p] == 0)
				v = "= the recorded stock decisions (0 diverged: the rule of stock here): live against live, not a validation"
			else if (n[p " lw"] < 2) v = "one live round: no spread to compare with"
			else {
				compared++
				w = apart(p " lw", p " pw"); e = apart(p " le", p " pe")
				v = (w || e) ? "OUTSIDE the live spread:" (w ? " write%" : "") (e ? " |E|mean" : "") : "within the live spread"
				if (w || e) named = named (named ? ", " : "") p
			}
			printf "%-15s %5d %5d  %-16s %-16s %-18s %-18s %s\n", p, n[p " lw"], n[p " pw"], cell(p " lw"), cell(p " pw"), cell(p " le"), cell(p " pe"), v
			printf "%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", p, n[p " lw"], n[p " pw"], m(p " lw"), sd(p " lw"), m(p " pw"), sd(p " pw"), m(p " le"), sd(p " le"), m(p " pe"), sd(p " pe") > "/dev/stderr"
		}
		print ""
		if (named != "") {
			print "Outside the live spread: " named "."
			print "Why: the replay feeds each policy the loads recorded under stock, and cannot see feedback."
			print "Under the live policy tg->load_avg differs, so the group weights (calc_group_shares()) and"
			print "with them the cfs_rq loads themselves differ; the workload also ran differently (a VM under"
			print "TCG on a shared host), which moves when update attempts happen (ratelimit and the error)."
		} else if (compared) {
			print "Every prediction lies within the live spread."
		} else {
			print "One live round per policy: no spread to compare the predictions with (make demo runs 5)."
		}
	}' "$out/live.tsv" "$out/pred.tsv" 2>"$res/whatif.tsv.body" >"$out/table.txt"
{
	printf 'policy\tlive_runs\tpredicted_runs\twrite_pct\twrite_pct_stddev\tpredicted_write_pct\tpredicted_write_pct_stddev\terr_mean_load\terr_mean_load_stddev\tpredicted_err_mean_load\tpredicted_err_mean_load_stddev\n'
	cat "$res/whatif.tsv.body"
} >"$res/whatif.tsv"
rm -f "$res/whatif.tsv.body"

{
	echo "What-if: each recording replayed under the policy it was recorded with (fairlab whatif --policy=P):"
	echo "  exact (every decision as recorded, fairlab report's figures) for $nexact of $nfile recordings${bad:+; NOT for:$bad}"
	echo
	echo "The stock recordings replayed under every live policy: predicted against measured (mean ±stddev over"
	echo "the rounds; write% = writes per attempt; |E|mean = time-weighted mean |E| per group, load units)."
	echo "A prediction is outside the live spread when mean ±stddev of the two do not overlap."
	cat "$out/table.txt"
} >"$res/whatif.txt"
cat "$res/whatif.txt"

# ---- 3. plot: replayed frontier of one stock recording, live policies -------
if [ -n "$first_stock" ] && command -v "${GNUPLOT:-gnuplot}" >/dev/null; then
	"$FAIRLAB" whatif --csv "$first_stock" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$(c["frontier"]) == "*" { e = $(c["err_mean_load"]) + 0; print $(c["write_pct"]) "\t" (e < 0.01 ? 0.01 : e) "\t" $(c["policy"]) }' |
		sort -g >"$res/plots/whatif-frontier.tsv"
	# by increasing write%, labels alternately above (8th column 1) and
	# below (2) their points: neighbours would overprint on one side
	awk -F'\t' 'NR > 1 { lo = ($8 < 0.01) ? 0.01 : $8; plo = ($10 < 0.01) ? 0.01 : $10
		print $1 "\t" $4 "\t" $5 "\t" lo "\t" $9 "\t" $6 "\t" plo }' "$res/whatif.tsv" |
		sort -t "$(printf '\t')" -k2,2g |
		awk -F'\t' -v OFS='\t' '{ print $0, NR % 2 ? 1 : 2 }' >"$res/plots/whatif-live.tsv"
	cat >"$res/plots/whatif-pareto.gp" <<EOG
set terminal pngcairo size 1000,700 font ",10"
set output "$res/plots/whatif-pareto.png"
set datafile separator "\t"
set title "Live policies (mean ±stddev over the rounds) and the replayed Pareto frontier of $(basename "$first_stock")" noenhanced
set xlabel "writes per tg_update attempt (%)" noenhanced
set ylabel "time-weighted mean |E| per group (load; 0 drawn at 0.01)"
set logscale y
set xrange [0:110]
set grid
set key top right
plot "$res/plots/whatif-frontier.tsv" using 1:2 with linespoints lw 2 pt 6 ps 0.6 title "replayed frontier (fairlab whatif, 50 policies)", \
     "$res/plots/whatif-live.tsv" using 2:4:3:5 with xyerrorbars pt 7 title "live policies", \
     "" using (\$8 == 1 ? \$2 : NaN):4:1 with labels offset 1,0.7 left noenhanced notitle, \
     "" using (\$8 == 2 ? \$2 : NaN):4:1 with labels offset 1,-0.8 left noenhanced notitle, \
     "" using 6:7 with points pt 4 ps 1.2 title "predicted from the stock recordings"
EOG
	if "${GNUPLOT:-gnuplot}" "$res/plots/whatif-pareto.gp" 2>"$res/plots/whatif-pareto.err"; then
		echo
		echo "plot: $res/plots/whatif-pareto.png (replayed frontier of $(basename "$first_stock") and the live policies)"
	else
		echo "whatif-pareto plot failed: $(head -2 "$res/plots/whatif-pareto.err")"
	fi
fi
[ -z "$bad" ]
