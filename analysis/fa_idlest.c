// SPDX-License-Identifier: GPL-2.0
/*
 * The placement what-if: find_idlest_group() calls rebuilt from the
 * pick_idlest records and replayed under every idlest policy (see
 * fa_idlest.h for the definitions).
 */
#include <stdlib.h>
#include <string.h>

#include "fa_idlest.h"

/* CPUs beyond this are taken for a corrupt record, not grown into. */
#define FA_IDLEST_MAX_CPUS 65536

/* The group a replay holds: none (the sentinel) or one candidate. */
struct pick {
	bool has;
	s32 cpu;
	struct fl_sg_stats st;
};

/* The open call of one CPU. */
struct call {
	bool open, consistent, mixed;
	u8 policy;		/* of its first record */
	u32 ncand;
	struct pick rec;	/* the recorded chain */
	struct pick p[FL_IDLEST_NR_POLICIES];
	u64 dec_differ[FL_IDLEST_NR_POLICIES];
};

struct fa_idlest_replay {
	struct call *cpu;
	u32 ncpu;
	struct fa_idlest_result res[FL_IDLEST_NR_POLICIES];
	struct fa_idlest_totals tot;
};

/* find_idlest_group()'s initial idlest_sgs, as the record shows it. */
static const struct fl_sg_stats sentinel = {
	.group_type = FL_GROUP_OVERLOADED,
	.avg_load = 0xffffffffu,	/* UINT_MAX */
};

struct fa_idlest_replay *fa_idlest_new(void)
{
	return calloc(1, sizeof(struct fa_idlest_replay));
}

void fa_idlest_free(struct fa_idlest_replay *r)
{
	if (!r)
		return;
	free(r->cpu);
	free(r);
}

static bool same_stats(const struct fl_sg_stats *a, const struct fl_sg_stats *b)
{
	return a->group_type == b->group_type && a->idle_cpus == b->idle_cpus &&
	       a->sum_nr_running == b->sum_nr_running &&
	       a->group_util == b->group_util && a->avg_load == b->avg_load &&
	       a->max_capacity == b->max_capacity;
}

static u32 type_of(const struct pick *k)
{
	return k->has && k->st.group_type < FA_IDLEST_NONE ? k->st.group_type : FA_IDLEST_NONE;
}

static bool same_pick(const struct pick *a, const struct pick *b)
{
	return a->has == b->has && (!a->has || a->cpu == b->cpu);
}

static void close_call(struct fa_idlest_replay *r, struct call *c)
{
	u32 p;

	if (!c->open)
		return;
	c->open = false;
	if (!c->consistent) {
		r->tot.inconsistent++;
		r->tot.inconsistent_records += c->ncand;
		return;
	}
	r->tot.calls++;
	r->tot.mixed_calls += c->mixed;
	for (p = 0; p < FL_IDLEST_NR_POLICIES; p++) {
		struct fa_idlest_result *x = &r->res[p];

		x->calls++;
		x->choice_calls += c->ncand >= 2;
		x->decisions += c->ncand;
		x->dec_differ += c->dec_differ[p];
		if (!same_pick(&c->p[p], &c->rec)) {
			x->differ++;
			x->by_type[type_of(&c->rec)][type_of(&c->p[p])]++;
		}
	}
}

static void open_call(struct call *c, bool consistent, u8 policy)
{
	memset(c, 0, sizeof(*c));
	c->open = true;
	c->consistent = consistent;
	c->policy = policy;
}

/* Grows the per-CPU calls to hold @cpu; -1 when out of memory. */
static int reserve(struct fa_idlest_replay *r, u32 cpu)
{
	struct call *n;
	u32 want;

	if (cpu < r->ncpu)
		return 0;
	want = cpu + 1 > 2 * r->ncpu ? cpu + 1 : 2 * r->ncpu;
	n = realloc(r->cpu, (size_t)want * sizeof(*n));
	if (!n)
		return -1;
	memset(n + r->ncpu, 0, (size_t)(want - r->ncpu) * sizeof(*n));
	r->cpu = n;
	r->ncpu = want;
	return 0;
}

int fa_idlest_feed(struct fa_idlest_replay *r, const struct fa_event *ev)
{
	const struct fa_pick_idlest *pi = &ev->u.pick_idlest;
	const struct fl_sg_stats *want;
	struct call *c;
	u32 p;

	r->tot.records++;
	if (ev->cpu < 0 || ev->cpu >= FA_IDLEST_MAX_CPUS) {
		r->tot.inconsistent_records++;	/* a corrupt record: no CPU to group by */
		return 0;
	}
	if (reserve(r, (u32)ev->cpu))
		return -1;
	c = &r->cpu[ev->cpu];

	/* the self-check, on the record's own stats */
	if (pi->policy < FL_IDLEST_NR_POLICIES) {
		r->tot.policies_seen |= 1u << pi->policy;
		if (fl_idlest_decide(pi->policy, &pi->idlest, &pi->group) != pi->picked)
			r->tot.mismatches++;
	}

	/* which call the record belongs to */
	if (pi->idlest_cpu == -1) {
		if (!c->open || c->rec.has || !c->consistent) {
			close_call(r, c);
			open_call(c, true, pi->policy);
		}
	} else if (!c->open) {
		open_call(c, false, pi->policy);	/* begins inside a call */
	}

	/* its idlest side must be what the call holds */
	want = c->rec.has ? &c->rec.st : &sentinel;
	if (pi->idlest_cpu != (c->rec.has ? c->rec.cpu : -1) || !same_stats(&pi->idlest, want) ||
	    pi->policy >= FL_IDLEST_NR_POLICIES)
		c->consistent = false;
	if (pi->policy != c->policy)
		c->mixed = true;
	c->ncand++;

	for (p = 0; p < FL_IDLEST_NR_POLICIES; p++) {
		struct pick *k = &c->p[p];

		if (fl_idlest_decide(p, &pi->idlest, &pi->group) != pi->picked)
			c->dec_differ[p]++;
		if (fl_idlest_decide(p, k->has ? &k->st : &sentinel, &pi->group)) {
			k->has = true;
			k->cpu = pi->group_cpu;
			k->st = pi->group;
		}
	}
	if (pi->picked) {
		c->rec.has = true;
		c->rec.cpu = pi->group_cpu;
		c->rec.st = pi->group;
	}
	return 0;
}

void fa_idlest_finish(struct fa_idlest_replay *r)
{
	u32 i;

	for (i = 0; i < r->ncpu; i++)
		close_call(r, &r->cpu[i]);
}

const struct fa_idlest_result *fa_idlest_result(const struct fa_idlest_replay *r,
						u32 p)
{
	return p < FL_IDLEST_NR_POLICIES ? &r->res[p] : NULL;
}

const struct fa_idlest_totals *fa_idlest_totals(const struct fa_idlest_replay *r)
{
	return &r->tot;
}
