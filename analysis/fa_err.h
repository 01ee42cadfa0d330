/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accumulated-error statistics of one task group (or of several merged).
 *
 * E(t) = sum over cfs_rqs of (contrib after the last attempt - last
 * observed load), a step function that changes only at tg_update records.
 * Every step contributes its duration as weight: means and percentiles
 * are time-weighted (the fraction of trace time spent at or below a
 * value), maxima are over every value taken, including zero-length ones
 * between records with equal timestamps.  The relative error is
 * |E| / sum of load, defined only while that sum is positive.
 */
#ifndef FA_ERR_H
#define FA_ERR_H

#include "fa_hist.h"

struct fa_err {
	u64 max_abs;		/* load units */
	double max_rel;		/* fraction, 0..inf */
	double abs_time;	/* integral of |E| dt, load units * ns */
	double rel_time;	/* integral of |E|/sum(load) dt, ns */
	u64 time_ns;		/* time observed */
	u64 rel_time_ns;	/* part of it with sum(load) > 0 */
	struct fa_hist abs;	/* |E|, weight ns */
	struct fa_hist rel;	/* |E|/sum(load) in parts per million, weight ns */
};

/* The relative histogram's unit: parts per million. */
#define FA_REL_SCALE 1000000.0

/* E held for dt ns with the given sum of loads. */
void fa_err_span(struct fa_err *e, s64 err, s64 sum_load, u64 dt);
/*
 * The part of fa_err_span() that depends on E: the integrals go to
 * *abs_time and *rel_time, the weights to @e's histograms; @e's time
 * counters are left alone.  For callers that keep the integrals of many
 * errors over the same time apart (the what-if replay: one E per policy).
 */
void fa_err_span_of(struct fa_err *e, double *abs_time, double *rel_time,
		    s64 err, s64 sum_load, u64 dt);
/* E reached (for the maxima). */
void fa_err_point(struct fa_err *e, s64 err, s64 sum_load);
void fa_err_merge(struct fa_err *dst, const struct fa_err *src);

double fa_err_mean_abs(const struct fa_err *e);	/* load units */
double fa_err_mean_rel(const struct fa_err *e);	/* fraction */
u64 fa_err_p_abs(const struct fa_err *e, double p);	/* load units */
double fa_err_p_rel(const struct fa_err *e, double p);	/* fraction */

#endif /* FA_ERR_H */
