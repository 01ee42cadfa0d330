// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay (fa_replay.h): creation, results, and the layout of the
 * per-policy state (fa_replay_int.h), its slots made on demand on the
 * engine's thread while no part is being replayed.
 */
#include <stdlib.h>
#include <string.h>

#include "fa_replay_int.h"

/* RP_* of a policy: its rule's shape (for 1 CPU; make_rules() checks others). */
static u32 range_of(const struct fl_tg_policy *p)
{
	struct fl_tg_rule rule;
	u32 g;

	/*
	 * stock's shape is its kernel's: with a rate-limit gate (6.7 and
	 * later) another than without; only the recording tells
	 * (rp_rec.gate).  In a range of its own shape, it would send
	 * every policy to the generic loop on one kernel or the other
	 * (rp_part.shapes_ok).
	 */
	if (p->id == FA_REPLAY_RECORDED || p->id == FL_TG_STOCK)
		return RP_ANY;
	fl_tg_rule_make(p, 1, &rule);
	for (g = 0; g < RP_ANY && rp_range_shape[g] != rule.shape; g++)
		;
	return g;	/* RP_ANY for a shape not listed */
}


/* Part @pt: internal indices [lo, hi). */
void rp_set_part(struct fa_replay *r, struct rp_part *pt, u32 lo, u32 hi)
{
	u32 g;

	pt->lo = lo;
	pt->hi = hi;
	for (g = 0; g <= RP_NR; g++)
		pt->range[g] = r->range[g] < lo ? lo : r->range[g] > hi ? hi :
			       r->range[g];
}

/*
 * @n zeroed elements of @size on cache lines of their own: nothing else the
 * allocator hands out (the engine's state, the other part's arrays) shares
 * a line with them, so that one thread's writes do not take a line from the
 * other's cache (RP_LINE).  NULL on overflow or no memory.
 */
static void *calloc_lines(size_t n, size_t size)
{
	size_t b = n * size;
	void *p;

	if (size && b / size != n)
		return NULL;
	b = (b + RP_LINE - 1) / RP_LINE * RP_LINE;
	if (!b)
		b = RP_LINE;
	p = aligned_alloc(RP_LINE, b);
	if (p)
		memset(p, 0, b);
	return p;
}

/*
 * @old (from calloc_lines(), or NULL), of @old_n elements of @size, grown
 * to @new_n, the new ones zeroed; NULL (@old kept) on failure.
 */
static void *grow_lines(void *old, size_t old_n, size_t new_n, size_t size)
{
	void *p = calloc_lines(new_n, size);

	if (!p)
		return NULL;
	if (old)
		memcpy(p, old, old_n * size);
	free(old);
	return p;
}

struct fa_replay *fa_replay_new(const struct fl_tg_policy *pol, u32 n,
				unsigned int flags)
{
	return fa_replay_new_layouts(pol, NULL, n, flags);
}

struct fa_replay *fa_replay_new_layouts(const struct fl_tg_policy *pol,
					const struct fa_layout *lay, u32 n,
					unsigned int flags)
{
	/*
	 * Aligned as its fields are (RP_LINE: the parts, and what the engine's
	 * thread writes at every record); its size is a multiple of that.
	 */
	struct fa_replay *r = aligned_alloc(RP_LINE, sizeof(*r));
	u32 i, k = 0, g;

	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->npol = n;
	r->rel = flags & FA_REPLAY_REL;
	r->sh_abs = flags & FA_REPLAY_SHARES_ABS;
	r->pol = calloc_lines(n, sizeof(*r->pol));
	r->res = calloc_lines(n, sizeof(*r->res));
	r->order = calloc_lines(n, sizeof(*r->order));
	r->pend_held = calloc_lines(n, sizeof(*r->pend_held));
	r->sums = calloc_lines(n, sizeof(*r->sums));
	if (!r->pol || !r->res || !r->order || !r->pend_held || !r->sums) {
		fa_replay_free(r);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		r->res[i].policy = pol[i];
		r->res[i].fig.index = -1;
		r->res[i].fig.tg_policy = pol[i];
		r->res[i].fig.tg_policy_known = pol[i].id != FA_REPLAY_RECORDED;
		/*
		 * Added to per record and policy, never cleared: no marks
		 * of runs in use on that path (fa_hist_mark_all()).
		 */
		fa_err_mark_all(&r->res[i].fig.err);
		fa_err_mark_all(&r->res[i].fig.shares);
		if (lay)
			r->res[i].layout = lay[i];
		r->split |= fa_layout_split(&r->res[i].layout);
	}
	for (g = 0; g < RP_NR; g++) {
		r->range[g] = k;
		for (i = 0; i < n; i++) {
			if (range_of(&pol[i]) != g)
				continue;
			r->order[k] = i;
			r->pol[k].err = &r->res[i].fig.err;
			r->pol[k].sh = &r->res[i].fig.shares;
			r->pol[k].lay = r->res[i].layout;
			r->pol[k].split = fa_layout_split(&r->pol[k].lay);
			k++;
		}
	}
	r->range[RP_NR] = k;
	/*
	 * Records batched on one thread too (rp_handoff()); every policy on
	 * a replay thread fed through a ring when fa_fj_ring_wanted(), or
	 * two halves on two threads when a helper thread starts.  Without
	 * the batch's memory (r->batch NULL), each record is replayed as it
	 * comes.  The ring's slots are its batches: no buf then.
	 */
	if (n >= 2 && fa_fj_ring_wanted() && !rp_ring_start(r)) {
		/* every policy in part[1], on the ring's thread */
		r->mid = 0;
		rp_set_part(r, &r->part[0], 0, 0);
		rp_set_part(r, &r->part[1], 0, n);
	} else {
		r->buf = calloc_lines(2 * RP_BATCH, sizeof(*r->buf));
		r->batch = r->buf;
		if (r->buf && n >= 2)
			r->fj = fa_fj_start(rp_helper_job, r);
		r->mid = n / 2;
		if (r->fj) {
			r->forced = fa_fj_asked(r->fj);
			rp_set_part(r, &r->part[0], 0, r->mid);
			rp_set_part(r, &r->part[1], r->mid, n);
		} else {
			rp_set_part(r, &r->part[0], 0, n);
		}
	}
	r->part[0].pend.held = r->pend_held;
	r->part[1].pend.held = r->pend_held;
	return r;
}

int fa_replay_threads(const struct fa_replay *r)
{
	return r->fj || r->ring ? 2 : 1;
}

bool fa_replay_ringed(const struct fa_replay *r, u64 *engine_wait_ns,
		      u64 *replay_wait_ns)
{
	rp_ring_waits(r, engine_wait_ns, replay_wait_ns);
	return r->ring;
}

int fa_replay_finish(struct fa_replay *r)
{
	fa_replay_flush(r);
	return r->part[0].nomem || r->nomem1 ? -1 : 0;
}

int fa_replay_batches(const struct fa_replay *r, u64 *one, u64 *two)
{
	*one = r->batches[0];
	*two = r->batches[1];
	return r->forced;
}

void fa_replay_free(struct fa_replay *r)
{
	u32 i;

	if (!r)
		return;
	rp_ring_stop(r);
	fa_fj_stop(r->fj);
	free(r->buf);
	free(r->part[0].pend.v);
	free(r->part[1].pend.v);
	free(r->pend_held);
	free(r->sums);
	for (i = 0; i < FA_LAYOUT_NR; i++)
		free(r->doms[i]);
	for (i = 0; i < r->ntg; i++) {
		u32 p;

		free(r->tg[i].cfs);
		free(r->tg[i].cp);
		for (p = 0; r->tg[i].gp && p < r->npol; p++)
			fa_coh_free(&r->tg[i].gp[p].line);
		free(r->tg[i].gp);
		for (p = 0; r->tg[i].lay && p < r->npol; p++)
			fa_lay_group_free(&r->tg[i].lay[p]);
		free(r->tg[i].lay);
		free(r->tg[i].cont);
		free(r->tg[i].gc);
		free(r->tg[i].gs);
		free(r->tg[i].rd);
	}
	free(r->tg);
	free(r->clock);
	free(r->pol);
	free(r->res);
	free(r->order);
	free(r);
}

void fa_replay_set_contention(struct fa_replay *r, u64 window_ns,
			      const double ns[3], u32 cpus_per_node)
{
	r->cont_on = true;
	r->cont_w = window_ns;
	r->cont_lat[FA_COH_LLC] = ns[FA_COH_LLC];
	r->cont_lat[FA_COH_NODE] = ns[FA_COH_NODE];
	r->cont_lat[FA_COH_XNODE] = ns[FA_COH_XNODE];
	r->cont_lat[FA_COH_UNKNOWN] = ns[FA_COH_LLC];	/* the cheapest, as fa_coh_cost_ns() */
	r->cont_target = cpus_per_node;
	r->cont_k = 1;
}

u32 fa_replay_count(const struct fa_replay *r)
{
	return r->npol;
}

const struct fa_replay_result *fa_replay_result(const struct fa_replay *r, u32 i)
{
	return i < r->npol ? &r->res[i] : NULL;
}

struct rp_tg *rp_get_tg(struct fa_replay *r, u32 i, u32 cpu)
{
	struct rp_tg *t;
	u64 *clock;
	u32 n, p;

	if (i >= r->ntg) {
		rp_quiesce(r);	/* the helper reads the groups */
		for (n = r->ntg ? r->ntg : 16; n <= i; n *= 2)
			;
		clock = grow_lines(r->clock, r->ntg, n, sizeof(*clock));
		if (!clock)
			return NULL;
		r->clock = clock;
		t = grow_lines(r->tg, r->ntg, n, sizeof(*t));
		if (!t)
			return NULL;
		r->tg = t;
		r->ntg = n;
	}
	t = &r->tg[i];
	/*
	 * The ring's thread walks every group's slots at a segment's close,
	 * queued while the engine goes on; the helper's half reads only its
	 * batch's groups, and is waited for at every close.
	 */
	if (r->ring &&
	    (!t->gp || (r->cont_on && !t->cont) || (r->split && !t->lay)))
		rp_quiesce(r);
	if (!t->gp) {
		t->gp = calloc_lines(r->npol, sizeof(*t->gp));
		t->gc = calloc_lines(r->npol, sizeof(*t->gc));
		t->gs = calloc_lines(r->npol, sizeof(*t->gs));
		if (!t->gp || !t->gc || !t->gs)
			return NULL;
		for (p = 0; p < r->npol; p++) {
			t->gp[p].last_writer = -1;
			fa_coh_init(&t->gp[p].line);
		}
	}
	if (r->cont_on && !t->cont) {
		t->cont = calloc_lines(r->npol, sizeof(*t->cont));
		if (!t->cont)
			return NULL;
	}
	if (r->split && !t->lay) {
		t->lay = calloc_lines(r->npol, sizeof(*t->lay));
		if (!t->lay)
			return NULL;
		for (p = 0; p < r->npol; p++)
			fa_lay_group_init(&t->lay[p]);
	}
	if (cpu >= t->nr_cfs) {
		struct rp_cfs *c;
		struct rp_cp *cp;

		rp_quiesce(r);	/* ... and their cfs_rqs' slots */
		for (n = t->nr_cfs ? t->nr_cfs : 4; n <= cpu; n *= 2)
			;
		c = grow_lines(t->cfs, t->nr_cfs, n, sizeof(*c));
		if (!c)
			return NULL;
		t->cfs = c;
		cp = grow_lines(t->cp, (size_t)t->nr_cfs * r->npol,
				(size_t)n * r->npol, sizeof(*cp));
		if (!cp)
			return NULL;
		t->cp = cp;
		t->nr_cfs = n;
	}
	return t;
}

int rp_get_rd(struct fa_replay *r, struct rp_tg *t)
{
	struct rp_rd *rd;

	if (t->nr_rd == t->nr_cfs)
		return 0;
	rp_quiesce(r);	/* the helper reads the read slots */
	rd = grow_lines(t->rd, (size_t)t->nr_rd * r->npol,
			(size_t)t->nr_cfs * r->npol, sizeof(*rd));
	if (!rd)
		return -1;
	t->rd = rd;
	t->nr_rd = t->nr_cfs;
	return 0;
}
