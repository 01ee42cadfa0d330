// SPDX-License-Identifier: GPL-2.0
/*
 * tg_read records: reads of tg->load_avg counted, checked against
 * calc_group_shares(), and their shares error (fa_read.h) accumulated
 * per group and per segment.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fa_engine_int.h"
#include "fa_read.h"

s64 fa_calc_group_shares(s64 tg_load_avg, s64 contrib, s64 load,
			 s64 tg_shares)
{
	s64 tg_weight = add_w(sub_w(tg_load_avg, contrib), load);
	s64 shares = (s64)((u64)tg_shares * (u64)load);

	/* LONG_MIN / -1 traps in C; the kernel's cannot be reached there */
	if (tg_weight && !(tg_weight == -1 && shares == INT64_MIN))
		shares /= tg_weight;
	/* clamp_t(long, shares, MIN_SHARES, tg_shares): __clamp() tests hi first */
	if (shares >= tg_shares)
		return tg_shares;
	return shares <= FA_MIN_SHARES ? FA_MIN_SHARES : shares;
}

s64 fa_ideal_shares(s64 others_load, s64 load, s64 tg_shares)
{
	/* tg->load_avg - contrib + load with tg->load_avg - contrib = others' */
	return fa_calc_group_shares(others_load, 0, load, tg_shares);
}

bool fa_read_adds_up(const struct fa_tg_read *r)
{
	return (s64)r->tg_shares >= FA_MIN_SHARES &&
	       fa_calc_group_shares(r->tg_load_avg, (s64)r->contrib,
				    (s64)r->load, (s64)r->tg_shares) == r->shares;
}

/*
 * The error of @c's last read held from its read until @t (@times: its
 * time only, struct fa_engine_cfg.replay_only).
 */
static void read_span(struct fa_tg_seg *ts, struct fa_cfs *c, u64 t, bool times)
{
	struct fa_err_val v;
	u64 dt;

	if (!c->rd_seen || t <= c->rd_ts)
		return;
	dt = t - c->rd_ts;
	if (times) {
		fa_err_span_time(&ts->shares, c->rd_ideal, dt);
	} else {
		fa_err_span(&ts->shares, c->rd_diff, c->rd_ideal, dt);
		fa_shares_val(&v, c->rd_diff, c->rd_ideal, c->rd_scale);
		fa_err_span_bnd(&ts->shares, &ts->shares.bnd_time, v.bnd, v.ib, dt,
				(double)dt, false, true);
	}
	ts->shares.bnd.total = fa_hist_sat_add(ts->shares.bnd.total, dt);
	c->rd_ts = t;
}

void fa_read_advance(struct fa_engine *e, u32 i, u64 t)
{
	struct fa_tg *g = &e->tgtab.tg[i];
	u32 k;

	for (k = 0; k < g->nr_cfs; k++)
		read_span(&e->seg.tgs[i], &g->cfs[k], t, e->cfg.replay_only);
}

/* The shares error @c's last read holds (as read_span() weighs it). */
static double held_err(const struct fa_cfs *c)
{
	struct fa_err_val v;

	fa_shares_val(&v, c->rd_diff, c->rd_ideal, c->rd_scale);
	return v.bnd;
}

/* @c's held error changes: tell the time series (plots), when there is one. */
static void series_change(struct fa_engine *e, const struct fa_cfs *c,
			  double old_err, bool old_held)
{
	if (e->cfg.bin_ns)
		fa_series_shares(e, old_err, old_held,
				 c->rd_seen ? held_err(c) : 0.0, c->rd_seen);
}

void fa_read_end(struct fa_engine *e, u32 i)
{
	struct fa_tg *g = &e->tgtab.tg[i];
	struct fa_cfs *c;
	u32 k;

	for (k = 0; k < g->nr_cfs; k++) {
		c = &g->cfs[k];
		if (!c->rd_seen)
			continue;
		c->rd_seen = false;
		if (e->cfg.bin_ns)
			series_change(e, c, held_err(c), true);
	}
}

/* A gap in the executing CPU's read count: reads not recorded. */
static int note_nr(struct fa_engine *e, s32 cpu, u64 nr)
{
	struct fa_segment *s = &e->seg;
	u32 n = e->nr_read_nr ? e->nr_read_nr : 8, j;

	if ((u32)cpu >= e->nr_read_nr) {
		u64 *p;

		while (n <= (u32)cpu)
			n *= 2;
		p = realloc(e->read_nr, n * sizeof(*p));
		if (!p)
			return -1;
		for (j = e->nr_read_nr; j < n; j++)
			p[j] = 0;	/* 0: no read seen (nr counts from 1) */
		e->read_nr = p;
		e->nr_read_nr = n;
	}
	if (e->read_nr[cpu] && nr > e->read_nr[cpu] + 1)
		s->read_gaps += nr - e->read_nr[cpu] - 1;
	e->read_nr[cpu] = nr;
	return 0;
}

int fa_on_tg_read(struct fa_engine *e, const struct fa_event *ev)
{
	const struct fa_tg_read *r = &ev->u.tg_read;
	struct fa_segment *s = &e->seg;
	struct fa_tg_seg *ts;
	struct fa_cfs *c;
	struct fa_err_val v;
	struct fa_tg *g;
	s64 i, ideal;
	double old_err;
	bool good, old_held;

	if (ev->cpu < 0 || ev->cpu >= FA_MAX_CPUS ||
	    r->cfs_cpu < 0 || r->cfs_cpu >= FA_MAX_CPUS) {
		s->bad_cpu++;
		return 0;
	}
	if (note_nr(e, ev->cpu, r->nr))
		return -1;
	i = fa_tgtab_get(&e->tgtab, r->tg);
	if (i < 0)
		return -1;
	if ((u32)i >= s->nr_tgs && fa_seg_reserve(s, (u32)i + 1, 0))
		return -1;
	g = &e->tgtab.tg[i];
	c = fa_tg_cfs(g, (u32)r->cfs_cpu);
	if (!c)
		return -1;
	ts = &s->tgs[i];
	if (fa_split_read(e, (u32)i, ev->cpu, r->split_dom, r->cache_hit))
		return -1;
	s->reads++;
	ts->reads++;
	/*
	 * A record that does not add up (its shares do not follow from its
	 * own fields, or tg->shares below MIN_SHARES) is left out of the
	 * shares error as if absent: the last good read's error still holds.
	 */
	good = fa_read_adds_up(r);
	old_held = c->rd_seen;
	/* only plots keep a series: report's reads skip the division */
	old_err = old_held && e->cfg.bin_ns ? held_err(c) : 0.0;
	if (!good) {
		s->read_mismatch++;
	} else if (!g->timed) {
		read_span(ts, c, e->now, e->cfg.replay_only);
		/* no tg_update of the group yet: no tracked sum to compare */
		s->read_untracked++;
		c->rd_seen = false;
		series_change(e, c, old_err, old_held);
	} else {
		read_span(ts, c, e->now, e->cfg.replay_only);
		ts->reads_tracked++;
		/* sum(load) without this cfs_rq's own term (fa_read.h) */
		ideal = fa_ideal_shares(sub_w(g->sum_load, c->seen ? c->load : 0),
					(s64)r->load, (s64)r->tg_shares);
		c->rd_diff = sub_w(r->shares, ideal);
		c->rd_ideal = ideal;
		c->rd_scale = (s64)r->tg_shares;
		c->rd_ts = e->now;
		c->rd_seen = true;
		if (!e->cfg.replay_only) {
			fa_shares_val(&v, c->rd_diff, c->rd_ideal, c->rd_scale);
			fa_err_point_val(&ts->shares, &v);
		}
		series_change(e, c, old_err, old_held);
	}
	/* the what-if replay: the same read under each policy (its ideal ours) */
	if (e->cfg.replay &&
	    fa_replay_tg_read(e->cfg.replay, e, (u32)i, c, ev, good))
		return -1;
	return 0;
}
