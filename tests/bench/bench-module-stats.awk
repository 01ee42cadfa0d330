# SPDX-License-Identifier: GPL-2.0
#
# bench-module.sh's statistics over the guest's "RESULT round mode
# seconds context-switches [busy-seconds [attempts]]" lines
# (tests/bench/bench-module.guest.sh).
#
#   awk -f bench-module-stats.awk [-v clock=icount] [-v fits=FILE] bench.txt
#
# With fits=FILE, each mode's fitted ratio is appended to FILE as a line
# "mode ratio standard-error degrees-of-freedom", for
# bench-module-boots.awk to combine the boots.
#
# A run's time t is its busy time when the line has one (guest time less
# idle time: on the icount clock, the guest instructions the run executed,
# 1 ns each; an idle CPU's time is a jump to the next timer, not work),
# else its guest time.
# 1. Throughput: per mode, the run time of the same hackbench work, and
#    the paired per-round ratio unpatched / mode (mean, standard
#    deviation, 95% interval of the mean).
# 2. At equal context switches (clock=icount): a run's time can grow with
#    how many context switches it makes (+-5% from run to run on 6.1,
#    +-40% on 6.12, whatever the mode), so the time is fitted, over the
#    runs of unpatched and one other mode, as
#    t = a + b * switches + d * [that mode]  (least squares); d is the
#    mode's extra time at equal switches, with its standard error, and
#    the ratio is (a + b * mean switches) / (that + d).
# Intervals are 95%: the estimate +- Student's t quantile (n - 1 degrees
# of freedom for a mean, n - 3 for the fit) times its standard error.
# Verdicts: met when the interval lies at or above 0.98x, not met when
# below, inconclusive when it holds 0.98x.
$1 == "RESULT" && $2 > 0 {
	t[$2, $3] = NF >= 6 ? $6 : $4; wall[$2, $3] = $4; sw[$2, $3] = $5
	if (NF >= 6) busy = 1
	if (NF >= 7) att[$2, $3] = $7
	if ($2 > R) R = $2
}

# two-sided 95% quantile of Student's t with df degrees of freedom
function tq(df) {
	if (df < 1) return 0
	if (df <= 30) return TQ[df]
	return df <= 40 ? 2.021 : (df <= 60 ? 2.000 : (df <= 120 ? 1.980 : 1.960))
}
BEGIN {
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
	      "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
	      "2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", TQ, " ")
}

function stats(n, s, ss) { m = s / n; sd = n > 1 ? sqrt((ss - n * m * m) / (n - 1)) : 0 }

function verdict(r, se, df, what,	lo, hi) {
	if (df < 1) {
		printf "target: %s >= 0.98x unpatched: inconclusive (too few runs)\n", what
		return
	}
	lo = r - tq(df) * se; hi = r + tq(df) * se
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
	frdf = n - 3
	if (fits != "")
		printf "%s %.6f %.6f %d\n", mode, fr, frse, frdf >>fits
	printf "%-12s %+10.4f s +- %.4f   at %.0f switches: %.4fx +- %.4f, 95%% %.4f-%.4f (n=%d; %.3f s per 100k switches)\n",
		mode, d, dse, nb / n * 1e5, fr, frse, fr - tq(frdf) * frse, fr + tq(frdf) * frse, n, b
	return 1
}

END {
	split("unpatched stock-off stock-on", M, " ")
	printf "throughput (the %s of the same hackbench work):\n",
		busy ? "busy time (guest time less idle)" : "run time"
	printf "%-12s %22s %10s %12s %36s\n", "mode", "run time (s)", "idle (%)", "switches",
		"ratio to unpatched (per round)"
	for (k = 1; k <= 3; k++) {
		n = s = ss = 0; rn = rs = rss = 0; idle = 0; nsw = 0; na = 0
		for (r = 1; r <= R; r++) {
			if (!((r, M[k]) in t)) continue
			x = t[r, M[k]]; n++; s += x; ss += x * x
			idle += wall[r, M[k]] - x; nsw += sw[r, M[k]]; na += att[r, M[k]]
			if (!((r, "unpatched") in t)) continue
			q = t[r, "unpatched"] / x; rn++; rs += q; rss += q * q
		}
		if (!n) continue
		stats(n, s, ss); tm = m; tsd = sd; wsum = s + idle
		stats(rn, rs, rss)
		qse = rn > 1 ? sd / sqrt(rn) : 0
		printf "%-12s %10.4f +- %-8.4f %10.2f %12.0f   %.4fx +- %.4f, 95%% %.4f-%.4f (n=%d)\n",
			M[k], tm, tsd, (wsum > 0 ? 100 * idle / wsum : 0), nsw / n,
			m, sd, m - tq(rn - 1) * qse, m + tq(rn - 1) * qse, rn
		if (M[k] == "stock-off") { off = m; offse = qse; offdf = rn - 1 }
		if (na) attl = attl sprintf("  %s: %.0f update_tg_load_avg() attempts per run, %.2f per switch\n", M[k], na / n, na / nsw)
	}
	verdict(off, offse, offdf, "patched-stock (tracing off) throughput")
	if (attl != "")
		printf "attempts counted by fairlab (/sys/kernel/fairlab/stats):\n%s", attl
	if (clock != "icount")
		exit
	print ""
	print "at equal context switches (least squares over the runs, see the script):"
	printf "%-12s %24s   %s\n", "mode", "extra time vs unpatched", "throughput ratio"
	ok = fit("stock-off"); soff = fr; soffse = frse; soffdf = frdf
	fit("stock-on")
	if (ok)
		verdict(soff, soffse, soffdf, "patched-stock (tracing off) at equal switches")
}
