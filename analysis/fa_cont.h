/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A contention term for the coherence model (fa_coh.h, fa_layout.h): a
 * MODEL, off unless asked for (whatif --contention).
 *
 * The idle model prices each transfer at an idle machine's core-to-core
 * latency.  On a contended line the requests queue: David, Guerraoui and
 * Trigonakis ("Everything You Always Wanted to Know About Synchronization
 * but Were Afraid to Ask", SOSP 2013) measured the latency of atomic
 * operations on one cache line growing with the number of cores
 * contending for it, the line serving one request at a time.  The term
 * takes the line as a single server whose service time is the transfer's
 * idle latency, and its queueing delay from the M/D/1 queue (Poisson
 * arrivals, deterministic service; Pollaczek-Khinchine mean wait
 * Wq = rho * S / (2 * (1 - rho))):
 *
 * the transfers of one line are grouped in windows of W ns of trace time
 * (window i: [i*W, (i+1)*W)); a window with n transfers whose idle
 * latencies sum to L has mean service time S = L/n and utilization
 * rho = L/W; each of its transfers waits
 *     w = min(rho * S / (2 * (1 - rho)), (n - 1) * S / 2)   (rho < 1)
 *     w = (n - 1) * S / 2                                     (rho >= 1)
 * the second term being the mean wait of n requests queued at once and
 * served one after the other (a window cannot hold more queueing than
 * its own requests); the window costs L + n * w.
 *
 * Scaled to k times the CPUs (the extrapolation: per-CPU rates kept, k
 * times as many CPUs per node), a window holds k*n transfers of the same
 * latencies: L' = k*L, n' = k*n in the same formula.
 */
#ifndef FA_CONT_H
#define FA_CONT_H

#include "fl_types.h"

/* One line's open window. */
struct fa_cont_line {
	u64 win;		/* its index + 1 (0: none open) */
	u32 n;			/* transfers in it */
	double lat;		/* their idle latencies, ns */
};

/* Contended costs summed (ns): as recorded, and scaled by k. */
struct fa_cont_sum {
	double ns, scaled_ns;
};

/* The cost (ns) of a window of @n transfers of idle latencies @lat (ns), @w ns long. */
double fa_cont_window(double n, double lat, double w);

/*
 * A transfer of idle latency @lat at trace time @ts on line @l: windows
 * of @w ns; a window it closes is added to @s (and at scale @k).
 */
void fa_cont_add(struct fa_cont_line *l, struct fa_cont_sum *s, u64 w, double k,
		 u64 ts, double lat);
/* Line @l's open window closed into @s. */
void fa_cont_close(struct fa_cont_line *l, struct fa_cont_sum *s, u64 w, double k);

#endif /* FA_CONT_H */
