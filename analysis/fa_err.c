// SPDX-License-Identifier: GPL-2.0
/*
 * Accumulated-error statistics (see fa_err.h).
 */
#include <stdint.h>

#include "fa_err.h"

void fa_err_span_time(struct fa_err *e, s64 sum_load, u64 dt)
{
	if (!dt)
		return;
	e->time_ns = fa_hist_sat_add(e->time_ns, dt);
	e->abs.total = fa_hist_sat_add(e->abs.total, dt);
	if (sum_load > 0) {
		e->rel_time_ns = fa_hist_sat_add(e->rel_time_ns, dt);
		e->rel.total = fa_hist_sat_add(e->rel.total, dt);
	}
}

void fa_err_span(struct fa_err *e, s64 err, s64 sum_load, u64 dt)
{
	struct fa_err_val v;

	if (!dt)
		return;
	fa_err_span_time(e, sum_load, dt);
	fa_err_val(&v, err, sum_load);
	fa_err_span_abs(e, &e->abs_time, v.a, v.ia, dt, (double)dt, false, true);
	if (v.has_rel)
		fa_err_span_rel(e, &e->rel_time, v.rel, v.ir, dt, (double)dt, false, true);
}

void fa_err_merge_time(struct fa_err *dst, const struct fa_err *src)
{
	dst->time_ns = fa_hist_sat_add(dst->time_ns, src->time_ns);
	dst->rel_time_ns = fa_hist_sat_add(dst->rel_time_ns, src->rel_time_ns);
	dst->abs.total = fa_hist_sat_add(dst->abs.total, src->abs.total);
	dst->rel.total = fa_hist_sat_add(dst->rel.total, src->rel.total);
	dst->bnd.total = fa_hist_sat_add(dst->bnd.total, src->bnd.total);
}

void fa_err_clear(struct fa_err *e)
{
	struct fa_hist *h[] = { &e->abs, &e->rel, &e->bnd };
	size_t i;

	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		fa_hist_clear(h[i]);
	e->max_abs = 0;
	e->max_rel = 0;
	e->abs_time = 0;
	e->rel_time = 0;
	e->time_ns = 0;
	e->rel_time_ns = 0;
	e->max_bnd = 0;
	e->bnd_time = 0;
}

void fa_err_mark_all(struct fa_err *e)
{
	fa_hist_mark_all(&e->abs);
	fa_hist_mark_all(&e->rel);
	fa_hist_mark_all(&e->bnd);
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
	if (src->max_bnd > dst->max_bnd)
		dst->max_bnd = src->max_bnd;
	dst->abs_time += src->abs_time;
	dst->rel_time += src->rel_time;
	dst->bnd_time += src->bnd_time;
	dst->time_ns = dst->time_ns + src->time_ns < dst->time_ns ? UINT64_MAX :
		       dst->time_ns + src->time_ns;
	dst->rel_time_ns = dst->rel_time_ns + src->rel_time_ns < dst->rel_time_ns ?
			   UINT64_MAX : dst->rel_time_ns + src->rel_time_ns;
	fa_hist_merge(&dst->abs, &src->abs);
	fa_hist_merge(&dst->rel, &src->rel);
	fa_hist_merge(&dst->bnd, &src->bnd);
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

/*
 * A percentile in ppm read back from @h as a fraction: its bucket's upper
 * edge, which may lie above anything seen, capped at the maximum @max.
 * Every value counted in @h was also reached (fa_err_point*()), so the
 * cap never falls below a counted value and p <= max holds.
 */
static double p_frac(const struct fa_hist *h, double max, double p)
{
	double v = (double)fa_hist_percentile(h, p) / FA_REL_SCALE;

	return v > max ? max : v;
}

double fa_err_p_rel(const struct fa_err *e, double p)
{
	return p_frac(&e->rel, e->max_rel, p);
}

double fa_err_mean_bnd(const struct fa_err *e)
{
	return e->time_ns ? e->bnd_time / (double)e->time_ns : 0.0;
}

double fa_err_p_bnd(const struct fa_err *e, double p)
{
	return p_frac(&e->bnd, e->max_bnd, p);
}
