// SPDX-License-Identifier: GPL-2.0
/*
 * propagate_entity_cfs_rq(), attach_entity_cfs_rq() and detach_task_cfs_rq()
 * (with the detach_entity_cfs_rq() it inlines) of Linux 6.1.192 (Debian
 * 6.1.0-57-amd64), kernel/sched/fair.c, re-expressed with their
 * update_load_avg() and update_tg_load_avg() calls going to
 * fl_update_load_avg() and fl_tg_update().
 */
#include "update_load_avg.h"

/* Mirrors propagate_entity_cfs_rq() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * Propagate the changes of the sched_entity across the tg tree to make it
 * visible to the root.
 */
void fl_propagate_entity_cfs_rq(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (fl_cfs_rq_throttled(cfs_rq))
		return;

	if (!fl_throttled_hierarchy(cfs_rq))
		fl_list_add_leaf_cfs_rq(cfs_rq);

	/* Start to propagate at parent */
	se = se->parent;

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);

		fl_update_load_avg(cfs_rq, se, UPDATE_TG, FL_SITE_PROPAGATE_ENTITY);

		if (fl_cfs_rq_throttled(cfs_rq))
			break;

		if (!fl_throttled_hierarchy(cfs_rq))
			fl_list_add_leaf_cfs_rq(cfs_rq);
	}
}

/* fair.c: detach_entity_cfs_rq() (inlined into detach_task_cfs_rq()) */
static inline void fl_detach_entity_cfs_rq(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	/*
	 * In case the task sched_avg hasn't been attached:
	 * - A forked task which hasn't been woken up by wake_up_new_task().
	 * - A task which has been woken up by try_to_wake_up() but is
	 *   waiting for actually being woken up by sched_ttwu_pending().
	 */
	if (!se->avg.last_update_time)
		return;

	/* Catch up with the cfs_rq and remove our load when we leave */
	fl_update_load_avg(cfs_rq, se, 0, FL_SITE_DETACH_ULA);
	FL_VM(detach_entity_load_avg)(cfs_rq, se);
	fl_tg_update(cfs_rq, FL_SITE_DETACH_DIRECT);
	fl_propagate_entity_cfs_rq(se);
}

/* Mirrors attach_entity_cfs_rq() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * attach_entity_load_avg() is called out of line in vmlinux;
 * propagate_entity_cfs_rq() (a tail call in vmlinux) is this module's.
 */
void fl_attach_entity_cfs_rq(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	/* Synchronize entity with its cfs_rq */
	fl_update_load_avg(cfs_rq, se, sched_feat(ATTACH_AGE_LOAD) ? 0 : SKIP_AGE_LOAD,
			   FL_SITE_ATTACH_ULA);
	FL_VM(attach_entity_load_avg)(cfs_rq, se);
	fl_tg_update(cfs_rq, FL_SITE_ATTACH_DIRECT);
	fl_propagate_entity_cfs_rq(se);
}

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
