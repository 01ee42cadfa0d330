// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay: what every policy's decision on one record shares
 * (struct rp_rec), worked out once per record on the engine's thread, from
 * the record and the engine's state before its own accounting; the record
 * then replayed now or batched (fa_replay_batch.c).
 */
#include "fa_replay_int.h"

/*
 * The kernel's sched_clock_cpu() at this record, rebuilt (fa_replay.h);
 * *before: its last publish before the record (FL_SINCE_NEVER: none);
 * *evicted: the kernel's table forgot a publish it had.
 */
static u64 kernel_clock(struct rp_cfs *kc, const struct fa_tg_update *u,
			u64 now, u64 *before, bool *evicted)
{
	bool resync = FL_SITE_NO_DECISION(u->site);
	bool known = !resync && u->since_ns != FL_SINCE_NEVER;
	u64 ksc;

	if (!kc->seen) {
		kc->seen = true;
		kc->off = 0;
		kc->kpub = FL_SINCE_NEVER;
	}
	*evicted = false;
	if (known && kc->kpub != FL_SINCE_NEVER) {
		ksc = kc->kpub + u->since_ns;
	} else {
		ksc = now + (u64)kc->off;
		if (known) {
			/* a publish before the recording, or missing from it */
			kc->kpub = ksc - u->since_ns;
		} else if (!resync && kc->kpub != FL_SINCE_NEVER) {
			*evicted = true;
			kc->kpub = FL_SINCE_NEVER;
		}
	}
	*before = kc->kpub;
	kc->off = (s64)(ksc - now);
	if (u->written || resync)
		kc->kpub = ksc;
	return ksc;
}

/* The engine records come from (its CPUs' nodes): the helper reads it. */
static void set_engine(struct fa_replay *r, const struct fa_engine *e)
{
	if (r->e != e) {
		rp_quiesce(r);
		r->e = e;
		r->near_ok = 0;
		r->topo_set = false;
	}
}

/* Where CPUs 0-63 are from @cpu (0 <= @cpu < 64), as engine @e places them now. */
static void near_of(struct fa_replay *r, const struct fa_engine *e, s32 cpu,
		    struct fa_coh_near *n)
{
	if (r->near_gen != e->topo_gen) {
		r->near_ok = 0;
		r->near_gen = e->topo_gen;
	}
	if (!((r->near_ok >> cpu) & 1)) {
		const struct fa_coh_topo t = fa_engine_topo(e);
		const struct fa_coh_cpu who = fa_coh_cpu(&t, cpu);

		fa_coh_near_of(&r->near[cpu], &t, &who);
		r->near_ok |= 1ull << cpu;
	}
	*n = r->near[cpu];
}

/*
 * The contention term's scale: its target CPUs per node over the
 * recording's (placed CPUs / nodes); 1 while no CPU is placed.
 */
static double cont_scale(const struct fa_replay *r, const struct fa_coh_topo *t)
{
	u32 i, placed = 0;

	for (i = 0; i < t->n; i++)
		placed += t->node[i] >= 0;
	if (!placed || !r->ndoms[FA_LAYOUT_NODE])
		return 1;
	return (double)r->cont_target * r->ndoms[FA_LAYOUT_NODE] / placed;
}

/*
 * The parts' view of engine @e's topology (fa_replay.topo), made anew
 * when it changed: the helper is idle then (set_topology() flushes the
 * replay before it changes anything), and quiesced to be sure.
 */
static void sync_topo(struct fa_replay *r, const struct fa_engine *e)
{
	if (r->topo_set && r->topo_seen == e->topo_gen)
		return;
	rp_quiesce(r);
	r->topo = fa_engine_topo(e);
	r->topo_seen = e->topo_gen;
	r->topo_set = true;
}

/* Record @x, set up, replayed now or batched for both parts. */
static int push(struct fa_replay *r, const struct fa_engine *e, struct rp_rec *x)
{
	/* this record's span counted: may the loops add plainly? */
	x->sat = r->hist_budget == ~0ull;
	x->seg = (s32)e->nsegments;
	sync_topo(r, e);
	if ((r->split || r->cont_on) && (!r->doms_set || r->topo_gen != e->topo_gen)) {
		const struct fa_coh_topo t = r->topo;
		u32 k;
		int n;

		rp_quiesce(r);	/* the helper reads the domains */
		for (k = FA_LAYOUT_NODE; k < FA_LAYOUT_NR; k++) {
			n = fa_layout_doms(k, &t, &r->doms[k], &r->doms_cap[k]);
			if (n < 0)
				return -1;
			r->ndoms[k] = (u32)n;
		}
		r->topo_gen = e->topo_gen;
		r->doms_set = true;
		if (r->cont_on)
			r->cont_k = cont_scale(r, &t);
	}
	x->ts = e->now;
	if (!r->batch)
		rp_replay_rec(r, &r->part[0], x);
	else if (++r->nbatch == RP_BATCH)
		rp_handoff(r, false);
	return r->part[0].nomem || r->nomem1 ? -1 : 0;
}

int fa_replay_tg_update(struct fa_replay *r, const struct fa_engine *e,
			u32 i, const struct fa_cfs *c, const struct fa_event *ev)
{
	const struct fa_tg_update *u = &ev->u.tg_update;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 cpu = (u32)u->cfs_cpu;
	struct rp_rec one, *x = r->batch ? &r->batch[r->nbatch] : &one;
	struct rp_tg *t;
	s64 lold;
	u64 dt;

	/* slots are made here, while no part is being replayed */
	t = rp_get_tg(r, i, cpu);
	if (!t)
		return -1;
	set_engine(r, e);
	r->attempts++;
	r->rec_writes += u->written;
	x->is_read = false;
	x->tg = i;
	x->cfs = cpu;
	x->policy = u->policy;
	x->arg = u->arg;
	if (u->policy == FL_TG_STOCK)
		r->stock_gate = u->arg;
	x->gate = r->stock_gate;
	x->load = (s64)u->load;
	x->contrib = (s64)u->contrib;
	x->cseen = c->seen;
	x->resync = FL_SITE_NO_DECISION(u->site);
	x->written = u->written;
	x->cpu = ev->cpu;
	x->node = fa_cpu_node(e, ev->cpu);
	if (ev->cpu >= 0 && ev->cpu < 64)
		near_of(r, e, ev->cpu, &x->near);
	/* E of every policy held since the group's last record (advance()) */
	dt = g->timed && e->now > g->last_ts ? e->now - g->last_ts : 0;
	x->spans = dt != 0;
	x->dtd = (double)dt;
	rp_budget(r, dt);
	r->clock[i] += dt;
	x->clock = r->clock[i];
	x->ksc = kernel_clock(&t->cfs[cpu], u, e->now, &x->before, &x->evicted);
	/* sum(load) after this record, and the kernel's sum(contrib) before */
	lold = x->cseen ? c->load : 0;
	x->lold_w = x->cseen ? c->load : (s64)u->contrib;
	x->sum_load = add_w(sub_w(g->sum_load, lold), x->load);
	x->sum_changed = r->rel && x->sum_load != g->sum_load;
	/*
	 * Under a split tg_layout the record holds its domain's counter,
	 * not tg->load_avg: what the sum holds beyond the cfs_rqs seen is
	 * not known from it, and is taken as 0 (as it is once every cfs_rq
	 * of the group has been seen).
	 */
	x->tg_ksum = u->split_dom ? 0 :
		sub_w(fa_tg_load_before(u),
		      add_w(sub_w(g->sum_contrib, x->cseen ? c->contrib : 0),
			    (s64)u->contrib));
	x->site = u->site;
	x->nr_cpus = u->nr_cpus;
	return push(r, e, x);
}

int fa_replay_tg_read(struct fa_replay *r, const struct fa_engine *e, u32 i,
		      const struct fa_cfs *c, const struct fa_event *ev,
		      bool good)
{
	const struct fa_tg_read *rd = &ev->u.tg_read;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 cpu = (u32)rd->cfs_cpu;
	struct rp_rec one, *x = r->batch ? &r->batch[r->nbatch] : &one;
	struct rp_cfs *kc;
	struct rp_tg *t;

	t = rp_get_tg(r, i, cpu);
	if (!t || rp_get_rd(r, t))
		return -1;
	set_engine(r, e);
	r->reads++;
	kc = &t->cfs[cpu];
	x->is_read = true;
	x->tg = i;
	x->cfs = cpu;
	x->cpu = ev->cpu;
	x->cseen = c->seen;
	x->contrib = c->contrib;
	x->rd_tla = rd->tg_load_avg;
	x->rd_split = rd->split_dom && fa_layout_split(&e->seg.layout);
	x->rd_lay = e->seg.layout;
	x->rd_hit = rd->cache_hit;
	x->rd_tla_sum = x->rd_split && x->rd_hit ? g->sum_contrib : rd->tg_load_avg;
	x->rd_contrib = (s64)rd->contrib;
	x->rd_load = (s64)rd->load;
	x->rd_tg_shares = (s64)rd->tg_shares;
	x->rd_shares = rd->shares;
	x->rd_kerr = g->err;
	/* a record that does not add up: the line's read only, as if absent */
	x->rd_timed = good && g->timed;
	x->rd_dt = 0;
	x->dtd = 0;
	x->rd_ideal = c->rd_ideal;	/* the engine's, when timed */
	if (!good)
		return push(r, e, x);
	/* the engine's read_span() and rd_* of this cfs_rq (fa_read.c) */
	x->rd_dt = kc->rd_seen && e->now > kc->rd_ts ? e->now - kc->rd_ts : 0;
	x->dtd = (double)x->rd_dt;
	rp_budget(r, x->rd_dt);
	kc->rd_ts = e->now;
	kc->rd_seen = g->timed;
	if (!g->timed)
		r->read_untracked++;
	return push(r, e, x);
}
