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

/* One task group under one policy. */
struct rp_gp {
	s64 err;		/* sum over seen cfs_rqs of (contrib - load) */
	s64 sum_contrib;	/* sum over seen cfs_rqs of contrib */
	struct fa_err_val val;	/* err as the statistics take it */
	double abs_time, rel_time;	/* integrals in the open segment (fa_err) */
	s32 last_writer;
};

struct rp_tg {
	u32 nr_cfs;
	struct rp_cfs *cfs;	/* [nr_cfs] */
	struct rp_cp *cp;	/* [nr_cfs][npol] */
	struct rp_gp *gp;	/* [npol] */
};

/* The counters of one policy, kept together (the results are large). */
struct rp_pol {
	struct fl_tg_rule rule;
	u64 writes, switches, xnode, xnode_unknown, diverged;
};

struct fa_replay {
	u32 npol;
	bool rel;		/* relative error too */
	struct rp_pol *pol;
	struct fa_replay_result *res;
	u32 rule_nr_cpus;	/* the rules are made for */
	bool rules_made;
	/* FA_REPLAY_RECORDED: the rule of the last record's own policy */
	struct fl_tg_policy rec_pol;
	u32 rec_nr_cpus;
	struct fl_tg_rule rec_rule;
	bool rec_made;
	u32 nrec, *rec;		/* indices of the "recorded" entries */

	u64 attempts;
	bool started;
	u32 ntg;
	struct rp_tg *tg;	/* indexed like the engine's group table */
};

struct fa_replay *fa_replay_new(const struct fl_tg_policy *pol, u32 n, bool rel)
{
	struct fa_replay *r = calloc(1, sizeof(*r));
	u32 i;

	if (!r)
		return NULL;
	r->npol = n;
	r->rel = rel;
	r->pol = calloc(n ? n : 1, sizeof(*r->pol));
	r->res = calloc(n ? n : 1, sizeof(*r->res));
	r->rec = calloc(n ? n : 1, sizeof(*r->rec));
	if (!r->pol || !r->res || !r->rec) {
		fa_replay_free(r);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		r->res[i].policy = pol[i];
		r->res[i].fig.index = -1;
		r->res[i].fig.tg_policy = pol[i];
		r->res[i].fig.tg_policy_known = pol[i].id != FA_REPLAY_RECORDED;
		if (pol[i].id == FA_REPLAY_RECORDED)
			r->rec[r->nrec++] = i;
	}
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
	}
	free(r->tg);
	free(r->pol);
	free(r->res);
	free(r->rec);
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
		if (!t->gp)
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

	for (p = 0; p < r->npol; p++)
		if (r->res[p].policy.id != FA_REPLAY_RECORDED)
			fl_tg_rule_make(&r->res[p].policy, nr_cpus, &r->pol[p].rule);
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
		    struct rp_gp *gp, u64 t)
{
	u64 dt;
	u32 p;

	if (!g->timed || t <= g->last_ts)
		return;
	dt = t - g->last_ts;
	for (p = 0; p < r->npol; p++)
		fa_err_span_buckets(&r->res[p].fig.err, &gp[p].abs_time,
				    &gp[p].rel_time, &gp[p].val, dt);
}

void fa_replay_advance(struct fa_replay *r, const struct fa_engine *e, u32 i,
		       u64 t)
{
	if (i < r->ntg && r->tg[i].gp)
		advance(r, &e->tgtab.tg[i], r->tg[i].gp, t);
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

static s64 add_w(s64 a, s64 b)
{
	return (s64)((u64)a + (u64)b);
}

static s64 sub_w(s64 a, s64 b)
{
	return (s64)((u64)a - (u64)b);
}

/* A write under policy @p executed on @cpu: the writer switch it is. */
static void count_switch(struct fa_replay *r, const struct fa_engine *e,
			 struct rp_pol *rp, struct rp_gp *q, s32 cpu)
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
	(void)r;
}

/* The rules of this record: made for its nr_cpus, "recorded" its own. */
static void set_rules(struct fa_replay *r, const struct fa_tg_update *u)
{
	const struct fl_tg_rule *rec;
	u32 p;

	if (!r->rules_made || r->rule_nr_cpus != u->nr_cpus)
		make_rules(r, u->nr_cpus);
	if (!r->nrec)
		return;
	rec = recorded_rule(r, u);
	for (p = 0; p < r->nrec; p++)
		r->pol[r->rec[p]].rule = *rec;
}

int fa_replay_tg_update(struct fa_replay *r, const struct fa_engine *e,
			u32 i, const struct fa_cfs *c, const struct fa_event *ev)
{
	const struct fa_tg_update *u = &ev->u.tg_update;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 cpu = (u32)u->cfs_cpu, p, np = r->npol;
	s64 load = (s64)u->load, lold, sum_load, ksum, tg_before;
	bool evicted, resync = u->site == FL_SITE_RESYNC, cseen = c->seen;
	bool sum_changed;
	struct fl_tg_input in;
	struct rp_cp *cp;
	struct rp_gp *gp;
	struct rp_tg *t;
	u64 ksc, before, dt;

	t = get_tg(r, i, cpu);
	if (!t)
		return -1;
	set_rules(r, u);
	r->attempts++;
	gp = t->gp;
	/* E of every policy held since the group's last record (advance()) */
	dt = g->timed && e->now > g->last_ts ? e->now - g->last_ts : 0;

	ksc = kernel_clock(&t->cfs[cpu], u, e->now, &before, &evicted);
	cp = &t->cp[(size_t)cpu * np];
	if (!cseen) {
		/* every policy starts from the kernel's state */
		for (p = 0; p < np; p++) {
			cp[p].contrib = (s64)u->contrib;
			cp[p].pub = before;
			gp[p].sum_contrib = add_w(gp[p].sum_contrib, (s64)u->contrib);
		}
	} else if (evicted) {
		for (p = 0; p < np; p++)
			cp[p].pub = FL_SINCE_NEVER;
	}
	/* sum(load) after this record, and the kernel's sum(contrib) before */
	lold = cseen ? c->load : 0;
	sum_load = add_w(sub_w(g->sum_load, lold), load);
	sum_changed = r->rel && sum_load != g->sum_load;
	ksum = add_w(sub_w(g->sum_contrib, cseen ? c->contrib : 0),
		     (s64)u->contrib);
	tg_before = fa_tg_load_before(u);

	in.site = u->site;
	in.nr_cpus = u->nr_cpus;
	in.tg_load_avg = 0;
	in.since_ns = FL_SINCE_NEVER;
	for (p = 0; p < np; p++) {
		struct rp_pol *rp = &r->pol[p];
		struct rp_cp *s = &cp[p];
		struct rp_gp *q = &gp[p];
		s64 rc = s->contrib, err;
		bool w;

		if (dt)
			fa_err_span_buckets(&r->res[p].fig.err, &q->abs_time,
					    &q->rel_time, &q->val, dt);
		in.delta = sub_w(load, rc);
		in.contrib = (u64)rc;
		if (fl_tg_rule_needs_tg_load(&rp->rule))
			in.tg_load_avg = add_w(tg_before, sub_w(q->sum_contrib, ksum));
		if (fl_tg_rule_needs_clock(&rp->rule))
			in.since_ns = s->pub == FL_SINCE_NEVER ? FL_SINCE_NEVER :
				      ksc > s->pub ? ksc - s->pub : 0;
		w = resync || fl_tg_rule_decide(&rp->rule, &in);
		rp->diverged += w != u->written;
		/* replace this cfs_rq's term (contrib - load) in E */
		err = cseen ? sub_w(q->err, sub_w(rc, lold)) : q->err;
		if (w) {
			q->sum_contrib = add_w(q->sum_contrib, in.delta);
			s->contrib = load;
			s->pub = ksc;
			rp->writes++;
			if (q->last_writer != ev->cpu)
				count_switch(r, e, rp, q, ev->cpu);
		} else {
			err = add_w(err, sub_w(rc, load));
		}
		if (err != q->err || sum_changed) {
			q->err = err;
			/* sum(load) 0: no relative error (fa_err_val()) */
			fa_err_val(&q->val, err, r->rel ? sum_load : 0);
			fa_err_point_val(&r->res[p].fig.err, &q->val);
		}
	}
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
		struct fa_segment *f = &r->res[p].fig;

		seg.abs_time = 0;
		seg.rel_time = 0;
		for (i = 0; i < r->ntg; i++) {
			struct rp_gp *q = r->tg[i].gp;

			if (!q)
				continue;
			seg.abs_time += q[p].abs_time;
			seg.rel_time += q[p].rel_time;
			q[p].abs_time = 0;
			q[p].rel_time = 0;
		}
		fa_err_merge(&f->err, &seg);
		/* the spans went to the buckets only (fa_err_span_buckets()) */
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
		r->res[p].diverged = r->pol[p].diverged;
	}
	r->started = true;
	return 0;
}
