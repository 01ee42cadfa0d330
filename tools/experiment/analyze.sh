#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The analysis of `fairlab experiment` (and so of `make demo`): turns its
# recordings into one table, the plots and a verdict, through the analyzer
# CLI (build/fairlab) only.
#
#   tools/experiment/analyze.sh [--check] RECDIR RESDIR
#   (fairlab experiment runs it with FAIRLAB set to itself)
#
# RECDIR holds tg-TAG-rN.dat and idlest-NAME-rN.dat recordings and
# throughput.tsv (written by fairlab experiment: policy, round, the
# workload's own throughput from FAIRLAB_METRICS, lost events).  Writes into RESDIR:
#   table.txt / table.tsv   one row per tg policy: mean and stddev (% of the
#                           mean) over the rounds of each figure
#   compare/TAG.csv         `fairlab compare --csv` of stock against TAG
#   idlest.txt              update_pick_idlest policies on the fork burst
#   plots/                  `fairlab plot`: pareto.png/.svg, per recording
#                           STEM-error.png and STEM-writes.png
#   verdict.txt             the Pareto-optimal policies of this run (by the
#                           shares error; verdict-load.txt by |E|), dominated
#                           ones and those the spread cannot tell (verdict.awk)
# --check: also print TAP lines (make check): every recording parses, a row
# with figures for every policy, force has the most writes; exit 1 if not.
set -uo pipefail
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
rec=${1:?usage: analyze.sh [--check] RECDIR RESDIR}
res=${2:?usage: analyze.sh [--check] RECDIR RESDIR}
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
FAIRLAB=${FAIRLAB:-$top/build/fairlab}
tsv=$rec/throughput.tsv
fail=0

tap() {	# tap OK|FAIL TEXT
	[ $check = 1 ] || return 0
	if [ "$1" = OK ]; then echo "ok - demo: $2"; else echo "not ok - demo: $2"; fi
}
say() { echo "$*"; }

[ -x "$FAIRLAB" ] || { echo "analyze.sh: $FAIRLAB missing (make userspace)" >&2; exit 1; }
[ -s "$tsv" ] || { echo "analyze.sh: $tsv missing" >&2; tap FAIL "throughput.tsv present"; exit 1; }
rm -rf "$res"
mkdir -p "$res/compare" "$res/report" "$res/plots"

# ------------------------------------------------ every recording parses
nrec=0; nbad=0; bad=
for f in "$rec"/*.dat; do
	[ -e "$f" ] || continue
	nrec=$((nrec + 1))
	stem=$(basename "$f" .dat)
	if ! "$FAIRLAB" report --csv "$f" >"$res/report/$stem.csv" 2>"$res/report/$stem.warn"; then
		nbad=$((nbad + 1)); bad="$bad $stem"
	fi
done
if [ $nrec -gt 0 ] && [ $nbad = 0 ]; then
	tap OK "all $nrec recordings parse (fairlab report)"
else
	tap FAIL "$nbad of $nrec recordings do not parse:$bad"; fail=1
fi
# every tg recording names its CPUs' nodes (cpu_topology, for cross-node figures)
notopo=
for f in "$rec"/tg-*.dat; do
	[ -e "$f" ] || continue
	"$FAIRLAB" report --csv --table=cpus "$f" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "node") c = i; next }
			{ n++; if ($c == "" || $c < 0) bad++ } END { exit (n && !bad) ? 0 : 1 }' ||
		notopo="$notopo $(basename "$f" .dat)"
done
if [ -z "$notopo" ]; then
	tap OK "every tg recording carries its cpu_topology"
else
	tap FAIL "recordings without cpu_topology (cross-node figures 0):$notopo"
	say "warning: recordings without cpu_topology, their cross-node figures are 0:$notopo"
	fail=1
fi
# lost events: counted by fairlab experiment when it read each file back
lost=$(awk -F'\t' 'NR > 1 && $7 > 0 { n++; s += $7 } END { printf "%d %d", n, s }' "$tsv")
set -- $lost
if [ "$1" = 0 ]; then
	say "lost events: none in any recording"
else
	say "lost events: $2 in $1 recording(s) (see $tsv); their figures undercount"
fi
warns=$(cat "$res"/report/*.warn 2>/dev/null | sort | uniq -c | sort -rn | head -5)
[ -z "$warns" ] || { say "analyzer warnings (count, text):"; echo "$warns" | sed 's/^/#   /'; }

# ------------------------------------------------ tg policies: one table
policies=$(awk -F'\t' 'NR > 1 && $1 == "tg" && !seen[$2]++ { print $2 }' "$tsv")
files_of() {	# files_of KIND POLICY: its recordings that exist
	awk -F'\t' -v k="$1" -v p="$2" -v d="$rec" 'NR > 1 && $1 == k && $2 == p { print d "/" $4 }' "$tsv" |
		while read -r f; do [ -s "$f" ] && echo "$f"; done
}
base=stock
echo "$policies" | grep -qx stock || base=$(echo "$policies" | head -1)
mapfile -t basef < <(files_of tg "$base")

# the figures, in table order: compare metric, column header (appended
# ones keep the columns verdict.awk reads: 3-4, 15-16, 27-28, 30-31)
metrics="writes_per_s switches_per_s xnode_switches_per_s err_max_load err_mean_load err_rel_max_pct err_rel_mean_pct attempts_per_s skip_pct shares_err_mean_pct shares_err_p99_pct"
# ... and after the workload and lost columns (41-46): the coherence
# model's cross-node transfers of the groups' lines (every line a
# tg_layout splits the sum into, reads included) and all its transfers
xmetrics="coh_xnode_per_s coh_transfers_per_s"
: >"$res/table.tsv.tmp"
: >"$res/table.tsv.extra"
for p in $policies; do
	tag=$(echo "$p" | tr ':/' '-_')
	mapfile -t newf < <(files_of tg "$p")
	[ ${#newf[@]} -gt 0 ] && [ ${#basef[@]} -gt 0 ] || continue
	if ! "$FAIRLAB" compare --csv --groups=0 "${basef[@]}" -- "${newf[@]}" \
		>"$res/compare/$tag.csv" 2>"$res/compare/$tag.err"; then
		say "fairlab compare failed for $p: $(head -1 "$res/compare/$tag.err")"
		continue
	fi
	# policy, runs, then per metric: new mean, new stddev %, change % vs base
	awk -F, -v p="$p" -v ms="$metrics" -v xs="$xmetrics" -v extra="$res/table.tsv.extra" '
		NR > 1 { mean[$1] = $5; sd[$1] = $6; chg[$1] = $4; runs = $8 }
		END {
			n = split(ms, m, " ")
			printf "%s\t%s", p, runs
			for (i = 1; i <= n; i++)
				printf "\t%s\t%s\t%s", (m[i] in mean) ? mean[m[i]] : "", sd[m[i]], chg[m[i]]
			printf "\n"
			n = split(xs, m, " ")
			printf "%s", p >>extra
			for (i = 1; i <= n; i++)
				printf "\t%s\t%s\t%s", (m[i] in mean) ? mean[m[i]] : "", sd[m[i]], chg[m[i]] >>extra
			printf "\n" >>extra
		}' "$res/compare/$tag.csv" >>"$res/table.tsv.tmp"
done
# the workload's own throughput (FAIRLAB_METRICS; not by the analyzer)
awk -F'\t' '
	function add(k, x) { if (x == "nan" || x == "") return; n[k]++; s[k] += x; q[k] += x * x }
	function sdp(k,   m, v) { if (n[k] < 2) return 0; m = s[k] / n[k]; v = (q[k] - n[k] * m * m) / (n[k] - 1); if (v < 0) v = 0; return m ? 100 * sqrt(v) / m : 0 }
	FILENAME == ARGV[1] { if (FNR > 1 && $1 == "tg") { add($2 " hb", $5); add($2 " sn", $6); lost[$2] += $7 }; next }
	FILENAME == ARGV[2] { x = $1; sub(/^[^\t]*/, ""); extra[x] = $0; next }
	{
		p = $1
		printf "%s", $0
		for (j = 0; j < 2; j++) {
			k = p (j ? " sn" : " hb")
			if (n[k]) printf "\t%.1f\t%.3f", s[k] / n[k], sdp(k); else printf "\t\t"
		}
		printf "\t%d%s\n", lost[p], (p in extra) ? extra[p] : "\t\t\t\t\t\t"
	}' "$tsv" "$res/table.tsv.extra" "$res/table.tsv.tmp" >"$res/table.tsv.body"
{
	printf 'policy\truns'
	for m in $metrics; do printf '\t%s\t%s_stddev_pct\t%s_change_pct' "$m" "$m" "$m"; done
	printf '\thackbench_msgs_per_s\thackbench_stddev_pct\tstressng_ops_per_s\tstressng_stddev_pct\tlost_events'
	for m in $xmetrics; do printf '\t%s\t%s_stddev_pct\t%s_change_pct' "$m" "$m" "$m"; done
	printf '\n'
	cat "$res/table.tsv.body"
} >"$res/table.tsv"
rm -f "$res/table.tsv.tmp" "$res/table.tsv.body" "$res/table.tsv.extra"

# text table: LKP style "mean ±stddev%" cells
awk -F'\t' -v base="$base" '
	function num(x) {
		if (x == "") return "-"
		if (x + 0 >= 10000) return sprintf("%.0f", x)
		if (x + 0 >= 100) return sprintf("%.1f", x)
		if (x + 0 >= 1) return sprintf("%.2f", x)
		return sprintf("%.3f", x)
	}
	function cell(c,   s) {	# value column c, stddev column c+1
		s = num($c)
		if ($2 > 1 && $(c + 1) != "") s = s sprintf(" ±%.0f%%", $(c + 1))
		return s
	}
	NR == 1 { next }
	{
		# columns: 3.. = (mean, sd, chg) per metric in order
		w = cell(3); chg = ($1 == base) ? "base" : sprintf("%+.0f%%", $5)
		# write share = 100 - skip%, its stddev from that of skip% (in % of its mean)
		share = ($27 == "") ? "-" : sprintf("%.1f", 100 - $27)
		if ($27 != "" && $2 > 1 && 100 - $27 > 0)
			share = share sprintf(" ±%.0f%%", $27 * $28 / (100 - $27))
		row[NR] = sprintf("%-18s %4s  %-14s %8s  %-11s %-14s %-14s %-14s %-16s %-16s %-12s %-12s %-12s %-12s %-14s %-14s %5s",
			$1, $2, w, chg, share, cell(6), cell(9), cell(41), cell(30), cell(33),
			cell(12), cell(15), cell(18), cell(21), cell(36), cell(38), $40)
		nr = NR
	}
	END {
		printf "%-18s %4s  %-14s %8s  %-11s %-14s %-14s %-14s %-16s %-16s %-12s %-12s %-12s %-12s %-14s %-14s %5s\n",
			"tg_policy", "runs", "writes/s", "vs " base, "write%", "switches/s", "xnode sw/s", "xnode tr/s",
			"shares mean %tgs", "shares p99 %tgs",
			"|E|max", "|E|mean", "rel max %", "rel mean %", "hackbench/s*", "fork+exec/s*", "lost"
		for (i = 2; i <= nr; i++) print row[i]
	}' "$res/table.tsv" >"$res/table.txt"
{
	echo
	echo "Figures from fairlab compare (mean over the runs ±stddev in % of the mean); rates per second of"
	echo "trace time; shares = the headline error: |shares given - shares ideal| / tg->shares (%tgs: % of"
	echo "the group's weight), the weight calc_group_shares() gave a group entity from the tg->load_avg it"
	echo "read against the weight from the other cfs_rqs' tracked loads, time-weighted mean and p99 over"
	echo "cfs_rq-time (tg_read records; fairlab report --help);"
	echo "|E| = accumulated error tg->load_avg - sum(load) in load units (max, time-weighted mean"
	echo "per group), rel = |E|/sum(load); write% = writes per tg_update attempt (100 - skip%), which does"
	echo "not depend on how busy a run was; xnode tr/s = cross-node transfers of the groups' lines per second"
	echo "in fairlab's coherence model (a lower bound: reads included, and every line a tg_layout splits"
	echo "the sum into: the cost the verdict weighs first).  * the workload's own throughput (what it wrote to"
	echo "\$FAIRLAB_METRICS), not measured by fairlab; make demo's: hackbench messages/s (-g 2 -f 4 -l 20"
	echo "in a loop) and stress-ng fork+exec bogo ops/s, measured in the guest."
} >>"$res/table.txt"
cat "$res/table.txt"

# ------------------------------------------------ verdict: Pareto front
# minimise writes (cacheline traffic) and the error: once with
# writes/s, once with writes per attempt (which factors out how busy each
# run was: the attempt rate follows the workload, not the policy); a
# difference counts only beyond the round-to-round spread (verdict.awk
# says which test)
# verdict.txt by the shares error (the headline; |E| when a policy lacks
# it), verdict-load.txt by mean |E|
awk -F'\t' -f "$(dirname "$0")/verdict.awk" "$res/table.tsv" >"$res/verdict.txt"
awk -F'\t' -v err=load -f "$(dirname "$0")/verdict.awk" "$res/table.tsv" >"$res/verdict-load.txt"

# ------------------------------------------------ update_pick_idlest table
ipol=$(awk -F'\t' 'NR > 1 && $1 == "idlest" && !seen[$2]++ { print $2 }' "$tsv")
if [ -n "$ipol" ]; then
	{
		printf '%-12s %4s  %-16s %-10s %-14s %-14s %5s\n' idlest_policy runs "decisions/s" "picked %" \
			"metric A/s*" "metric B/s*" lost
		for p in $ipol; do
			mapfile -t f < <(files_of idlest "$p")
			[ ${#f[@]} -gt 0 ] || continue
			for x in "${f[@]}"; do
				"$FAIRLAB" report --csv --table=idlest "$x" 2>/dev/null | awk -F, 'NR > 1'
			done | awk -F, -v p="$p" -v tsv="$tsv" '
				function st(k,   m, v) { m = s[k] / n[k]; v = n[k] > 1 ? (q[k] - n[k] * m * m) / (n[k] - 1) : 0; if (v < 0) v = 0
					return n[k] > 1 && m ? sprintf("%.1f ±%.0f%%", m, 100 * sqrt(v) / m) : sprintf("%.1f", m) }
				function add(k, x) { n[k]++; s[k] += x; q[k] += x * x }
				$5 == p { add("d", $10); add("p", $9) }
				END {
					while ((getline l < tsv) > 0) { split(l, a, "\t")
						if (a[1] == "idlest" && a[2] == p) { if (a[5] != "nan") add("h", a[5]); if (a[6] != "nan") add("s", a[6]); lost += a[7]; r++ } }
					printf "%-12s %4d  %-16s %-10s %-14s %-14s %5d\n", p, r, n["d"] ? st("d") : "-",
						n["p"] ? st("p") : "-", n["h"] ? st("h") : "-", n["s"] ? st("s") : "-", lost
				}'
		done
		echo
		echo "picked % = decisions where update_pick_idlest chose the candidate group (fairlab report);"
		echo "* the workload's own throughputs A and B (\$FAIRLAB_METRICS).  make demo: A = exec loop,"
		echo "B = fork loop (aim9-style, demo/spawnloop.c), operations/s measured in the guest (8 vCPUs:"
		echo "4 cores x 2 SMT threads)."
		# throughputs: a difference only where the spreads do not overlap
		awk -F'\t' '
			function add(k, x) { if (x == "nan" || x == "") return; n[k]++; s[k] += x; q[k] += x * x }
			NR > 1 && $1 == "idlest" { if (!($2 in seen)) { seen[$2] = 1; pol[++np] = $2 }; add($2 SUBSEP "A", $5); add($2 SUBSEP "B", $6) }
			END {
				for (m = 1; m <= 2; m++) {
					M = m == 1 ? "A" : "B"; out = ""
					for (i = 1; i <= np; i++) for (j = 1; j <= np; j++) {
						a = pol[i] SUBSEP M; b = pol[j] SUBSEP M
						if (i == j || n[a] < 2 || n[b] < 2) continue
						ma = s[a] / n[a]; mb = s[b] / n[b]
						va = (q[a] - n[a] * ma * ma) / (n[a] - 1); vb = (q[b] - n[b] * mb * mb) / (n[b] - 1)
						if (ma - sqrt(va > 0 ? va : 0) > mb + sqrt(vb > 0 ? vb : 0))
							out = out sprintf(" %s > %s;", pol[i], pol[j])
					}
					printf "metric %s: %s\n", M, out == "" ? "indistinguishable (every pair of mean ±stddev intervals overlaps, or fewer than 2 runs)" : "beyond the spread (mean - stddev above the other'"'"'s mean + stddev):" out
				}
			}' "$tsv"
		# the placement what-if: each recording's calls under every idlest policy
		echo
		echo "placement what-if (fairlab whatif --idlest): find_idlest_group() calls whose pick under the"
		echo "policy differs from the recorded pick, in % of the calls with a choice (2+ candidates); mean"
		echo "±stddev over the recordings of each recorded policy"
		printf '%-12s %4s  %-9s %-9s' recorded runs "calls" "choice %"
		for q in stock idle_cpus nr_running; do printf ' %-16s' "$q"; done
		printf ' %s\n' mismatches
		for p in $ipol; do
			mapfile -t f < <(files_of idlest "$p")
			[ ${#f[@]} -gt 0 ] || continue
			for x in "${f[@]}"; do
				"$FAIRLAB" whatif --idlest --csv "$x" 2>/dev/null | awk -F, 'NR > 1'
				"$FAIRLAB" whatif --idlest --json "$x" 2>/dev/null |
					sed -n 's/.*"mismatches_n": *\([0-9]*\).*/mismatch,\1/p'
			done | awk -F, -v p="$p" '
				function st(k,   m, v) { m = s[k] / n[k]; v = n[k] > 1 ? (q[k] - n[k] * m * m) / (n[k] - 1) : 0; if (v < 0) v = 0
					return n[k] > 1 && m ? sprintf("%.1f ±%.0f%%", m, 100 * sqrt(v) / m) : sprintf("%.1f", m) }
				function add(k, x) { n[k]++; s[k] += x; q[k] += x * x }
				$1 == "mismatch" { mis += $2; next }
				{ add($2, $7); if ($2 == "stock") { add("calls", $3); add("choice", $3 ? 100 * $4 / $3 : 0); r++ } }
				END {
					if (!r) exit
					printf "%-12s %4d  %-9.0f %-9.1f", p, r, s["calls"] / n["calls"], s["choice"] / n["choice"]
					split("stock idle_cpus nr_running", qs, " ")
					for (i = 1; i <= 3; i++) printf " %-16s", n[qs[i]] ? st(qs[i]) : "-"
					printf " %d\n", mis
				}'
		done
		echo "calls: per recording (mean); choice %: calls with a choice in % of the calls; mismatches:"
		echo "records whose picked flag policy.c decides otherwise (0: the replay is exact).  Exact for the"
		echo "level recorded only: the local group is not compared, and a different pick would have"
		echo "descended into calls that were never recorded (fairlab whatif --idlest --help)."
		echo
	} >"$res/idlest.txt"
	echo
	cat "$res/idlest.txt"
fi

# ------------------------------------------------ plots
mapfile -t tgf < <(for p in $policies; do files_of tg "$p"; done)
if [ ${#tgf[@]} -gt 0 ]; then
	if "$FAIRLAB" plot -o "$res/plots" "${tgf[@]}" >"$res/plots/plot.log" 2>&1; then
		say ""
		say "plots: $res/plots/pareto.png (error against writes, one point per recording),"
		say "       $res/plots/<recording>-error.png, <recording>-writes.png (over time)"
	else
		say "fairlab plot failed: $(tail -2 "$res/plots/plot.log" | tr '\n' ' ')"
		[ $check = 1 ] && fail=1
	fi
fi
# the policies' means +- stddev over their rounds (from the compare table
# above, not from the traces): the Pareto picture of the table and verdict
if [ -s "$res/table.tsv" ] && command -v "${GNUPLOT:-gnuplot}" >/dev/null; then
	bash "$(dirname "$0")/pareto-plot.sh" "$res" ||
		say "pareto-policies plot failed: $(head -2 "$res/plots/pareto-policies.err")"
	[ -s "$res/plots/pareto-policies.png" ] &&
		say "       $res/plots/pareto-policies.png (one point per policy, mean ±stddev, the verdict drawn)"
fi
echo
cat "$res/verdict.txt"

# ------------------------------------------------ make check assertions
if [ $check = 1 ]; then
	npol=$(echo "$policies" | grep -c .)
	nrow=$(awk -F'\t' 'NR > 1' "$res/table.tsv" | wc -l)
	empty=$(awk -F'\t' 'NR > 1 { for (c = 3; c <= 27; c += 3) if ($c == "" || $c == "nan") { print $1; break } }' "$res/table.tsv" | tr '\n' ' ')
	if [ "$nrow" = "$npol" ] && [ "$npol" -ge 1 ] && [ -z "$empty" ]; then
		tap OK "table has a row with figures for each of the $npol policies"
	else
		tap FAIL "table: $nrow rows for $npol policies; rows with empty figures: ${empty:-none}"; fail=1
	fi
	# force publishes on every attempt: the highest share of writes per
	# attempt, deterministically.  Writes/s also depends on how busy each
	# run was (other VMs share the host): reported, asserted only per attempt.
	top_w=$(awk -F'\t' 'NR > 1 && $3 != "" { if (!n++ || $3 + 0 > m) { m = $3 + 0; p = $1 } } END { print p }' "$res/table.tsv")
	top_s=$(awk -F'\t' 'NR > 1 && $27 != "" { w = 100 - $27; if (!n++ || w > m) { m = w; p = $1 } } END { print p }' "$res/table.tsv")
	fw=$(awk -F'\t' '$1 == "force" { printf "%.2f", 100 - $27 }' "$res/table.tsv")
	if [ "$top_s" = force ] && [ "$fw" = 100.00 ]; then
		tap OK "force has the most writes (100% of attempts written, the highest share)"
	else
		tap FAIL "most writes per attempt: $top_s; force writes ${fw:-?}% of its attempts"; fail=1
	fi
	say "most writes/s in this run: $top_w"
	if [ -s "$res/plots/pareto.png" ]; then tap OK "pareto plot written"; else tap FAIL "no pareto plot"; fail=1; fi
fi
exit $fail
