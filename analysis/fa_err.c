// SPDX-License-Identifier: GPL-2.0
/*
 * Accumulated-error statistics (see fa_err.h).
 */
#include <stdint.h>

#include "fa_err.h"

void fa_err_span(struct fa_err *e, s64 err, s64 sum_load, u64 dt)
{
	struct fa_err_val v;

	if (!dt)
		return;
	e->time_ns = fa_hist_sat_add(e->time_ns, dt);
	if (sum_load > 0)
		e->rel_time_ns = fa_hist_sat_add(e->rel_time_ns, dt);
	fa_err_val(&v, err, sum_load);
	fa_err_span_abs(e, &e->abs_time, v.a, v.ia, dt, (double)dt);
	e->abs.total = fa_hist_sat_add(e->abs.total, dt);
	if (v.has_rel) {
		fa_err_span_rel(e, &e->rel_time, v.rel, v.ir, dt, (double)dt);
		e->rel.total = fa_hist_sat_add(e->rel.total, dt);
	}
}

void fa_err_point(struct fa_err *e, s64 err, s64 sum_load)
{
	struct fa_err_val v;

	fa_err_val(&v, err, sum_load);
	fa_err_point_val(e, &v);
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
