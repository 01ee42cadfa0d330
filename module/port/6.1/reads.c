// SPDX-License-Identifier: GPL-2.0
/*
 * update_cfs_group() of Linux 6.1.192 (Debian 6.1.0-57-amd64),
 * kernel/sched/fair.c: the reader of tg->load_avg (calc_group_shares(),
 * inlined into it in vmlinux; surface.txt, "readers").  Replaced so that
 * every read is counted and traced (fl_calc_group_shares(),
 * calc_group_shares.h).  The port's replaced functions call
 * fl_update_cfs_group() directly; klp redirects vmlinux's own callers.
 */
#include "calc_group_shares.h"

/* Mirrors update_cfs_group() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * Recomputes the group entity based on the current state of its group
 * runqueue.  CONFIG_SMP=y on the ported build; reweight_entity() is out of
 * line in vmlinux.
 */
void fl_update_cfs_group(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se);
	long shares;

	if (!gcfs_rq)
		return;

	if (fl_throttled_hierarchy(gcfs_rq))
		return;

	shares = fl_calc_group_shares(gcfs_rq);

	FL_VM(reweight_entity)(cfs_rq_of(se), se, shares);
}
