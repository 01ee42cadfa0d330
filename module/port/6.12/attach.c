// SPDX-License-Identifier: GPL-2.0
/*
 * propagate_entity_cfs_rq(), attach_entity_cfs_rq(), switched_from_fair()
 * and task_change_group_fair() of Linux 6.12.117 (Debian
 * 6.12.117+deb12-amd64), kernel/sched/fair.c, re-expressed with their
 * update_load_avg() and update_tg_load_avg() calls going to
 * fl_update_load_avg() and fl_tg_update().
 *
 * 6.12 differs from 6.1 here: detach_task_cfs_rq() no longer fixes up
 * vruntime (EEVDF keeps it relative), and it is inlined, with
 * detach_entity_cfs_rq(), into both switched_from_fair() and
 * task_change_group_fair() (surface.txt), which are replaced instead of
 * it.  Each of those two inlines one copy of update_tg_load_avg().
 */
#include "update_load_avg.h"

/* Mirrors propagate_entity_cfs_rq() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
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

/*
 * fair.c: detach_entity_cfs_rq(), inlined in vmlinux into
 * switched_from_fair() and task_change_group_fair() (through
 * detach_task_cfs_rq(), whose 6.12 body is only this call).
 */
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

/* Mirrors attach_entity_cfs_rq() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * attach_entity_load_avg() is called out of line in vmlinux;
 * propagate_entity_cfs_rq() is this module's.
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

/* Mirrors switched_from_fair() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/* detach_task_cfs_rq(p), inlined in vmlinux, is detach_entity_cfs_rq(&p->se). */
void fl_switched_from_fair(struct rq *rq, struct task_struct *p)
{
	fl_detach_entity_cfs_rq(&p->se);
}

/*
 * sched.h: set_task_rq() (CONFIG_FAIR_GROUP_SCHED, no CONFIG_RT_GROUP_SCHED
 * in this build), re-expressed because its set_task_rq_fair() call names
 * a vmlinux function that is not exported: a static call here.
 */
static inline void fl_set_task_rq(struct task_struct *p, unsigned int cpu)
{
	struct task_group *tg = task_group(p);

	BUILD_BUG_ON(IS_ENABLED(CONFIG_RT_GROUP_SCHED));
	FL_VM(set_task_rq_fair)(&p->se, p->se.cfs_rq, tg->cfs_rq[cpu]);
	p->se.cfs_rq = tg->cfs_rq[cpu];
	p->se.parent = tg->se[cpu];
	p->se.depth = tg->se[cpu] ? tg->se[cpu]->depth + 1 : 0;
}

/* Mirrors task_change_group_fair() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * detach_task_cfs_rq() is inlined in vmlinux (re-expressed above);
 * attach_task_cfs_rq() is attach_entity_cfs_rq(&p->se), a call of the
 * out-of-line attach_entity_cfs_rq() in vmlinux, which this port replaces:
 * the module's own is called directly (the patched path, without the
 * ftrace hop).
 */
void fl_task_change_group_fair(struct task_struct *p)
{
	/*
	 * We couldn't detach or attach a forked task which
	 * hasn't been woken up by wake_up_new_task().
	 */
	if (READ_ONCE(p->__state) == TASK_NEW)
		return;

	fl_detach_entity_cfs_rq(&p->se);

	/* Tell se's cfs_rq has been changed -- migrated */
	p->se.avg.last_update_time = 0;
	fl_set_task_rq(p, task_cpu(p));
	fl_attach_entity_cfs_rq(&p->se);
}
