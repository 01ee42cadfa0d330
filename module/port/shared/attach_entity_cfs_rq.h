/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's replacements of propagate_entity_cfs_rq() and
 * attach_entity_cfs_rq() of kernel/sched/fair.c, and its copy of the
 * detach_entity_cfs_rq() between them, shared by the ports: their bodies
 * are the same in Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117
 * (Debian 6.12.117+deb12-amd64), re-expressed with their update_load_avg()
 * and update_tg_load_avg() calls going to fl_update_load_avg() and
 * fl_tg_update().  A port whose kernel changed them keeps its own copy in
 * its directory, which the include path searches first.
 *
 * Definitions, not inlines: include it from exactly one file of a port
 * (its attach.c), whose port.c names the two replacements.
 */
#ifndef FAIRLAB_PORT_ATTACH_ENTITY_CFS_RQ_H
#define FAIRLAB_PORT_ATTACH_ENTITY_CFS_RQ_H

#include "update_load_avg.h"

/*
 * Mirrors propagate_entity_cfs_rq() of Linux 6.1.192 (Debian
 * 6.1.0-57-amd64) and 6.12.117 (Debian 6.12.117+deb12-amd64),
 * kernel/sched/fair.c.
 */
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
 * detach_task_cfs_rq() on 6.1, and on 6.12 (through detach_task_cfs_rq(),
 * whose body is only this call) into switched_from_fair() and
 * task_change_group_fair().
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

/*
 * Mirrors attach_entity_cfs_rq() of Linux 6.1.192 (Debian 6.1.0-57-amd64)
 * and 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c.
 */
/*
 * attach_entity_load_avg() is called out of line in vmlinux;
 * propagate_entity_cfs_rq() (a tail call in 6.1's vmlinux) is this
 * module's.
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

#endif /* FAIRLAB_PORT_ATTACH_ENTITY_CFS_RQ_H */
