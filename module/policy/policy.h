/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairlab policies: pure functions over small input structs, compiled into
 * fairlab.ko and into the userspace tests and tools, so that userspace
 * predicts exactly what the kernel decides.
 */
#ifndef FAIRLAB_POLICY_H
#define FAIRLAB_POLICY_H

#include "fl_types.h"
#include "fairlab_abi.h"

/*
 * A tg->load_avg policy and its argument (0 for policies without one).
 *
 * stock is the running kernel's own rule, which differs between kernels:
 * its argument, never given by the user ("stock:N" is invalid), is the
 * kernel's rate limit in us, set by the module's port: 0 before 6.7
 * (6.1: |delta| > contrib/64), 1000 from 6.7 (1528c661c24b: and at most
 * once per ms per cfs_rq).  Records carry it (tg_update.policy_arg,
 * policy_switch), so a replay decides with the recorded kernel's stock.
 */
struct fl_tg_policy {
	u32 id;		/* enum fl_tg_policy_id */
	u32 arg;
};

/* What update_tg_load_avg() knows when it decides whether to publish. */
struct fl_tg_input {
	s64 delta;		/* cfs_rq->avg.load_avg - tg_load_avg_contrib */
	u64 contrib;		/* cfs_rq->tg_load_avg_contrib, before */
	s64 tg_load_avg;	/* tg->load_avg, before (read by budget only) */
	u64 since_ns;		/* since this cfs_rq last published, or FL_SINCE_NEVER */
	u32 nr_cpus;		/* num_present_cpus() */
	u32 site;		/* enum fl_site */
};

/* Statistics of one sched_group as update_pick_idlest() sees them. */
struct fl_sg_stats {
	u32 group_type;		/* enum fl_group_type */
	u32 idle_cpus;
	u32 sum_nr_running;
	u64 group_util;
	u64 avg_load;
	u64 max_capacity;	/* group->sgc->max_capacity */
};

/* Argument limits; a value outside them is rejected, never clamped. */
struct fl_tg_policy_desc {
	const char *name;
	bool has_arg;
	u32 def, min, max;	/* default when ":arg" is omitted, and range */
	const char *unit;
};
extern const struct fl_tg_policy_desc fl_tg_policy_descs[FL_TG_NR_POLICIES];

/*
 * A policy made ready for one machine (fl_tg_rule_make()): its rule is one
 * of four shapes, with the constants that depend only on the policy and
 * nr_cpus already computed, so that the kernel does that once per switch
 * and not on every attempt.  Publish when:
 *   SCALED  |delta| * (forced site ? b : a) > contrib
 *   ABOVE   |delta| >= a  (threshold + 1: a = 0 publishes every attempt)
 *   GATED   since_ns >= a  and  |delta| * 64 > contrib
 *   BUDGET  |delta| * a > tg_load_avg * b, or |delta| > 0 when
 *           tg_load_avg <= 0
 */
enum fl_tg_rule_shape {
	FL_RULE_SCALED,
	FL_RULE_ABOVE,
	FL_RULE_GATED,
	FL_RULE_BUDGET,
};

struct fl_tg_rule {
	u32 shape;	/* enum fl_tg_rule_shape */
	u64 a, b;
};

void fl_tg_rule_make(const struct fl_tg_policy *p, u32 nr_cpus,
		     struct fl_tg_rule *r);

/* What a rule reads besides delta, contrib and site (computed only then). */
static inline bool fl_tg_rule_needs_clock(const struct fl_tg_rule *r)
{
	return r->shape == FL_RULE_GATED;	/* since_ns */
}

static inline bool fl_tg_rule_needs_tg_load(const struct fl_tg_rule *r)
{
	return r->shape == FL_RULE_BUDGET;	/* tg_load_avg */
}

static inline u64 fl_abs64(s64 v)
{
	return v < 0 ? -(u64)v : (u64)v;
}

/*
 * True when the attempt must publish delta into tg->load_avg; @r made for
 * in->nr_cpus.  Inline: the kernel's hot path (module/tg_update.h) and the
 * analyzer's replay (through fl_tg_decide()) compile this same code.
 *
 * The rules are stated as in the kernel, "|delta| > contrib / N", but
 * computed without dividing: for integers a, c >= 0 and N > 0,
 * a > floor(c / N)  <=>  a * N > c.  (Operands stay far below 2^64: load
 * sums are < 2^44, multipliers < 2^20.  Unsigned, so that the analyzer's
 * replay of a corrupt record wraps instead of overflowing.)
 */
static inline bool fl_tg_rule_decide(const struct fl_tg_rule *r,
				     const struct fl_tg_input *in)
{
	u64 ad = fl_abs64(in->delta);

	/* SCALED, the shape of stock, first; BUDGET, the costliest, last */
	if (r->shape == FL_RULE_SCALED)
		/* the 3.x "force" path, blocked averages, may scale otherwise */
		return ad * (FL_SITE_IS_FORCED(in->site) ? r->b : r->a) >
		       in->contrib;
	if (r->shape == FL_RULE_GATED)
		/* 6.7 (1528c661c24b): the time gate first, then stock. */
		return in->since_ns >= r->a && ad * 64 > in->contrib;
	if (r->shape == FL_RULE_ABOVE)
		return ad >= r->a;
	/*
	 * FL_RULE_BUDGET.  Each of nr_cpus cfs_rqs may hold back at most its
	 * share of E% of the group's published load, so that the sum of what
	 * is held back, |tg->load_avg - sum(load)|, stays within E% of
	 * tg->load_avg:  |delta| > tg_load_avg * E / (100 * nr_cpus)
	 */
	if (in->tg_load_avg <= 0)
		return ad != 0;
	return ad * r->a > (u64)in->tg_load_avg * r->b;
}


/* The same decision from the policy itself (makes the rule, then decides). */
bool fl_tg_decide(const struct fl_tg_policy *p, const struct fl_tg_input *in);

/* True when @group replaces @idlest (NULL-free: idlest stats are always given). */
bool fl_idlest_decide(u32 policy, const struct fl_sg_stats *idlest,
		      const struct fl_sg_stats *group);

/*
 * Parse "name" or "name:arg" exactly (no whitespace but one trailing
 * newline, lower case, decimal arg within range).  Returns 0 or -1.
 */
int fl_tg_policy_parse(const char *s, struct fl_tg_policy *out);
int fl_idlest_policy_parse(const char *s, u32 *out);

/*
 * tg_layout values: "global", "node[:US]", "llc[:US]" in exactly @len
 * chars (the caller drops a trailing newline), US the read cache's
 * refresh period in us, at most FL_LAYOUT_MAX_REFRESH_US (0: no cache).
 * Returns 0 with *@id (enum fl_layout_id) and *@refresh_us, or -1.
 */
#define FL_LAYOUT_MAX_REFRESH_US	10000000u	/* 10 s */
int fl_layout_parse(const char *s, size_t len, u8 *id, u32 *refresh_us);
/* Canonical form ("node:1000", "llc"); returns its length, truncated to n-1. */
int fl_layout_format(u8 id, u32 refresh_us, char *buf, size_t n);

/* Canonical form ("relative:8", "stock"); returns its length, truncated to n-1. */
int fl_tg_policy_format(const struct fl_tg_policy *p, char *buf, size_t n);

/* ilog2 for u32 > 0, 0 for 0 (as the kernel's for a power of two floor). */
u32 fl_ilog2(u32 v);

#endif /* FAIRLAB_POLICY_H */
