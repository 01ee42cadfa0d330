// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay: the errors held up to a segment's end, the switches of
 * unknown distance resolved, and each policy's figures at a segment's
 * close, merged as the engine merges its own.  What the engine's thread
 * owns (the groups' clocks, the cfs_rqs' last reads, its counters) is
 * worked out at the close; the per-policy part follows as struct rp_cap,
 * applied at once or, with the ring, behind the records before it.
 */
#include <string.h>

#include "fa_replay_int.h"

/* Group @i's errors under every policy held @dt more, up to its @clock. */
static void apply_adv(struct fa_replay *r, u32 i, u64 dt, u64 clock)
{
	struct rp_tg *t = &r->tg[i];
	double dtd = (double)dt;
	u32 p;

	for (p = 0; p < r->npol; p++) {
		if (dt) {
			t->gp[p].abs_time += t->gp[p].a * dtd;
			if (r->rel && t->gc[p].has_rel)
				t->gc[p].rel_time += t->gc[p].rel * dtd;
		}
		/* the buckets complete when the results are read */
		hold(r->pol[p].err, &t->gp[p], &t->gc[p], clock, r->rel, true);
	}
}

/* Group @i's cfs_rq @k's read errors under every policy held @dt more. */
static void apply_reads(struct fa_replay *r, u32 i, u32 k, u64 dt)
{
	struct rp_tg *t = &r->tg[i];
	struct rp_rd *rd = &t->rd[(size_t)k * r->npol];
	u32 p;

	for (p = 0; p < r->npol; p++) {
		fa_err_span_abs(r->pol[p].sh, &t->gs[p].sh_abs_time, rd[p].a,
				rd[p].ia, dt, (double)dt, true, true);
		fa_err_span_rel(r->pol[p].sh, &t->gs[p].sh_rel_time, rd[p].rel,
				rd[p].ir, dt, (double)dt, true, true);
		fa_err_span_bnd(r->pol[p].sh, &t->gs[p].sh_bnd_time, rd[p].b,
				rd[p].ib, dt, (double)dt, true, true);
	}
}

static void apply_close(struct fa_replay *r, const struct rp_closecap *cl);

void rp_cap_apply(struct fa_replay *r, const struct rp_cap *c)
{
	switch (c->kind) {
	case RP_CAP_READS:
		apply_reads(r, c->i, c->k, c->dt);
		break;
	case RP_CAP_ADV:
		apply_adv(r, c->i, c->dt, c->clock);
		break;
	default:
		apply_close(r, &c->cl);
		break;
	}
}

/* A capture to the replay thread, or applied now; -1: no memory. */
static int emit(struct fa_replay *r, const struct rp_cap *c)
{
	struct rp_cap *to;

	if (!r->ring) {
		rp_cap_apply(r, c);
		return 0;
	}
	to = rp_ring_cap(r);
	if (!to)
		return -1;
	*to = *c;
	return 0;
}

void fa_replay_advance(struct fa_replay *r, const struct fa_engine *e, u32 i,
		       u64 t)
{
	struct rp_cap c = { 0 };
	const struct fa_tg *g;
	struct rp_tg *tt;
	u32 k;

	if (!r->ring)
		fa_replay_flush(r);
	if (i >= r->ntg || !r->tg[i].gp)
		return;
	tt = &r->tg[i];
	/* the reads' errors held up to @t (fa_read_advance()) */
	for (k = 0; k < tt->nr_rd; k++) {
		struct rp_cfs *cf = &tt->cfs[k];

		if (!cf->rd_seen || t <= cf->rd_ts)
			continue;
		c.kind = RP_CAP_READS;
		c.i = i;
		c.k = k;
		c.dt = t - cf->rd_ts;
		rp_budget(r, c.dt);
		cf->rd_ts = t;
		if (emit(r, &c))
			r->part[0].nomem = true;
	}
	g = &e->tgtab.tg[i];
	c.kind = RP_CAP_ADV;
	c.i = i;
	c.dt = g->timed && t > g->last_ts ? t - g->last_ts : 0;
	rp_budget(r, c.dt);
	r->clock[i] += c.dt;
	c.clock = r->clock[i];
	if (emit(r, &c))
		r->part[0].nomem = true;
}

/* A kept switch or transfer of policy pe->id classified (fa_pending_resolve()). */
static void resolved(void *arg, const struct fa_pending_ent *pe, enum fa_coh_dist d)
{
	struct rp_pol *rp = &((struct fa_replay *)arg)->pol[pe->id];

	if (pe->kind == FA_PEND_TRANSFER) {
		rp->coh[FA_COH_UNKNOWN]--;
		rp->coh[d]++;
		return;
	}
	rp->xnode_unknown--;
	rp->xnode += d == FA_COH_XNODE;
}

void fa_replay_switch_resolve(struct fa_replay *r, const struct fa_engine *e)
{
	fa_replay_flush(r);
	fa_pending_resolve(&r->part[0].pend, e, resolved, r);
	fa_pending_resolve(&r->part[1].pend, e, resolved, r);
}

/*
 * Every group's integrals of the open segment into fa_replay.sums, per
 * policy, and cleared: group by group, so that a group's slots are read in
 * a row (a policy at a time took a line of each of three arrays per group
 * and policy: fa_replay_close() was 1.8-3.0% of whatif's perf samples on
 * a recording of 516 groups and 1,720 segments, four fifths of them in
 * that loop).
 */
static void sum_groups(struct fa_replay *r)
{
	struct rp_sums *u = r->sums;
	u32 p, i;

	memset(u, 0, r->npol * sizeof(*u));
	for (i = 0; i < r->ntg; i++) {
		struct rp_tg *t = &r->tg[i];

		if (!t->gp)
			continue;
		for (p = 0; p < r->npol; p++) {
			u[p].abs_time += t->gp[p].abs_time;
			u[p].rel_time += t->gc[p].rel_time;
			u[p].sh_abs_time += t->gs[p].sh_abs_time;
			u[p].sh_rel_time += t->gs[p].sh_rel_time;
			u[p].sh_bnd_time += t->gs[p].sh_bnd_time;
			t->gp[p].abs_time = 0;
			t->gc[p].rel_time = 0;
			t->gs[p].sh_abs_time = 0;
			t->gs[p].sh_rel_time = 0;
			t->gs[p].sh_bnd_time = 0;
		}
	}
}

int fa_replay_close(struct fa_replay *r, const struct fa_segment *s)
{
	struct rp_cap c = { .kind = RP_CAP_CLOSE };
	u32 i;

	c.cl.sh_time_ns = s->shares.time_ns;
	c.cl.sh_rel_time_ns = s->shares.rel_time_ns;
	c.cl.err_time_ns = s->err.time_ns;
	c.cl.err_rel_time_ns = s->err.rel_time_ns;
	c.cl.sh_abs_total = s->shares.abs.total;
	c.cl.sh_rel_total = s->shares.rel.total;
	c.cl.sh_bnd_total = s->shares.bnd.total;
	c.cl.t_start = s->t_start;
	c.cl.t_end = s->t_end;
	c.cl.reads = r->reads;
	c.cl.read_untracked = r->read_untracked;
	c.cl.attempts = r->attempts;
	c.cl.rec_writes = r->rec_writes;
	if (r->ring) {
		if (emit(r, &c))
			return -1;
		rp_handoff(r, false);
	} else {
		fa_replay_flush(r);
		if (r->part[0].nomem || r->nomem1)
			return -1;
		apply_close(r, &c.cl);
	}
	/* the reads' errors end with the segment (fa_read.h), as the engine's */
	for (i = 0; i < r->ntg; i++) {
		struct rp_tg *t = &r->tg[i];
		u32 k;

		for (k = 0; k < t->nr_cfs && t->cfs; k++)
			t->cfs[k].rd_seen = false;
	}
	return r->part[0].nomem || r->nomem1 ? -1 : 0;
}

static void apply_close(struct fa_replay *r, const struct rp_closecap *cl)
{
	struct fa_err seg, sh;
	u32 p, i;

	memset(&sh, 0, sizeof(sh));
	sh.time_ns = cl->sh_time_ns;
	sh.rel_time_ns = cl->sh_rel_time_ns;
	/* as the engine merges its groups into the segment, then the total */
	memset(&seg, 0, sizeof(seg));
	seg.time_ns = cl->err_time_ns;
	seg.rel_time_ns = r->rel ? cl->err_rel_time_ns : 0;
	sum_groups(r);
	for (p = 0; p < r->npol; p++) {
		struct fa_replay_result *x = &r->res[r->order[p]];
		struct fa_segment *f = &x->fig;

		seg.abs_time = r->sums[p].abs_time;
		seg.rel_time = r->sums[p].rel_time;
		sh.abs_time = r->sums[p].sh_abs_time;
		sh.rel_time = r->sums[p].sh_rel_time;
		sh.bnd_time = r->sums[p].sh_bnd_time;
		fa_err_merge(&f->err, &seg);
		/* the shares error as the engine merges it (fa_read.c) */
		fa_err_merge(&f->shares, &sh);
		f->shares.abs.total = fa_hist_sat_add(f->shares.abs.total,
						      cl->sh_abs_total);
		f->shares.rel.total = fa_hist_sat_add(f->shares.rel.total,
						      cl->sh_rel_total);
		f->shares.bnd.total = fa_hist_sat_add(f->shares.bnd.total,
						      cl->sh_bnd_total);
		f->reads = cl->reads;
		f->read_untracked = cl->read_untracked;
		memcpy(f->coh, r->pol[p].coh, sizeof(f->coh));
		f->coh_by_read = r->pol[p].coh_by_read;
		x->line_reads = r->pol[p].line_reads;
		x->cache_hits = r->pol[p].cache_hits;
		if (r->cont_on) {
			/* the open windows end with the segment */
			for (i = 0; i < r->ntg; i++) {
				if (r->tg[i].cont)
					fa_cont_close(&r->tg[i].cont[p], &r->pol[p].cont,
						      r->cont_w, r->cont_k);
				if (r->tg[i].lay && r->pol[p].split)
					rp_lay_cont_close(r, &r->tg[i], p);
			}
			x->cont_ns = r->pol[p].cont.ns;
			x->cont_scaled_ns = r->pol[p].cont.scaled_ns;
			x->cont_scale = r->cont_k;
		}
		/* the spans went to the buckets only (hold()), not their totals */
		f->err.abs.total = fa_hist_sat_add(f->err.abs.total, cl->err_time_ns);
		f->err.rel.total = fa_hist_sat_add(f->err.rel.total,
						   seg.rel_time_ns);
		if (!r->started)
			f->t_start = cl->t_start;
		if (cl->t_end > f->t_end)
			f->t_end = cl->t_end;
		f->attempts = cl->attempts;
		f->writes = r->pol[p].writes;
		f->switches = r->pol[p].switches;
		f->xnode = r->pol[p].xnode;
		f->xnode_unknown = r->pol[p].xnode_unknown;
		/*
		 * Decided otherwise than recorded: written here but not by the
		 * kernel, or the other way round (counted so, not per record).
		 */
		x->diverged = r->pol[p].writes - r->pol[p].both +
			      (cl->rec_writes - r->pol[p].both);
	}
	r->started = true;
}
