# SPDX-License-Identifier: GPL-2.0
#
# bench-module.sh's verdict across VM boots, over the lines "mode ratio
# standard-error degrees-of-freedom" that bench-module-stats.awk appends
# (fits=FILE), one per mode and boot.
#
#   awk -f bench-module-boots.awk fits.txt
#
# Why boots: a boot's rounds are paired (modes alternate in one guest),
# a boot differs from the next in ways that move the instruction counts
# of the same work (KASLR, hash seeds, where the allocators put things:
# which of them matters was not isolated).  Two 6.12 boots of 16 and 12 rounds gave patched stock
# 0.9885x (95% 0.9840-0.9931) and 1.0048x (0.9990-1.0106): intervals that
# do not overlap, so one boot's interval understates the uncertainty.
# Each boot's fitted ratio is one sample here: mean over boots, its
# standard deviation, and the 95% interval of the mean with Student's t
# (boots - 1 degrees of freedom).  Verdicts as in bench-module-stats.awk.
{ n[$1]++; s[$1] += $2; ss[$1] += $2 * $2; list[$1] = list[$1] sprintf(" %.4f", $2) }

function tq(df,	T) {
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", T, " ")
	return df <= 10 ? T[df] : (df <= 20 ? 2.086 : 1.960)
}

END {
	split("stock-off stock-on", M, " ")
	for (i = 1; i <= 2; i++) {
		m = M[i]
		if (!(m in n)) continue
		k = n[m]; mean = s[m] / k
		v = k > 1 ? (ss[m] - k * mean * mean) / (k - 1) : 0
		sd = v > 0 ? sqrt(v) : 0
		h = 0
		printf "%-12s %d boots:%s -> %.4fx", m, k, list[m], mean
		if (k > 1) {
			h = tq(k - 1) * sd / sqrt(k)
			printf " +- %.4f (sd over boots), 95%% %.4f-%.4f", sd, mean - h, mean + h
		}
		printf "\n"
		if (m == "stock-off") { om = mean; oh = h; ok = k }
	}
	if (ok < 2) {
		print "across boots: one boot only; its interval leaves out the spread between boots (BENCH_BOOTS >= 3 for a verdict across them)"
		exit
	}
	printf "target across boots: patched-stock (tracing off) >= 0.98x unpatched: %s (%.4fx, 95%% interval %.4f-%.4f, %d boots)\n",
		(om - oh >= 0.98) ? "met" : ((om + oh < 0.98) ? "NOT met" : "inconclusive"),
		om, om - oh, om + oh, ok
}
