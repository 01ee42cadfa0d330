// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting of the per-decision records, tg_update and pick_idlest,
 * each applied at the engine's current time (tg_audit: fa_audit.c).
 */
#include <stdlib.h>

#include "fa_engine_int.h"

static bool cpu_ok(s32 cpu)
{
	return cpu >= 0 && cpu < FA_MAX_CPUS;
}

void fa_tg_advance(struct fa_engine *e, u32 i, u64 t)
{
	struct fa_tg *g = &e->tgtab.tg[i];

	if (!g->timed || t <= g->last_ts)
		return;
	if (e->cfg.replay_only)
		fa_err_span_time(&e->seg.tgs[i].err, g->sum_load, t - g->last_ts);
	else
		fa_err_span(&e->seg.tgs[i].err, g->err, g->sum_load, t - g->last_ts);
	g->last_ts = t;
}

/*
 * Would policy.c have taken the kernel's decision on the same input?
 * A (policy, arg) pair outside policy.c's table never agrees.
 */
static bool replay_agrees(const struct fa_tg_update *u)
{
	const struct fl_tg_policy_desc *d;
	struct fl_tg_policy p = { .id = u->policy, .arg = u->arg };
	struct fl_tg_input in = {
		.delta = u->delta,
		.contrib = u->contrib,
		.tg_load_avg = fa_tg_load_before(u),
		.since_ns = u->since_ns,
		.nr_cpus = u->nr_cpus,
		.site = u->site,
	};

	if (u->policy >= FL_TG_NR_POLICIES)
		return false;
	d = &fl_tg_policy_descs[u->policy];
	/* stock's argument is its kernel's rate-limit gate (us), any value */
	if (u->policy != FL_TG_STOCK &&
	    (d->has_arg ? (u->arg < d->min || u->arg > d->max) : u->arg != 0))
		return false;
	return fl_tg_decide(&p, &in) == u->written;
}

bool fa_policy_reads_line(const struct fa_tg_update *u)
{
	struct fl_tg_policy p = { .id = u->policy, .arg = u->arg };
	struct fl_tg_rule rule;

	if (FL_SITE_NO_DECISION(u->site) || u->policy >= FL_TG_NR_POLICIES)
		return false;
	fl_tg_rule_make(&p, u->nr_cpus ? u->nr_cpus : 1, &rule);
	return fl_tg_rule_needs_tg_load(&rule);
}

enum fa_switch fa_writer_switch(const struct fa_engine *e, s32 *last_writer,
				s32 cpu)
{
	s32 from = *last_writer;

	*last_writer = cpu;
	if (from < 0 || from == cpu)
		return FA_SWITCH_NONE;
	return fa_switch_from(e, from, fa_cpu_node(e, cpu));
}

/* Room for @k more entries of @slot in @p (0), or none (-1). */
static int pending_room(struct fa_pending *p, u32 slot, u32 k)
{
	struct fa_pending_ent *v;
	u32 cap = p->cap ? p->cap : 64;

	if (p->held[slot] + k > FA_PENDING_MAX)
		return -1;	/* stays unknown, and is reported so */
	while (cap < p->n + k)
		cap *= 2;
	if (cap != p->cap) {
		v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return -1;	/* the same: unknown, never wrong */
		p->v = v;
		p->cap = cap;
	}
	p->held[slot] += k;
	return 0;
}

void fa_pending_add(struct fa_pending *p, s32 seg, u32 id, u32 slot, s32 from,
		    s32 to)
{
	if (pending_room(p, slot, 1))
		return;
	p->v[p->n++] = (struct fa_pending_ent){
		.id = id, .slot = slot, .from = from, .to = to,
		.seg = seg, .kind = FA_PEND_SWITCH,
	};
}

void fa_pending_add_transfer(struct fa_pending *p, s32 seg, u32 id, u32 slot,
			     s32 to,
			     const struct fa_coh_src *src)
{
	u32 k;

	if (src->over || !src->n || pending_room(p, slot, src->n))
		return;
	for (k = 0; k < src->n; k++)
		p->v[p->n++] = (struct fa_pending_ent){
			.id = id, .slot = slot, .from = src->cpu[k], .to = to,
			.seg = seg,
			.kind = k ? FA_PEND_FROM : FA_PEND_TRANSFER,
			.known = (u8)src->known, .nearest = src->nearest,
			.more = (u8)(k ? 0 : src->n - 1),
		};
}

/* The class of pending entry @pe (and its @pe->more holders) now. */
static enum fa_coh_dist pending_class(const struct fa_pending_ent *pe,
				      const struct fa_engine *e)
{
	struct fa_coh_topo t = fa_engine_topo(e);
	s32 from[FA_COH_SRC_MAX];
	int nf, nt;
	u32 k;

	if (pe->kind == FA_PEND_TRANSFER) {
		for (k = 0; k <= pe->more; k++)
			from[k] = pe[k].from;
		return fa_coh_src_dist(&t, pe->to, (enum fa_coh_dist)pe->known,
				       from, (u32)pe->more + 1, pe->nearest);
	}
	nf = fa_cpu_node(e, pe->from);
	nt = fa_cpu_node(e, pe->to);
	if (nf < 0 || nt < 0)
		return FA_COH_UNKNOWN;
	return nf != nt ? FA_COH_XNODE : FA_COH_NODE;
}

void fa_pending_resolve(struct fa_pending *p, const struct fa_engine *e,
			void (*fn)(void *arg, const struct fa_pending_ent *pe,
				   enum fa_coh_dist d),
			void *arg)
{
	u32 i, j, k = 0, len;

	for (i = 0; i < p->n; i += len) {
		const struct fa_pending_ent *pe = &p->v[i];
		enum fa_coh_dist d = FA_COH_UNKNOWN;

		len = (u32)pe->more + 1;
		/* a closed segment's stay unknown in it */
		if (pe->seg == (s32)e->nsegments) {
			d = pending_class(pe, e);
			if (d == FA_COH_UNKNOWN) {
				for (j = 0; j < len; j++)
					p->v[k++] = p->v[i + j];
				continue;
			}
			fn(arg, pe, d);
		}
		p->held[pe->slot] -= len;
	}
	p->n = k;
}

/* A pending entry of the open segment classified: its counters moved. */
static void resolved(void *arg, const struct fa_pending_ent *pe,
		     enum fa_coh_dist d)
{
	struct fa_segment *s = arg;

	if (pe->kind == FA_PEND_TRANSFER) {
		s->coh[FA_COH_UNKNOWN]--;
		s->coh[d]++;
		return;
	}
	s->xnode_unknown--;
	s->tgs[pe->id].xnode_unknown--;
	s->cpus[pe->to].xnode_unknown_in--;
	if (d == FA_COH_XNODE) {
		s->xnode++;
		s->tgs[pe->id].xnode++;
		s->cpus[pe->to].xnode_in++;
	}
}

void fa_switch_resolve(struct fa_engine *e)
{
	fa_pending_resolve(&e->pend, e, resolved, &e->seg);
}

static void count_write(struct fa_engine *e, struct fa_tg *g, u32 tgi,
			struct fa_tg_seg *ts, struct fa_cpu_seg *cs, s32 cpu)
{
	struct fa_segment *s = &e->seg;
	s32 from = g->last_writer;
	enum fa_switch sw = fa_writer_switch(e, &g->last_writer, cpu);

	s->writes++;
	ts->writes++;
	cs->writes++;
	e->series.bin.writes++;
	if (sw == FA_SWITCH_NONE)
		return;
	s->switches++;
	ts->switches++;
	cs->switches_in++;
	e->series.bin.switches++;
	if (e->cfg.on_switch)
		e->cfg.on_switch(from, cpu, e->cfg.arg);
	if (sw == FA_SWITCH_UNKNOWN) {
		s->xnode_unknown++;
		ts->xnode_unknown++;
		cs->xnode_unknown_in++;
		fa_pending_add(&e->pend, (s32)e->nsegments, tgi, 0, from, cpu);
	} else if (sw == FA_SWITCH_XNODE) {
		s->xnode++;
		ts->xnode++;
		cs->xnode_in++;
	}
}

int fa_on_tg_update(struct fa_engine *e, const struct fa_event *ev)
{
	const struct fa_tg_update *u = &ev->u.tg_update;
	struct fa_segment *s = &e->seg;
	s64 load = (s64)u->load, contrib;
	s64 old_err, old_load;
	struct fa_tg_seg *ts;
	struct fa_cpu_seg *cs;
	struct fa_cfs *c;
	struct fa_tg *g;
	s64 i;

	if (!cpu_ok(ev->cpu) || !cpu_ok(u->cfs_cpu)) {
		s->bad_cpu++;
		return 0;
	}
	i = fa_tgtab_get(&e->tgtab, u->tg);
	if (i < 0)
		return -1;
	if (((u32)i >= s->nr_tgs || (u32)ev->cpu >= s->nr_cpus) &&
	    fa_seg_reserve(s, (u32)i + 1, (u32)ev->cpu + 1))
		return -1;
	g = &e->tgtab.tg[i];
	c = fa_tg_cfs(g, (u32)u->cfs_cpu);
	if (!c)
		return -1;
	if (e->cfg.replay && fa_replay_tg_update(e->cfg.replay, e, (u32)i, c, ev))
		return -1;
	if (g->timed) {
		fa_tg_advance(e, (u32)i, e->now);
	} else {
		g->timed = true;
		g->last_ts = e->now;
		e->series.groups++;
	}
	ts = &s->tgs[i];
	cs = &s->cpus[ev->cpu];

	s->attempts++;
	ts->attempts++;
	cs->attempts++;
	e->series.bin.attempts++;
	s->sites[u->site < FL_NR_SITES ? u->site : FL_NR_SITES].attempts++;
	s->policy_attempts[u->policy < FL_TG_NR_POLICIES ? u->policy :
			   FL_TG_NR_POLICIES]++;
	if (u->cfs_cpu != ev->cpu)
		cs->remote++;
	if (!s->tg_policy_known) {
		s->tg_policy_known = true;
		s->tg_policy.id = u->policy;
		s->tg_policy.arg = u->arg;
	} else if (s->tg_policy.id != u->policy || s->tg_policy.arg != u->arg) {
		s->foreign_policy++;
	}
	if (!FL_SITE_NO_DECISION(u->site) && !replay_agrees(u))
		s->replay_mismatch++;

	/*
	 * The policy's own read of tg->load_avg, before its decision: the
	 * records do not tell it (the trace reads tg->load_avg under every
	 * policy), the policy's definition does (fa_policy_reads_line()).
	 */
	if (fa_policy_reads_line(u) &&
	    fa_split_read_own(e, (u32)i, ev->cpu, u->split_dom))
		return -1;
	if (u->written) {
		s->sites[u->site < FL_NR_SITES ? u->site : FL_NR_SITES].writes++;
		count_write(e, g, (u32)i, ts, cs, ev->cpu);
		if (fa_split_write(e, (u32)i, ev->cpu, u->split_dom))
			return -1;
		if (fa_audit_note_write(e, (u32)i, u->delta))
			return -1;
	}

	/* Replace this cfs_rq's term in E, sum(load) and sum(contrib). */
	old_err = g->err;
	old_load = g->sum_load;
	if (c->seen) {
		if (c->contrib != (s64)u->contrib && e->unpatching) {
			s->unpatch_jumps++;	/* the kernel's own publish */
		} else if (c->contrib != (s64)u->contrib) {
			s->contrib_jumps++;
			ts->contrib_jumps++;
		}
		g->err = sub_w(g->err, sub_w(c->contrib, c->load));
		g->sum_load = sub_w(g->sum_load, c->load);
		g->sum_contrib = sub_w(g->sum_contrib, c->contrib);
	}
	contrib = u->written ? load : (s64)u->contrib;
	c->contrib = contrib;
	c->load = load;
	c->seen = true;
	g->err = add_w(g->err, sub_w(contrib, load));
	g->sum_load = add_w(g->sum_load, load);
	g->sum_contrib = add_w(g->sum_contrib, contrib);
	/* under a split layout the record's tg_load_avg is its domain's counter */
	if (!u->split_dom)
		ts->gap = sub_w(u->tg_load_avg, g->sum_contrib);
	if (!e->cfg.replay_only)
		fa_err_point(&ts->err, g->err, g->sum_load);

	e->series.err_abs_sum = add_w(e->series.err_abs_sum,
				      (s64)(abs_w(g->err) - abs_w(old_err)));
	e->series.load_sum = add_w(e->series.load_sum,
				   sub_w(g->sum_load, old_load));
	return 0;
}

int fa_on_pick_idlest(struct fa_engine *e, const struct fa_event *ev)
{
	const struct fa_pick_idlest *p = &ev->u.pick_idlest;
	struct fa_segment *s = &e->seg;
	struct fa_idlest_seg *is;
	bool expect;

	if (!cpu_ok(ev->cpu)) {
		s->bad_cpu++;
		return 0;
	}
	if (fa_seg_reserve(s, 0, (u32)ev->cpu + 1))
		return -1;
	s->cpus[ev->cpu].idlest++;
	is = &s->idlest[p->policy < FL_IDLEST_NR_POLICIES ? p->policy :
			FL_IDLEST_NR_POLICIES];
	is->decisions++;
	if (p->picked)
		is->picked++;
	/* Without an idlest group yet, find_idlest_group() takes the first. */
	expect = p->idlest_cpu < 0 ||
		 fl_idlest_decide(p->policy, &p->idlest, &p->group);
	if (expect != p->picked || p->policy >= FL_IDLEST_NR_POLICIES)
		is->mismatch++;
	if (!s->idlest_policy_known) {
		s->idlest_policy_known = true;
		s->idlest_policy = p->policy;
	}
	return 0;
}
