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
	/*
	 * A bounded form, |E| / a scale fixed per value (the shares error's:
	 * tg->shares, fa_read.h), kept by callers that give one
	 * (fa_err_val_bnd()); it holds over the whole time_ns.
	 */
	double max_bnd;		/* fraction */
	double bnd_time;	/* integral of |E|/scale dt, ns */
	struct fa_hist bnd;	/* |E|/scale in parts per million, weight ns */
};

/* The relative histogram's unit: parts per million. */
#define FA_REL_SCALE 1000000.0

/* E held for dt ns with the given sum of loads. */
void fa_err_span(struct fa_err *e, s64 err, s64 sum_load, u64 dt);
/* E reached (for the maxima). */
void fa_err_point(struct fa_err *e, s64 err, s64 sum_load);
void fa_err_merge(struct fa_err *dst, const struct fa_err *src);
/*
 * fa_err_span() and fa_err_merge() for the times only (time_ns,
 * rel_time_ns and the histograms' totals), the same as theirs: for a
 * caller that keeps no statistics of E but the time it was held (the
 * what-if replay's engine: the replay's figures are over that time).
 */
void fa_err_span_time(struct fa_err *e, s64 sum_load, u64 dt);
void fa_err_merge_time(struct fa_err *dst, const struct fa_err *src);
/* @e back to all zero, its histograms' runs in use only (fa_hist_clear()). */
void fa_err_clear(struct fa_err *e);
/* @e's histograms marked all in use (fa_hist_mark_all()). */
void fa_err_mark_all(struct fa_err *e);
/* fa_err_merge(), or fa_err_merge_time() with @times_only. */
static inline void fa_err_merge_kept(struct fa_err *dst, const struct fa_err *src,
				     bool times_only)
{
	if (times_only)
		fa_err_merge_time(dst, src);
	else
		fa_err_merge(dst, src);
}

/*
 * One value of E as the statistics use it, worked out once when E or
 * sum(load) changes and then applied to each span it holds for: what
 * fa_err_span() and fa_err_point() do, split for callers that keep many
 * errors over the same time (the what-if replay: one E per policy, its
 * integrals per group, its histograms per policy).
 */
struct fa_err_val {
	u64 abs;		/* |E| */
	double a;		/* |E| as a double */
	double rel;		/* |E| / sum(load), when has_rel */
	double bnd;		/* |E| / scale (fa_err_val_bnd()), else 0 */
	u32 ia, ir, ib;		/* histogram buckets of |E|, rel and bnd (ppm) */
	bool has_rel;		/* sum(load) > 0 */
};

/*
 * |E|/sum(load) in ppm, rounded up (a bucket's upper edge is then never
 * below a value counted in it) and saturated so that it always fits the
 * histogram.
 */
static inline u64 fa_err_rel_ppm(double rel)
{
	double ppm = rel * FA_REL_SCALE;
	s64 t;

	if (ppm >= 9.0e18)
		return (u64)9.0e18;
	/*
	 * ceil() without its call or SSE2's dozen-instruction stand-in (the
	 * what-if replay takes two per shares value): the conversion
	 * truncates toward zero, which is ceil() for a value that is an
	 * integer or negative, one below it for a positive fraction.  Every
	 * double from 2^53 up is an integer, so the comparison is exact.
	 * (s64): below 2^63, the same value, and no branch to convert.
	 */
	t = (s64)ppm;
	return (u64)(t + ((double)t < ppm));
}

/*
 * fa_err_val()'s relative half: @v's rel and ir from |E| as a double @a
 * and @sum_load > 0 (for a caller that keeps the relative figures only).
 */
static inline void fa_err_val_rel(struct fa_err_val *v, double a, s64 sum_load)
{
	v->rel = a / (double)sum_load;
	v->ir = fa_hist_index(fa_err_rel_ppm(v->rel));
}

/* Inline: the what-if replay takes one per change of E per policy. */
static inline void fa_err_val(struct fa_err_val *v, s64 err, s64 sum_load)
{
	v->abs = err < 0 ? -(u64)err : (u64)err;
	v->a = (double)v->abs;
	v->ia = fa_hist_index(v->abs);
	v->has_rel = sum_load > 0;
	v->rel = 0;
	v->ir = 0;
	v->bnd = 0;
	v->ib = 0;
	if (v->has_rel)
		fa_err_val_rel(v, v->a, sum_load);
}

/*
 * The bounded form of |E| as a double @a: @a / @scale (@scale > 0; the
 * caller makes sure of it), and its bucket in ppm.
 */
static inline void fa_err_val_bnd(struct fa_err_val *v, double a, s64 scale)
{
	v->bnd = a / (double)scale;
	v->ib = fa_hist_index(fa_err_rel_ppm(v->bnd));
}

/*
 * |E| = @a (histogram bucket @ia) held for @dt ns (@dtd: the same as a
 * double, converted once by a caller that spans many errors): the
 * integral into *abs_time, the weight into @e's bucket but not its total
 * (the caller adds @dt to it, once for many errors held over the same
 * time).  fa_err_span_rel(): the same for the relative error.  @all:
 * @e's histograms are marked all in use (fa_err_mark_all()), and the add
 * marks nothing (fa_hist_add_bucket_by()); then, without @sat, the
 * caller also knows that no bucket can pass 2^64 - 1, and the add is a
 * plain one (fa_hist_add_bucket_as()).
 */
static inline __attribute__((always_inline)) void
fa_err_span_abs(struct fa_err *e, double *abs_time, double a, u32 ia, u64 dt,
		double dtd, const bool all, const bool sat)
{
	*abs_time += a * dtd;
	fa_hist_add_bucket_as(&e->abs, ia, dt, all, sat);
}

static inline __attribute__((always_inline)) void
fa_err_span_rel(struct fa_err *e, double *rel_time, double rel, u32 ir, u64 dt,
		double dtd, const bool all, const bool sat)
{
	*rel_time += rel * dtd;
	fa_hist_add_bucket_as(&e->rel, ir, dt, all, sat);
}

/* The bounded form held for @dt ns (fa_err_span_abs()'s, for bnd). */
static inline __attribute__((always_inline)) void
fa_err_span_bnd(struct fa_err *e, double *bnd_time, double bnd, u32 ib, u64 dt,
		double dtd, const bool all, const bool sat)
{
	*bnd_time += bnd * dtd;
	fa_hist_add_bucket_as(&e->bnd, ib, dt, all, sat);
}

/* A bounded value @bnd reached. */
static inline void fa_err_point_bnd(struct fa_err *e, double bnd)
{
	if (bnd > e->max_bnd)
		e->max_bnd = bnd;
}

/* A relative value @rel reached (fa_err_point_val()'s relative half). */
static inline void fa_err_point_rel(struct fa_err *e, double rel)
{
	if (rel > e->max_rel)
		e->max_rel = rel;
}

/* @v reached, but for its bounded form (a caller's that has none). */
static inline void fa_err_point_abs(struct fa_err *e, const struct fa_err_val *v)
{
	if (v->abs > e->max_abs)
		e->max_abs = v->abs;
	if (v->has_rel)
		fa_err_point_rel(e, v->rel);
}

/* @v reached (for the maxima). */
static inline void fa_err_point_val(struct fa_err *e, const struct fa_err_val *v)
{
	fa_err_point_abs(e, v);
	fa_err_point_bnd(e, v->bnd);
}

double fa_err_mean_abs(const struct fa_err *e);	/* load units */
double fa_err_mean_rel(const struct fa_err *e);	/* fraction */
u64 fa_err_p_abs(const struct fa_err *e, double p);	/* load units */
double fa_err_p_rel(const struct fa_err *e, double p);	/* fraction */
/* The bounded form's (over time_ns): fractions. */
double fa_err_mean_bnd(const struct fa_err *e);
double fa_err_p_bnd(const struct fa_err *e, double p);

#endif /* FA_ERR_H */
