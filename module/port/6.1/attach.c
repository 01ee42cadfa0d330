// SPDX-License-Identifier: GPL-2.0
/*
 * detach_task_cfs_rq() of Linux 6.1.192 (Debian 6.1.0-57-amd64),
 * kernel/sched/fair.c, re-expressed with its update_load_avg() and
 * update_tg_load_avg() calls going to fl_update_load_avg() and
 * fl_tg_update().  propagate_entity_cfs_rq() and attach_entity_cfs_rq(),
 * and the detach_entity_cfs_rq() detach_task_cfs_rq() inlines, are the
 * same in 6.12.117: their replacements are port/shared/'s, compiled here.
 */
#include "attach_entity_cfs_rq.h"

/* fair.c */
static inline bool fl_vruntime_normalized(struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	/*
	 * In both the TASK_ON_RQ_QUEUED and TASK_ON_RQ_MIGRATING cases,
	 * the dequeue_entity(.flags=0) will already have normalized the
	 * vruntime.
	 */
	if (p->on_rq)
		return true;

	/*
	 * When !on_rq, vruntime of the task has usually NOT been normalized.
	 * But there are some cases where it has already been normalized:
	 *
	 * - A forked child which is waiting for being woken up by
	 *   wake_up_new_task().
	 * - A task which has been woken up by try_to_wake_up() and
	 *   waiting for actually being woken up by sched_ttwu_pending().
	 */
	if (!se->sum_exec_runtime ||
	    (READ_ONCE(p->__state) == TASK_WAKING && p->sched_remote_wakeup))
		return true;

	return false;
}

/* Mirrors detach_task_cfs_rq() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * place_entity() and detach_entity_load_avg() are called out of line in
 * vmlinux; vruntime_normalized() and detach_entity_cfs_rq() (inlined in
 * vmlinux) are re-expressed above, propagate_entity_cfs_rq() is this
 * module's.
 */
void fl_detach_task_cfs_rq(struct task_struct *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (!fl_vruntime_normalized(p)) {
		/*
		 * Fix up our vruntime so that the current sleep doesn't
		 * cause 'unlimited' sleep bonus.
		 */
		FL_VM(place_entity)(cfs_rq, se, 0);
		se->vruntime -= cfs_rq->min_vruntime;
	}

	fl_detach_entity_cfs_rq(se);
}
