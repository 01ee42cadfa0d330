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
#include <time.h>

#include "fa_engine_int.h"
#include "fa_forkjoin.h"
#include "fa_read.h"
#include "fa_replay.h"

/*
 * One cfs_rq: the kernel's clock as rebuilt from since_ns, and its last
 * read (common to every policy: its time and whether a shares error
 * holds since, as in the engine's struct fa_cfs).
 */
struct rp_cfs {
	u64 kpub;		/* sched_clock of the kernel's last publish, or never */
	s64 off;		/* that clock minus the trace clock, at the last record */
	u64 rd_ts;		/* the last read */
	bool seen;
	bool rd_seen;		/* a shares error holds since rd_ts */
};

/*
 * One cfs_rq under one policy: the shares error of its last read (held
 * until its next read), worked out at the read (fa_err_val()).
 */
struct rp_rd {
	double a, rel, b;	/* |given - ideal|, / ideal, / tg_shares */
	u32 ia, ir, ib;		/* their histogram buckets */
};

/*
 * One task group under one policy: the shares error's integrals in the
 * open segment (per group, summed as the engine does).
 */
struct rp_gs {
	double sh_abs_time, sh_rel_time, sh_bnd_time;
};

/* One cfs_rq under one policy. */
struct rp_cp {
	s64 contrib;		/* replayed tg_load_avg_contrib */
	u64 pub;		/* rebuilt sched_clock of the last publish, or never */
};

/*
 * One task group under one policy: what every record touches (40 bytes),
 * and what only the relative error and tg->load_avg (budget) need.
 *
 * The integral of |E| is summed per record, as the engine sums it (the
 * same roundings: the recorded policy's figures are the report's, bit
 * for bit), but the time E is held goes to its histogram buckets only
 * when E changes (rp_tg.clock - since): sums of durations are exact, so
 * the buckets are the same as with a bucket add per record, and most
 * records leave most policies' E unchanged.
 */
struct rp_gp {
	s64 err;		/* sum over seen cfs_rqs of (contrib - load) */
	double abs_time;	/* integral of |E| in the open segment (fa_err) */
	double a;		/* |E| (fa_err_val()) */
	u64 since;		/* rp_tg.clock when E (a, ia, rel, ir) took its value */
	u32 ia;			/* its histogram bucket */
	s32 last_writer;
	struct fa_coh_line line;	/* the modeled line (fa_coh.h): 64 bytes in all */
};

struct rp_gpc {
	s64 sum_contrib;	/* sum over seen cfs_rqs of contrib */
	double rel_time;	/* integral of |E|/sum(load) in the open segment */
	double rel;		/* |E|/sum(load) (fa_err_val()), when has_rel */
	u32 ir;			/* its histogram bucket */
	bool has_rel;
};

struct rp_tg {
	u64 clock;		/* the group's time observed: the sum of its spans */
	u32 nr_cfs;
	struct rp_cfs *cfs;	/* [nr_cfs] */
	struct rp_cp *cp;	/* [nr_cfs][npol] */
	struct rp_gp *gp;	/* [npol] */
	struct rp_gpc *gc;	/* [npol] */
	struct rp_gs *gs;	/* [npol] */
	struct rp_rd *rd;	/* [nr_cfs][npol], from the group's first read */
	u32 nr_rd;		/* cfs_rqs rd has room for */
};

/* The counters of one policy, kept together (the results are large). */
struct rp_pol {
	struct fl_tg_rule rule;
	u64 writes, switches, xnode, xnode_unknown;
	u64 both;		/* writes where the kernel wrote too */
	struct fa_err *err;	/* its result's error statistics */
	struct fa_err *sh;	/* ... and shares error statistics */
	u64 coh[FA_COH_NR];	/* modeled transfers per distance */
	u64 coh_by_read;
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

/*
 * The policies one thread replays: internal indices [lo, hi), with their
 * rules (each part makes its own, so that the parts share nothing they
 * write).
 */
struct rp_part {
	u32 lo, hi;
	u32 range[RP_NR + 1];	/* internal indices of each RP_*, within [lo, hi) */
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
	u32 stock_gate;	/* per part: each makes its own rules */
	bool nomem;	/* a modeled line's sharers could not grow */
	/* its policies' switches of unknown distance (id: internal index) */
	struct fa_pending pend;
};

/* What every policy's decision on one record shares (set by the engine's thread). */
struct rp_rec {
	u32 tg, cfs;		/* group index, cfs_rq's CPU */
	u32 policy, arg;	/* the record's own (FA_REPLAY_RECORDED) */
	struct fl_tg_input in;	/* site and nr_cpus set */
	s64 load;
	s64 contrib;		/* recorded contrib before */
	/*
	 * What E's term of the cfs_rq, (contrib - lold), is replaced with
	 * adds up to E + lold_w - (written ? contrib before : load): with
	 * lold_w = lold, the load last observed, or, at the cfs_rq's first
	 * record (no term yet), the recorded contrib, every policy's then.
	 */
	s64 lold_w;
	s64 sum_load;		/* the group's sum(load) after the record */
	s64 tg_ksum;		/* recorded tg->load_avg - the kernel's sum(contrib), before */
	u64 ksc;		/* rebuilt sched_clock */
	u64 before;		/* the kernel's last publish before, at a first record */
	u64 clock;		/* rp_tg.clock after E's span before the record */
	double dtd;		/* that span */
	s32 cpu;		/* executing CPU */
	int node;		/* its node, -1 unknown */
	/* resync: a site that makes no decision (FL_SITE_NO_DECISION) */
	bool cseen, evicted, resync, written, sum_changed, spans;
	/*
	 * A tg_read record instead (is_read): what every policy's shares
	 * error and line read share (replay_read()).  The policy's own
	 * tg->load_avg is the recorded one plus its E minus the kernel's
	 * (the cfs_rqs' contribs are all the two sums differ by); its
	 * cfs_rq's contrib the recorded one plus its own minus the
	 * kernel's (contrib, above, when cseen).
	 */
	bool is_read;
	bool rd_timed;		/* the group has a tracked sum(load) */
	s64 rd_tla;		/* the value read */
	s64 rd_contrib, rd_load, rd_tg_shares, rd_shares;	/* as recorded */
	s64 rd_ideal;		/* shares with tg->load_avg = sum(load) */
	s64 rd_kerr;		/* the kernel's E */
	u64 rd_dt;		/* the span of the cfs_rq's last read error (0: none) */
};

/*
 * Records gathered for the helper thread's part: both parts replay a
 * batch at once (fa_replay_flush()), in record order each.
 */
#define RP_BATCH 2048

struct fa_replay {
	u32 npol;
	bool rel;		/* relative error too (FA_REPLAY_REL) */
	bool sh_abs;		/* absolute shares error too (FA_REPLAY_SHARES_ABS) */
	struct rp_pol *pol;	/* internal order */
	u32 *order;		/* internal index -> result index */
	u32 range[RP_NR + 1];	/* internal indices of each RP_* */
	struct fa_replay_result *res;
	const struct fa_engine *e;	/* nodes of CPUs (fa_switch_from()) */
	u32 *pend_held;		/* [npol]: both parts' pending entries per policy */
	/*
	 * part[0] on the engine's thread; with a helper thread (fj), part[1]
	 * on it, the records batched: the engine fills batch[0 .. nbatch)
	 * while the helper replays the previous batch (hb[0 .. hn)), two
	 * buffers in turn (handoff()).  While the helper runs (busy), the
	 * engine's thread touches no state of part[1] and moves no array the
	 * helper reads (quiesce() first).
	 */
	struct rp_part part[2];
	struct fa_fj *fj;
	struct rp_rec *buf;	/* [2 * RP_BATCH] */
	struct rp_rec *batch, *hb;
	u32 nbatch, hn;
	bool busy;
	bool nomem1;		/* part[1].nomem, read when the helper was idle */
	u64 mark;		/* the engine thread's CPU time at the last handoff */
	/*
	 * The split between the parts follows their work (rebalance()):
	 * policies differ in cost (a shape's loop, writes, "recorded" on the
	 * generic loop), so an even split by count is not an even split of
	 * the work.  CPU times, ns.
	 */
	u64 helper_ns;		/* the helper's part of the last batch */
	u64 own_avg, other_avg;	/* per batch, averaged (rebalance()) */

	u64 attempts;
	u64 rec_writes;		/* attempts the kernel wrote (resyncs too) */
	u64 reads, read_untracked;	/* as the engine counts them */
	bool started;
	u32 ntg;
	struct rp_tg *tg;	/* indexed like the engine's group table */
};

/* RP_* of a policy: its rule's shape (for 1 CPU; make_rules() checks others). */
static u32 range_of(const struct fl_tg_policy *p)
{
	struct fl_tg_rule rule;
	u32 g;

	/*
	 * stock's shape is its kernel's: with a rate-limit gate (6.7 and
	 * later) another than without; only the recording tells
	 * (rp_part.stock_gate).  In a range of its own shape, it would send
	 * every policy to the generic loop on one kernel or the other
	 * (rp_part.shapes_ok).
	 */
	if (p->id == FA_REPLAY_RECORDED || p->id == FL_TG_STOCK)
		return RP_ANY;
	fl_tg_rule_make(p, 1, &rule);
	for (g = 0; g < RP_ANY && range_shape[g] != rule.shape; g++)
		;
	return g;	/* RP_ANY for a shape not listed */
}

static void helper_job(void *arg);
static void quiesce(struct fa_replay *r);

/* Part @pt: internal indices [lo, hi). */
static void set_part(struct fa_replay *r, struct rp_part *pt, u32 lo, u32 hi)
{
	u32 g;

	pt->lo = lo;
	pt->hi = hi;
	for (g = 0; g <= RP_NR; g++)
		pt->range[g] = r->range[g] < lo ? lo : r->range[g] > hi ? hi :
			       r->range[g];
}

struct fa_replay *fa_replay_new(const struct fl_tg_policy *pol, u32 n,
				unsigned int flags)
{
	struct fa_replay *r = calloc(1, sizeof(*r));
	u32 i, k = 0, g;

	if (!r)
		return NULL;
	r->npol = n;
	r->rel = flags & FA_REPLAY_REL;
	r->sh_abs = flags & FA_REPLAY_SHARES_ABS;
	r->pol = calloc(n ? n : 1, sizeof(*r->pol));
	r->res = calloc(n ? n : 1, sizeof(*r->res));
	r->order = calloc(n ? n : 1, sizeof(*r->order));
	r->pend_held = calloc(n ? n : 1, sizeof(*r->pend_held));
	if (!r->pol || !r->res || !r->order || !r->pend_held) {
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
			r->pol[k].sh = &r->res[i].fig.shares;
			k++;
		}
	}
	r->range[RP_NR] = k;
	/* two halves on two threads, when a helper thread starts */
	if (n >= 2) {
		r->buf = malloc(2 * RP_BATCH * sizeof(*r->buf));
		r->batch = r->buf;
		if (r->buf)
			r->fj = fa_fj_start(helper_job, r);
	}
	if (r->fj) {
		set_part(r, &r->part[0], 0, n / 2);
		set_part(r, &r->part[1], n / 2, n);
	} else {
		set_part(r, &r->part[0], 0, n);
	}
	r->part[0].pend.held = r->pend_held;
	r->part[1].pend.held = r->pend_held;
	return r;
}

void fa_replay_free(struct fa_replay *r)
{
	u32 i;

	if (!r)
		return;
	fa_fj_stop(r->fj);
	free(r->buf);
	free(r->part[0].pend.v);
	free(r->part[1].pend.v);
	free(r->pend_held);
	for (i = 0; i < r->ntg; i++) {
		u32 p;

		free(r->tg[i].cfs);
		free(r->tg[i].cp);
		for (p = 0; r->tg[i].gp && p < r->npol; p++)
			fa_coh_free(&r->tg[i].gp[p].line);
		free(r->tg[i].gp);
		free(r->tg[i].gc);
		free(r->tg[i].gs);
		free(r->tg[i].rd);
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
		quiesce(r);	/* the helper reads the groups */
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
		t->gs = calloc(r->npol ? r->npol : 1, sizeof(*t->gs));
		if (!t->gp || !t->gc || !t->gs)
			return NULL;
		for (p = 0; p < r->npol; p++) {
			t->gp[p].last_writer = -1;
			fa_coh_init(&t->gp[p].line);
		}
	}
	if (cpu >= t->nr_cfs) {
		struct rp_cfs *c;
		struct rp_cp *cp;

		quiesce(r);	/* ... and their cfs_rqs' slots */
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

/* Group @t's read slots, for every cfs_rq slot it has (zeroed: no error yet). */
static int get_rd(struct fa_replay *r, struct rp_tg *t)
{
	struct rp_rd *rd;

	if (t->nr_rd == t->nr_cfs)
		return 0;
	quiesce(r);	/* the helper reads the read slots */
	rd = realloc(t->rd, (size_t)t->nr_cfs * (r->npol ? r->npol : 1) * sizeof(*rd));
	if (!rd)
		return -1;
	memset(rd + (size_t)t->nr_rd * r->npol, 0,
	       (size_t)(t->nr_cfs - t->nr_rd) * r->npol * sizeof(*rd));
	t->rd = rd;
	t->nr_rd = t->nr_cfs;
	return 0;
}

static void make_rules(struct fa_replay *r, struct rp_part *pt, u32 nr_cpus)
{
	/* a listed stock: with the recording's gate (rp_part.stock_gate) */
	const struct fl_tg_policy gated = { FL_TG_STOCK, pt->stock_gate };
	u32 p, g;

	pt->shapes_ok = true;
	for (g = 0; g < RP_NR; g++) {
		for (p = pt->range[g]; p < pt->range[g + 1]; p++) {
			const struct fl_tg_policy *pol = &r->res[r->order[p]].policy;

			if (pol->id == FA_REPLAY_RECORDED)
				continue;	/* set_rules() */
			fl_tg_rule_make(pol->id == FL_TG_STOCK ? &gated : pol, nr_cpus,
					&r->pol[p].rule);
			/* a shape that depended on more than the policy */
			if (g < RP_ANY && r->pol[p].rule.shape != range_shape[g])
				pt->shapes_ok = false;
		}
	}
	pt->rule_nr_cpus = nr_cpus;
	pt->rules_made = true;
}

/* The rule of the record's own policy (for FA_REPLAY_RECORDED). */
static const struct fl_tg_rule *recorded_rule(struct rp_part *pt,
					      const struct rp_rec *x)
{
	if (!pt->rec_made || pt->rec_pol.id != x->policy ||
	    pt->rec_pol.arg != x->arg || pt->rec_nr_cpus != x->in.nr_cpus) {
		pt->rec_pol.id = x->policy;
		pt->rec_pol.arg = x->arg;
		pt->rec_nr_cpus = x->in.nr_cpus;
		fl_tg_rule_make(&pt->rec_pol, x->in.nr_cpus, &pt->rec_rule);
		pt->rec_made = true;
	}
	return &pt->rec_rule;
}

/*
 * The time policy @e's E, (@q, @qc), has held its value, up to @clock,
 * into its histogram buckets (rp_gp); what fa_err_span() does but the
 * integral and the total.
 */
static __attribute__((always_inline)) inline void
hold(struct fa_err *e, struct rp_gp *q, const struct rp_gpc *qc, u64 clock,
     const bool rel)
{
	u64 held = clock - q->since;

	if (held) {
		fa_hist_add_bucket(&e->abs, q->ia, held);
		if (rel && qc->has_rel)
			fa_hist_add_bucket(&e->rel, qc->ir, held);
		q->since = clock;
	}
}

/* Group @i's errors under every policy held from its last record to @t. */
static void advance(struct fa_replay *r, const struct fa_tg *g,
		    struct rp_tg *t, u64 t_end)
{
	double dtd;
	u64 dt;
	u32 p;

	dt = g->timed && t_end > g->last_ts ? t_end - g->last_ts : 0;
	dtd = (double)dt;
	t->clock += dt;
	for (p = 0; p < r->npol; p++) {
		if (dt) {
			t->gp[p].abs_time += t->gp[p].a * dtd;
			if (r->rel && t->gc[p].has_rel)
				t->gc[p].rel_time += t->gc[p].rel * dtd;
		}
		/* the buckets complete when the results are read */
		hold(r->pol[p].err, &t->gp[p], &t->gc[p], t->clock, r->rel);
	}
}

/* Group @t's read errors under every policy held up to @t_end (fa_read_advance()). */
static void advance_reads(struct fa_replay *r, struct rp_tg *t, u64 t_end)
{
	u32 k, p;

	for (k = 0; k < t->nr_rd; k++) {
		struct rp_cfs *c = &t->cfs[k];
		struct rp_rd *rd = &t->rd[(size_t)k * r->npol];
		u64 dt;

		if (!c->rd_seen || t_end <= c->rd_ts)
			continue;
		dt = t_end - c->rd_ts;
		for (p = 0; p < r->npol; p++) {
			fa_err_span_abs(r->pol[p].sh, &t->gs[p].sh_abs_time, rd[p].a,
					rd[p].ia, dt, (double)dt);
			fa_err_span_rel(r->pol[p].sh, &t->gs[p].sh_rel_time, rd[p].rel,
					rd[p].ir, dt, (double)dt);
			fa_err_span_bnd(r->pol[p].sh, &t->gs[p].sh_bnd_time, rd[p].b,
					rd[p].ib, dt, (double)dt);
		}
		c->rd_ts = t_end;
	}
}

void fa_replay_advance(struct fa_replay *r, const struct fa_engine *e, u32 i,
		       u64 t)
{
	fa_replay_flush(r);
	if (i < r->ntg && r->tg[i].gp) {
		advance_reads(r, &r->tg[i], t);
		advance(r, &e->tgtab.tg[i], &r->tg[i], t);
	}
}

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

/*
 * A write under policy @p (@rp) on CPU @to, on node @n_to, another CPU
 * than its last writer @from (< 0: none): the writer switch it is
 * (fa_writer_switch()); one of unknown distance is kept for
 * fa_replay_switch_resolve(), as the engine keeps its own.
 */
static inline void count_switch(const struct fa_engine *e, struct rp_part *pt,
				struct rp_pol *rp, u32 p, s32 from, s32 to,
				int n_to)
{
	if (from < 0)
		return;
	switch (fa_switch_from(e, from, n_to)) {
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
		fa_pending_add(&pt->pend, e, p, p, from, to);
		break;
	}
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

/* The rules of this record: made for its nr_cpus, "recorded" its own. */
static void set_rules(struct fa_replay *r, struct rp_part *pt,
		      const struct rp_rec *x)
{
	const struct fl_tg_rule *rec;
	u32 p;

	if (x->policy == FL_TG_STOCK && x->arg != pt->stock_gate) {
		pt->stock_gate = x->arg;
		pt->rules_made = false;
	}
	if (!pt->rules_made || pt->rule_nr_cpus != x->in.nr_cpus)
		make_rules(r, pt, x->in.nr_cpus);
	if (pt->range[RP_ANY] == pt->hi)
		return;
	rec = recorded_rule(pt, x);
	for (p = pt->range[RP_ANY]; p < pt->hi; p++)
		if (r->res[r->order[p]].policy.id == FA_REPLAY_RECORDED)
			r->pol[p].rule = *rec;
}


/*
 * A read or write by @cpu of policy @p's (@rp) line @l (fa_coh_access());
 * one of unknown distance is kept for fa_replay_switch_resolve(), as the
 * engine keeps its own.
 */
static __attribute__((always_inline)) inline void
coh(const struct fa_replay *r, struct rp_part *pt, struct rp_pol *rp, u32 p,
    struct fa_coh_line *l, const struct fa_coh_topo *topo,
    const struct fa_coh_cpu *c, bool write)
{
	enum fa_coh_dist d = FA_COH_UNKNOWN;
	struct fa_coh_src src;
	int k = fa_coh_access_by(l, topo, c, write, &d, &src);

	if (k < 0) {
		pt->nomem = true;
	} else if (k) {
		if (d == FA_COH_UNKNOWN)
			fa_pending_add_transfer(&pt->pend, r->e, p, p, c->cpu, &src);
		rp->coh[d]++;
		rp->coh_by_read += !write;
	}
}

/*
 * Policies [lo, hi) of one RP_* @range on one record: the span of E held
 * until now, the decision (module/policy/'s fl_tg_rule_decide(), its
 * shape a constant here but for RP_ANY), the write, the new E.  @range,
 * @spans (x->spans) and @rel (r->rel) are constants in each copy
 * (replay_all()): their tests fold away instead of running per policy.
 */
static __attribute__((always_inline)) inline void
replay_range(struct fa_replay *r, struct rp_part *pt, const struct rp_rec *x,
	     struct rp_cp *cp,
	     struct rp_tg *t, u32 lo, u32 hi, const u32 range,
	     const bool spans, const bool rel)
{
	/*
	 * The record's values in locals: the stores below go through
	 * pointers the compiler cannot tell apart from *x and *r, and would
	 * make it load these again for every policy.
	 */
	const s64 load = x->load, lold_w = x->lold_w, sum_load = x->sum_load;
	const s64 tg_ksum = x->tg_ksum;
	const u64 ksc = x->ksc, clock = x->clock;
	const double dtd = x->dtd;
	const bool resync = x->resync, written = x->written;
	const bool changed_load = rel && x->sum_changed;
	const s32 cpu = x->cpu;
	const int node = x->node;
	struct rp_pol *pol = r->pol;
	struct rp_gp *gp = t->gp;
	struct rp_gpc *gc = t->gc;
	const struct fa_coh_topo topo = { r->e->node, r->e->llc, r->e->nr_node,
					  r->e->cfg.coh_miss };
	const struct fa_coh_cpu who = fa_coh_cpu(&topo, x->cpu);
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
		if (spans) {
			q->abs_time += q->a * dtd;
			if (rel && qc->has_rel)
				qc->rel_time += qc->rel * dtd;
		}
		in.delta = sub_w(load, rc);
		in.contrib = (u64)rc;
		if (reads_tg_load) {
			in.tg_load_avg = add_w(tg_ksum, qc->sum_contrib);
			/* the policy's own read, before it decides (fa_policy_reads_line()) */
			if (!resync)
				coh(r, pt, rp, p, &q->line, &topo, &who, false);
		}
		if (range == RP_GATED ||
		    (range == RP_ANY && fl_tg_rule_needs_clock(&rule)))
			in.since_ns = s->pub == FL_SINCE_NEVER ? FL_SINCE_NEVER :
				      ksc > s->pub ? ksc - s->pub : 0;
		w = resync || fl_tg_rule_decide(&rule, &in);
		/*
		 * This cfs_rq's term (contrib - load) in E replaced: E +
		 * lold_w - (w ? rc : load) (rp_rec.lold_w).
		 */
		err = add_w(q->err, sub_w(lold_w, w ? rc : load));
		if (w) {
			rp->both += written;
			/* only what reads tg->load_avg needs the sum */
			if (range == RP_BUDGET || range == RP_ANY)
				qc->sum_contrib = add_w(qc->sum_contrib, in.delta);
			s->contrib = load;
			s->pub = ksc;
			rp->writes++;
			if (q->last_writer != cpu) {
				count_switch(r->e, pt, rp, p, q->last_writer, cpu, node);
				q->last_writer = cpu;
			}
			coh(r, pt, rp, p, &q->line, &topo, &who, true);
		}
		if (err != q->err || changed_load) {
			struct fa_err_val v;

			hold(rp->err, q, qc, clock, rel);
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

/* Every policy of part @pt on one record, range by range (replay_range()). */
static __attribute__((always_inline)) inline void
replay_all(struct fa_replay *r, struct rp_part *pt, const struct rp_rec *x,
	   struct rp_cp *cp, struct rp_tg *t, const bool spans, const bool rel)
{
	const u32 *g = pt->range;

	if (!pt->shapes_ok) {
		replay_range(r, pt, x, cp, t, pt->lo, pt->hi, RP_ANY, spans, rel);
		return;
	}
	replay_range(r, pt, x, cp, t, g[RP_SCALED], g[RP_SCALED + 1], RP_SCALED, spans, rel);
	replay_range(r, pt, x, cp, t, g[RP_ABOVE], g[RP_ABOVE + 1], RP_ABOVE, spans, rel);
	replay_range(r, pt, x, cp, t, g[RP_GATED], g[RP_GATED + 1], RP_GATED, spans, rel);
	replay_range(r, pt, x, cp, t, g[RP_BUDGET], g[RP_BUDGET + 1], RP_BUDGET, spans, rel);
	replay_range(r, pt, x, cp, t, g[RP_ANY], g[RP_ANY + 1], RP_ANY, spans, rel);
}

/*
 * A tg_read record under the policies of part @pt: the read of each
 * policy's line, the shares error its previous read of this cfs_rq left
 * held until now (fa_err_span()'s, split as for E), and the shares this
 * read gives under the policy, from fa_calc_group_shares() of its own
 * tg->load_avg and contrib (rp_rec), against the ideal (fa_read.h; the
 * same for every policy).  Where a policy's state is the kernel's, the
 * recorded shares are its: a replay as recorded gives the report's
 * figures exactly.
 */
static __attribute__((always_inline)) inline void
replay_read_all(struct fa_replay *r, struct rp_part *pt, const struct rp_rec *x,
		const bool spans, const bool cseen, const bool timed,
		const bool abs)
{
	struct rp_tg *t = &r->tg[x->tg];
	struct rp_rd *rd = &t->rd[(size_t)x->cfs * r->npol];
	const struct rp_cp *cp = &t->cp[(size_t)x->cfs * r->npol];
	struct rp_gp *gp = t->gp;
	struct rp_gs *gs = t->gs;
	struct rp_pol *pol = r->pol;
	const s64 tla = x->rd_tla, kerr = x->rd_kerr, ideal = x->rd_ideal;
	const s64 rcon = x->rd_contrib, kcon = x->contrib;
	const s64 load = x->rd_load, tg_shares = x->rd_tg_shares;
	const s64 shares = x->rd_shares;
	const u64 dt = x->rd_dt;
	const double dtd = x->dtd;
	const s32 cpu = x->cpu;
	const struct fa_coh_topo topo = { r->e->node, r->e->llc, r->e->nr_node,
					  r->e->cfg.coh_miss };
	const struct fa_coh_cpu who = fa_coh_cpu(&topo, cpu);
	/*
	 * The shares depend on a policy's state only through its
	 * tg->load_avg - contrib, i.e. its E - contrib: policies that agree
	 * on it (often those that publish every change) share the last one
	 * worked out, the recording's own to begin with.
	 */
	s64 last_x = sub_w(kerr, kcon);
	struct fa_err_val v;
	u32 p;

	/* an untimed group has no ideal (nor a checked tg_shares) */
	if (timed)
		fa_shares_val(&v, sub_w(shares, ideal), ideal, tg_shares);
	for (p = pt->lo; p < pt->hi; p++) {
		struct rp_pol *rp = &pol[p];
		struct rp_rd *q = &rd[p];
		struct rp_gs *g = &gs[p];
		s64 ptla, pcon, given, xp;

		coh(r, pt, rp, p, &gp[p].line, &topo, &who, false);
		if (spans) {
			/* ideal >= FA_MIN_SHARES: a relative error always */
			if (abs)
				fa_err_span_abs(rp->sh, &g->sh_abs_time, q->a,
						q->ia, dt, dtd);
			fa_err_span_rel(rp->sh, &g->sh_rel_time, q->rel, q->ir, dt, dtd);
			fa_err_span_bnd(rp->sh, &g->sh_bnd_time, q->b, q->ib, dt, dtd);
		}
		if (!timed)
			continue;
		/* its E - contrib: the kernel's when the cfs_rq is not seen yet */
		xp = cseen ? sub_w(gp[p].err, cp[p].contrib) : sub_w(gp[p].err, kcon);
		if (xp != last_x) {
			last_x = xp;
			ptla = add_w(tla, sub_w(gp[p].err, kerr));
			pcon = cseen ? add_w(rcon, sub_w(cp[p].contrib, kcon)) : rcon;
			given = fa_calc_group_shares(ptla, pcon, load, tg_shares);
			if (abs) {
				fa_shares_val(&v, sub_w(given, ideal), ideal,
					      tg_shares);
			} else {
				/* ideal >= FA_MIN_SHARES > 0, tg_shares too */
				double a = (double)abs_w(sub_w(given, ideal));

				fa_err_val_rel(&v, a, ideal);
				fa_err_val_bnd(&v, a, tg_shares);
			}
		}
		if (abs) {
			fa_err_point_val(rp->sh, &v);
			q->a = v.a;
			q->ia = v.ia;
		} else {
			fa_err_point_rel(rp->sh, v.rel);
			fa_err_point_bnd(rp->sh, v.bnd);
		}
		q->rel = v.rel;
		q->ir = v.ir;
		q->b = v.bnd;
		q->ib = v.ib;
	}
}

/*
 * replay_read_all() with whether a span ends here, whether the cfs_rq was
 * seen, whether the group is timed and whether the absolute shares error
 * is kept as constants in each copy: their tests fold away instead of
 * running per policy.
 */
static __attribute__((always_inline)) inline void
replay_read_abs(struct fa_replay *r, struct rp_part *pt, const struct rp_rec *x,
		const bool abs)
{
	if (!x->rd_timed)
		x->rd_dt ? replay_read_all(r, pt, x, true, false, false, abs) :
			   replay_read_all(r, pt, x, false, false, false, abs);
	else if (x->cseen)
		x->rd_dt ? replay_read_all(r, pt, x, true, true, true, abs) :
			   replay_read_all(r, pt, x, false, true, true, abs);
	else
		x->rd_dt ? replay_read_all(r, pt, x, true, false, true, abs) :
			   replay_read_all(r, pt, x, false, false, true, abs);
}

static void replay_read(struct fa_replay *r, struct rp_part *pt,
			const struct rp_rec *x)
{
	if (r->sh_abs)
		replay_read_abs(r, pt, x, true);
	else
		replay_read_abs(r, pt, x, false);
}

/* One record under the policies of part @pt. */
static void replay_rec(struct fa_replay *r, struct rp_part *pt,
		       const struct rp_rec *x)
{
	struct rp_tg *t = &r->tg[x->tg];
	struct rp_cp *cp = &t->cp[(size_t)x->cfs * r->npol];
	u32 p;

	if (x->is_read) {
		replay_read(r, pt, x);
		return;
	}
	set_rules(r, pt, x);
	if (!x->cseen) {
		/* every policy starts from the kernel's state */
		for (p = pt->lo; p < pt->hi; p++) {
			cp[p].contrib = x->contrib;
			cp[p].pub = x->before;
			t->gc[p].sum_contrib = add_w(t->gc[p].sum_contrib,
						     x->contrib);
		}
	} else if (x->evicted) {
		for (p = pt->lo; p < pt->hi; p++)
			cp[p].pub = FL_SINCE_NEVER;
	}
	if (x->spans)
		r->rel ? replay_all(r, pt, x, cp, t, true, true) :
			 replay_all(r, pt, x, cp, t, true, false);
	else
		r->rel ? replay_all(r, pt, x, cp, t, false, true) :
			 replay_all(r, pt, x, cp, t, false, false);
}

/* Records @b[0 .. @n) under part @pt's policies. */
static void replay_batch(struct fa_replay *r, struct rp_part *pt,
			 const struct rp_rec *b, u32 n)
{
	u32 k;

	for (k = 0; k < n; k++)
		replay_rec(r, pt, &b[k]);
}

/* The calling thread's CPU time, ns (0 where the clock is missing). */
static u64 thread_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

static void helper_job(void *arg)
{
	struct fa_replay *r = arg;
	u64 t0 = thread_ns();

	replay_batch(r, &r->part[1], r->hb, r->hn);
	r->helper_ns = thread_ns() - t0;
}

/* The helper's batch done: its state is the engine thread's to touch. */
static void quiesce(struct fa_replay *r)
{
	if (!r->busy)
		return;
	fa_fj_wait(r->fj);
	r->busy = false;
	r->nomem1 |= r->part[1].nomem;
}

/*
 * At a full batch's handoff: the engine thread's work since the last one
 * (its part of the previous batch, then the engine's on this one while
 * the helper replayed the previous batch) against the helper's part of
 * that batch, each averaged over the last batches (weight 1/8: one
 * batch's work depends on its groups and records).  The busier side
 * hands one policy to the other when it did over 1/16 more: each part
 * then makes its rules again at its next record.  Which thread replays a
 * policy changes no figure: its state is its own.
 */
static void rebalance(struct fa_replay *r, u64 own_ns, u64 other_ns)
{
	u32 mid = r->part[0].hi;
	u64 own, other;

	if (!r->own_avg) {
		r->own_avg = own_ns;
		r->other_avg = other_ns;
	}
	r->own_avg += own_ns / 8 - r->own_avg / 8;
	r->other_avg += other_ns / 8 - r->other_avg / 8;
	own = r->own_avg;
	other = r->other_avg;
	if (own > other + other / 16 && mid > 1)
		mid--;
	else if (other > own + own / 16 && mid + 1 < r->npol)
		mid++;
	else
		return;
	set_part(r, &r->part[0], 0, mid);
	set_part(r, &r->part[1], mid, r->npol);
	r->part[0].rules_made = false;
	r->part[1].rules_made = false;
}

/*
 * The filled batch to both parts: the helper's part on it starts, the
 * engine thread's runs now, and the engine fills the other buffer while
 * the helper goes on (@sync: or waits for it).  Called with the helper's
 * previous batch perhaps still running: it finishes first.
 */
static void handoff(struct fa_replay *r, bool sync)
{
	u32 n = r->nbatch;
	u64 t0;

	if (!n) {
		if (sync)
			quiesce(r);
		return;
	}
	t0 = thread_ns();
	quiesce(r);
	if (n == RP_BATCH && r->mark && t0)
		rebalance(r, t0 - r->mark, r->helper_ns);
	r->mark = t0;
	r->hb = r->batch;
	r->hn = n;
	r->busy = true;
	fa_fj_run(r->fj);
	replay_batch(r, &r->part[0], r->hb, n);
	r->batch = r->batch == r->buf ? r->buf + RP_BATCH : r->buf;
	r->nbatch = 0;
	if (sync)
		quiesce(r);
}

void fa_replay_flush(struct fa_replay *r)
{
	handoff(r, true);
}

/* The engine records come from (its CPUs' nodes): the helper reads it. */
static void set_engine(struct fa_replay *r, const struct fa_engine *e)
{
	if (r->e != e) {
		quiesce(r);
		r->e = e;
	}
}

/* Record @x, set up, replayed now or batched for both parts. */
static int push(struct fa_replay *r, struct rp_rec *x)
{
	if (!r->fj)
		replay_rec(r, &r->part[0], x);
	else if (++r->nbatch == RP_BATCH)
		handoff(r, false);
	return r->part[0].nomem || r->nomem1 ? -1 : 0;
}

int fa_replay_tg_update(struct fa_replay *r, const struct fa_engine *e,
			u32 i, const struct fa_cfs *c, const struct fa_event *ev)
{
	const struct fa_tg_update *u = &ev->u.tg_update;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 cpu = (u32)u->cfs_cpu;
	struct rp_rec one, *x = r->fj ? &r->batch[r->nbatch] : &one;
	struct rp_tg *t;
	s64 lold;
	u64 dt;

	/* slots are made here, while no part is being replayed */
	t = get_tg(r, i, cpu);
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
	x->load = (s64)u->load;
	x->contrib = (s64)u->contrib;
	x->cseen = c->seen;
	x->resync = FL_SITE_NO_DECISION(u->site);
	x->written = u->written;
	x->cpu = ev->cpu;
	x->node = fa_cpu_node(e, ev->cpu);
	/* E of every policy held since the group's last record (advance()) */
	dt = g->timed && e->now > g->last_ts ? e->now - g->last_ts : 0;
	x->spans = dt != 0;
	x->dtd = (double)dt;
	t->clock += dt;
	x->clock = t->clock;
	x->ksc = kernel_clock(&t->cfs[cpu], u, e->now, &x->before, &x->evicted);
	/* sum(load) after this record, and the kernel's sum(contrib) before */
	lold = x->cseen ? c->load : 0;
	x->lold_w = x->cseen ? c->load : (s64)u->contrib;
	x->sum_load = add_w(sub_w(g->sum_load, lold), x->load);
	x->sum_changed = r->rel && x->sum_load != g->sum_load;
	x->tg_ksum = sub_w(fa_tg_load_before(u),
			   add_w(sub_w(g->sum_contrib, x->cseen ? c->contrib : 0),
				 (s64)u->contrib));
	x->in.site = u->site;
	x->in.nr_cpus = u->nr_cpus;
	x->in.tg_load_avg = 0;
	x->in.since_ns = FL_SINCE_NEVER;
	return push(r, x);
}

int fa_replay_tg_read(struct fa_replay *r, const struct fa_engine *e, u32 i,
		      const struct fa_cfs *c, const struct fa_event *ev,
		      bool good)
{
	const struct fa_tg_read *rd = &ev->u.tg_read;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 cpu = (u32)rd->cfs_cpu;
	struct rp_rec one, *x = r->fj ? &r->batch[r->nbatch] : &one;
	struct rp_cfs *kc;
	struct rp_tg *t;

	t = get_tg(r, i, cpu);
	if (!t || get_rd(r, t))
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
		return push(r, x);
	/* the engine's read_span() and rd_* of this cfs_rq (fa_read.c) */
	x->rd_dt = kc->rd_seen && e->now > kc->rd_ts ? e->now - kc->rd_ts : 0;
	x->dtd = (double)x->rd_dt;
	kc->rd_ts = e->now;
	kc->rd_seen = g->timed;
	if (!g->timed)
		r->read_untracked++;
	return push(r, x);
}

int fa_replay_close(struct fa_replay *r, const struct fa_segment *s)
{
	struct fa_err seg, sh;
	u32 p, i;

	fa_replay_flush(r);
	if (r->part[0].nomem || r->nomem1)
		return -1;
	memset(&sh, 0, sizeof(sh));
	sh.time_ns = s->shares.time_ns;
	sh.rel_time_ns = s->shares.rel_time_ns;
	/* as the engine merges its groups into the segment, then the total */
	memset(&seg, 0, sizeof(seg));
	seg.time_ns = s->err.time_ns;
	seg.rel_time_ns = r->rel ? s->err.rel_time_ns : 0;
	for (p = 0; p < r->npol; p++) {
		struct fa_replay_result *x = &r->res[r->order[p]];
		struct fa_segment *f = &x->fig;

		seg.abs_time = 0;
		seg.rel_time = 0;
		sh.abs_time = 0;
		sh.rel_time = 0;
		sh.bnd_time = 0;
		for (i = 0; i < r->ntg; i++) {
			struct rp_tg *t = &r->tg[i];

			if (!t->gp)
				continue;
			seg.abs_time += t->gp[p].abs_time;
			seg.rel_time += t->gc[p].rel_time;
			sh.abs_time += t->gs[p].sh_abs_time;
			sh.rel_time += t->gs[p].sh_rel_time;
			sh.bnd_time += t->gs[p].sh_bnd_time;
			t->gp[p].abs_time = 0;
			t->gc[p].rel_time = 0;
			t->gs[p].sh_abs_time = 0;
			t->gs[p].sh_rel_time = 0;
			t->gs[p].sh_bnd_time = 0;
		}
		fa_err_merge(&f->err, &seg);
		/* the shares error as the engine merges it (fa_read.c) */
		fa_err_merge(&f->shares, &sh);
		f->shares.abs.total = fa_hist_sat_add(f->shares.abs.total,
						      s->shares.abs.total);
		f->shares.rel.total = fa_hist_sat_add(f->shares.rel.total,
						      s->shares.rel.total);
		f->shares.bnd.total = fa_hist_sat_add(f->shares.bnd.total,
						      s->shares.bnd.total);
		f->reads = r->reads;
		f->read_untracked = r->read_untracked;
		memcpy(f->coh, r->pol[p].coh, sizeof(f->coh));
		f->coh_by_read = r->pol[p].coh_by_read;
		/* the spans went to the buckets only (hold()), not their totals */
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
		/*
		 * Decided otherwise than recorded: written here but not by the
		 * kernel, or the other way round (counted so, not per record).
		 */
		x->diverged = r->pol[p].writes - r->pol[p].both +
			      (r->rec_writes - r->pol[p].both);
	}
	/* the reads' errors end with the segment (fa_read.h), as the engine's */
	for (i = 0; i < r->ntg; i++) {
		struct rp_tg *t = &r->tg[i];
		u32 k;

		for (k = 0; k < t->nr_cfs && t->cfs; k++)
			t->cfs[k].rd_seen = false;
	}
	r->started = true;
	return 0;
}
