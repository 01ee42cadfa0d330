// SPDX-License-Identifier: GPL-2.0
/*
 * switched_from_fair() and task_change_group_fair() of Linux 6.12.117
 * (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c, re-expressed with
 * the update_load_avg() and update_tg_load_avg() calls they inline going
 * to fl_update_load_avg() and fl_tg_update().  propagate_entity_cfs_rq()
 * and attach_entity_cfs_rq(), and the detach_entity_cfs_rq() both inline,
 * are the same in 6.1.192: their replacements are port/shared/'s,
 * compiled here.
 *
 * 6.12 differs from 6.1 here: detach_task_cfs_rq() no longer fixes up
 * vruntime (EEVDF keeps it relative), and it is inlined, with
 * detach_entity_cfs_rq(), into both switched_from_fair() and
 * task_change_group_fair() (surface.txt), which are replaced instead of
 * it.  Each of those two inlines one copy of update_tg_load_avg().
 */
#include "attach_entity_cfs_rq.h"

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
