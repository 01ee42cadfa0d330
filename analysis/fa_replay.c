// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay (see fa_replay.h): the engine calls it with each
 * tg_update record before its own accounting, and when a segment closes.
 *
 * One pass: each record goes through every policy in a tight loop over
 * that cfs_rq's per-policy slots; nothing is kept per record.
 * Arithmetic on recorded values wraps (u64), as in fa_update.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fa_engine_int.h"
#include "fa_replay.h"

/* One cfs_rq: the kernel's clock as rebuilt from since_ns (common). */
struct rp_cfs {
	u64 kpub;		/* sched_clock of the kernel's last publish, or never */
	s64 off;		/* that clock minus the trace clock, at the last record */
	bool seen;
};

/* One cfs_rq under one policy. */
struct rp_cp {
	s64 contrib;		/* replayed tg_load_avg_contrib */
	u64 pub;		/* rebuilt sched_clock of the last publish, or never */
};

/*
 * One task group under one policy: what every record touches (32 bytes:
 * the slots of all policies of a group stay few cache lines), and what
 * only the relative error and tg->load_avg (budget) need.
 */
struct rp_gp {
	s64 err;		/* sum over seen cfs_rqs of (contrib - load) */
	double abs_time;	/* integral of |E| in the open segment (fa_err) */
	double a;		/* |E| (fa_err_val()) */
	u32 ia;			/* its histogram bucket */
	s32 last_writer;
};

struct rp_gpc {
	s64 sum_contrib;	/* sum over seen cfs_rqs of contrib */
	double rel_time;	/* integral of |E|/sum(load) in the open segment */
	double rel;		/* |E|/sum(load) (fa_err_val()), when has_rel */
	u32 ir;			/* its histogram bucket */
	bool has_rel;
};

struct rp_tg {
	u32 nr_cfs;
	struct rp_cfs *cfs;	/* [nr_cfs] */
	struct rp_cp *cp;	/* [nr_cfs][npol] */
	struct rp_gp *gp;	/* [npol] */
	struct rp_gpc *gc;	/* [npol] */
};

/* The counters of one policy, kept together (the results are large). */
struct rp_pol {
	struct fl_tg_rule rule;
	u64 writes, switches, xnode, xnode_unknown, diverged;
	struct fa_err *err;	/* its result's error statistics */
};

/*
 * Policies are replayed in the order of their rule's shape, each shape in
 * a loop of its own (replay_range()), "recorded" ones (any shape) last:
 * the shapes' branches then fold away.  Internal index k is result
 * order[k]; the per-policy arrays (pol, per-cfs_rq and per-group slots)
 * are in internal order.
 */
enum { RP_SCALED, RP_ABOVE, RP_GATED, RP_BUDGET, RP_ANY, RP_NR };

/* The rule shape of each RP_* but RP_ANY. */
static const u32 range_shape[RP_ANY] = {
	[RP_SCALED] = FL_RULE_SCALED, [RP_ABOVE] = FL_RULE_ABOVE,
	[RP_GATED] = FL_RULE_GATED, [RP_BUDGET] = FL_RULE_BUDGET,
};

struct fa_replay {
	u32 npol;
	bool rel;		/* relative error too */
	struct rp_pol *pol;	/* internal order */
	u32 *order;		/* internal index -> result index */
	u32 range[RP_NR + 1];	/* internal indices of each RP_* */
	struct fa_replay_result *res;
	u32 rule_nr_cpus;	/* the rules are made for */
	bool rules_made;
	bool shapes_ok;		/* each rule has its range's shape */
	/* FA_REPLAY_RECORDED: the rule of the last record's own policy */
	struct fl_tg_policy rec_pol;
	u32 rec_nr_cpus;
	struct fl_tg_rule rec_rule;
	bool rec_made;
	/*
	 * stock's argument is its kernel's rate-limit gate (us; 0 before
	 * 6.7, 1000 from 6.7): a listed "stock" is replayed with the gate
	 * the recording's own stock records carry, from the first of them
	 * on (without a gate before it, or in a recording without one).
	 */
	u32 stock_gate;

	u64 attempts;
	bool started;
	u32 ntg;
	struct rp_tg *tg;	/* indexed like the engine's group table */
};

/* RP_* of a policy: its rule's shape (for 1 CPU; make_rules() checks others). */
static u32 range_of(const struct fl_tg_policy *p)
{
	struct fl_tg_rule rule;
	u32 g;

	if (p->id == FA_REPLAY_RECORDED)
		return RP_ANY;
	fl_tg_rule_make(p, 1, &rule);
	for (g = 0; g < RP_ANY && range_shape[g] != rule.shape; g++)
		;
	return g;	/* RP_ANY for a shape not listed */
}

struct fa_replay *fa_replay_new(const struct fl_tg_policy *pol, u32 n, bool rel)
{
	struct fa_replay *r = calloc(1, sizeof(*r));
	u32 i, k = 0, g;

	if (!r)
		return NULL;
	r->npol = n;
	r->rel = rel;
	r->pol = calloc(n ? n : 1, sizeof(*r->pol));
	r->res = calloc(n ? n : 1, sizeof(*r->res));
	r->order = calloc(n ? n : 1, sizeof(*r->order));
	if (!r->pol || !r->res || !r->order) {
		fa_replay_free(r);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		r->res[i].policy = pol[i];
		r->res[i].fig.index = -1;
		r->res[i].fig.tg_policy = pol[i];
		r->res[i].fig.tg_policy_known = pol[i].id != FA_REPLAY_RECORDED;
	}
	for (g = 0; g < RP_NR; g++) {
		r->range[g] = k;
		for (i = 0; i < n; i++) {
			if (range_of(&pol[i]) != g)
				continue;
			r->order[k] = i;
			r->pol[k].err = &r->res[i].fig.err;
			k++;
		}
	}
	r->range[RP_NR] = k;
	return r;
}

void fa_replay_free(struct fa_replay *r)
{
	u32 i;

	if (!r)
		return;
	for (i = 0; i < r->ntg; i++) {
		free(r->tg[i].cfs);
		free(r->tg[i].cp);
		free(r->tg[i].gp);
		free(r->tg[i].gc);
	}
	free(r->tg);
	free(r->pol);
	free(r->res);
	free(r->order);
	free(r);
}

u32 fa_replay_count(const struct fa_replay *r)
{
	return r->npol;
}

const struct fa_replay_result *fa_replay_result(const struct fa_replay *r, u32 i)
{
	return i < r->npol ? &r->res[i] : NULL;
}

/* Group @i's state, its cfs_rq slot @cpu created (zeroed) on demand. */
static struct rp_tg *get_tg(struct fa_replay *r, u32 i, u32 cpu)
{
	struct rp_tg *t;
	u32 n, p;

	if (i >= r->ntg) {
		for (n = r->ntg ? r->ntg : 16; n <= i; n *= 2)
			;
		t = realloc(r->tg, n * sizeof(*t));
		if (!t)
			return NULL;
		memset(t + r->ntg, 0, (n - r->ntg) * sizeof(*t));
		r->tg = t;
		r->ntg = n;
	}
	t = &r->tg[i];
	if (!t->gp) {
		t->gp = calloc(r->npol ? r->npol : 1, sizeof(*t->gp));
		t->gc = calloc(r->npol ? r->npol : 1, sizeof(*t->gc));
		if (!t->gp || !t->gc)
			return NULL;
		for (p = 0; p < r->npol; p++)
			t->gp[p].last_writer = -1;
	}
	if (cpu >= t->nr_cfs) {
		struct rp_cfs *c;
		struct rp_cp *cp;

		for (n = t->nr_cfs ? t->nr_cfs : 4; n <= cpu; n *= 2)
			;
		c = realloc(t->cfs, n * sizeof(*c));
		if (!c)
			return NULL;
		memset(c + t->nr_cfs, 0, (n - t->nr_cfs) * sizeof(*c));
		t->cfs = c;
		cp = realloc(t->cp, (size_t)n * r->npol * sizeof(*cp));
		if (!cp && r->npol)
			return NULL;
		memset(cp + (size_t)t->nr_cfs * r->npol, 0,
		       (size_t)(n - t->nr_cfs) * r->npol * sizeof(*cp));
		t->cp = cp;
		t->nr_cfs = n;
	}
	return t;
}

static void make_rules(struct fa_replay *r, u32 nr_cpus)
{
	u32 p;

	u32 g;

	r->shapes_ok = true;
	for (g = 0; g < RP_NR; g++) {
		for (p = r->range[g]; p < r->range[g + 1]; p++) {
			const struct fl_tg_policy *pol = &r->res[r->order[p]].policy;

			struct fl_tg_policy gated = { FL_TG_STOCK, r->stock_gate };

			if (pol->id == FA_REPLAY_RECORDED)
				continue;	/* set_rules() */
			fl_tg_rule_make(pol->id == FL_TG_STOCK ? &gated : pol, nr_cpus,
					&r->pol[p].rule);
			/* a shape that depended on more than the policy */
			if (g < RP_ANY && r->pol[p].rule.shape != range_shape[g])
				r->shapes_ok = false;
		}
	}
	r->rule_nr_cpus = nr_cpus;
	r->rules_made = true;
}

/* The rule of the record's own policy (for FA_REPLAY_RECORDED). */
static const struct fl_tg_rule *recorded_rule(struct fa_replay *r,
					      const struct fa_tg_update *u)
{
	if (!r->rec_made || r->rec_pol.id != u->policy ||
	    r->rec_pol.arg != u->arg || r->rec_nr_cpus != u->nr_cpus) {
		r->rec_pol.id = u->policy;
		r->rec_pol.arg = u->arg;
		r->rec_nr_cpus = u->nr_cpus;
		fl_tg_rule_make(&r->rec_pol, u->nr_cpus, &r->rec_rule);
		r->rec_made = true;
	}
	return &r->rec_rule;
}

/* Group @i's errors under every policy held from its last record to @t. */
static void advance(struct fa_replay *r, const struct fa_tg *g,
		    struct rp_tg *t, u64 t_end)
{
	double dtd;
	u64 dt;
	u32 p;

	if (!g->timed || t_end <= g->last_ts)
		return;
	dt = t_end - g->last_ts;
	dtd = (double)dt;
	for (p = 0; p < r->npol; p++) {
		fa_err_span_abs(r->pol[p].err, &t->gp[p].abs_time, t->gp[p].a,
				t->gp[p].ia, dt, dtd);
		if (r->rel && t->gc[p].has_rel)
			fa_err_span_rel(r->pol[p].err, &t->gc[p].rel_time,
					t->gc[p].rel, t->gc[p].ir, dt, dtd);
	}
}

void fa_replay_advance(struct fa_replay *r, const struct fa_engine *e, u32 i,
		       u64 t)
{
	if (i < r->ntg && r->tg[i].gp)
		advance(r, &e->tgtab.tg[i], &r->tg[i], t);
}

/*
 * The kernel's sched_clock_cpu() at this record, rebuilt (fa_replay.h);
 * *before: its last publish before the record (FL_SINCE_NEVER: none);
 * *evicted: the kernel's table forgot a publish it had.
 */
static u64 kernel_clock(struct rp_cfs *kc, const struct fa_tg_update *u,
			u64 now, u64 *before, bool *evicted)
{
	bool resync = u->site == FL_SITE_RESYNC;
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

/* A write under policy @p executed on @cpu: the writer switch it is. */
static void count_switch(const struct fa_engine *e, struct rp_pol *rp,
			 struct rp_gp *q, s32 cpu)
{
	switch (fa_writer_switch(e, &q->last_writer, cpu)) {
	case FA_SWITCH_NONE:
		break;
	case FA_SWITCH_NODE:
		rp->switches++;
		break;
	case FA_SWITCH_XNODE:
		rp->switches++;
		rp->xnode++;
		break;
	case FA_SWITCH_UNKNOWN:
		rp->switches++;
		rp->xnode_unknown++;
		break;
	}
}

/* The rules of this record: made for its nr_cpus, "recorded" its own. */
static void set_rules(struct fa_replay *r, const struct fa_tg_update *u)
{
	const struct fl_tg_rule *rec;
	u32 p;

	if (u->policy == FL_TG_STOCK && u->arg != r->stock_gate) {
		r->stock_gate = u->arg;
		r->rules_made = false;
	}
	if (!r->rules_made || r->rule_nr_cpus != u->nr_cpus)
		make_rules(r, u->nr_cpus);
	if (r->range[RP_ANY] == r->npol)
		return;
	rec = recorded_rule(r, u);
	for (p = r->range[RP_ANY]; p < r->npol; p++)
		if (r->res[r->order[p]].policy.id == FA_REPLAY_RECORDED)
			r->pol[p].rule = *rec;
}

/* What every policy's decision on one record shares. */
struct rp_rec {
	const struct fa_engine *e;
	struct fl_tg_input in;	/* site and nr_cpus set */
	struct rp_cp *cp;	/* the cfs_rq's slots */
	struct rp_gp *gp;	/* the group's slots */
	struct rp_gpc *gc;
	s64 load, lold;		/* load now, and as last observed (0: first) */
	s64 sum_load;		/* the group's sum(load) after the record */
	s64 ksum;		/* the kernel's sum(contrib) before */
	s64 tg_before;		/* recorded tg->load_avg before */
	u64 ksc, dt;		/* rebuilt sched_clock; E's span before */
	double dtd;
	s32 cpu;		/* executing CPU */
	bool cseen, resync, written, sum_changed;
};

/*
 * Policies [lo, hi) of one RP_* @range on one record: the span of E held
 * until now, the decision (module/policy/'s fl_tg_rule_decide(), its
 * shape a constant here but for RP_ANY), the write, the new E.
 */
static __attribute__((always_inline)) inline void
replay_range(struct fa_replay *r, const struct rp_rec *x, u32 lo, u32 hi,
	     const u32 range)
{
	/*
	 * The record's values in locals: the stores below go through
	 * pointers the compiler cannot tell apart from *x and *r, and would
	 * make it load these again for every policy.
	 */
	const s64 load = x->load, lold = x->lold, sum_load = x->sum_load;
	const s64 tg_ksum = sub_w(x->tg_before, x->ksum);
	const u64 ksc = x->ksc, dt = x->dt;
	const double dtd = x->dtd;
	const bool cseen = x->cseen, resync = x->resync, written = x->written;
	const bool changed_load = x->sum_changed, rel = r->rel;
	const s32 cpu = x->cpu;
	struct rp_pol *pol = r->pol;
	struct rp_cp *cp = x->cp;
	struct rp_gp *gp = x->gp;
	struct rp_gpc *gc = x->gc;
	struct fl_tg_input in = x->in;
	u32 p;

	for (p = lo; p < hi; p++) {
		struct rp_pol *rp = &pol[p];
		struct rp_cp *s = &cp[p];
		struct rp_gp *q = &gp[p];
		struct rp_gpc *qc = &gc[p];
		struct fl_tg_rule rule = rp->rule;
		bool reads_tg_load = range == RP_BUDGET ||
			(range == RP_ANY && fl_tg_rule_needs_tg_load(&rule));
		s64 rc = s->contrib, err;
		bool w;

		if (range != RP_ANY)
			rule.shape = range_shape[range];
		if (dt) {
			fa_err_span_abs(rp->err, &q->abs_time, q->a, q->ia, dt, dtd);
			if (rel && qc->has_rel)
				fa_err_span_rel(rp->err, &qc->rel_time, qc->rel,
						qc->ir, dt, dtd);
		}
		in.delta = sub_w(load, rc);
		in.contrib = (u64)rc;
		if (reads_tg_load)
			in.tg_load_avg = add_w(tg_ksum, qc->sum_contrib);
		if (range == RP_GATED ||
		    (range == RP_ANY && fl_tg_rule_needs_clock(&rule)))
			in.since_ns = s->pub == FL_SINCE_NEVER ? FL_SINCE_NEVER :
				      ksc > s->pub ? ksc - s->pub : 0;
		w = resync || fl_tg_rule_decide(&rule, &in);
		rp->diverged += w != written;
		/* replace this cfs_rq's term (contrib - load) in E */
		err = cseen ? sub_w(q->err, sub_w(rc, lold)) : q->err;
		if (w) {
			/* only what reads tg->load_avg needs the sum */
			if (range == RP_BUDGET || range == RP_ANY)
				qc->sum_contrib = add_w(qc->sum_contrib, in.delta);
			s->contrib = load;
			s->pub = ksc;
			rp->writes++;
			if (q->last_writer != cpu)
				count_switch(x->e, rp, q, cpu);
		} else {
			err = add_w(err, sub_w(rc, load));
		}
		if (err != q->err || changed_load) {
			struct fa_err_val v;

			q->err = err;
			/* sum(load) 0: no relative error (fa_err_val()) */
			fa_err_val(&v, err, rel ? sum_load : 0);
			fa_err_point_val(rp->err, &v);
			q->a = v.a;
			q->ia = v.ia;
			if (rel) {
				qc->rel = v.rel;
				qc->ir = v.ir;
				qc->has_rel = v.has_rel;
			}
		}
	}
}

int fa_replay_tg_update(struct fa_replay *r, const struct fa_engine *e,
			u32 i, const struct fa_cfs *c, const struct fa_event *ev)
{
	const struct fa_tg_update *u = &ev->u.tg_update;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 cpu = (u32)u->cfs_cpu, p, np = r->npol;
	struct rp_rec x;
	struct rp_tg *t;
	bool evicted;
	u64 before;

	t = get_tg(r, i, cpu);
	if (!t)
		return -1;
	set_rules(r, u);
	r->attempts++;
	x.e = e;
	x.gp = t->gp;
	x.gc = t->gc;
	x.cp = &t->cp[(size_t)cpu * np];
	x.load = (s64)u->load;
	x.cseen = c->seen;
	x.resync = u->site == FL_SITE_RESYNC;
	x.written = u->written;
	x.cpu = ev->cpu;
	/* E of every policy held since the group's last record (advance()) */
	x.dt = g->timed && e->now > g->last_ts ? e->now - g->last_ts : 0;
	x.dtd = (double)x.dt;
	x.ksc = kernel_clock(&t->cfs[cpu], u, e->now, &before, &evicted);
	if (!x.cseen) {
		/* every policy starts from the kernel's state */
		for (p = 0; p < np; p++) {
			x.cp[p].contrib = (s64)u->contrib;
			x.cp[p].pub = before;
			x.gc[p].sum_contrib = add_w(x.gc[p].sum_contrib,
						    (s64)u->contrib);
		}
	} else if (evicted) {
		for (p = 0; p < np; p++)
			x.cp[p].pub = FL_SINCE_NEVER;
	}
	/* sum(load) after this record, and the kernel's sum(contrib) before */
	x.lold = x.cseen ? c->load : 0;
	x.sum_load = add_w(sub_w(g->sum_load, x.lold), x.load);
	x.sum_changed = r->rel && x.sum_load != g->sum_load;
	x.ksum = add_w(sub_w(g->sum_contrib, x.cseen ? c->contrib : 0),
		       (s64)u->contrib);
	x.tg_before = fa_tg_load_before(u);
	x.in.site = u->site;
	x.in.nr_cpus = u->nr_cpus;
	x.in.tg_load_avg = 0;
	x.in.since_ns = FL_SINCE_NEVER;
	if (!r->shapes_ok) {
		replay_range(r, &x, 0, np, RP_ANY);
		return 0;
	}
	replay_range(r, &x, r->range[RP_SCALED], r->range[RP_SCALED + 1], RP_SCALED);
	replay_range(r, &x, r->range[RP_ABOVE], r->range[RP_ABOVE + 1], RP_ABOVE);
	replay_range(r, &x, r->range[RP_GATED], r->range[RP_GATED + 1], RP_GATED);
	replay_range(r, &x, r->range[RP_BUDGET], r->range[RP_BUDGET + 1], RP_BUDGET);
	replay_range(r, &x, r->range[RP_ANY], r->range[RP_ANY + 1], RP_ANY);
	return 0;
}

int fa_replay_close(struct fa_replay *r, const struct fa_segment *s)
{
	struct fa_err seg;
	u32 p, i;

	/* as the engine merges its groups into the segment, then the total */
	memset(&seg, 0, sizeof(seg));
	seg.time_ns = s->err.time_ns;
	seg.rel_time_ns = r->rel ? s->err.rel_time_ns : 0;
	for (p = 0; p < r->npol; p++) {
		struct fa_replay_result *x = &r->res[r->order[p]];
		struct fa_segment *f = &x->fig;

		seg.abs_time = 0;
		seg.rel_time = 0;
		for (i = 0; i < r->ntg; i++) {
			struct rp_tg *t = &r->tg[i];

			if (!t->gp)
				continue;
			seg.abs_time += t->gp[p].abs_time;
			seg.rel_time += t->gc[p].rel_time;
			t->gp[p].abs_time = 0;
			t->gc[p].rel_time = 0;
		}
		fa_err_merge(&f->err, &seg);
		/* the spans went to the buckets only (fa_err_span_abs/rel()) */
		f->err.abs.total = fa_hist_sat_add(f->err.abs.total, s->err.time_ns);
		f->err.rel.total = fa_hist_sat_add(f->err.rel.total,
						   seg.rel_time_ns);
		if (!r->started)
			f->t_start = s->t_start;
		if (s->t_end > f->t_end)
			f->t_end = s->t_end;
		f->attempts = r->attempts;
		f->writes = r->pol[p].writes;
		f->switches = r->pol[p].switches;
		f->xnode = r->pol[p].xnode;
		f->xnode_unknown = r->pol[p].xnode_unknown;
		x->diverged = r->pol[p].diverged;
	}
	r->started = true;
	return 0;
}
