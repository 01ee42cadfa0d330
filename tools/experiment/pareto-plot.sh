#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Pareto picture of an experiment's table (analyze.sh runs it): one
# point per tg policy, mean ±stddev over the rounds, one colour and marker
# per policy with a legend; the verdict's Pareto-optimal policies joined
# by the frontier line and labelled (the others are named by the legend
# only, so labels cannot collide); the verdict written under each panel.
# Mean |E| against writes/s and against writes per attempt; beside them,
# when the table has it, the shares error (the headline error), whose
# frontier is that of the means (verdict.awk tests |E| only).
#
#   pareto-plot.sh RESDIR        (RESDIR/table.tsv, RESDIR/verdict.txt)
# Writes RESDIR/plots/pareto-policies.{tsv,gp,png} and the frontier files.
set -uo pipefail
res=${1:?usage: pareto-plot.sh RESDIR}
out=$res/plots
mkdir -p "$out"
GNUPLOT=${GNUPLOT:-gnuplot}

# policy, writes/s, its sd, |E| mean (0 drawn at 0.1), its sd, write share
# %, its sd, shares error mean %, its sd ("" when not recorded)
awk -F'\t' 'NR > 1 && $3 != "" && $15 != "" {
	e = $15 + 0; esd = e * $16 / 100; lo = (e < 0.1) ? 0.1 : e
	share = 100 - $27; ssd = $27 * $28 / 100
	sh = $30; shsd = (sh == "") ? "" : sh * $31 / 100
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $3, $3 * $4 / 100, lo, esd, share, ssd, sh, shsd
}' "$res/table.tsv" >"$out/pareto-policies.tsv"
[ -s "$out/pareto-policies.tsv" ] || exit 0

# verdict.txt: the Pareto-optimal policies, by writes/s and by attempt
optimal() {	# optimal "by writes/s:": the policies, space-separated
	awk -v by="$1" '$0 ~ by { on = 1; next } on && /Pareto-optimal:/ {
		sub(/.*Pareto-optimal: */, ""); gsub(/, /, " "); if ($0 != "none") print; exit }' "$res/verdict.txt"
}
verdict_line() {	# verdict_line "by writes/s:": its three lines, as gnuplot "\n"s
	awk -v by="$1" '$0 ~ by { on = 1; next }
		on && /Pareto-optimal:|dominated:|not distinguishable:/ {
			sub(/^ +/, ""); gsub(/  +/, " ")
			if (length($0) > 95) $0 = substr($0, 1, 92) "..."	# the whole is in verdict.txt
			s = s (s ? "\\n" : "") $0; n++ }
		on && n == 3 { print s; exit }' "$res/verdict.txt"
}
# front FILE XCOL YCOL POLICIES...: the points of POLICIES sorted by x
front() {
	f=$1 x=$2 y=$3; shift 3
	awk -F'\t' -v x=$x -v y=$y -v want=" $* " 'index(want, " " $1 " ") && $y != "" { print $x "\t" $y }' \
		"$out/pareto-policies.tsv" | sort -g >"$f"
}
# the frontier of the means of column Y against X (no spread test)
means_front() {
	awk -F'\t' -v x=$1 -v y=$2 '$y != "" { n++; p[n] = $1; a[n] = $x + 0; b[n] = $y + 0 }
		END { for (i = 1; i <= n; i++) { d = 0
			for (j = 1; j <= n; j++) if (a[j] <= a[i] && b[j] <= b[i] && (a[j] < a[i] || b[j] < b[i])) d = 1
			if (!d) printf "%s ", p[i] } }' "$out/pareto-policies.tsv"
}
opt_ws=$(optimal "by writes/s:") opt_wa=$(optimal "by writes per attempt:")
front "$out/pareto-front-ws.tsv" 2 4 $opt_ws
front "$out/pareto-front-wa.tsv" 6 4 $opt_wa
shares=$(awk -F'\t' '$8 != "" { print 1; exit }' "$out/pareto-policies.tsv")
if [ -n "$shares" ]; then
	sh_ws=$(means_front 2 8) sh_wa=$(means_front 6 8)
	front "$out/pareto-front-sh-ws.tsv" 2 8 $sh_ws
	front "$out/pareto-front-sh-wa.tsv" 6 8 $sh_wa
fi
pols=$(cut -f1 "$out/pareto-policies.tsv" | tr '\n' ' ')

# panel XCOL XSDCOL YCOL YSDCOL XLABEL YLABEL FRONTFILE "LABELLED" NOTE LOGY
panel() {
	cat <<EOG
set xlabel "$5" noenhanced
set ylabel "$6" noenhanced
$( [ "${10}" = log ] && echo "set logscale y" || echo "unset logscale y" )
set label 1 "${9}" at graph 0, graph -0.17 font ",8" noenhanced
lab = " $8 "
plot for [i=1:words(pols)] "$out/pareto-policies.tsv" using (strcol(1) eq word(pols, i) ? \$$1 : NaN):$3:$2:$4 \\
       with xyerrorbars lc rgb word(cols, (i - 1) % words(cols) + 1) pt (i - 1) % 13 + 4 ps 1.5 title word(pols, i), \\
     "$7" using 1:2 with lines dt 2 lw 1.5 lc rgb "#555555" title "Pareto frontier", \\
     "$out/pareto-policies.tsv" using (strstrt(lab, " ".strcol(1)." ") ? \$$1 : NaN):$3:1 \\
       with labels offset 1,0.8 left font ",9" noenhanced notitle
unset label 1
EOG
}
rows=1
[ -n "$shares" ] && rows=2
{
	cat <<EOG
set terminal pngcairo size 1500,$((rows * 520 + 40)) font ",10"
set output "$out/pareto-policies.png"
set datafile separator "\t"
set datafile missing ""
pols = "$pols"
cols = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #bcbd22 #000000 #7f7f7f #aec7e8"
set multiplot layout $rows,2 title "tg->load\\_avg policies, mean ±stddev over the rounds (|E| of 0 drawn at 0.1); labelled: the Pareto-optimal" noenhanced
set offsets graph 0.02, graph 0.12, graph 0.05, 0
set bmargin 9
set grid
set key outside right top box title "tg policy" noenhanced
EOG
	panel 2 3 4 5 "writes/s" "time-weighted mean |E| per group (load)" "$out/pareto-front-ws.tsv" \
		"$opt_ws" "verdict by writes/s (verdict.txt):\\n$(verdict_line 'by writes/s:')" log
	panel 6 7 4 5 "writes per tg_update attempt (%)" "time-weighted mean |E| per group (load)" \
		"$out/pareto-front-wa.tsv" "$opt_wa" "verdict by writes per attempt (verdict.txt):\\n$(verdict_line 'by writes per attempt:')" log
	if [ -n "$shares" ]; then
		panel 2 3 8 9 "writes/s" "shares error, time-weighted mean (%)" "$out/pareto-front-sh-ws.tsv" \
			"$sh_ws" "frontier of the means (no spread test): $sh_ws" lin
		panel 6 7 8 9 "writes per tg_update attempt (%)" "shares error, time-weighted mean (%)" \
			"$out/pareto-front-sh-wa.tsv" "$sh_wa" "frontier of the means (no spread test): $sh_wa" lin
	fi
	echo "unset multiplot"
} >"$out/pareto-policies.gp"
"$GNUPLOT" "$out/pareto-policies.gp" 2>"$out/pareto-policies.err"
