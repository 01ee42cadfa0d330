/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tg_layout: where each task group's load sum lives.
 *
 *   global  tg->load_avg, the kernel's one counter (the default);
 *   node    one counter per NUMA node (cpu_to_node());
 *   llc     one counter per last-level cache (the scheduler's sd_llc_id);
 *   node:US, llc:US  the same with a read cache refreshed every US us.
 *
 * Under a split layout every group that got a block at the switch keeps
 * one counter line per domain (and one read-cache line per domain); the
 * writers of a CPU add their deltas to its domain's counter, a read of
 * the group's sum adds tg->load_avg and every domain counter.  At every
 * instant, for every group:
 *
 *   tg->load_avg + Σ domain counters == Σ cfs_rq->tg_load_avg_contrib
 *
 * (the audit checks it exactly), so a write of tg->load_avg the module
 * does not replace stays right.  While split, a group with a block holds
 * 0 in tg->load_avg: its seed moved every CPU's contribution into that
 * CPU's domain.  Groups without a block (created after the switch, or
 * the table full, or no memory) stay global for reads and writes, and are
 * counted (stats: layout_groups).
 *
 * This header: the state the hot path reads (layout_hot.h); layout.c:
 * switch, seed, fold, allocation, the stats and audit sides.
 */
#ifndef FAIRLAB_LAYOUT_H
#define FAIRLAB_LAYOUT_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/jump_label.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct task_group;

/*
 * The table from a group to its block: 2^FL_LAY_BITS entries, open
 * addressing, a group at most FL_LAY_PROBES slots from its hash: a lookup
 * reads at most that many entries.  A group that finds no free slot
 * within them stays global (counted: full).
 */
#define FL_LAY_BITS	12
#define FL_LAY_SIZE	(1U << FL_LAY_BITS)
#define FL_LAY_PROBES	8

/* A domain's counter: a line of its own, written by its CPUs' publishes. */
struct fl_lay_ctr {
	atomic_long_t sum;
} ____cacheline_aligned;

/*
 * A domain's read cache, on its own line so that a hit does not share the
 * line the domain's writers write (the analyzer's model, fa_layout.h):
 * the sum its readers last computed and when (ktime_get_mono_fast_ns(),
 * the clock of "trace-cmd record -C mono"; 0: none yet).
 */
struct fl_lay_cache {
	long sum;
	u64 at_ns;
} ____cacheline_aligned;

struct fl_lay_dom {
	struct fl_lay_ctr ctr;
	struct fl_lay_cache cache;
};

/* One group's block: a header line, then nr_dom domains, then its bitmap. */
struct fl_lay_blk {
	void *raw;			/* what kzalloc() returned (kfree) */
	/*
	 * The CPUs whose contribution lives in their domain's counter: set
	 * by the seed, cleared by the fold, each under that CPU's rq lock,
	 * so a writer (under the same lock) sees a CPU either wholly in
	 * tg->load_avg or wholly in its domain.
	 */
	unsigned long *seeded;
	struct fl_lay_dom dom[];
};

struct fl_lay_ent {
	struct task_group *tg;		/* NULL: free (ends a probe) */
	u64 id;				/* fl_tg_id() at the switch */
	struct fl_lay_blk *blk;
};

/* A split layout in force: made whole at the switch, then read-only. */
struct fl_layout {
	u8 id;				/* enum fl_layout_id, not global */
	u32 refresh_us;			/* read cache: 0 none */
	u64 refresh_ns;
	unsigned int nr_dom;
	unsigned int blocks;		/* groups with a block */
	unsigned int nomem, full, late;	/* groups left global, and why */
	u16 *dom_of;			/* [nr_cpu_ids]: each CPU's domain */
	struct fl_lay_ent tab[FL_LAY_SIZE];
};

/* Set while a split layout is published; off, the hot path pays a nop. */
DECLARE_STATIC_KEY_FALSE(fl_lay_split);
extern struct fl_layout __rcu *fl_lay_cur;

/* Under fl_switch_lock (params.c), process context, may sleep. */
int fl_layout_apply(u8 id, u32 refresh_us);	/* fold, then build and seed */
void fl_layout_get(u8 *id, u32 *refresh_us);	/* the layout in force */

/* The audit's look at @tg (caller holds fl_audit_lock, in RCU): Σ domains. */
bool fl_layout_audit(struct task_group *tg, s64 *sum_domains);

/* Its lines of /sys/kernel/fairlab/stats. */
int fl_layout_show(char *buf, int at);

#endif /* FAIRLAB_LAYOUT_H */
