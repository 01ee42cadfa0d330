# SPDX-License-Identifier: GPL-2.0
#
# bench-module.sh's statistics over the guest's "RESULT round mode
# seconds context-switches" lines (tests/bench/bench-module.guest.sh).
#
#   awk -f bench-module-stats.awk [-v clock=icount] bench.txt
#
# 1. Throughput: per mode, the run time of the same hackbench work, and
#    the paired per-round ratio unpatched / mode (mean +- stddev).
# 2. At equal context switches (clock=icount): a run's time grows with
#    how many context switches it makes (+-5% from run to run, whatever
#    the mode), so the time is fitted, over the runs of unpatched and one
#    other mode, as  t = a + b * switches + d * [that mode]  (least
#    squares); d is the mode's extra time at equal switches, with its
#    standard error, and the ratio is (a + b * mean switches) / (that + d).
# Verdicts: met when the 95% interval (2 standard errors) lies at or
# above 0.98x, not met when below, inconclusive when it holds 0.98x.
$1 == "RESULT" && $2 > 0 {
	t[$2, $3] = $4; sw[$2, $3] = $5
	if ($2 > R) R = $2
}

function stats(n, s, ss) { m = s / n; sd = n > 1 ? sqrt((ss - n * m * m) / (n - 1)) : 0 }

function verdict(r, se, what,	lo, hi) {
	lo = r - 2 * se; hi = r + 2 * se
	printf "target: %s >= 0.98x unpatched: %s (%.4fx, 95%% interval %.4f-%.4f)\n", what,
		(lo >= 0.98) ? "met" : ((hi < 0.98) ? "NOT met" : "inconclusive"), r, lo, hi
}

# solve the 3x3 system A x = v by Gaussian elimination into X[]
function solve3(A, v,	i, j, k, p, f, tmp, M) {
	for (i = 1; i <= 3; i++) { for (j = 1; j <= 3; j++) M[i, j] = A[i, j]; M[i, 4] = v[i] }
	for (k = 1; k <= 3; k++) {
		p = k
		for (i = k + 1; i <= 3; i++) if (abs(M[i, k]) > abs(M[p, k])) p = i
		for (j = 1; j <= 4; j++) { tmp = M[k, j]; M[k, j] = M[p, j]; M[p, j] = tmp }
		for (i = 1; i <= 3; i++) {
			if (i == k || M[k, k] == 0) continue
			f = M[i, k] / M[k, k]
			for (j = k; j <= 4; j++) M[i, j] -= f * M[k, j]
		}
	}
	for (i = 1; i <= 3; i++) X[i] = M[i, i] ? M[i, 4] / M[i, i] : 0
}
function abs(x) { return x < 0 ? -x : x }

# fit t = a + b * switches + d * [mode] over unpatched and @mode
function fit(mode,	r, k, i, j, n, x, y, A, v, e, s2, nb, base, Ainv, col) {
	n = 0; nb = 0
	for (i = 1; i <= 3; i++) { v[i] = 0; for (j = 1; j <= 3; j++) A[i, j] = 0 }
	for (r = 1; r <= R; r++) for (k = 0; k < 2; k++) {
		md = k ? mode : "unpatched"
		if (!((r, md) in t) || sw[r, md] <= 0) continue
		x[1] = 1; x[2] = sw[r, md] / 1e5; x[3] = k; y = t[r, md]
		for (i = 1; i <= 3; i++) { v[i] += x[i] * y; for (j = 1; j <= 3; j++) A[i, j] += x[i] * x[j] }
		n++; nb += x[2]; px[n, 1] = x[2]; px[n, 2] = k; py[n] = y
	}
	if (n < 5) return 0
	solve3(A, v); a = X[1]; b = X[2]; d = X[3]
	s2 = 0
	for (i = 1; i <= n; i++) { e = py[i] - a - b * px[i, 1] - d * px[i, 2]; s2 += e * e }
	s2 /= n - 3
	# (A^-1)[3,3]: third component of the solution of A x = (0, 0, 1)
	col[1] = 0; col[2] = 0; col[3] = 1
	solve3(A, col)
	dse = sqrt(s2 * X[3])
	base = a + b * nb / n
	fr = base / (base + d)
	# the ratio's standard error, from d's (base taken as exact)
	frse = base * dse / ((base + d) * (base + d))
	printf "%-12s %+10.4f s +- %.4f   at %.0f switches: %.4fx +- %.4f (n=%d; %.3f s per 100k switches)\n",
		mode, d, dse, nb / n * 1e5, fr, frse, n, b
	return 1
}

END {
	split("unpatched stock-off stock-on", M, " ")
	print "throughput (the run time of the same hackbench work):"
	printf "%-12s %22s %28s\n", "mode", "run time (s)", "ratio to unpatched"
	for (k = 1; k <= 3; k++) {
		n = s = ss = 0; rn = rs = rss = 0
		for (r = 1; r <= R; r++) {
			if (!((r, M[k]) in t)) continue
			x = t[r, M[k]]; n++; s += x; ss += x * x
			q = t[r, "unpatched"] / x; rn++; rs += q; rss += q * q
		}
		if (!n) continue
		stats(n, s, ss); tm = m; tsd = sd
		stats(rn, rs, rss)
		printf "%-12s %10.3f +- %-8.3f   %10.4fx +- %.4f (n=%d)\n", M[k], tm, tsd, m, sd, rn
		if (M[k] == "stock-off") { off = m; offse = rn > 1 ? sd / sqrt(rn) : 1 }
	}
	verdict(off, offse, "patched-stock (tracing off) throughput")
	if (clock != "icount")
		exit
	print ""
	print "at equal context switches (least squares over the runs, see the script):"
	printf "%-12s %24s   %s\n", "mode", "extra time vs unpatched", "throughput ratio"
	ok = fit("stock-off"); soff = fr; soffse = frse
	fit("stock-on")
	if (ok)
		verdict(soff, soffse, "patched-stock (tracing off) at equal switches")
}
