// SPDX-License-Identifier: GPL-2.0
/*
 * Fixed-width time bins over the whole trace, for plots: counts of
 * attempts, writes and writer switches per bin, the time-weighted
 * sum over groups of |E| within each bin, and the shares error's mean
 * over the cfs_rq-time within each bin.
 */
#include "fa_engine_int.h"

/* A gap longer than this many empty bins becomes one long bin. */
#define FA_MAX_EMPTY_BINS 100000

/* End of the bin starting at @t, saturated (corrupt timestamps come near 2^64). */
static u64 bin_end(const struct fa_engine *e, u64 t)
{
	return t > UINT64_MAX - e->cfg.bin_ns ? UINT64_MAX : t + e->cfg.bin_ns;
}

void fa_series_start(struct fa_engine *e, u64 t)
{
	struct fa_series *sr = &e->series;

	sr->bin.t_start = t;
	sr->bin.t_end = bin_end(e, t);
	sr->last_t = t;
}

static void integrate(struct fa_series *sr, u64 t)
{
	u64 dt = t - sr->last_t;

	if (t <= sr->last_t)
		return;
	sr->err_time += (double)sr->err_abs_sum * (double)dt;
	if (sr->load_sum > 0) {
		sr->rel_time += (double)sr->err_abs_sum /
				(double)sr->load_sum * (double)dt;
		sr->rel_ns += dt;
	}
	sr->sh_time += sr->sh_now * (double)dt;
	sr->sh_ns += (double)sr->sh_n * (double)dt;
	sr->last_t = t;
}

static void emit(struct fa_engine *e)
{
	struct fa_series *sr = &e->series;
	struct fa_bin *b = &sr->bin;
	u64 len = b->t_end - b->t_start;

	b->err_sum = len ? sr->err_time / (double)len : (double)sr->err_abs_sum;
	b->err_rel = sr->rel_ns ? sr->rel_time / (double)sr->rel_ns : 0.0;
	b->groups = sr->groups;
	b->shares_ns = sr->sh_ns;
	b->shares_mean = sr->sh_ns > 0 ? sr->sh_time / sr->sh_ns : 0.0;
	if (e->cfg.on_bin)
		e->cfg.on_bin(b, e->cfg.arg);
	b->attempts = b->writes = b->switches = 0;
	sr->err_time = sr->rel_time = 0.0;
	sr->sh_time = sr->sh_ns = 0.0;
	sr->rel_ns = 0;
	b->t_start = b->t_end;
	b->t_end = bin_end(e, b->t_start);
	b->segment = (int)e->nsegments;
}

void fa_series_advance(struct fa_engine *e, u64 t)
{
	struct fa_series *sr = &e->series;
	u64 bin_ns = e->cfg.bin_ns;

	if (!bin_ns)
		return;
	while (t >= sr->bin.t_end && sr->bin.t_end != UINT64_MAX) {
		integrate(sr, sr->bin.t_end);
		emit(e);
		/* A long silence: one bin up to the one holding t. */
		if (t >= sr->bin.t_end &&
		    (t - sr->bin.t_start) / bin_ns > FA_MAX_EMPTY_BINS) {
			sr->bin.t_end = sr->bin.t_start +
					(t - sr->bin.t_start) / bin_ns * bin_ns;
			integrate(sr, sr->bin.t_end);
			emit(e);
		}
	}
	integrate(sr, t);
}

/*
 * A cfs_rq's held shares error changes (fa_read.c) from @old_err (held or
 * not) to @new_err (held or not), at the engine's now: the series was
 * integrated up to it.  Each error is |given - ideal| / tg->shares, at
 * most 1, so the running sum loses nothing that matters to rounding; it
 * restarts from 0 exactly whenever no cfs_rq holds a read.
 */
void fa_series_shares(struct fa_engine *e, double old_err, bool old_held,
		      double new_err, bool new_held)
{
	struct fa_series *sr = &e->series;

	if (old_held) {
		sr->sh_now -= old_err;
		sr->sh_n--;
	}
	if (new_held) {
		sr->sh_now += new_err;
		sr->sh_n++;
	}
	if (!sr->sh_n)
		sr->sh_now = 0.0;
}

/* The last, partial bin ends at the last record. */
void fa_series_finish(struct fa_engine *e)
{
	struct fa_series *sr = &e->series;

	if (!e->cfg.bin_ns)
		return;
	if (sr->bin.t_start >= e->now && !sr->bin.attempts)
		return;
	sr->bin.t_end = e->now;
	emit(e);
}
