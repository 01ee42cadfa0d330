# SPDX-License-Identifier: GPL-2.0
#
# The verdict of fairlab experiment and make demo (analyze.sh): which tg
# policies are Pareto-optimal in writes and in an error figure, counting a
# difference only when it holds beyond the round-to-round spread.
#
#   awk -F'\t' [-v err=shares|load] -f verdict.awk table.tsv
#
# table.tsv (analyze.sh): policy, runs, then mean, stddev in % of the mean
# and %change for each figure; writes_per_s is columns 3-4, err_mean_load
# (time-weighted mean |E|) 15-16, skip_pct 27-28 (writes per attempt =
# 100 - skip%, same stddev), shares_err_mean_pct (time-weighted mean
# shares error, % of tg->shares: the headline error) 30-31, and
# coh_xnode_per_s (the coherence model's cross-node transfers of the
# groups' lines per second: reads included, and every line a tg_layout
# splits a group's sum into) 41-42.
#
# The cost: modeled cross-node transfers/s first, when every row has
# them (tables of older analyze.sh have not: that verdict is left out and
# it says so), then writes/s and writes per attempt.
#
# The error figure: err=shares (the default) uses the shares error, the
# headline, when every row has it; a table without it in some row (a
# recording without tg_read records) falls back to |E| and says so.
# err=load uses |E| (analyze.sh writes it as verdict-load.txt).
#
# The test: Welch's two-sample t-test, one-sided, at 5%, on the rounds'
# means and standard deviations (rounds of one policy are independent
# runs; policies' spreads differ by a factor of ten and more, which
# Student's pooled test would ignore).  Degrees of freedom by
# Welch-Satterthwaite, rounded down (conservative).  B is dominated by A
# when A is lower beyond the spread in one figure and, in the other, lower
# beyond the spread too or exactly equal with no spread on either side
# (force and nonzero both have |E| = 0 in every round).  A Pareto order of
# the means that the test does not confirm is "not distinguishable".
# Fewer than 2 rounds on either side: no spread, nothing is confirmed.

# One-sided 5% critical values of Student's t, df 1..30 (beyond: df 30's).
function tcrit(df) {
	if (df < 1)
		df = 1
	if (df > 30)
		df = 30
	return T[int(df)]
}

# Is figure f of policy a lower than that of b beyond the spread?
function lower(f, a, b,   va, vb, se2, t, df) {
	if (n[a] < 2 || n[b] < 2 || !(m[f, a] < m[f, b]))
		return 0
	va = s[f, a] * s[f, a] / n[a]
	vb = s[f, b] * s[f, b] / n[b]
	se2 = va + vb
	if (se2 == 0)
		return 1	# no spread on either side: the difference is all there is
	t = (m[f, b] - m[f, a]) / sqrt(se2)
	df = se2 * se2 / (va * va / (n[a] - 1) + vb * vb / (n[b] - 1))
	return t > tcrit(df)
}

# Exactly equal with no spread on either side.
function same(f, a, b) {
	return n[a] >= 2 && n[b] >= 2 && m[f, a] == m[f, b] && s[f, a] == 0 && s[f, b] == 0
}

function dominates(w, a, b) {
	return (lower(w, a, b) && (lower("e", a, b) || same("e", a, b))) ||
	       (lower("e", a, b) && same(w, a, b))
}

# The Pareto order of the means alone (what the verdict used to say).
function before(w, a, b) {
	return m[w, a] <= m[w, b] && m["e", a] <= m["e", b] &&
	       (m[w, a] < m[w, b] || m["e", a] < m["e", b])
}

function add(list, x) { return list (list == "" ? "" : ", ") x }

function verdict(w, label,   i, j, by, near, opt, dom, nd) {
	opt = dom = nd = ""
	for (i = 1; i <= np; i++) {
		by = near = ""
		for (j = 1; j <= np; j++) {
			if (j == i)
				continue
			if (dominates(w, p[j], p[i]))
				by = add(by, p[j])
			else if (before(w, p[j], p[i]))
				near = add(near, p[j])
		}
		if (by != "")
			dom = add(dom, p[i] " (by " by ")")
		else if (near != "")
			nd = add(nd, p[i] " (vs " near ")")
		else
			opt = add(opt, p[i])
	}
	printf "  %s\n", label
	printf "    Pareto-optimal:      %s\n", opt == "" ? "none" : opt
	printf "    dominated:           %s\n", dom == "" ? "none" : dom
	printf "    not distinguishable: %s\n", nd == "" ? "none" : nd
}

BEGIN {
	split("6.314 2.920 2.353 2.132 2.015 1.943 1.895 1.860 1.833 1.812 " \
	      "1.796 1.782 1.771 1.761 1.753 1.746 1.740 1.734 1.729 1.725 " \
	      "1.721 1.717 1.714 1.711 1.708 1.706 1.703 1.701 1.699 1.697", T, " ")
}
NR == 1 { next }
$3 != "" && $15 != "" && $27 != "" {
	np++; x = $1; p[np] = x; n[x] = $2 + 0
	m["ws", x] = $3 + 0;       s["ws", x] = ($3 + 0) * ($4 + 0) / 100
	m["load", x] = $15 + 0;    s["load", x] = ($15 + 0) * ($16 + 0) / 100
	m["wa", x] = 100 - $27;    s["wa", x] = ($27 + 0) * ($28 + 0) / 100
	if ($41 == "" || $41 == "nan")
		noxnode = 1
	else {
		m["xs", x] = $41 + 0
		s["xs", x] = ($41 + 0) * ($42 + 0) / 100
	}
	if ($30 == "" || $30 == "nan")
		noshares = noshares (noshares == "" ? "" : ", ") x
	else {
		m["shares", x] = $30 + 0
		s["shares", x] = ($30 + 0) * ($31 + 0) / 100
	}
	if (n[x] < 2)
		few = 1
}
END {
	if (err == "")
		err = "shares"
	if (err != "shares" && err != "load") {
		print "verdict.awk: err must be shares or load, not " err > "/dev/stderr"
		exit 2
	}
	if (err == "shares" && noshares != "") {
		err = "load"
		fell = "  (no shares error for " noshares ": the verdict uses mean |E| instead)"
	}
	for (i = 1; i <= np; i++) {
		m["e", p[i]] = m[err, p[i]]
		s["e", p[i]] = s[err, p[i]]
	}
	print "Verdict: Pareto-optimal policies of this run: no other policy has a lower cost (modeled cross-node"
	print "transfers, or writes) and a smaller error, each beyond the round-to-round spread"
	print "(Welch's one-sided t-test at 5% on the rounds;"
	print "or exactly equal, with no spread); \"not distinguishable\": an order of the means that the"
	print "spread does not confirm."
	if (err == "shares")
		print "  error: the time-weighted mean shares error (% of tg->shares, the headline error)"
	else
		print "  error: the time-weighted mean |E| per group (load)"
	if (fell != "")
		print fell
	if (few)
		print "  (fewer than 2 rounds for some policy: no spread, so nothing is confirmed for it)"
	if (noxnode)
		print "  (no modeled cross-node transfers in the table: no verdict by them)"
	else
		verdict("xs", "by modeled cross-node transfers/s:")
	verdict("ws", "by writes/s:")
	verdict("wa", "by writes per attempt:")
}
