#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Pareto picture of an experiment's table (analyze.sh runs it): one
# point per tg policy, mean ±stddev over the rounds, one colour and marker
# per policy with a legend; the verdict's Pareto-optimal policies joined
# by the frontier line and numbered by increasing cost, alternately
# above and below (a name per point would collide where the frontier
# crowds; the note under the panel names each number; the others are
# named by the legend only); the verdict written under each panel.
# Top row: the shares error (the headline, % of tg->shares) against
# modeled cross-node transfers/s (when the table has them: the layouts'
# cost), writes/s and writes per attempt, with verdict.txt; bottom row:
# mean |E| with verdict-load.txt.  A table without the shares error draws
# the |E| row only.  Both errors on a log scale (0 drawn at the floor the
# axis label names).
#
#   pareto-plot.sh RESDIR   (RESDIR/table.tsv, verdict.txt, verdict-load.txt)
# Writes RESDIR/plots/pareto-policies.{tsv,gp,png} and the frontier files.
set -uo pipefail
res=${1:?usage: pareto-plot.sh RESDIR}
out=$res/plots
mkdir -p "$out"
GNUPLOT=${GNUPLOT:-gnuplot}

# policy, writes/s, its sd, |E| mean (0 drawn at 0.1), its sd, write share
# %, its sd, shares error mean % (0 drawn at 0.001), its sd ("" when not
# recorded), modeled cross-node transfers/s, its sd ("" when not in the
# table)
awk -F'\t' 'NR > 1 && $3 != "" && $15 != "" {
	e = $15 + 0; esd = e * $16 / 100; lo = (e < 0.1) ? 0.1 : e
	share = 100 - $27; ssd = $27 * $28 / 100
	sh = $30; shsd = ""
	if (sh != "" && sh != "nan") { shsd = sh * $31 / 100; if (sh + 0 < 0.001) sh = 0.001 } else sh = ""
	xs = $41; xsd = ""
	if (xs != "" && xs != "nan") xsd = xs * $42 / 100; else xs = ""
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $3, $3 * $4 / 100, lo, esd, share, ssd, sh, shsd, xs, xsd
}' "$res/table.tsv" >"$out/pareto-policies.tsv"
[ -s "$out/pareto-policies.tsv" ] || exit 0

# verdict files: the Pareto-optimal policies, by writes/s and by attempt
optimal() {	# optimal FILE "by writes/s:": the policies, space-separated
	awk -v by="$2" '$0 ~ by { on = 1; next } on && /Pareto-optimal:/ {
		sub(/.*Pareto-optimal: */, ""); gsub(/, /, " "); if ($0 != "none") print; exit }' "$1"
}
verdict_line() {	# verdict_line FILE "by writes/s:": its three lines, as gnuplot "\n"s
	awk -v by="$2" '$0 ~ by { on = 1; next }
		on && /Pareto-optimal:|dominated:|not distinguishable:/ {
			sub(/^ +/, ""); gsub(/  +/, " ")
			if (length($0) > 110) $0 = substr($0, 1, 107) "..."	# the whole is in the file
			s = s (s ? "\\n" : "") $0; n++ }
		on && n == 3 { print s; exit }' "$1"
}
# front FILE XCOL YCOL POLICIES...: the points of POLICIES sorted by x, with
# the side of each one's label (1 above, -1 below, alternating) and its
# number (the label: a policy name per point would collide where the
# frontier crowds; the note under the panel names each number)
front() {
	f=$1 x=$2 y=$3; shift 3
	awk -F'\t' -v x=$x -v y=$y -v want=" $* " 'index(want, " " $1 " ") && $y != "" { print $x "\t" $y "\t" $1 }' \
		"$out/pareto-policies.tsv" | sort -g | awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, (NR % 2) ? 1 : -1, NR }' >"$f"
}
# numbered FRONTFILE: "1 name, 2 name, ..." of its points
numbered() {
	awk -F'\t' '{ s = s (NR > 1 ? (NR % 6 == 1 ? ",\\n  " : ", ") : "") $5 " " $3 } END { print s }' "$1"
}
vd=$res/verdict.txt vl=$res/verdict-load.txt
[ -s "$vl" ] || vl=$vd
# the shares row when verdict.txt ranks by the shares error (it falls back
# to |E| when some policy has none)
shares=
grep -q "error: the time-weighted mean shares error" "$vd" 2>/dev/null && shares=1
# the cross-node column when every policy has the figure (and so a verdict)
xn=$(awk -F'\t' '$10 == "" { bad = 1 } END { print bad ? "" : 1 }' "$out/pareto-policies.tsv")
if [ -n "$xn" ]; then
	front "$out/pareto-front-xs.tsv" 10 4 $(optimal "$vl" "by modeled cross-node transfers/s:")
	[ -z "$shares" ] ||
		front "$out/pareto-front-sh-xs.tsv" 10 8 $(optimal "$vd" "by modeled cross-node transfers/s:")
fi
front "$out/pareto-front-ws.tsv" 2 4 $(optimal "$vl" "by writes/s:")
front "$out/pareto-front-wa.tsv" 6 4 $(optimal "$vl" "by writes per attempt:")
if [ -n "$shares" ]; then
	front "$out/pareto-front-sh-ws.tsv" 2 8 $(optimal "$vd" "by writes/s:")
	front "$out/pareto-front-sh-wa.tsv" 6 8 $(optimal "$vd" "by writes per attempt:")
fi
pols=$(cut -f1 "$out/pareto-policies.tsv" | tr '\n' ' ')

# panel XCOL XSDCOL YCOL YSDCOL XLABEL YLABEL FRONTFILE NOTE FLOOR: the
# error bars stop at FLOOR (the log axis has no 0; a spread larger than the
# mean would reach below it)
panel() {
	cat <<EOG
set xlabel "$5" noenhanced
set ylabel "$6" noenhanced
set logscale y
set format y "%g"
F = $9
set label 1 "${8}\\nfrontier, numbered by increasing cost: $(numbered "$7")" at graph 0, graph -0.17 font ",8" noenhanced
plot for [i=1:words(pols)] "$out/pareto-policies.tsv" using (strcol(1) eq word(pols, i) ? \$$1 : NaN):$3:(\$$1 - \$$2):(\$$1 + \$$2):(\$$3 - \$$4 < F ? F : \$$3 - \$$4):(\$$3 + \$$4) \\
       with xyerrorbars lc rgb word(cols, (i - 1) % words(cols) + 1) pt (i - 1) % 13 + 4 ps 1.5 title word(pols, i), \\
     "$7" using 1:2 with lines dt 2 lw 1.5 lc rgb "#555555" title "Pareto frontier", \\
     $(labels "$7" 1 1), \\
     $(labels "$7" -1 -1)
unset label 1
EOG
}
# labels FRONTFILE SIDE YOFFSET: the plot element of the labels on SIDE
# (gnuplot 5.4 crashes on a labels element whose points are all
# undefined: a side without labels plots nothing instead)
labels() {
	if awk -F'\t' -v s="$2" '$4 == s { f = 1 } END { exit !f }' "$1"; then
		echo "\"$1\" using 1:(\$4 == $2 ? \$2 : NaN):5 with labels offset 1,$3 left font \",10\" noenhanced notitle"
	else
		echo "NaN notitle"
	fi
}
rows=1 ncol=2
[ -n "$shares" ] && rows=2
[ -n "$xn" ] && ncol=3
{
	cat <<EOG
set terminal pngcairo size $((ncol * 750)),$((rows * 520 + 40)) font ",10"
set output "$out/pareto-policies.png"
set datafile separator "\t"
set datafile missing ""
pols = "$pols"
cols = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #bcbd22 #000000 #7f7f7f #aec7e8"
set multiplot layout $rows,$ncol title "tg->load\\_avg policies, mean ±stddev over the rounds; joined and numbered: the Pareto-optimal of the verdict; an error of 0 is drawn at 0.001 % (shares) or 0.1 (|E|)" noenhanced
set offsets graph 0.02, graph 0.12, graph 0.05, graph 0.05
set bmargin 11
set grid
set key outside right top box title "tg policy" noenhanced
EOG
	if [ -n "$shares" ]; then
		[ -z "$xn" ] || panel 10 11 8 9 "modeled cross-node transfers/s (coherence model, lower bound)" \
			"shares error, time-weighted mean (% of tg->shares)" "$out/pareto-front-sh-xs.tsv" \
			"verdict by modeled cross-node transfers/s (verdict.txt):\\n$(verdict_line "$vd" 'by modeled cross-node transfers/s:')" 0.001
		panel 2 3 8 9 "writes/s" "shares error, time-weighted mean (% of tg->shares)" \
			"$out/pareto-front-sh-ws.tsv" "verdict by writes/s (verdict.txt):\\n$(verdict_line "$vd" 'by writes/s:')" 0.001
		panel 6 7 8 9 "writes per tg_update attempt (%)" "shares error, time-weighted mean (% of tg->shares)" \
			"$out/pareto-front-sh-wa.tsv" "verdict by writes per attempt (verdict.txt):\\n$(verdict_line "$vd" 'by writes per attempt:')" 0.001
	fi
	[ -z "$xn" ] || panel 10 11 4 5 "modeled cross-node transfers/s (coherence model, lower bound)" \
		"|E| per group, time-weighted mean (load)" "$out/pareto-front-xs.tsv" \
		"verdict by modeled cross-node transfers/s and |E| ($(basename "$vl")):\\n$(verdict_line "$vl" 'by modeled cross-node transfers/s:')" 0.1
	panel 2 3 4 5 "writes/s" "|E| per group, time-weighted mean (load)" "$out/pareto-front-ws.tsv" \
		"verdict by writes/s and |E| ($(basename "$vl")):\\n$(verdict_line "$vl" 'by writes/s:')" 0.1
	panel 6 7 4 5 "writes per tg_update attempt (%)" "|E| per group, time-weighted mean (load)" \
		"$out/pareto-front-wa.tsv" "verdict by writes per attempt and |E| ($(basename "$vl")):\\n$(verdict_line "$vl" 'by writes per attempt:')" 0.1
	echo "unset multiplot"
} >"$out/pareto-policies.gp"
"$GNUPLOT" "$out/pareto-policies.gp" 2>"$out/pareto-policies.err"
