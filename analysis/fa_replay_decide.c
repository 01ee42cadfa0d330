// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay: the per-policy loops over one record (replay_range()
 * for a tg_update, replay_read_all() for a tg_read), each policy's
 * decision by module/policy/'s rules, its write, E and shares error.
 */
#include <math.h>

#include "fa_replay_int.h"

static void make_rules(struct fa_replay *r, struct rp_part *pt, u32 nr_cpus)
{
	/* a listed stock: with the recording's gate (rp_rec.gate) */
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
			if (g < RP_ANY && r->pol[p].rule.shape != rp_range_shape[g])
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
	    pt->rec_pol.arg != x->arg || pt->rec_nr_cpus != x->nr_cpus) {
		pt->rec_pol.id = x->policy;
		pt->rec_pol.arg = x->arg;
		pt->rec_nr_cpus = x->nr_cpus;
		fl_tg_rule_make(&pt->rec_pol, x->nr_cpus, &pt->rec_rule);
		pt->rec_made = true;
	}
	return &pt->rec_rule;
}

/*
 * A write under policy @p (@rp) on CPU @to, on node @n_to, another CPU
 * than its last writer @from (< 0: none): the writer switch it is
 * (fa_writer_switch()); one of unknown distance is kept for
 * fa_replay_switch_resolve(), as the engine keeps its own.
 */
static __attribute__((always_inline)) inline void
count_switch(const struct fa_replay *r, struct rp_part *pt, struct rp_pol *rp,
	     u32 p, s32 from, s32 to, int n_to, s32 seg)
{
	if (from < 0)
		return;
	switch (fa_switch_from_topo(&r->topo, from, n_to)) {
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
		fa_pending_add(&pt->pend, seg, p, p, from, to);
		break;
	}
}

/*
 * No policy's layout split (rp_tg.lay), no contention term (rp_tg.cont)
 * and no histogram that could saturate (rp_rec.sat): the replay's loops
 * in a copy without their tests, and with plain adds to the histograms.
 */
static inline bool rp_plain(const struct fa_replay *r, const struct rp_rec *x)
{
	return !r->split && !r->cont_on && !x->sat;
}

/* The rules of this record: made for its nr_cpus, "recorded" its own. */
static void set_rules(struct fa_replay *r, struct rp_part *pt,
		      const struct rp_rec *x)
{
	const struct fl_tg_rule *rec;
	u32 p;

	if (x->gate != pt->stock_gate) {
		pt->stock_gate = x->gate;
		pt->rules_made = false;
	}
	if (!pt->rules_made || pt->rule_nr_cpus != x->nr_cpus)
		make_rules(r, pt, x->nr_cpus);
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
    const struct fa_coh_cpu *c, bool write, struct fa_cont_line *cl, u64 ts,
    const struct fa_coh_near *near, s32 seg)
{
	enum fa_coh_dist d = FA_COH_UNKNOWN;
	struct fa_coh_src src;
	/*
	 * A write to a line Shared by CPUs below 64 (after reads, the usual
	 * write): by the writer's fa_coh_near, worked out once per record.
	 */
	int k = write && l->shared && l->owner < 0 && !l->nmore &&
		(u32)c->cpu < 64 ?
		fa_coh_write_near(l, c, near, &d, &src) :
		fa_coh_access_by(l, topo, c, write, &d, &src);

	if (k < 0) {
		pt->nomem = true;
	} else if (k) {
		if (d == FA_COH_UNKNOWN)
			fa_pending_add_transfer(&pt->pend, seg, p, p, c->cpu, &src);
		rp->coh[d]++;
		rp->coh_by_read += !write;
		if (cl)		/* the contention term (fa_cont.h) */
			fa_cont_add(cl, &rp->cont, r->cont_w, r->cont_k, ts,
				    r->cont_lat[d]);
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
	     const bool spans, const bool rel, const bool plain)
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
	const struct fa_coh_topo topo = r->topo;
	const struct fa_coh_cpu who = fa_coh_cpu(&topo, x->cpu);
	struct fl_tg_input in = {
		.since_ns = FL_SINCE_NEVER, .nr_cpus = x->nr_cpus, .site = x->site,
	};
	/* loaded once: the stores below may alias t for the compiler */
	struct fa_cont_line *cont = plain ? NULL : t->cont;
	const u64 ts = x->ts;
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
			rule.shape = rp_range_shape[range];
		if (spans) {
			q->abs_time += q->a * dtd;
			if (rel && qc->has_rel)
				qc->rel_time += qc->rel * dtd;
		}
		in.delta = sub_w(load, rc);
		in.contrib = (u64)rc;
		if (reads_tg_load && !plain && rp->split) {
			/* the writer's domain counter (fa_layout.h) */
			in.tg_load_avg = rp_lay_decide_read(r, pt, t, p, x, !resync);
		} else if (reads_tg_load) {
			in.tg_load_avg = add_w(tg_ksum, qc->sum_contrib);
			/* the policy's own read, before it decides (fa_policy_reads_line()) */
			if (!resync)
				coh(r, pt, rp, p, &q->line, &topo, &who, false,
				    cont ? &cont[p] : NULL, ts, NULL, x->seg);
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
				count_switch(r, pt, rp, p, q->last_writer, cpu, node,
					     x->seg);
				q->last_writer = cpu;
			}
			if (!plain && rp->split)
				rp_lay_write(r, pt, t, p, x, in.delta);
			else
				coh(r, pt, rp, p, &q->line, &topo, &who, true,
				    cont ? &cont[p] : NULL, ts, &x->near, x->seg);
		}
		if (err != q->err || changed_load) {
			struct fa_err_val v;

			hold(rp->err, q, qc, clock, rel, !plain);
			q->err = err;
			/* sum(load) 0: no relative error (fa_err_val()) */
			fa_err_val(&v, err, rel ? sum_load : 0);
			/* E has no bounded form (v.bnd 0): its maximum stays 0 */
			fa_err_point_abs(rp->err, &v);
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
	   struct rp_cp *cp, struct rp_tg *t, const bool spans, const bool rel,
	   const bool plain)
{
	const u32 *g = pt->range;

	if (!pt->shapes_ok) {
		replay_range(r, pt, x, cp, t, pt->lo, pt->hi, RP_ANY, spans, rel, plain);
		return;
	}
	replay_range(r, pt, x, cp, t, g[RP_SCALED], g[RP_SCALED + 1], RP_SCALED, spans, rel, plain);
	replay_range(r, pt, x, cp, t, g[RP_ABOVE], g[RP_ABOVE + 1], RP_ABOVE, spans, rel, plain);
	replay_range(r, pt, x, cp, t, g[RP_GATED], g[RP_GATED + 1], RP_GATED, spans, rel, plain);
	replay_range(r, pt, x, cp, t, g[RP_BUDGET], g[RP_BUDGET + 1], RP_BUDGET, spans, rel, plain);
	replay_range(r, pt, x, cp, t, g[RP_ANY], g[RP_ANY + 1], RP_ANY, spans, rel, plain);
}

/*
 * One record's shares by a policy's E - contrib (replay_read_all()): the
 * slot of @x in a direct-mapped table of RP_SHC.  The low bits of E -
 * contrib spread well enough (a 373 k-record file generated from
 * analyzer-policies.dat: 8 slots leave 73% of the divisions that the
 * previous policy's value alone leaves; 64 slots 2.06 M divisions
 * against 8 slots' 2.59 M, 13.5 per read of 50 policies, and 1.96 M
 * distinct shares among them: what is left is the policies' distinct
 * values, not collisions).
 */
#define RP_SHC 64
struct rp_shc {
	s64 x;
	struct fa_err_val v;
};

/*
 * A slot's value in and out field by field, so that the value being
 * used stays in registers: copied as a struct, it went through the
 * stack in stores and loads of other widths, and a load the core cannot
 * forward from the stores still in flight waits for them (perf: a tenth
 * of the read loop's samples; 2.5% of whatif's CPU time).
 */
static __attribute__((always_inline)) inline void
shc_copy(struct fa_err_val *to, const struct fa_err_val *from)
{
	to->abs = from->abs;
	to->a = from->a;
	to->rel = from->rel;
	to->bnd = from->bnd;
	to->ia = from->ia;
	to->ir = from->ir;
	to->ib = from->ib;
	to->has_rel = from->has_rel;
}

static inline u32 rp_shc_slot(s64 x)
{
	return (u32)x & (RP_SHC - 1);
}

/* The shares error of @given (fa_shares_val(), or its relative parts only). */
static __attribute__((always_inline)) inline void
shares_of(struct fa_err_val *v, s64 given, s64 ideal, s64 tg_shares, const bool abs)
{
	if (abs) {
		fa_shares_val(v, sub_w(given, ideal), ideal, tg_shares);
	} else {
		/*
		 * ideal >= FA_MIN_SHARES > 0, tg_shares too.  |given - ideal|
		 * as a double: fabs() of the signed difference rounds as the
		 * magnitude does (rounding is symmetric; -2^63 gives 2^63 both
		 * ways), and is no branch, where abs_w() here was one that
		 * mispredicted on over a third of the values (cachegrind).
		 */
		double a = fabs((double)sub_w(given, ideal));

		fa_err_val_rel(v, a, ideal);
		fa_err_val_bnd(v, a, tg_shares);
	}
}

/* A read's shares error @v: a point of policy @rp's, held in @q until the next. */
static __attribute__((always_inline)) inline void
shares_point(struct rp_pol *rp, struct rp_rd *q, const struct fa_err_val *v,
	     const bool abs)
{
	if (abs) {
		fa_err_point_val(rp->sh, v);
		q->a = v->a;
		q->ia = v->ia;
	} else {
		fa_err_point_rel(rp->sh, v->rel);
		fa_err_point_bnd(rp->sh, v->bnd);
	}
	q->rel = v->rel;
	q->ir = v->ir;
	q->b = v->bnd;
	q->ib = v->ib;
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
		const bool abs, const bool plain)
{
	struct rp_tg *t = &r->tg[x->tg];
	struct rp_rd *rd = &t->rd[(size_t)x->cfs * r->npol];
	const struct rp_cp *cp = &t->cp[(size_t)x->cfs * r->npol];
	struct rp_gp *gp = t->gp;
	struct rp_gs *gs = t->gs;
	struct rp_pol *pol = r->pol;
	/* loaded once: the stores below may alias t for the compiler */
	struct fa_cont_line *cont = plain ? NULL : t->cont;
	const u64 ts = x->ts;
	const s64 tla = x->rd_tla_sum, kerr = x->rd_kerr, ideal = x->rd_ideal;
	const s64 rcon = x->rd_contrib, kcon = x->contrib;
	const s64 load = x->rd_load, tg_shares = x->rd_tg_shares;
	const s64 shares = x->rd_shares;
	const u64 dt = x->rd_dt;
	const double dtd = x->dtd;
	const s32 cpu = x->cpu;
	const struct fa_coh_topo topo = r->topo;
	const struct fa_coh_cpu who = fa_coh_cpu(&topo, cpu);
	/*
	 * The shares depend on a policy's state only through its
	 * tg->load_avg - contrib, i.e. its E - contrib: policies that agree
	 * on it (often those that publish every change, and often not next
	 * to each other: a shape's loop, then the next shape's) share one
	 * working out.  The shares of this record by E - contrib, a few of
	 * them, direct-mapped (RP_SHC), the recording's own (kx) to begin
	 * with.  Every policy looks its value up there, even one that agrees
	 * with the policy before it: a test for that case first was a branch
	 * that mispredicted on a third of the policy-reads (cachegrind's
	 * model), and whatif took 3.6% more CPU with it (cpu-pair.sh).
	 */
	const s64 kx = sub_w(kerr, kcon);
	struct rp_shc shc[RP_SHC];
	/* the shares error in use, in registers (shc_copy()) */
	struct fa_err_val v = { 0 };
	u64 valid = 0;
	/* pointers stepped per policy: indexing five arrays costs more */
	struct rp_pol *rp = &pol[pt->lo];
	struct rp_rd *q = &rd[pt->lo];
	struct rp_gs *g = &gs[pt->lo];
	const u32 hi = pt->hi;
	u32 p;

	/* an untimed group has no ideal (nor a checked tg_shares) */
	if (timed) {
		u32 h = rp_shc_slot(kx);
		/*
		 * The kernel's shares; for a read it served from a split
		 * layout's cache, those of the sum it would have computed.
		 */
		s64 kgiven = tla == x->rd_tla ? shares :
			fa_calc_group_shares(tla, rcon, load, tg_shares);

		fa_shares_val(&v, sub_w(kgiven, ideal), ideal, tg_shares);
		shc_copy(&shc[h].v, &v);
		shc[h].x = kx;
		valid = 1ull << h;
	}
	for (p = pt->lo; p < hi; p++, rp++, q++, g++) {
		s64 ptla, pcon, given, xp, used;
		bool hit = false;
		u32 h;

		if (!plain && rp->split)
			hit = rp_lay_read(r, pt, t, p, x,
					  add_w(tla, sub_w(gp[p].err, kerr)), &used);
		else
			coh(r, pt, rp, p, &gp[p].line, &topo, &who, false,
			    cont ? &cont[p] : NULL, ts, NULL, x->seg);
		if (spans) {
			/* ideal >= FA_MIN_SHARES: a relative error always */
			if (abs)
				fa_err_span_abs(rp->sh, &g->sh_abs_time, q->a,
						q->ia, dt, dtd, true, !plain);
			fa_err_span_rel(rp->sh, &g->sh_rel_time, q->rel, q->ir, dt,
					dtd, true, !plain);
			fa_err_span_bnd(rp->sh, &g->sh_bnd_time, q->b, q->ib, dt,
					dtd, true, !plain);
		}
		if (!timed)
			continue;
		pcon = cseen ? add_w(rcon, sub_w(cp[p].contrib, kcon)) : rcon;
		if (!plain && hit) {
			/* the domain's cached sum, stale: this policy's own */
			struct fa_err_val vh;

			shares_of(&vh, fa_calc_group_shares(used, pcon, load, tg_shares),
				  ideal, tg_shares, abs);
			shares_point(rp, q, &vh, abs);
			continue;
		}
		/* its E - contrib: the kernel's when the cfs_rq is not seen yet */
		xp = cseen ? sub_w(gp[p].err, cp[p].contrib) : sub_w(gp[p].err, kcon);
		h = rp_shc_slot(xp);
		if (!((valid >> h) & 1) || shc[h].x != xp) {
			ptla = add_w(tla, sub_w(gp[p].err, kerr));
			given = fa_calc_group_shares(ptla, pcon, load, tg_shares);
			shares_of(&v, given, ideal, tg_shares, abs);
			shc_copy(&shc[h].v, &v);
			shc[h].x = xp;
			valid |= 1ull << h;
		} else {
			shc_copy(&v, &shc[h].v);
		}
		shares_point(rp, q, &v, abs);
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
		const bool abs, const bool plain)
{
	if (!x->rd_timed)
		x->rd_dt ? replay_read_all(r, pt, x, true, false, false, abs, plain) :
			   replay_read_all(r, pt, x, false, false, false, abs, plain);
	else if (x->cseen)
		x->rd_dt ? replay_read_all(r, pt, x, true, true, true, abs, plain) :
			   replay_read_all(r, pt, x, false, true, true, abs, plain);
	else
		x->rd_dt ? replay_read_all(r, pt, x, true, false, true, abs, plain) :
			   replay_read_all(r, pt, x, false, false, true, abs, plain);
}

/*
 * plain: no policy's layout is split, no contention term is kept and no
 * histogram can saturate (rp_plain()), the usual run: their tests fold
 * out of the loops.
 */
static void replay_read(struct fa_replay *r, struct rp_part *pt,
			const struct rp_rec *x)
{
	const bool plain = rp_plain(r, x);

	if (r->sh_abs)
		plain ? replay_read_abs(r, pt, x, true, true) :
			replay_read_abs(r, pt, x, true, false);
	else
		plain ? replay_read_abs(r, pt, x, false, true) :
			replay_read_abs(r, pt, x, false, false);
}

void rp_replay_rec(struct fa_replay *r, struct rp_part *pt,
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
			if (r->pol[p].split)
				rp_lay_seed(r, pt, t, p, x);
		}
	} else if (x->evicted) {
		for (p = pt->lo; p < pt->hi; p++)
			cp[p].pub = FL_SINCE_NEVER;
	}
	if (rp_plain(r, x)) {
		if (x->spans)
			r->rel ? replay_all(r, pt, x, cp, t, true, true, true) :
				 replay_all(r, pt, x, cp, t, true, false, true);
		else
			r->rel ? replay_all(r, pt, x, cp, t, false, true, true) :
				 replay_all(r, pt, x, cp, t, false, false, true);
	} else {
		if (x->spans)
			r->rel ? replay_all(r, pt, x, cp, t, true, true, false) :
				 replay_all(r, pt, x, cp, t, true, false, false);
		else
			r->rel ? replay_all(r, pt, x, cp, t, false, true, false) :
				 replay_all(r, pt, x, cp, t, false, false, false);
	}
}

void rp_replay_batch(struct fa_replay *r, struct rp_part *pt,
			 const struct rp_rec *b, u32 n)
{
	u32 k;

	for (k = 0; k < n; k++)
		rp_replay_rec(r, pt, &b[k]);
}
