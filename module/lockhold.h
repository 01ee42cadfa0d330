/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockhold.c: one CPU's rq lock held for one bounded batch (after port.h,
 * which brings struct rq and struct rq_flags).
 */
#ifndef FAIRLAB_LOCKHOLD_H
#define FAIRLAB_LOCKHOLD_H

struct fl_rq_hold {
	struct rq *rq;
	struct rq_flags rf;
	u64 t0;
	unsigned int locks;	/* rq locks fairlab held once this one was */
};

void fl_rq_hold_begin(struct fl_rq_hold *h, int cpu);
void fl_rq_hold_end(struct fl_rq_hold *h, unsigned int kind,
		    unsigned int groups);

/*
 * The bounded walk the resync and the layout's seed and fold share:
 * @fn(tg, cpu, @arg) for every task group but the root, under @cpu's rq
 * lock, at most FL_RESYNC_GROUPS_PER_HOLD groups per hold (@kind counts
 * it), one RCU read-side section per CPU that keeps the cursor group
 * valid between holds.  Process context.
 */
typedef void (*fl_rq_walk_fn)(struct task_group *tg, int cpu, void *arg);
void fl_rq_walk_cpu(int cpu, fl_rq_walk_fn fn, void *arg, unsigned int kind);
/* fl_rq_walk_cpu() on every possible CPU, cond_resched() between them. */
void fl_rq_walk_all(fl_rq_walk_fn fn, void *arg, unsigned int kind);

#endif /* FAIRLAB_LOCKHOLD_H */
