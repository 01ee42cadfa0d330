/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts of a task group's sum of load (tg->load_avg), and the coherence
 * MODEL (fa_coh.h) of their lines:
 *
 *  - global: one counter, one line (the kernel's tg->load_avg today);
 *  - node, llc: one counter per domain (NUMA node, or last-level cache,
 *    as cpu_topology places the CPUs), each on its own line.
 *
 * Under a split layout a publish adds its delta to the writer's own
 * domain counter (a write of that domain's line only); a read of the sum
 * adds up every domain counter (a read of every domain's line).  With a
 * read cache (REFRESH_US > 0, "node:1000") each domain also keeps the
 * sum it last computed, on a line of its own: a read younger than
 * REFRESH_US since that sum was computed (trace clock, ns: age <
 * REFRESH_US * 1000) is a hit and reads that cache line only; any other
 * read reads every counter line, then writes the domain's cache line
 * (the sum and its time stored).  A policy's own read before it decides
 * (fa_policy_reads_line()) reads the writer's domain counter only: under
 * a split layout the rules compare against that domain's counter.
 *
 * A CPU cpu_topology did not place (yet) has no domain: its writes go to
 * an extra "unplaced" counter (read with the others while it holds some
 * CPU's part), and its reads have no cache.  The kernel had no such
 * counter: each CPU's part was in its domain's counter all along.  So
 * once cpu_topology places a CPU (fa_lay_place()), its part moves to its
 * domain's counter, and once no unplaced CPU's part is left the unplaced
 * counter's line is gone: a sum no longer reads it (a recording's first
 * records, made before the recorder described the topology, would
 * otherwise add a line to every later sum that the kernel never read).
 *
 * It is the same lower bound as fa_coh.h: the traced accesses only, one
 * transfer per line access that misses, priced at idle latencies.
 */
#ifndef FA_LAYOUT_H
#define FA_LAYOUT_H

#include <stddef.h>

#include "fa_coh.h"
#include "fa_cont.h"

enum fa_layout_kind {
	FA_LAYOUT_GLOBAL,
	FA_LAYOUT_NODE,
	FA_LAYOUT_LLC,
	FA_LAYOUT_NR
};

/* Largest REFRESH_US accepted (10 s). */
#define FA_LAYOUT_MAX_REFRESH_US 10000000u

struct fa_layout {
	u32 kind;		/* enum fa_layout_kind */
	u32 refresh_us;		/* read cache: 0 none (global: always 0) */
};

/* "global", "node", "llc", "node:1000", "llc:50": 0, or -1 (fl_layout_parse()). */
int fa_layout_parse(const char *s, struct fa_layout *l);
/* "node", "node:1000"... into @buf. */
const char *fa_layout_label(const struct fa_layout *l, char *buf, size_t n);
/* "/LAYOUT" appended to the label in @buf (room @n) under a split layout only. */
void fa_layout_suffix(const struct fa_layout *l, char *buf, size_t n);

/* The same layout: kind and read-cache refresh. */
static inline bool fa_layout_same(const struct fa_layout *a, const struct fa_layout *b)
{
	return a->kind == b->kind && a->refresh_us == b->refresh_us;
}

static inline bool fa_layout_split(const struct fa_layout *l)
{
	return l->kind != FA_LAYOUT_GLOBAL;
}

/* The domain of CPU @c under split layout @l: -1 not placed. */
static inline s32 fa_layout_dom(const struct fa_layout *l, const struct fa_coh_cpu *c)
{
	return l->kind == FA_LAYOUT_LLC ? c->llc : c->node;
}

/*
 * The domains of layout kind @kind on @t: their distinct ids (an LLC's id
 * is not dense: cpu_topology gives its first CPU's), ascending, into
 * *@ids (grown; freed by the caller); returns how many, or -1 out of memory.
 */
int fa_layout_doms(u32 kind, const struct fa_coh_topo *t, s32 **ids, u32 *cap);

/* One domain of one group: its counter and its read cache. */
struct fa_lay_dom {
	struct fa_coh_line ctr;		/* the counter's line */
	struct fa_coh_line cache;	/* the cached sum's line */
	s64 sum;			/* the counter (replayed contribs) */
	s64 cached;			/* the cached sum */
	u64 cached_ts;			/* when it was computed (trace ns) */
	bool cache_valid;
	struct fa_cont_line ctr_c, cache_c;	/* their windows (fa_cont.h) */
};

/* One group's counters under a split layout (zeroed: fa_lay_group_init()). */
struct fa_lay_group {
	u32 n;				/* d[0 .. n) */
	struct fa_lay_dom *d;
	struct fa_lay_dom unplaced;	/* writers without a domain */
	bool unplaced_used;		/* holds a part: read by every sum */
	u32 nunpl, unpl_cap;		/* unpl[0 .. nunpl) */
	struct fa_lay_unpl {
		s32 cpu;		/* a CPU not placed when it wrote */
		s64 sum;		/* its part of unplaced.sum */
	} *unpl;
};

void fa_lay_group_init(struct fa_lay_group *g);
void fa_lay_group_free(struct fa_lay_group *g);
/* Domain @dom's slot (grown, zeroed, on demand); -1: the unplaced one; NULL: no memory. */
struct fa_lay_dom *fa_lay_get(struct fa_lay_group *g, s32 dom);

/*
 * @v added to the unplaced counter as CPU @cpu's part (a write, or a
 * cfs_rq's contrib seeded by the replay).  0, or -1 out of memory.
 */
int fa_lay_unplaced_add(struct fa_lay_group *g, s32 cpu, s64 v);

/*
 * The unplaced counter's parts of the CPUs @t places now under @l moved
 * to their domains' counters (no line accessed: the kernel kept them
 * there); with none left, the unplaced counter and its line are gone.
 * Called when cpu_topology places a CPU.  0, or -1 out of memory.
 */
int fa_lay_place(struct fa_lay_group *g, const struct fa_layout *l,
		 const struct fa_coh_topo *t);

/*
 * A transfer on a line, for the caller's counters: its distance @d (from
 * @src when unknown), @write whether a write caused it, @cl the line's
 * contention window (fa_cont.h).
 */
typedef void (*fa_lay_note_fn)(void *arg, enum fa_coh_dist d,
			       const struct fa_coh_src *src, bool write,
			       struct fa_cont_line *cl);

/* The model's place for one access: topology, accessing CPU, callback. */
struct fa_lay_ctx {
	const struct fa_coh_topo *t;
	const struct fa_coh_cpu *c;
	const s32 *doms;	/* the domains a sum reads (fa_layout_doms()) */
	u32 ndom;
	fa_lay_note_fn note;
	void *arg;
};

/*
 * A publish of @delta by @x->c under @l: the writer's domain counter's
 * line written, the counter moved.  0, or -1 out of memory.
 */
int fa_lay_write(struct fa_lay_group *g, const struct fa_layout *l,
		 const struct fa_lay_ctx *x, s64 delta);

/* A policy's own read of the writer's domain counter (its decision). */
int fa_lay_read_own(struct fa_lay_group *g, const struct fa_layout *l,
		    const struct fa_lay_ctx *x);

/*
 * A read of the sum by @x->c at trace time @now: 1 a cache hit (the
 * reader's domain's cache line read; the value used is *@dom's cached),
 * 0 a miss (every counter line read, *@lines of them; with a cache, the
 * caller stores the sum with fa_lay_store()), -1 out of memory.  *@dom:
 * the reader's domain slot with a cache, else NULL.
 */
int fa_lay_read_sum(struct fa_lay_group *g, const struct fa_layout *l,
		    const struct fa_lay_ctx *x, u64 now, struct fa_lay_dom **dom,
		    u32 *lines);

/*
 * fa_lay_read_sum() with the outcome given: a hit when @hit and the layout
 * has a read cache (whatif replaying a recording under its own layout: the
 * kernel's clock decided the hit, fa_replay_layout.c); the lines touched
 * as fa_lay_read_as() touches them, the caller storing after a miss.
 */
int fa_lay_read_sum_as(struct fa_lay_group *g, const struct fa_layout *l,
		       const struct fa_lay_ctx *x, bool hit,
		       struct fa_lay_dom **dom, u32 *lines);

/*
 * A recorded read of the sum by @x->c (report, fa_split.c): @hit as the
 * kernel recorded it (a hit without a cache under @l counts as a miss).
 * The lines it touches as fa_lay_read_sum()'s, a miss with a cache also
 * writing the reader's cache line.  1 a hit, 0 a miss (*@lines counter
 * lines read), -1 out of memory.
 */
int fa_lay_read_as(struct fa_lay_group *g, const struct fa_layout *l,
		   const struct fa_lay_ctx *x, bool hit, u32 *lines);

/* After a miss: @dom's cache computed at @now (its line written). */
int fa_lay_store(struct fa_lay_dom *dom, const struct fa_lay_ctx *x,
		 s64 value, u64 now);

#endif /* FA_LAYOUT_H */
