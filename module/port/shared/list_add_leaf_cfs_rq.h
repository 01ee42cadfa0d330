/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copies of cfs_rq_throttled(), throttled_hierarchy() and
 * list_add_leaf_cfs_rq() of kernel/sched/fair.c (CONFIG_CFS_BANDWIDTH,
 * CONFIG_FAIR_GROUP_SCHED), shared by the ports: their bodies are the same
 * in Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64).  A port whose kernel changed them keeps its own
 * copy in its directory, which the include path searches first.
 *
 * Included by each port's fair_inline.h, after its port.h.
 */
#ifndef FAIRLAB_PORT_LIST_ADD_LEAF_CFS_RQ_H
#define FAIRLAB_PORT_LIST_ADD_LEAF_CFS_RQ_H

#include "port.h"		/* compat.h: sched.h, fl_cfs_bandwidth_used() */

/* fair.c */
static inline int fl_cfs_rq_throttled(struct cfs_rq *cfs_rq)
{
	return fl_cfs_bandwidth_used() && cfs_rq->throttled;
}

/* fair.c: check whether cfs_rq, or any parent, is throttled */
static inline int fl_throttled_hierarchy(struct cfs_rq *cfs_rq)
{
	return fl_cfs_bandwidth_used() && cfs_rq->throttle_count;
}

/* fair.c (CONFIG_FAIR_GROUP_SCHED) */
static inline bool fl_list_add_leaf_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	int cpu = cpu_of(rq);

	if (cfs_rq->on_list)
		return rq->tmp_alone_branch == &rq->leaf_cfs_rq_list;

	cfs_rq->on_list = 1;

	/*
	 * Ensure we either appear before our parent (if already
	 * enqueued) or force our parent to appear after us when it is
	 * enqueued. The fact that we always enqueue bottom-up
	 * reduces this to two cases and a special case for the root
	 * cfs_rq. Furthermore, it also means that we will always reset
	 * tmp_alone_branch either when the branch is connected
	 * to a tree or when we reach the top of the tree
	 */
	if (cfs_rq->tg->parent &&
	    cfs_rq->tg->parent->cfs_rq[cpu]->on_list) {
		/*
		 * If parent is already on the list, we add the child
		 * just before. Thanks to circular linked property of
		 * the list, this means to put the child at the tail
		 * of the list that starts by parent.
		 */
		list_add_tail_rcu(&cfs_rq->leaf_cfs_rq_list,
			&(cfs_rq->tg->parent->cfs_rq[cpu]->leaf_cfs_rq_list));
		/*
		 * The branch is now connected to its tree so we can
		 * reset tmp_alone_branch to the beginning of the
		 * list.
		 */
		rq->tmp_alone_branch = &rq->leaf_cfs_rq_list;
		return true;
	}

	if (!cfs_rq->tg->parent) {
		/*
		 * cfs rq without parent should be put
		 * at the tail of the list.
		 */
		list_add_tail_rcu(&cfs_rq->leaf_cfs_rq_list,
			&rq->leaf_cfs_rq_list);
		/*
		 * We have reach the top of a tree so we can reset
		 * tmp_alone_branch to the beginning of the list.
		 */
		rq->tmp_alone_branch = &rq->leaf_cfs_rq_list;
		return true;
	}

	/*
	 * The parent has not already been added so we want to
	 * make sure that it will be put after us.
	 * tmp_alone_branch points to the begin of the branch
	 * where we will add parent.
	 */
	list_add_rcu(&cfs_rq->leaf_cfs_rq_list, rq->tmp_alone_branch);
	/*
	 * update tmp_alone_branch to points to the new begin
	 * of the branch
	 */
	rq->tmp_alone_branch = &cfs_rq->leaf_cfs_rq_list;
	return false;
}

#endif /* FAIRLAB_PORT_LIST_ADD_LEAF_CFS_RQ_H */
