// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay under a split layout of tg->load_avg (fa_layout.h): the
 * per-domain counters of each group under each such policy, their lines
 * in the coherence model, the read cache.  Out of the per-policy loops'
 * hot path: only policies with a split layout come here.
 */
#include "fa_replay_int.h"

/* A transfer on one of policy p's lines: counted as coh() counts it. */
struct lay_note {
	const struct fa_replay *r;
	struct rp_part *pt;
	struct rp_pol *rp;
	u32 p;
	s32 cpu, seg;
	u64 ts;
};

static void note(void *arg, enum fa_coh_dist d, const struct fa_coh_src *src,
		 bool write, struct fa_cont_line *cl)
{
	struct lay_note *n = arg;
	const struct fa_replay *r = n->r;

	if (d == FA_COH_UNKNOWN)
		fa_pending_add_transfer(&n->pt->pend, n->seg, n->p, n->p, n->cpu, src);
	n->rp->coh[d]++;
	n->rp->coh_by_read += !write;
	if (r->cont_on)
		fa_cont_add(cl, &n->rp->cont, r->cont_w, r->cont_k, n->ts, r->cont_lat[d]);
}

/* Record @x's CPU accessing policy @p's lines: the model's context. */
struct lay_at {
	struct fa_coh_topo topo;
	struct fa_coh_cpu c;
	struct lay_note n;
	struct fa_lay_ctx ctx;
};

static void lay_at(struct lay_at *a, struct fa_replay *r, struct rp_part *pt,
		   u32 p, const struct rp_rec *x)
{
	struct rp_pol *rp = &r->pol[p];

	a->topo = r->topo;
	a->c = fa_coh_cpu(&a->topo, x->cpu);
	a->n = (struct lay_note){ r, pt, rp, p, x->cpu, x->seg, x->ts };
	a->ctx = (struct fa_lay_ctx){ &a->topo, &a->c, r->doms[rp->lay.kind],
				      r->ndoms[rp->lay.kind], note, &a->n };
}

void rp_lay_cont_close(struct fa_replay *r, struct rp_tg *t, u32 p)
{
	struct fa_lay_group *g = &t->lay[p];
	struct fa_cont_sum *s = &r->pol[p].cont;
	u32 i;

	for (i = 0; i <= g->n; i++) {
		struct fa_lay_dom *d = i < g->n ? &g->d[i] : &g->unplaced;

		fa_cont_close(&d->ctr_c, s, r->cont_w, r->cont_k);
		fa_cont_close(&d->cache_c, s, r->cont_w, r->cont_k);
	}
}

void rp_lay_seed(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		 u32 p, const struct rp_rec *x)
{
	const struct fa_coh_topo topo = r->topo;
	const struct fa_coh_cpu c = fa_coh_cpu(&topo, (s32)x->cfs);
	struct fa_lay_group *g = &t->lay[p];
	s32 dom = fa_layout_dom(&r->pol[p].lay, &c);
	struct fa_lay_dom *d = fa_lay_get(g, dom);

	if (!d || (dom < 0 && fa_lay_unplaced_add(g, (s32)x->cfs, x->contrib))) {
		pt->nomem = true;
		return;
	}
	if (dom >= 0)
		d->sum = add_w(d->sum, x->contrib);
}

void fa_replay_place(struct fa_replay *r, const struct fa_engine *e)
{
	const struct fa_coh_topo topo = fa_engine_topo(e);
	u32 i, p;

	if (!r->split)
		return;
	fa_replay_flush(r);	/* the parts' records before the topology */
	for (i = 0; i < r->ntg; i++)
		for (p = 0; r->tg[i].lay && p < r->npol; p++)
			if (r->pol[p].split &&
			    fa_lay_place(&r->tg[i].lay[p], &r->pol[p].lay, &topo))
				r->part[0].nomem = true;
}

s64 rp_lay_decide_read(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		       u32 p, const struct rp_rec *x, bool touch)
{
	struct rp_pol *rp = &r->pol[p];
	struct lay_at a;
	struct fa_lay_group *g = &t->lay[p];
	struct fa_lay_dom *d;
	u32 nd;

	lay_at(&a, r, pt, p, x);
	d = fa_lay_get(g, fa_layout_dom(&rp->lay, &a.c));
	nd = a.ctx.ndom ? a.ctx.ndom : 1;
	if (!d || (touch && fa_lay_read_own(g, &rp->lay, &a.ctx))) {
		pt->nomem = true;
		return 0;
	}
	/*
	 * The domain's counter: its replayed contribs, and its share of
	 * what the recorded tg->load_avg holds beyond the seen cfs_rqs'
	 * contribs (tg_ksum: cfs_rqs not seen yet), split evenly.
	 */
	return add_w(d->sum, x->tg_ksum / (s64)nd);
}

void rp_lay_write(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		  u32 p, const struct rp_rec *x, s64 delta)
{
	struct rp_pol *rp = &r->pol[p];
	struct lay_at a;

	lay_at(&a, r, pt, p, x);
	if (fa_lay_write(&t->lay[p], &rp->lay, &a.ctx, delta))
		pt->nomem = true;
}

bool rp_lay_read(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		 u32 p, const struct rp_rec *x, s64 sum, s64 *used)
{
	struct rp_pol *rp = &r->pol[p];
	struct lay_at a;
	struct fa_lay_dom *d;
	u32 lines;
	bool own;
	int k;

	lay_at(&a, r, pt, p, x);
	/*
	 * Under the layout the read was made in, the kernel's outcome: its
	 * hit was judged on its own clock (ktime_get_mono_fast_ns()) against
	 * whichever CPU of the domain stored last, perhaps before the
	 * recording began; the record's time can only approximate that.  A
	 * hit then gives the value the reader recorded (the cached sum the
	 * kernel used), with this policy's E for the kernel's: exact for the
	 * recorded policy.  Under any other layout, the
	 * rule on the record's time and the policy's own cached sum.
	 */
	own = x->rd_split && fa_layout_same(&x->rd_lay, &rp->lay);
	if (own)
		k = fa_lay_read_sum_as(&t->lay[p], &rp->lay, &a.ctx, x->rd_hit,
				       &d, &lines);
	else
		k = fa_lay_read_sum(&t->lay[p], &rp->lay, &a.ctx, x->ts, &d,
				    &lines);

	*used = sum;
	if (k < 0) {
		pt->nomem = true;
		return false;
	}
	rp->line_reads += lines;
	if (k) {
		rp->cache_hits++;
		/* own: the recorded value, @sum less the sum read plus it */
		*used = own ? add_w(sub_w(sum, x->rd_tla_sum), x->rd_tla) : d->cached;
		return true;
	}
	if (d && fa_lay_store(d, &a.ctx, sum, x->ts))
		pt->nomem = true;
	return false;
}
