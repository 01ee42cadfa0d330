/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copies of the kernel/sched/fair.c and stats.h helpers that
 * enqueue_entity() inlines in vmlinux and whose bodies are the same in
 * Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64): account_entity_enqueue() (with
 * account_numa_enqueue()), check_schedstat_required() and the
 * update_stats_*_fair() enqueue trio.  A port whose kernel changed them
 * keeps its own copy in its directory, which the include path searches
 * first.
 *
 * Included by each port's enqueue.c, which defines before it what these
 * reach through the port: fl_update_load_add() and the resolved
 * sched_stat_* tracepoints (fl_tp_sched_stat_*, in its fl_syms_enqueue).
 */
#ifndef FAIRLAB_PORT_ENQUEUE_ENTITY_INLINE_H
#define FAIRLAB_PORT_ENQUEUE_ENTITY_INLINE_H

#include "fair_inline.h"	/* fl_se_is_idle(), schedstat_enabled() */

#ifdef CONFIG_NUMA_BALANCING
/* fair.c (CONFIG_NUMA_BALANCING) */
static inline void fl_account_numa_enqueue(struct rq *rq, struct task_struct *p)
{
	rq->nr_numa_running += (p->numa_preferred_nid != NUMA_NO_NODE);
	rq->nr_preferred_running += (p->numa_preferred_nid == task_node(p));
}
#else
/* fair.c (no CONFIG_NUMA_BALANCING: rt-amd64) */
static inline void fl_account_numa_enqueue(struct rq *rq, struct task_struct *p) { }
#endif

/* fair.c */
static inline void
fl_account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	fl_update_load_add(&cfs_rq->load, se->load.weight);
	if (entity_is_task(se)) {
		struct rq *rq = rq_of(cfs_rq);

		fl_account_numa_enqueue(rq, task_of(se));
		list_add(&se->group_node, &rq->cfs_tasks);
	}
	cfs_rq->nr_running++;
	if (fl_se_is_idle(se))
		cfs_rq->idle_nr_running++;
}

/*
 * stats.h: check_schedstat_required().  The trace_sched_stat_*_enabled()
 * keys are not exported, so they are read through their tracepoints'
 * resolved addresses; printk_deferred_once() calls the resolved
 * _printk_deferred() (not exported), and its once flag is this module's,
 * so the message can appear once more after the patch is applied.
 */
static inline void fl_check_schedstat_required(void)
{
	static bool fl_warned;

	if (schedstat_enabled())
		return;

	/* Force schedstat enabled if a dependent tracepoint is active */
	if (fl_static_key_on(&fl_tp_sched_stat_wait->key)    ||
	    fl_static_key_on(&fl_tp_sched_stat_sleep->key)   ||
	    fl_static_key_on(&fl_tp_sched_stat_iowait->key)  ||
	    fl_static_key_on(&fl_tp_sched_stat_blocked->key) ||
	    fl_static_key_on(&fl_tp_sched_stat_runtime->key)) {
		if (!fl_warned) {
			fl_warned = true;
			FL_VM(_printk_deferred)("Scheduler tracepoints stat_sleep, stat_iowait, stat_blocked and stat_runtime require the kernel parameter schedstats=enable or kernel.sched_schedstats=1\n");
		}
	}
}

/* fair.c */
static inline void
fl_update_stats_wait_start_fair(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_statistics *stats;
	struct task_struct *p = NULL;

	if (!schedstat_enabled())
		return;

	stats = __schedstats_from_se(se);

	if (entity_is_task(se))
		p = task_of(se);

	FL_VM(__update_stats_wait_start)(rq_of(cfs_rq), p, stats);
}

/* fair.c */
static inline void
fl_update_stats_enqueue_sleeper_fair(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_statistics *stats;
	struct task_struct *tsk = NULL;

	if (!schedstat_enabled())
		return;

	stats = __schedstats_from_se(se);

	if (entity_is_task(se))
		tsk = task_of(se);

	FL_VM(__update_stats_enqueue_sleeper)(rq_of(cfs_rq), tsk, stats);
}

/* fair.c: Task is being enqueued - update stats */
static inline void
fl_update_stats_enqueue_fair(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	if (!schedstat_enabled())
		return;

	/*
	 * Are we enqueueing a waiting task? (for current tasks
	 * a dequeue/enqueue event is a NOP)
	 */
	if (se != cfs_rq->curr)
		fl_update_stats_wait_start_fair(cfs_rq, se);

	if (flags & ENQUEUE_WAKEUP)
		fl_update_stats_enqueue_sleeper_fair(cfs_rq, se);
}

#endif /* FAIRLAB_PORT_ENQUEUE_ENTITY_INLINE_H */
