// SPDX-License-Identifier: GPL-2.0
/*
 * Accumulated-error statistics (see fa_err.h).
 */
#include <stdint.h>

#include "fa_err.h"

static u64 abs_s64(s64 v)
{
	return v < 0 ? -(u64)v : (u64)v;
}

/* |E|/sum(load) in ppm, saturated so that it always fits the histogram. */
static u64 rel_ppm(double rel)
{
	double ppm = rel * FA_REL_SCALE;

	return ppm >= 9.0e18 ? (u64)9.0e18 : (u64)ppm;
}

void fa_err_span_of(struct fa_err *e, double *abs_time, double *rel_time,
		    s64 err, s64 sum_load, u64 dt)
{
	u64 a = abs_s64(err);
	double rel;

	*abs_time += (double)a * (double)dt;
	fa_hist_add(&e->abs, a, dt);
	if (sum_load > 0) {
		rel = (double)a / (double)sum_load;
		*rel_time += rel * (double)dt;
		fa_hist_add(&e->rel, rel_ppm(rel), dt);
	}
}

void fa_err_span(struct fa_err *e, s64 err, s64 sum_load, u64 dt)
{
	if (!dt)
		return;
	e->time_ns = e->time_ns + dt < e->time_ns ? UINT64_MAX : e->time_ns + dt;
	if (sum_load > 0)
		e->rel_time_ns = e->rel_time_ns + dt < e->rel_time_ns ? UINT64_MAX :
				 e->rel_time_ns + dt;
	fa_err_span_of(e, &e->abs_time, &e->rel_time, err, sum_load, dt);
}

void fa_err_point(struct fa_err *e, s64 err, s64 sum_load)
{
	u64 a = abs_s64(err);
	double rel;

	if (a > e->max_abs)
		e->max_abs = a;
	if (sum_load > 0) {
		rel = (double)a / (double)sum_load;
		if (rel > e->max_rel)
			e->max_rel = rel;
	}
}

void fa_err_merge(struct fa_err *dst, const struct fa_err *src)
{
	if (src->max_abs > dst->max_abs)
		dst->max_abs = src->max_abs;
	if (src->max_rel > dst->max_rel)
		dst->max_rel = src->max_rel;
	dst->abs_time += src->abs_time;
	dst->rel_time += src->rel_time;
	dst->time_ns = dst->time_ns + src->time_ns < dst->time_ns ? UINT64_MAX :
		       dst->time_ns + src->time_ns;
	dst->rel_time_ns = dst->rel_time_ns + src->rel_time_ns < dst->rel_time_ns ?
			   UINT64_MAX : dst->rel_time_ns + src->rel_time_ns;
	fa_hist_merge(&dst->abs, &src->abs);
	fa_hist_merge(&dst->rel, &src->rel);
}

double fa_err_mean_abs(const struct fa_err *e)
{
	return e->time_ns ? e->abs_time / (double)e->time_ns : 0.0;
}

double fa_err_mean_rel(const struct fa_err *e)
{
	return e->rel_time_ns ? e->rel_time / (double)e->rel_time_ns : 0.0;
}

u64 fa_err_p_abs(const struct fa_err *e, double p)
{
	u64 v = fa_hist_percentile(&e->abs, p);

	/* A bucket's upper edge may lie above anything seen. */
	return v > e->max_abs ? e->max_abs : v;
}

double fa_err_p_rel(const struct fa_err *e, double p)
{
	double v = (double)fa_hist_percentile(&e->rel, p) / FA_REL_SCALE;

	return v > e->max_rel ? e->max_rel : v;
}
