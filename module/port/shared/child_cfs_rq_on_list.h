/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copies of for_each_leaf_cfs_rq_safe(), load_avg_is_decayed()
 * and child_cfs_rq_on_list() of kernel/sched/fair.c
 * (CONFIG_FAIR_GROUP_SCHED), which the blocked-averages update inlines,
 * shared by the ports: their bodies are the same in Linux 6.1.192 (Debian
 * 6.1.0-57-amd64) and 6.12.117 (Debian 6.12.117+deb12-amd64).  A port whose
 * kernel changed them keeps its own copy in its directory, which the
 * include path searches first.
 *
 * Included by each port's blocked.c before its cfs_rq_is_decayed(), whose
 * body differs between the kernels.
 */
#ifndef FAIRLAB_PORT_CHILD_CFS_RQ_ON_LIST_H
#define FAIRLAB_PORT_CHILD_CFS_RQ_ON_LIST_H

#include "port.h"		/* compat.h: sched.h */

/* fair.c: Iterate thr' all leaf cfs_rq's on a runqueue */
#define fl_for_each_leaf_cfs_rq_safe(rq, cfs_rq, pos)			\
	list_for_each_entry_safe(cfs_rq, pos, &rq->leaf_cfs_rq_list,	\
				 leaf_cfs_rq_list)

/* fair.c */
static inline bool fl_load_avg_is_decayed(struct sched_avg *sa)
{
	if (sa->load_sum)
		return false;

	if (sa->util_sum)
		return false;

	if (sa->runnable_sum)
		return false;

	/*
	 * _avg must be null when _sum are null because _avg = _sum / divider
	 * Make sure that rounding and/or propagation of PELT values never
	 * break this.
	 */
	SCHED_WARN_ON(sa->load_avg ||
		      sa->util_avg ||
		      sa->runnable_avg);

	return true;
}

/*
 * fair.c: Because list_add_leaf_cfs_rq always places a child cfs_rq on the
 * list immediately before a parent cfs_rq, and cfs_rqs are removed from the
 * list bottom-up, we only have to test whether the cfs_rq before us on the
 * list is our child.
 * If cfs_rq is not on the list, test whether a child needs its to be added
 * to connect a branch to the tree  * (see list_add_leaf_cfs_rq() for
 * details).
 */
static inline bool fl_child_cfs_rq_on_list(struct cfs_rq *cfs_rq)
{
	struct cfs_rq *prev_cfs_rq;
	struct list_head *prev;
	struct rq *rq = rq_of(cfs_rq);

	if (cfs_rq->on_list) {
		prev = cfs_rq->leaf_cfs_rq_list.prev;
	} else {
		prev = rq->tmp_alone_branch;
	}

	if (prev == &rq->leaf_cfs_rq_list)
		return false;

	prev_cfs_rq = container_of(prev, struct cfs_rq, leaf_cfs_rq_list);

	return (prev_cfs_rq->tg->parent == cfs_rq->tg);
}

#endif /* FAIRLAB_PORT_CHILD_CFS_RQ_ON_LIST_H */
