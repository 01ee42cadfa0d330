#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The host-side table and plots of make demo-scale (demo/scale.sh), from
# what `fairlab experiment --report-only` left for each CPU count.
#
#   demo/scale-analyze.sh OUT RESDIR
#
# OUT holds cpus-N/ for each CPU count N: cpus-N/recordings/throughput.tsv
# (fairlab experiment: kind, policy, round, file, ...) and
# cpus-N/results/report/STEM.csv (`fairlab report --csv` of each
# recording STEM.dat; its segment "all" when it has several).  Per
# recording it takes, from the analyzer's figures:
#   transfers/s        coh_transfers_per_s (modeled line transfers per
#                      second of trace time)
#   transfers/attempt  coh_transfers_n / attempts_n (per tg_update attempt)
#   shares mean, p99   shares_err_mean_pct, shares_err_p99_pct
#   write%             100 - skip_pct (writes per tg_update attempt)
#   xnode/s            coh_xnode_per_s (the modeled transfers between
#                      nodes per second: the cost a tg_layout split moves;
#                      "nan" where the report has none)
# and per CPU count and policy the mean and sample stddev over the rounds
# (a point with one round has no spread: refused).  A policy is named as
# throughput.tsv names it, a tg_layout included (stock/node:100000): the
# name is a tsv key and a plot title; files come from throughput.tsv.  Writes into RESDIR:
#   scale-runs.tsv   one row per recording (the figures above)
#   scale.tsv        cpus, policy, rounds, then mean and stddev per figure
#   scale.txt        the text table, "mean ±stddev" cells
#   plots/scale.png, plots/scale.svg (and scale.gp, scale-plot.tsv):
#                    each figure (6 panels) against the CPU count, one line per
#                    policy, error bars = ±stddev over the rounds
# Exit status 1 when a recording has no report, a point has fewer than 2
# rounds, or gnuplot fails.
set -uo pipefail
# num(): the tables' figures, one formatter for both demo analyses
num_awk=$(cat "$(dirname "$0")/num.awk") || exit 2
out=${1:?usage: scale-analyze.sh OUT RESDIR}
res=${2:?usage: scale-analyze.sh OUT RESDIR}
fail=0
mkdir -p "$res/plots"

# ------------------------------------------------ one row per recording
runs=$res/scale-runs.tsv
printf 'cpus\tpolicy\tround\tcoh_transfers_per_s\tcoh_transfers_per_attempt\tshares_err_mean_pct\tshares_err_p99_pct\twrite_pct\tcoh_xnode_per_s\n' >"$runs"
ndir=0
for d in "$out"/cpus-*/; do
	d=${d%/}
	n=${d##*/cpus-}
	[[ $n =~ ^[0-9]+$ ]] || continue
	tsv=$d/recordings/throughput.tsv
	[ -s "$tsv" ] || { echo "scale-analyze: $tsv missing: no figures for $n CPUs" >&2; fail=1; continue; }
	ndir=$((ndir + 1))
	while IFS=$'\t' read -r kind pol round file _; do
		[ "$kind" = tg ] || continue
		csv=$d/results/report/${file%.dat}.csv
		if [ ! -s "$csv" ]; then
			echo "scale-analyze: no report for $n CPUs, $file ($csv)" >&2; fail=1; continue
		fi
		awk -F, -v n="$n" -v p="$pol" -v r="$round" -v f="$csv" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			# segment "all" (the whole trace) when there are several
			!seen || $c["segment"] == "all" { for (i = 1; i <= NF; i++) v[i] = $i; seen = 1 }
			END {
				if (!seen || !("coh_transfers_n" in c) || !("attempts_n" in c)) {
					printf "scale-analyze: %s: no figures\n", f > "/dev/stderr"; exit 1
				}
				a = v[c["attempts_n"]]
				printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n, p, r, v[c["coh_transfers_per_s"]],
					(a > 0 ? sprintf("%.6f", v[c["coh_transfers_n"]] / a) : "nan"),
					v[c["shares_err_mean_pct"]], v[c["shares_err_p99_pct"]],
					(v[c["skip_pct"]] == "" ? "nan" : sprintf("%.5f", 100 - v[c["skip_pct"]])),
					("coh_xnode_per_s" in c && v[c["coh_xnode_per_s"]] != "" ? v[c["coh_xnode_per_s"]] : "nan")
			}' "$csv" >>"$runs" || fail=1
	done < <(tail -n +2 "$tsv")
done
[ $ndir -gt 0 ] || { echo "scale-analyze: no cpus-N/ directory in $out" >&2; exit 1; }

# ------------------------------------------------ mean, stddev per point
# rows in CPU order, policies in their first-seen order; nan figures
# (a run without attempts) are left out of a mean and counted in "rounds"
# only where present
awk -F'\t' '
	NR == 1 { nf = NF; for (i = 4; i <= NF; i++) h[i] = $i; next }
	{
		k = $1 SUBSEP $2
		if (!(k in rounds)) { key[++nk] = k; cpu[nk] = $1; pol[nk] = $2 }
		rounds[k]++
		for (i = 4; i <= nf; i++) if ($i != "nan" && $i != "") { n[k, i]++; s[k, i] += $i; q[k, i] += $i * $i }
	}
	END {
		printf "cpus\tpolicy\trounds"
		for (i = 4; i <= nf; i++) printf "\t%s\t%s_stddev", h[i], h[i]
		printf "\n"
		# order: CPU count, then first-seen policy order
		for (a = 1; a <= nk; a++) { o[a] = a; if (!(pol[a] in prank)) prank[pol[a]] = a }
		for (a = 2; a <= nk; a++) for (b = a; b > 1; b--) {
			x = o[b - 1]; y = o[b]
			if (cpu[x] + 0 > cpu[y] + 0 || (cpu[x] == cpu[y] && prank[pol[x]] > prank[pol[y]])) { o[b - 1] = y; o[b] = x }
			else break
		}
		for (a = 1; a <= nk; a++) {
			k = key[o[a]]
			printf "%s\t%s\t%d", cpu[o[a]], pol[o[a]], rounds[k]
			for (i = 4; i <= nf; i++) {
				m = n[k, i] ? s[k, i] / n[k, i] : "nan"
				v = n[k, i] > 1 ? (q[k, i] - n[k, i] * m * m) / (n[k, i] - 1) : 0
				if (v < 0) v = 0
				if (n[k, i]) printf "\t%.6g\t%s", m, (n[k, i] > 1 ? sprintf("%.6g", sqrt(v)) : "nan")
				else printf "\tnan\tnan"
			}
			printf "\n"
		}
	}' "$runs" >"$res/scale.tsv"
thin=$(awk -F'\t' 'NR > 1 && $3 < 2 { printf " %s CPUs/%s (%d round)", $1, $2, $3 }' "$res/scale.tsv")
if [ -n "$thin" ]; then
	echo "scale-analyze: points without a spread (fewer than 2 rounds):$thin" >&2
	fail=1
fi

# ------------------------------------------------ text table
awk -F'\t' "$num_awk"'
	function cell(c) { return num($c) ($(c + 1) == "nan" ? "" : " ±" num($(c + 1))) }
	NR == 1 { next }
	{
		if (prev != "" && $1 != prev) printf "\n"
		prev = $1
		printf "%-6s %-18s %6s  %-20s %-20s %-20s %-20s %-16s %-20s\n", $1, $2, $3,
			cell(4), cell(6), cell(8), cell(10), cell(12), cell(14)
	}
	BEGIN {
		printf "%-6s %-18s %6s  %-20s %-20s %-20s %-20s %-16s %-20s\n", "CPUs", "tg_policy", "rounds",
			"transfers (1/s)", "transfers/attempt", "shares err mean (%)", "shares err p99 (%)",
			"write (%)", "xnode transfers (1/s)"
	}' "$res/scale.tsv" >"$res/scale.txt"
cat >>"$res/scale.txt" <<'EON'

Each cell: mean ±sample stddev over the rounds (absolute, in the column's unit).
transfers = the analyzer's coherence model (fairlab report: coh_transfers_*), a lower bound:
the modeled transfers of each group's tg->load_avg cacheline between CPUs (a read of a line
another CPU modified, a write to a line other CPUs hold), summed over the groups; per second
of trace time, and per tg_update attempt (transfers / attempts, which factors out how busy a
run was).  shares err = |shares given - shares ideal| / tg->shares from the tg_read
records (fairlab report's shares_err_mean_pct and shares_err_p99_pct), time-weighted mean and
p99.  write = writes per tg_update attempt (100 - skip%).  xnode transfers = those of the
modeled transfers between NUMA nodes, per second (coh_xnode_per_s): what a tg_layout split
(POLICY/LAYOUT: node, llc, :US a read cache) is for; its lines are the layout's domain lines.
EON
cat "$res/scale.txt"

# ------------------------------------------------ plots
# one block per policy (gnuplot index), rows in CPU order: cpus, then
# mean and stddev of each figure; zero errors are drawn at 0.001 on the
# logarithmic shares axes
awk -F'\t' 'NR > 1 { if (!($2 in b)) { b[$2] = ++np; name[np] = $2 }; row[b[$2]] = row[b[$2]] $0 "\n" }
	END { for (i = 1; i <= np; i++) { printf "# %s\n%s\n\n", name[i], row[i] } }' \
	"$res/scale.tsv" >"$res/plots/scale-plot.tsv"
pols=$(awk -F'\t' 'NR > 1 && !s[$2]++ { printf "%s ", $2 }' "$res/scale.tsv")
np=$(echo $pols | wc -w)
xt=$(awk -F'\t' 'NR > 1 && !s[$1]++ { printf "%s\"%s\" %s", n++ ? ", " : "", $1, $1 }' "$res/scale.tsv")
# the sixth panel, cross-node transfers, where some point has them (a
# policy without them draws no line there)
xpanel=
if awk -F'\t' 'NR > 1 && $14 != "nan" && $14 != "" { f = 1 } END { exit !f }' "$res/scale.tsv"; then
	xpanel='unset logscale y
set key top left
set ylabel "modeled cross-node transfers (1/s)"
set title "cross-node transfers per second (model, lower bound)"
plot for [i=0:'$((np - 1))'] "'$res'/plots/scale-plot.tsv" index i using 1:14:15 with yerrorlines pt 7 title word(pols, i+1)'
fi
for term in png svg; do
	if [ $term = png ]; then t='pngcairo size 1500,820 font ",10" noenhanced'; else t='svg size 1500,820 noenhanced'; fi
	cat >"$res/plots/scale-$term.gp" <<EOG
set terminal $t
set output "$res/plots/scale.$term"
set datafile separator "\t"
pols = "$pols"
set multiplot layout 2,3 title "make demo-scale: each figure against the CPU count, one line per tg_policy; error bars = ±stddev over the rounds"
set logscale x 2
set xtics ($xt)
set xrange [*:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
set grid
set key top left
set xlabel "CPUs"
fl(y) = y > 0.001 ? y : 0.001
set ylabel "modeled transfers (1/s)"
set title "coherence transfers per second (model, lower bound)"
plot for [i=0:$np-1] "$res/plots/scale-plot.tsv" index i using 1:4:5 with yerrorlines pt 7 title word(pols, i+1)
set ylabel "modeled transfers per attempt"
set title "coherence transfers per tg_update attempt"
plot for [i=0:$np-1] "$res/plots/scale-plot.tsv" index i using 1:6:7 with yerrorlines pt 7 title word(pols, i+1)
set key right center
set ylabel "writes per attempt (%)"
set title "write% (tg->load_avg writes per attempt)"
plot for [i=0:$np-1] "$res/plots/scale-plot.tsv" index i using 1:12:13 with yerrorlines pt 7 title word(pols, i+1)
set key top right
set logscale y
set ylabel "shares error (% of tg->shares), 0 drawn at 0.001"
set title "shares error, time-weighted mean"
plot for [i=0:$np-1] "$res/plots/scale-plot.tsv" index i using 1:(fl(\$8)):9 with yerrorlines pt 7 title word(pols, i+1)
set title "shares error, time-weighted p99"
plot for [i=0:$np-1] "$res/plots/scale-plot.tsv" index i using 1:(fl(\$10)):11 with yerrorlines pt 7 title word(pols, i+1)
$xpanel
unset multiplot
EOG
	if ! "${GNUPLOT:-gnuplot}" "$res/plots/scale-$term.gp" 2>"$res/plots/scale-$term.err" ||
		[ ! -s "$res/plots/scale.$term" ]; then
		echo "scale-analyze: gnuplot failed on scale-$term.gp: $(head -3 "$res/plots/scale-$term.err")" >&2
		fail=1
	fi
done
[ $fail = 0 ] && echo && echo "plots: $res/plots/scale.png, scale.svg (each figure against the CPU count, one line per policy)"
exit $fail
