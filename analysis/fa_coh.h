/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A MODEL of the coherence traffic on one task group's tg->load_avg line,
 * replayed from the recorded reads (tg_read) and writes (written
 * tg_update), in timestamp order, by the CPU that executed each.
 *
 * The line is Modified by one CPU, or Shared by a set of CPUs (or held by
 * none, at the start).  A transfer is
 *   - a read by CPU c of a line another CPU holds Modified (the line then
 *     is Shared by both), or
 *   - a write by c to a line another CPU holds, Modified or Shared (the
 *     others' copies are invalidated; c then holds it Modified);
 * a read by c of a line others hold Shared (c holding no copy) is a fill
 * from a clean copy: free under FA_COH_MISS_FREE (the default, the
 * generous choice: it undercounts cross-node traffic for every policy
 * alike), a transfer from the nearest holder under FA_COH_MISS_NEAREST;
 * everything else is a hit, not counted.  A
 * transfer's distance is that between c and the CPU it takes the line
 * from (for an invalidation: the farthest other holder): same last-level
 * cache, same NUMA node, across nodes (cpu_topology), or unknown while a
 * CPU it involves is not placed (then the CPUs are given back, struct
 * fa_coh_src, for the caller to classify the transfer once they are).
 *
 * The callers feed it the recorded accesses and the policy's own reads
 * of the line, which no record shows (fa_policy_reads_line()).
 *
 * It is a LOWER BOUND: it counts the fairlab-traced accesses only, one
 * transfer per access, and prices each at an idle machine's core-to-core
 * latency; under contention a transfer queues behind others and costs far
 * more (perf c2c measured thousands of cycles per HITM on this line).
 */
#ifndef FA_COH_H
#define FA_COH_H

#include <stdbool.h>

#include "fl_types.h"

enum fa_coh_dist {
	FA_COH_LLC,		/* same last-level cache */
	FA_COH_NODE,		/* same node, another LLC */
	FA_COH_XNODE,		/* another node */
	FA_COH_UNKNOWN,		/* a CPU cpu_topology did not place */
	FA_COH_NR
};

/* What a read miss on a line others hold Shared costs (see above). */
enum fa_coh_miss {
	FA_COH_MISS_FREE,	/* nothing: the generous choice, the default */
	FA_COH_MISS_NEAREST,	/* a transfer from the nearest holder */
	FA_COH_MISS_NR
};
/* "free", "nearest"; fa_coh_miss_parse(): the enum, or -1. */
extern const char *const fa_coh_miss_names[FA_COH_MISS_NR];
int fa_coh_miss_parse(const char *s);

/*
 * Where each CPU is: node[cpu], llc[cpu] (-1 or cpu >= n: unknown); and
 * the Shared-miss cost.
 */
struct fa_coh_topo {
	const s32 *node, *llc;
	u32 n;
	enum fa_coh_miss miss;
};

/*
 * The CPUs holding a line Shared (when owner < 0) are a bitmap of words:
 * word 0 (CPUs 0-63) in the line itself, words 1 .. nmore in more[].
 * Word 0 inline: a replay models a line per policy and tests a sharer at
 * most reads, and a word behind a pointer cost a dependent load, from a
 * line of its own, each time.
 */
struct fa_coh_line {
	s32 owner;		/* CPU holding it Modified, -1 none */
	u16 nmore;		/* words in more[] */
	bool shared;		/* some sharers bit may be set */
	u64 w0;			/* sharers among CPUs 0-63 */
	u64 *more;		/* more[k]: among CPUs 64 * (k + 1) on */
};

void fa_coh_init(struct fa_coh_line *l);
void fa_coh_free(struct fa_coh_line *l);

/* Word @w of @l's sharers (w <= l->nmore). */
static inline u64 *fa_coh_word(struct fa_coh_line *l, u32 w)
{
	return w ? &l->more[w - 1] : &l->w0;
}

/* @cpu holds a Shared copy of the line. */
static inline bool fa_coh_shares(const struct fa_coh_line *l, s32 cpu)
{
	u32 w = (u32)cpu / 64;

	if (!w)
		return (l->w0 >> cpu) & 1;
	return w <= l->nmore && (l->more[w - 1] >> (cpu % 64)) & 1;
}


/* @v[@cpu] (a CPU's node or LLC), -1 for a CPU outside @v or no @v. */
static inline s32 fa_coh_at(const s32 *v, u32 n, s32 cpu)
{
	return v && cpu >= 0 && (u32)cpu < n ? v[cpu] : -1;
}

/* A CPU and where it is (looked up once for many lines: the replay). */
struct fa_coh_cpu {
	s32 cpu, node, llc;
};

static inline struct fa_coh_cpu fa_coh_cpu(const struct fa_coh_topo *t, s32 cpu)
{
	return (struct fa_coh_cpu){ cpu, fa_coh_at(t->node, t->n, cpu),
				    fa_coh_at(t->llc, t->n, cpu) };
}

/* The distance from CPU @a to @b (one of them not placed: unknown). */
static inline enum fa_coh_dist fa_coh_dist_to(const struct fa_coh_topo *t,
					      s32 a, const struct fa_coh_cpu *b)
{
	s32 na = fa_coh_at(t->node, t->n, a), la;

	if (na < 0 || b->node < 0)
		return FA_COH_UNKNOWN;
	if (na != b->node)
		return FA_COH_XNODE;
	la = fa_coh_at(t->llc, t->n, a);
	if (la < 0 || b->llc < 0)
		return FA_COH_UNKNOWN;
	return la == b->llc ? FA_COH_LLC : FA_COH_NODE;
}

/*
 * Where a transfer of unknown distance took the line from: the farthest
 * distance of the holders placed then, and the holders that were not (or
 * all of them, when the accessing CPU was not).  Its distance is the
 * farthest of all once they are placed (fa_coh_src_dist()).
 */
#define FA_COH_SRC_MAX	16
struct fa_coh_src {
	enum fa_coh_dist known;	/* FA_COH_UNKNOWN: no holder placed */
	u32 n;			/* cpu[0 .. n) */
	bool over;		/* more than FA_COH_SRC_MAX: stays unknown */
	bool nearest;		/* a Shared miss: the nearest, not the farthest */
	s32 cpu[FA_COH_SRC_MAX];
};

/* The farther of two distances; unknown only when nothing is known. */
static inline enum fa_coh_dist fa_coh_farther(enum fa_coh_dist a,
					      enum fa_coh_dist b)
{
	if (a == FA_COH_UNKNOWN)
		return b;
	if (b == FA_COH_UNKNOWN)
		return a;
	return a > b ? a : b;
}

/* The nearer of two distances; unknown only when nothing is known. */
static inline enum fa_coh_dist fa_coh_nearer(enum fa_coh_dist a,
					     enum fa_coh_dist b)
{
	if (a == FA_COH_UNKNOWN)
		return b;
	if (b == FA_COH_UNKNOWN)
		return a;
	return a < b ? a : b;
}

/*
 * The distance of a transfer to CPU @to from @src's holders as @t places
 * them now (the farthest; the nearest for a Shared miss, @nearest):
 * FA_COH_UNKNOWN while one of them (or @to) is not placed.
 */
enum fa_coh_dist fa_coh_src_dist(const struct fa_coh_topo *t, s32 to,
				 enum fa_coh_dist known, const s32 *from, u32 n,
				 bool nearest);

/*
 * Where CPUs 0-63 are seen from one CPU: d[k], those at known distance k
 * (fa_coh_dist_to() of each), the rest unknown.  Worked out once for a
 * CPU that writes many lines (the what-if replay: a line per policy), it
 * makes a write to a Shared line a few mask operations
 * (fa_coh_write_near()) instead of a walk over its sharers.
 */
struct fa_coh_near {
	u64 d[FA_COH_UNKNOWN];
};
void fa_coh_near_of(struct fa_coh_near *n, const struct fa_coh_topo *t,
		    const struct fa_coh_cpu *who);

/* Out of line: a CPU added to the sharers (-1: no memory); a write to a Shared line. */
int fa_coh_share(struct fa_coh_line *l, s32 cpu);
int fa_coh_write_shared(struct fa_coh_line *l, const struct fa_coh_topo *t,
			const struct fa_coh_cpu *c, enum fa_coh_dist *dist,
			struct fa_coh_src *src);

/*
 * fa_coh_share() inline where the sharers already have @cpu's word (all
 * but a line's first sharing past a multiple of 64 CPUs): the what-if
 * replay shares a line per policy at most reads after a write.
 */
static inline int fa_coh_share_in(struct fa_coh_line *l, s32 cpu)
{
	u32 w = (u32)cpu / 64;

	if (w > l->nmore)
		return fa_coh_share(l, cpu);
	*fa_coh_word(l, w) |= 1ull << (cpu % 64);
	l->shared = true;
	return 0;
}
/* A read by a CPU without a copy of a line others hold Shared (NEAREST). */
int fa_coh_read_shared(struct fa_coh_line *l, const struct fa_coh_topo *t,
		       const struct fa_coh_cpu *c, enum fa_coh_dist *dist,
		       struct fa_coh_src *src);

/* A transfer from one holder @o of unknown distance: @src says so. */
static inline void fa_coh_src_one(struct fa_coh_src *src, s32 o)
{
	if (!src)
		return;
	src->known = FA_COH_UNKNOWN;
	src->n = 1;
	src->over = false;
	src->nearest = false;
	src->cpu[0] = o;
}

/*
 * @cpu reads (@write false) or writes the line.  Returns 1 for a transfer
 * (its distance in *@dist; when unknown, where from in *@src unless
 * NULL), 0 for none, -1 out of memory.  Inline: the
 * what-if replay models a line per policy; the usual cases (a hit, a
 * write after another CPU's write) take a few instructions.
 */
static inline __attribute__((always_inline)) int
fa_coh_access_by(struct fa_coh_line *l, const struct fa_coh_topo *t,
		 const struct fa_coh_cpu *c, bool write, enum fa_coh_dist *dist,
		 struct fa_coh_src *src)
{
	s32 o = l->owner, cpu = c->cpu;

	if (cpu < 0 || o == cpu)
		return 0;				/* hit */
	if (!write) {
		if (o < 0) {		/* a hit, or a fill from a clean copy */
			if (fa_coh_shares(l, cpu))
				return 0;
			if (t->miss == FA_COH_MISS_NEAREST && l->shared)
				return fa_coh_read_shared(l, t, c, dist, src);
			return fa_coh_share_in(l, cpu);
		}
		*dist = fa_coh_dist_to(t, o, c);	/* another CPU modified it */
		if (*dist == FA_COH_UNKNOWN)
			fa_coh_src_one(src, o);
		if (fa_coh_share_in(l, o) || fa_coh_share_in(l, cpu))
			return -1;
		l->owner = -1;
		return 1;
	}
	if (l->shared)
		return fa_coh_write_shared(l, t, c, dist, src);
	l->owner = cpu;
	if (o < 0)
		return 0;				/* the first access */
	*dist = fa_coh_dist_to(t, o, c);		/* invalidates o's copy */
	if (*dist == FA_COH_UNKNOWN)
		fa_coh_src_one(src, o);
	return 1;
}

/*
 * fa_coh_access_by()'s write by @c, 0 <= @c->cpu < 64, to a line Shared
 * by CPUs below 64 only and Modified by none (l->shared, l->nmore == 0,
 * l->owner < 0), with @near @c's fa_coh_near: what fa_coh_write_shared()
 * does (the same distance, the same unplaced holders in *@src, in CPU
 * order) without visiting each holder.
 */
static inline int fa_coh_write_near(struct fa_coh_line *l,
				    const struct fa_coh_cpu *c,
				    const struct fa_coh_near *near,
				    enum fa_coh_dist *dist,
				    struct fa_coh_src *src)
{
	u64 m = l->w0 & ~(1ull << c->cpu), unk;

	l->w0 = 0;
	l->shared = false;
	l->owner = c->cpu;
	if (!m)
		return 0;
	/* the farthest holder placed (fa_coh_farther()) */
	src->known = m & near->d[FA_COH_XNODE] ? FA_COH_XNODE :
		     m & near->d[FA_COH_NODE] ? FA_COH_NODE :
		     m & near->d[FA_COH_LLC] ? FA_COH_LLC : FA_COH_UNKNOWN;
	src->n = 0;
	src->over = false;
	src->nearest = false;
	unk = m & ~(near->d[FA_COH_LLC] | near->d[FA_COH_NODE] |
		    near->d[FA_COH_XNODE]);
	for (; unk; unk &= unk - 1) {
		if (src->n == FA_COH_SRC_MAX) {
			src->over = true;
			break;
		}
		src->cpu[src->n++] = __builtin_ctzll(unk);
	}
	*dist = src->n || src->over ? FA_COH_UNKNOWN : src->known;
	return 1;
}

static inline int fa_coh_access(struct fa_coh_line *l, const struct fa_coh_topo *t,
				s32 cpu, bool write, enum fa_coh_dist *dist)
{
	struct fa_coh_cpu c = fa_coh_cpu(t, cpu);

	return fa_coh_access_by(l, t, &c, write, dist, NULL);
}

/* A machine's idle core-to-core transfer latencies (ns), with its source. */
struct fa_coh_machine {
	const char *key;		/* metric name part, e.g. "spr" */
	const char *name;
	double ns[FA_COH_XNODE + 1];	/* LLC, NODE, XNODE */
	const char *source;
};

extern const struct fa_coh_machine fa_coh_machines[];
extern const int fa_coh_nr_machines;

/*
 * Modeled cost (ns) of @n[d] transfers per distance on machine @m; an
 * unknown distance is priced as the cheapest (a lower bound, like the
 * rest).
 */
double fa_coh_cost_ns(const struct fa_coh_machine *m, const u64 n[FA_COH_NR]);

#endif /* FA_COH_H */
