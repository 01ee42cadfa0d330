#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The headline of make headline, from the rows
# demo/headline.sh gathered:
#
#   demo/headline-analyze.sh RUNS MODEL SWEEP OUT
#
# RUNS (headline-runs.tsv): kernel, point (demo, or cpusN of demo-scale),
# cpus, cpus_per_node, policy (POLICY or POLICY/LAYOUT), round, file, and
# per recording coh_cost_ns_per_s (the idle modeled cost),
# coh_cost_contended_ns_per_s, coh_xnode_per_s, shares_err_mean_pct.
# MODEL (headline-model.tsv): kernel, point, round, file, cpus_per_node,
# scale_cpus_per_node C, policy (stock, stock/node, stock/llc,
# stock/node:100000), coh_cost_contended_scaled_ns_per_s,
# shares_err_mean_pct.  SWEEP (headline-sweep.tsv): kernel, point, round,
# file, policy (POLICY or POLICY/LAYOUT replayed on that stock recording),
# coh_cost_contended_ns_per_s, shares_err_mean_pct.
#
# Definitions (all costs are the analyzer's MODEL of the tg->load_avg
# cachelines, fairlab report --help and fairlab whatif --help):
#   cost        the contended modeled cost, ns of transfer latency per
#               second of trace time: each line's transfers (reads and
#               writes, by distance, on 2-socket Sapphire Rapids
#               latencies) with the contention term (M/D/1 per window)
#   figure of a policy at a point: the mean over its rounds, ± the sample
#               stddev over the rounds
#   eligible    a policy whose mean shares error (% of tg->shares) is no
#               more than stock's at the same kernel and point
#   best        the eligible policy with the lowest mean cost (stock is
#               eligible, so there is one)
#   x fewer     stock's mean cost (of a kernel, at the same point name)
#               divided by best's; ± its relative spread
#               sqrt((sd_a/a)^2 + (sd_b/b)^2) (first-order propagation of
#               the two means' rounds' stddevs)
#   win         a split layout wins at a point when its mean cost is below
#               stock's (global) and its mean shares error no more than
#               stock's
#   live crossover  per kernel and split layout (POLICY stock/LAYOUT): the
#               cost against stock's at each demo-scale point of 2 nodes or
#               more; the smallest CPUs per node from which it wins at
#               every larger measured point
#   model crossover per kernel, at its largest point: the mean over
#               stock's rounds of each layout's scaled cost against
#               global's at C CPUs per node, and of its shares error; the
#               smallest C from which it wins at every larger C (a MODEL's
#               extrapolation: the recording's per-CPU rates, the window's
#               queueing scaled by C / its own CPUs per node)
#   predicted best  per kernel, at its largest point: each replayed
#               POLICY/LAYOUT's mean over stock's rounds of cost and shares
#               error (whatif's "recorded" rows, stock again, left out); the
#               lowest cost at a mean shares error no more than
#               the replayed stock's (the recording's own: exact), and stock's
#               cost over it (a prediction: the replay feeds every policy
#               stock's loads and cannot see feedback)
#   target      20x fewer than stock at the 16-vCPU point (cpus16)
# Writes OUT/headline.tsv (kernel, point, cpus, cpus_per_node, policy,
# rounds, then mean and stddev of the four figures), OUT/headline.txt;
# prints headline.txt.  Exit status 1 when a point has no stock or a
# policy fewer than 2 rounds (no spread).
set -uo pipefail
# num(): the tables' figures, one formatter for both demo analyses
num_awk=$(cat "$(dirname "$0")/num.awk") || exit 2
u='usage: headline-analyze.sh RUNS MODEL SWEEP OUT'
runs=${1:?$u}
model=${2:?$u}
sweep=${3:?$u}
out=${4:?$u}
mkdir -p "$out"

# ------------------------------------------------ per point and policy
awk -F'\t' '
	NR == 1 { next }
	{
		k = $1 SUBSEP $2 SUBSEP $5
		if (!(k in n)) { key[++nk] = k; kern[nk] = $1; pt[nk] = $2; cpu[nk] = $3; cpn[nk] = $4; pol[nk] = $5 }
		n[k]++
		for (i = 8; i <= 11; i++) if ($i != "nan" && $i != "") { c[k, i]++; s[k, i] += $i; q[k, i] += $i * $i }
	}
	function ptrank(p) { return p == "demo" ? 0 : substr(p, 5) + 0 }
	END {
		printf "kernel\tpoint\tcpus\tcpus_per_node\tpolicy\trounds"
		printf "\tcoh_cost_ns_per_s\tcoh_cost_ns_per_s_stddev\tcoh_cost_contended_ns_per_s\tcoh_cost_contended_ns_per_s_stddev"
		printf "\tcoh_xnode_per_s\tcoh_xnode_per_s_stddev\tshares_err_mean_pct\tshares_err_mean_pct_stddev\n"
		for (a = 1; a <= nk; a++) { o[a] = a; if (!(kern[a] in kr)) kr[kern[a]] = a }
		# kernel first-seen, then demo before cpusN by N, then policy first-seen
		for (a = 2; a <= nk; a++) for (b = a; b > 1; b--) {
			x = o[b - 1]; y = o[b]
			if (kr[kern[x]] > kr[kern[y]] || (kern[x] == kern[y] && ptrank(pt[x]) > ptrank(pt[y]))) { o[b - 1] = y; o[b] = x }
			else break
		}
		for (a = 1; a <= nk; a++) {
			j = o[a]; k = key[j]
			printf "%s\t%s\t%s\t%s\t%s\t%d", kern[j], pt[j], cpu[j], cpn[j], pol[j], n[k]
			for (i = 8; i <= 11; i++) {
				if (!c[k, i]) { printf "\tnan\tnan"; continue }
				m = s[k, i] / c[k, i]
				v = c[k, i] > 1 ? (q[k, i] - c[k, i] * m * m) / (c[k, i] - 1) : 0
				if (v < 0) v = 0
				printf "\t%.6g\t%s", m, (c[k, i] > 1 ? sprintf("%.6g", sqrt(v)) : "nan")
			}
			printf "\n"
		}
	}' "$runs" >"$out/headline.tsv"

# ------------------------------------------------ the text
awk -F'\t' -v model="$model" -v sweep="$sweep" "$num_awk"'
	function pm(m, sd) { return num(m) (sd == "nan" || m + 0 == 0 ? "" : sprintf(" ±%.0f%%", 100 * sd / m)) }
	function rsd(m, sd) { return (sd == "nan" || m + 0 == 0) ? 0 : sd / m }
	NR == 1 { next }
	{
		k = $1 SUBSEP $2
		if (!(k in np)) { pk[++npk] = k; pkern[npk] = $1; ppt[npk] = $2; pcpu[npk] = $3; pcpn[npk] = $4 }
		p = k SUBSEP $5
		pl[k, ++np[k]] = $5
		rounds[p] = $6; cost[p] = $9; costsd[p] = $10; idle[p] = $7; xn[p] = $11; xnsd[p] = $12
		sh[p] = $13; shsd[p] = $14
		if (!($1 in ks)) { ks[$1] = 1; kl[++nkl] = $1 }
		if ($6 < 2) thin = thin sprintf(" %s %s %s (%d round)", $1, $2, $5, $6)
	}
	END {
		print "fairlab headline: where a group'"'"'s load should live, modeled costs of the tg->load_avg"
		print "lines: the coherence model with its contention term (a MODEL: demo/headline-analyze.sh, fairlab"
		print "whatif --help), ns of transfer latency per second; shares error in % of tg->shares."
		for (a = 1; a <= npk; a++) {
			k = pk[a]; s = k SUBSEP "stock"
			printf "\n== %s, %s: %s vCPUs, %s CPUs per node\n", pkern[a], ppt[a] == "demo" ? "make demo" : "demo-scale " ppt[a], pcpu[a], pcpn[a]
			printf "%-22s %6s  %-22s %-16s %-18s %-20s %-10s\n", "policy", "rounds", "cost (ns/s)", "idle cost (ns/s)",
				"xnode xfer (1/s)", "shares err mean (%)", "eligible"
			if (!(s in cost)) { nostock = nostock sprintf(" %s %s", pkern[a], ppt[a]); continue }
			best = ""
			for (i = 1; i <= np[k]; i++) {
				p = k SUBSEP pl[k, i]
				el = sh[p] != "nan" && sh[s] != "nan" && sh[p] + 0 <= sh[s] + 0
				if (el && (best == "" || cost[p] + 0 < cost[k SUBSEP best] + 0)) best = pl[k, i]
				printf "%-22s %6s  %-22s %-16s %-18s %-20s %-10s\n", pl[k, i], rounds[p], pm(cost[p], costsd[p]),
					num(idle[p]), pm(xn[p], xnsd[p]), pm(sh[p], shsd[p]), el ? "yes" : "no"
			}
			b = k SUBSEP best
			hbest[a] = best
			printf "best at a shares error no worse than stock'"'"'s: %s, %s ns/s at %s%% (stock: %s ns/s at %s%%)\n",
				best, pm(cost[b], costsd[b]), num(sh[b]), pm(cost[s], costsd[s]), num(sh[s])
			for (j = 1; j <= nkl; j++) {
				s2 = kl[j] SUBSEP ppt[a] SUBSEP "stock"
				if (!(s2 in cost) || cost[b] + 0 == 0) continue
				r = cost[s2] / cost[b]
				e = sqrt(rsd(cost[s2], costsd[s2]) ^ 2 + rsd(cost[b], costsd[b]) ^ 2)
				printf "  %.2fx fewer than %s stock ±%.0f%% (cross-node transfers %s/s against %s/s)%s\n", r, kl[j], 100 * e,
					num(xn[b]), num(xn[s2]),
					ppt[a] == "cpus16" ? sprintf(": target 20x %s", r >= 20 ? "reached" : "not reached") : ""
			}
		}
		# live crossover, per kernel and split layout
		print "\n== live crossover: each split layout'"'"'s cost against stock'"'"'s (global), by CPUs per node"
		for (j = 1; j <= nkl; j++) {
			delete lays; nl = 0
			for (a = 1; a <= npk; a++) {
				if (pkern[a] != kl[j] || pcpu[a] / pcpn[a] < 2) continue
				for (i = 1; i <= np[pk[a]]; i++)
					if (pl[pk[a], i] ~ /^stock\// && !(pl[pk[a], i] in lays)) lays[pl[pk[a], i]] = ++nl
			}
			for (l in lays) lname[lays[l]] = l
			for (li = 1; li <= nl; li++) {
				l = lname[li]; line = ""; from = ""; last = ""
				for (a = 1; a <= npk; a++) {
					if (pkern[a] != kl[j] || pcpu[a] / pcpn[a] < 2 || ppt[a] == "demo") continue
					q = pk[a] SUBSEP l; s = pk[a] SUBSEP "stock"
					if (!(q in cost) || !(s in cost) || cost[s] + 0 == 0) continue
					r = cost[q] / cost[s]
					el = sh[q] != "nan" && sh[s] != "nan" && sh[q] + 0 <= sh[s] + 0
					line = line sprintf("  %s/node %.2f%s", pcpn[a], r, el ? "" : "!")
					if (r < 1 && el) { if (from == "") from = pcpn[a] } else from = ""
					last = pcpn[a]
				}
				if (line == "") continue
				printf "%-21s %-20s%s: %s\n", kl[j], l, line,
					from != "" ? "wins from " from " CPUs per node" : "does not win up to " last " CPUs per node"
			}
		}
		# the model extrapolation
		getline hdr < model
		while ((getline ln < model) > 0) {
			split(ln, f, "\t")
			mk = f[1] SUBSEP f[2]
			if (!(mk in mseen)) { mseen[mk] = 1; mkey[++nmk] = mk; mkern[nmk] = f[1]; mpt[nmk] = f[2]; mcpn[nmk] = f[5] }
			if (!((mk, f[6]) in cseen)) { cseen[mk, f[6]] = 1; cl[mk, ++nc[mk]] = f[6] }
			if (!((mk, f[7]) in lseen)) { lseen[mk, f[7]] = 1; ll[mk, ++nlm[mk]] = f[7] }
			ms[mk, f[6], f[7]] += f[8]; mn[mk, f[6], f[7]]++; me[mk, f[6], f[7]] += f[9]
		}
		if (nmk) print "\n== model crossover (a MODEL: stock'"'"'s recordings, per-CPU rates extrapolated to C CPUs per node)"
		for (a = 1; a <= nmk; a++) {
			mk = mkey[a]
			for (ci = 2; ci <= nc[mk]; ci++) for (cj = ci; cj > 1 && cl[mk, cj - 1] + 0 > cl[mk, cj] + 0; cj--) {
				t = cl[mk, cj - 1]; cl[mk, cj - 1] = cl[mk, cj]; cl[mk, cj] = t
			}
			for (li = 1; li <= nlm[mk]; li++) {
				l = ll[mk, li]
				if (l == "stock") continue
				line = ""; from = ""; r112 = ""
				for (ci = 1; ci <= nc[mk]; ci++) {
					c = cl[mk, ci]
					if (!mn[mk, c, l] || !mn[mk, c, "stock"]) continue
					g = ms[mk, c, "stock"] / mn[mk, c, "stock"]
					r = g > 0 ? (ms[mk, c, l] / mn[mk, c, l]) / g : "nan"
					el = me[mk, c, l] / mn[mk, c, l] <= me[mk, c, "stock"] / mn[mk, c, "stock"]
					line = line sprintf("  %s/node %s%s", c, r == "nan" ? "-" : sprintf("%.2f", r), el ? "" : "!")
					if (r != "nan" && r < 1 && el) { if (from == "") from = c } else from = ""
				}
				printf "%-21s %-8s %-20s%s: %s\n", mkern[a], mpt[a], l, line,
					from != "" ? "wins from " from " CPUs per node" : "does not win in this range"
			}
		}
		print "(ratios: the layout'"'"'s mean cost / stock'"'"'s under global; ! its mean shares error is above"
		print "stock'"'"'s, so it does not win there: a win is a lower cost at no worse an error)"
		# the predicted best, from the sweep
		getline hdr < sweep
		while ((getline ln < sweep) > 0) {
			split(ln, f, "\t")
			sk = f[1] SUBSEP f[2]
			if (!(sk in sseen)) { sseen[sk] = 1; skey[++nsk] = sk; skern[nsk] = f[1]; spt[nsk] = f[2] }
			if (!((sk, f[5]) in spseen)) { spseen[sk, f[5]] = 1; sp[sk, ++nsp[sk]] = f[5] }
			sc[sk, f[5]] += f[6]; se[sk, f[5]] += f[7]; sn[sk, f[5]]++
		}
		for (a = 1; a <= nsk; a++) {
			sk = skey[a]
			if (!sn[sk, "stock"]) continue
			if (a == 1) print "\n== predicted best (whatif on stock'"'"'s recordings: a replay without feedback), at a shares error no worse than stock'"'"'s"
			e0 = se[sk, "stock"] / sn[sk, "stock"]; c0 = sc[sk, "stock"] / sn[sk, "stock"]; best = ""
			for (i = 1; i <= nsp[sk]; i++) {
				q = sp[sk, i]
				if (q ~ /^recorded/) continue	# stock itself, named again
				if (se[sk, q] / sn[sk, q] <= e0 && (best == "" || sc[sk, q] / sn[sk, q] < bc)) { best = q; bc = sc[sk, q] / sn[sk, q] }
			}
			printf "%-21s %-8s %s: %s ns/s at %s%% against stock'"'"'s %s ns/s at %s%%: %.2fx fewer (%d policies and layouts)\n",
				skern[a], spt[a], best, num(bc), num(se[sk, best] / sn[sk, best]), num(c0), num(e0), (bc > 0 ? c0 / bc : 0), nsp[sk]
		}
		if (nostock != "") { printf "headline-analyze: no stock at:%s\n", nostock > "/dev/stderr"; bad = 1 }
		if (thin != "") { printf "headline-analyze: points without a spread (fewer than 2 rounds):%s\n", thin > "/dev/stderr"; bad = 1 }
		exit bad
	}' "$out/headline.tsv" >"$out/headline.txt"
rc=$?
cat "$out/headline.txt"
exit $rc
