/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot-path side of tg_layout (layout.h): where a publish goes and
 * what a read of a group's sum returns.  Inline in the replaced
 * functions, under the rq lock of the cfs_rq written or read (IRQs off:
 * an RCU-sched reader of fl_lay_cur).  Under the global layout each
 * helper is a static-key nop and the kernel's own access to
 * tg->load_avg; under a split one, a bounded lookup (FL_LAY_PROBES
 * entries) and, for a read, one pass over the group's domains.
 * Included by tg_update.h and tg_read.h, after sched.h.
 */
#ifndef FAIRLAB_LAYOUT_HOT_H
#define FAIRLAB_LAYOUT_HOT_H

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/timekeeping.h>
#include "fairlab.h"
#include "layout.h"

/* @tg's block under @l, or NULL (a group the switch left global). */
static __always_inline struct fl_lay_blk *fl_lay_find(const struct fl_layout *l,
						      struct task_group *tg)
{
	unsigned int i = hash_ptr(tg, FL_LAY_BITS), n;

	for (n = 0; n < FL_LAY_PROBES; n++, i = (i + 1) & (FL_LAY_SIZE - 1)) {
		const struct fl_lay_ent *e = &l->tab[i];

		if (!e->tg)
			return NULL;
		/* the id tells a group made later at a freed one's address */
		if (e->tg == tg)
			return e->id == fl_tg_id(tg) ? e->blk : NULL;
	}
	return NULL;
}

/*
 * The counter a publish of @tg's cfs_rq on @cpu adds its delta to, and
 * its domain in *@dom (-1: tg->load_avg).  Caller holds @cpu's rq lock.
 */
static __always_inline atomic_long_t *fl_lay_target(struct task_group *tg,
						    int cpu, s16 *dom)
{
	const struct fl_layout *l;
	struct fl_lay_blk *b;

	*dom = -1;
	if (!static_branch_unlikely(&fl_lay_split))
		return &tg->load_avg;
	l = rcu_dereference_sched(fl_lay_cur);
	if (!l)
		return &tg->load_avg;
	b = fl_lay_find(l, tg);
	if (!b || !test_bit(cpu, b->seeded))
		return &tg->load_avg;
	*dom = l->dom_of[cpu];
	return &b->dom[*dom].ctr.sum;
}

/*
 * @tg's sum of load as a reader on @cpu sees it: tg->load_avg plus every
 * domain counter, or, with a read cache, the sum the reader's domain
 * computed less than refresh_us ago (*@hit; only that domain's cache line
 * read).  A miss stores the sum it computed, and the time, in the
 * domain's cache.  *@dom: the reader's domain, -1 when the read is
 * global.  Readers of one domain race on its cache line without a lock:
 * the time is written after the sum (and read before it), so a hit
 * returns a sum at least as new as the time it was judged by.
 */
static __always_inline long fl_lay_read(struct task_group *tg, int cpu,
					s16 *dom, bool *hit)
{
	const struct fl_layout *l;
	struct fl_lay_cache *c;
	struct fl_lay_blk *b;
	u64 now = 0, at;
	unsigned int i;
	long sum;

	*dom = -1;
	*hit = false;
	if (!static_branch_unlikely(&fl_lay_split))
		return atomic_long_read(&tg->load_avg);
	l = rcu_dereference_sched(fl_lay_cur);
	b = l ? fl_lay_find(l, tg) : NULL;
	if (!b)
		return atomic_long_read(&tg->load_avg);
	*dom = l->dom_of[cpu];
	c = &b->dom[*dom].cache;
	if (l->refresh_ns) {
		now = ktime_get_mono_fast_ns();
		at = READ_ONCE(c->at_ns);
		if (at && now >= at && now - at < l->refresh_ns) {
			smp_rmb();	/* the sum stored before that time */
			*hit = true;
			return READ_ONCE(c->sum);
		}
	}
	sum = atomic_long_read(&tg->load_avg);
	for (i = 0; i < l->nr_dom; i++)
		sum += atomic_long_read(&b->dom[i].ctr.sum);
	if (l->refresh_ns) {
		WRITE_ONCE(c->sum, sum);
		smp_wmb();	/* the sum before its time */
		WRITE_ONCE(c->at_ns, now ? now : 1);
	}
	return sum;
}

#endif /* FAIRLAB_LAYOUT_HOT_H */
