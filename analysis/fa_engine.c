// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics engine: record ordering, dispatch, policy segments.
 * The accounting of each record type is in fa_update.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fa_engine_int.h"
#include "fa_idlest.h"

struct fa_engine *fa_engine_new(const struct fa_engine_cfg *cfg)
{
	struct fa_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	if (cfg)
		e->cfg = *cfg;
	fa_tgtab_init(&e->tgtab);
	fa_seg_init(&e->seg);
	fa_seg_init(&e->total);
	e->total.index = -1;
	e->pend.held = &e->pend_held;
	return e;
}

void fa_engine_free(struct fa_engine *e)
{
	if (!e)
		return;
	fa_tgtab_free(&e->tgtab);
	fa_seg_free(&e->seg);
	fa_seg_free(&e->total);
	fa_audit_free(e);
	free(e->node);
	free(e->llc);
	free(e->read_nr);
	free(e->split_doms);
	free(e->pend.v);
	free(e);
}

const struct fa_segment *fa_engine_total(const struct fa_engine *e)
{
	return &e->total;
}

u32 fa_engine_segments(const struct fa_engine *e)
{
	return e->nsegments;
}

const struct fa_tg *fa_engine_tg(const struct fa_engine *e, u32 i)
{
	return i < e->tgtab.n ? &e->tgtab.tg[i] : NULL;
}

const struct fa_tg *fa_engine_tg_by_id(const struct fa_engine *e, u64 id)
{
	s64 i = fa_tgtab_find(&e->tgtab, id);

	return i < 0 ? NULL : &e->tgtab.tg[i];
}

int fa_engine_cpu_node(const struct fa_engine *e, s32 cpu)
{
	return fa_cpu_node(e, cpu);
}

/* Grows @*arr (of @have entries) to @n, the new ones -1. */
static int grow_map(s32 **arr, u32 have, u32 n)
{
	s32 *p = realloc(*arr, n * sizeof(*p));
	u32 i;

	if (!p)
		return -1;
	for (i = have; i < n; i++)
		p[i] = -1;
	*arr = p;
	return 0;
}

static int set_topology(struct fa_engine *e, s32 cpu, s32 node, s32 llc)
{
	u32 n = e->nr_node ? e->nr_node : 8;

	if (cpu < 0 || cpu >= FA_MAX_CPUS)
		return 0;
	/* the replay's batched records classify writes on the nodes before */
	if (e->cfg.replay)
		fa_replay_flush(e->cfg.replay);
	if ((u32)cpu >= e->nr_node) {
		while (n <= (u32)cpu)
			n *= 2;
		if (grow_map(&e->node, e->nr_node, n) ||
		    grow_map(&e->llc, e->nr_node, n))
			return -1;
		e->nr_node = n;
	}
	e->node[cpu] = node < 0 ? -1 : node;
	e->llc[cpu] = llc < 0 ? -1 : llc;
	e->topo_gen++;
	fa_switch_resolve(e);
	if (fa_split_place(e))
		return -1;
	if (e->cfg.replay) {
		fa_replay_switch_resolve(e->cfg.replay, e);
		fa_replay_place(e->cfg.replay, e);
	}
	return 0;
}

int fa_coh_note(struct fa_engine *e, u32 i, s32 cpu, bool write)
{
	struct fa_coh_topo t = fa_engine_topo(e);
	struct fa_coh_cpu c = fa_coh_cpu(&t, cpu);
	struct fa_coh_src src;
	enum fa_coh_dist d;
	int r;

	if (e->cfg.replay_only)
		return 0;	/* the replay models its own lines */
	r = fa_coh_access_by(&e->tgtab.tg[i].coh, &t, &c, write, &d, &src);
	if (r <= 0)
		return r;
	/* classified once its CPUs are placed, as writer switches are */
	if (d == FA_COH_UNKNOWN)
		fa_pending_add_transfer(&e->pend, (s32)e->nsegments, i, 0, cpu, &src);
	e->seg.coh[d]++;
	e->seg.tgs[i].coh_transfers++;
	if (!write)
		e->seg.coh_by_read++;
	return 0;
}

static int on_tg_info(struct fa_engine *e, const struct fa_tg_info *t)
{
	s64 i = fa_tgtab_get(&e->tgtab, t->tg);
	struct fa_tg *g;

	if (i < 0)
		return -1;
	g = &e->tgtab.tg[i];
	g->parent = t->parent;
	g->level = t->level;
	g->named = true;
	memcpy(g->name, t->name, sizeof(g->name));
	g->name[sizeof(g->name) - 1] = '\0';
	return 0;
}

/*
 * Whole-trace policy labels: those of the segments, or "mixed" when the
 * segments differ.
 */
static void label_total(struct fa_segment *t, const struct fa_segment *s)
{
	if (s->tg_policy_known && !t->tg_policy_mixed) {
		if (!t->tg_policy_known) {
			t->tg_policy_known = true;
			t->tg_policy = s->tg_policy;
		} else if (t->tg_policy.id != s->tg_policy.id ||
			   t->tg_policy.arg != s->tg_policy.arg) {
			t->tg_policy_known = false;
			t->tg_policy_mixed = true;
		}
	}
	if (s->idlest_policy_known && !t->idlest_policy_mixed) {
		if (!t->idlest_policy_known) {
			t->idlest_policy_known = true;
			t->idlest_policy = s->idlest_policy;
		} else if (t->idlest_policy != s->idlest_policy) {
			t->idlest_policy_known = false;
			t->idlest_policy_mixed = true;
		}
	}
}

/* Closes the open segment at @t and opens the next with the same labels. */
static int close_segment(struct fa_engine *e, u64 t)
{
	struct fa_segment *s = &e->seg;
	bool tk = s->tg_policy_known, ik = s->idlest_policy_known;
	struct fl_tg_policy tp = s->tg_policy;
	u32 ip = s->idlest_policy, i;
	struct fa_layout ly = s->layout;
	bool times = e->cfg.replay_only;

	for (i = 0; i < e->tgtab.n; i++) {
		if (i < s->nr_tgs) {
			fa_read_advance(e, i, t);
			fa_err_merge_kept(&s->shares, &s->tgs[i].shares, times);
		}
		fa_read_end(e, i);
		if (!e->tgtab.tg[i].timed)
			continue;
		if (e->cfg.replay)
			fa_replay_advance(e->cfg.replay, e, i, t);
		fa_tg_advance(e, i, t);
		fa_err_merge_kept(&s->err, &s->tgs[i].err, times);
	}
	s->t_end = t;
	if (e->seg_has_records) {
		s->index = (int)e->nsegments;
		if (e->cfg.on_segment)
			e->cfg.on_segment(s, e->cfg.arg);
		label_total(&e->total, s);
		e->nsegments++;
	}
	/* Empty segments still count in the whole trace's time. */
	if (fa_seg_merge(&e->total, s, times) ||
	    (e->cfg.replay && fa_replay_close(e->cfg.replay, s)))
		return -1;
	fa_seg_reset(s);
	s->t_start = t;
	s->tg_policy_known = tk;
	s->tg_policy = tp;
	s->idlest_policy_known = ik;
	s->idlest_policy = ip;
	s->layout = ly;
	e->seg_has_records = false;
	return 0;
}

static int on_policy_switch(struct fa_engine *e, const struct fa_policy_switch *p)
{
	struct fa_segment *s = &e->seg;

	if (p->kind == FL_KIND_TG) {
		e->unpatching = false;	/* the patch is live (again) */
		if (!s->tg_policy_known) {
			s->tg_policy_known = true;
			s->tg_policy.id = p->old_policy;
			s->tg_policy.arg = p->old_arg;
		}
		if (s->tg_policy.id == p->new_policy &&
		    s->tg_policy.arg == p->new_arg)
			return 0;
		if (e->seg_has_records && close_segment(e, e->now))
			return -1;
		s->tg_policy.id = p->new_policy;
		s->tg_policy.arg = p->new_arg;
	} else if (p->kind == FL_KIND_UNPATCH) {
		/* no segment closes: the records go on under the same policy */
		e->unpatching = true;
		s->unpatches++;
		return 0;
	} else if (p->kind == FL_KIND_LAYOUT) {
		struct fa_layout ly = { p->new_policy,
					p->new_policy == FA_LAYOUT_GLOBAL ? 0 : p->new_arg };

		/* a layout this analyzer does not know: the segment's stays */
		if (p->new_policy >= FA_LAYOUT_NR ||
		    fa_layout_same(&s->layout, &ly))
			return 0;
		if (e->seg_has_records && close_segment(e, e->now))
			return -1;
		s->layout = ly;
		fa_split_reset(e);
	} else if (p->kind == FL_KIND_IDLEST) {
		if (!s->idlest_policy_known) {
			s->idlest_policy_known = true;
			s->idlest_policy = p->old_policy;
		}
		if (s->idlest_policy == p->new_policy)
			return 0;
		if (e->seg_has_records && close_segment(e, e->now))
			return -1;
		s->idlest_policy = p->new_policy;
	}
	return 0;
}

static int process(struct fa_engine *e, const struct fa_event *ev)
{
	if (e->cfg.bin_ns)
		fa_series_advance(e, ev->ts);
	e->now = ev->ts;
	e->seg.records++;
	switch (ev->type) {
	case FA_EV_TG_UPDATE:
		e->seg_has_records = true;
		return fa_on_tg_update(e, ev);
	case FA_EV_PICK_IDLEST:
		e->seg_has_records = true;
		if (e->cfg.idlest && fa_idlest_feed(e->cfg.idlest, ev))
			return -1;
		return fa_on_pick_idlest(e, ev);
	case FA_EV_POLICY_SWITCH:
		return on_policy_switch(e, &ev->u.policy_switch);
	case FA_EV_TG_INFO:
		return on_tg_info(e, &ev->u.tg_info);
	case FA_EV_CPU_TOPOLOGY:
		return set_topology(e, ev->u.cpu_topology.cpu,
				    ev->u.cpu_topology.node,
				    ev->u.cpu_topology.llc);
	case FA_EV_TG_AUDIT:
		return fa_on_tg_audit(e, ev);
	case FA_EV_TG_READ:
		e->seg_has_records = true;
		return fa_on_tg_read(e, ev);
	}
	e->seg.records--;	/* not a fairlab record */
	return 0;
}

/* Processes the held records, executing CPU first, then arrival order. */
static int flush(struct fa_engine *e)
{
	u16 order[FA_BATCH_MAX];
	u32 n = e->count, head = e->head, i, j;
	struct fa_event *b = e->batch;

	if (n == 1) {		/* the usual case: nothing to order */
		e->count = 0;
		e->head = (head + 1) % FA_BATCH_MAX;
		return process(e, &b[head]);
	}
	for (i = 0; i < n; i++) {
		/* Insertion sort: the batch is short and usually sorted. */
		u16 k = (u16)((head + i) % FA_BATCH_MAX);

		for (j = i; j > 0 && b[order[j - 1]].cpu > b[k].cpu; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	e->count = 0;
	e->head = (head + n) % FA_BATCH_MAX;
	for (i = 0; i < n; i++)
		if (process(e, &b[order[i]]))
			return -1;
	return 0;
}

struct fa_event *fa_engine_slot(struct fa_engine *e)
{
	if (e->count == FA_BATCH_MAX && flush(e)) {
		e->failed = true;
		return NULL;
	}
	return &e->batch[(e->head + e->count) % FA_BATCH_MAX];
}

int fa_engine_push(struct fa_engine *e)
{
	struct fa_event *ev = &e->batch[(e->head + e->count) % FA_BATCH_MAX];
	u64 bts;

	if (e->failed || e->finished)
		return -1;
	if (!e->started) {
		e->started = true;
		e->now = ev->ts;
		e->seg.t_start = ev->ts;
		e->total.t_start = ev->ts;
		fa_series_start(e, ev->ts);
	}
	if (e->count) {
		bts = e->batch[e->head].ts;
		if (ev->ts > bts) {
			/* ev stays where it is: the next batch starts with it */
			if (flush(e))
				goto fail;
		} else if (ev->ts < bts) {
			/* Time never runs backwards: an old record happens now. */
			ev->ts = bts;
			e->seg.late++;
		}
	} else if (ev->ts < e->now) {
		ev->ts = e->now;
		e->seg.late++;
	}
	e->count++;
	return 0;
fail:
	e->failed = true;
	return -1;
}

int fa_engine_feed(struct fa_engine *e, const struct fa_event *ev)
{
	struct fa_event *slot;

	if (e->failed || e->finished)
		return -1;
	slot = fa_engine_slot(e);
	if (!slot)
		return -1;
	*slot = *ev;
	return fa_engine_push(e);
}

int fa_engine_finish(struct fa_engine *e)
{
	if (e->failed)
		return -1;
	if (e->finished)
		return 0;
	if (flush(e))
		goto fail;
	e->finished = true;
	if (!e->started)
		return 0;
	fa_series_advance(e, e->now);
	fa_series_finish(e);
	if (close_segment(e, e->now))
		goto fail;
	/* the replay's thread done with what the closes queued */
	if (e->cfg.replay && fa_replay_finish(e->cfg.replay))
		goto fail;
	e->total.t_end = e->now;
	return 0;
fail:
	e->failed = true;
	return -1;
}
