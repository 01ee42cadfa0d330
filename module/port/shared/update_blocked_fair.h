/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copy of __update_blocked_fair() of kernel/sched/fair.c
 * (CONFIG_FAIR_GROUP_SCHED), and of the two helpers only it inlines,
 * skip_blocked_update() and cfs_rq_has_blocked(), shared by the ports:
 * their bodies are the same in Linux 6.1.192 (Debian 6.1.0-57-amd64) and
 * 6.12.117 (Debian 6.12.117+deb12-amd64).  A port whose kernel changed them
 * keeps its own copy in its directory, which the include path searches
 * first.
 *
 * Included by each port's blocked.c, which defines before it the leaf-list
 * helpers whose bodies differ between the kernels (fl_cfs_rq_is_decayed(),
 * fl_list_del_leaf_cfs_rq()) and fl_for_each_leaf_cfs_rq_safe().
 */
#ifndef FAIRLAB_PORT_UPDATE_BLOCKED_FAIR_H
#define FAIRLAB_PORT_UPDATE_BLOCKED_FAIR_H

#include "update_load_avg.h"

/*
 * fair.c: Check if we need to update the load and the utilization of a
 * blocked group_entity:
 */
static inline bool fl_skip_blocked_update(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se);

	/*
	 * If sched_entity still have not zero load or utilization, we have to
	 * decay it:
	 */
	if (se->avg.load_avg || se->avg.util_avg)
		return false;

	/*
	 * If there is a pending propagation, we have to update the load and
	 * the utilization of the sched_entity:
	 */
	if (gcfs_rq->propagate)
		return false;

	/*
	 * Otherwise, the load and the utilization of the sched_entity is
	 * already zero and there is no pending propagation, so it will be a
	 * waste of time to try to decay it:
	 */
	return true;
}

/* fair.c (CONFIG_NO_HZ_COMMON) */
static inline bool fl_cfs_rq_has_blocked(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->avg.load_avg)
		return true;

	if (cfs_rq->avg.util_avg)
		return true;

	return false;
}

/*
 * fair.c (CONFIG_FAIR_GROUP_SCHED): __update_blocked_fair().  Its direct
 * update_tg_load_avg() is fl_tg_update(.., FL_SITE_BLOCKED_DIRECT), the
 * "forced" path of 3.x; the group se's update_load_avg() is
 * FL_SITE_BLOCKED_SE.
 */
static inline bool fl___update_blocked_fair(struct rq *rq, bool *done)
{
	struct cfs_rq *cfs_rq, *pos;
	bool decayed = false;
	int cpu = cpu_of(rq);

	/*
	 * Iterates the task_group tree in a bottom up fashion, see
	 * list_add_leaf_cfs_rq() for details.
	 */
	fl_for_each_leaf_cfs_rq_safe(rq, cfs_rq, pos) {
		struct sched_entity *se;

		if (fl_update_cfs_rq_load_avg(cfs_rq_clock_pelt(cfs_rq), cfs_rq)) {
			fl_tg_update(cfs_rq, FL_SITE_BLOCKED_DIRECT);

			if (cfs_rq->nr_running == 0)
				update_idle_cfs_rq_clock_pelt(cfs_rq);

			if (cfs_rq == &rq->cfs)
				decayed = true;
		}

		/* Propagate pending load changes to the parent, if any: */
		se = cfs_rq->tg->se[cpu];
		if (se && !fl_skip_blocked_update(se))
			fl_update_load_avg(cfs_rq_of(se), se, UPDATE_TG,
					   FL_SITE_BLOCKED_SE);

		/*
		 * There can be a lot of idle CPU cgroups.  Don't let fully
		 * decayed cfs_rqs linger on the list.
		 */
		if (fl_cfs_rq_is_decayed(cfs_rq))
			fl_list_del_leaf_cfs_rq(cfs_rq);

		/* Don't need periodic decay once load/util_avg are null */
		if (fl_cfs_rq_has_blocked(cfs_rq))
			*done = false;
	}

	return decayed;
}

#endif /* FAIRLAB_PORT_UPDATE_BLOCKED_FAIR_H */
