/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copies of the kernel/sched/fair.c helpers that
 * dequeue_entity() inlines in vmlinux and whose bodies are the same in
 * Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64): account_entity_dequeue() (with
 * account_numa_dequeue()) and update_stats_dequeue_fair().  A port whose
 * kernel changed them keeps its own copy in its directory, which the
 * include path searches first.
 *
 * Included by each port's dequeue.c, which defines before it
 * fl_update_load_sub() (in its dequeue.c or fair_inline.h).
 */
#ifndef FAIRLAB_PORT_DEQUEUE_ENTITY_INLINE_H
#define FAIRLAB_PORT_DEQUEUE_ENTITY_INLINE_H

#include "fair_inline.h"	/* fl_se_is_idle(), fl_update_stats_wait_end_fair() */

#ifdef CONFIG_NUMA_BALANCING
/* fair.c (CONFIG_NUMA_BALANCING) */
static inline void fl_account_numa_dequeue(struct rq *rq, struct task_struct *p)
{
	rq->nr_numa_running -= (p->numa_preferred_nid != NUMA_NO_NODE);
	rq->nr_preferred_running -= (p->numa_preferred_nid == task_node(p));
}
#else
/* fair.c (no CONFIG_NUMA_BALANCING: rt-amd64) */
static inline void fl_account_numa_dequeue(struct rq *rq, struct task_struct *p) { }
#endif

/* fair.c */
static inline void
fl_account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	fl_update_load_sub(&cfs_rq->load, se->load.weight);
	if (entity_is_task(se)) {
		fl_account_numa_dequeue(rq_of(cfs_rq), task_of(se));
		list_del_init(&se->group_node);
	}
	cfs_rq->nr_running--;
	if (fl_se_is_idle(se))
		cfs_rq->idle_nr_running--;
}

/* fair.c */
static inline void
fl_update_stats_dequeue_fair(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{

	if (!schedstat_enabled())
		return;

	/*
	 * Mark the end of the wait period if dequeueing a
	 * waiting task:
	 */
	if (se != cfs_rq->curr)
		fl_update_stats_wait_end_fair(cfs_rq, se);

	if ((flags & DEQUEUE_SLEEP) && entity_is_task(se)) {
		struct task_struct *tsk = task_of(se);
		unsigned int state;

		/* fair.c notes: racy against TTWU */
		state = READ_ONCE(tsk->__state);
		if (state & TASK_INTERRUPTIBLE)
			__schedstat_set(tsk->stats.sleep_start,
				      rq_clock(rq_of(cfs_rq)));
		if (state & TASK_UNINTERRUPTIBLE)
			__schedstat_set(tsk->stats.block_start,
				      rq_clock(rq_of(cfs_rq)));
	}
}

#endif /* FAIRLAB_PORT_DEQUEUE_ENTITY_INLINE_H */
