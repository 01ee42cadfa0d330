/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copy of update_stats_wait_end_fair() of kernel/sched/fair.c,
 * shared by the ports: its body is the same in Linux 6.1.192 (Debian
 * 6.1.0-57-amd64) and 6.12.117 (Debian 6.12.117+deb12-amd64).  A port whose
 * kernel changed it keeps its own copy in its directory, which the include
 * path searches first.  __update_stats_wait_end() is called out of line in
 * vmlinux: a static call (FL_VM(), the port's vmcalls.h).
 *
 * Included by each port's fair_inline.h, after its schedstat_enabled()
 * redirection.
 */
#ifndef FAIRLAB_PORT_UPDATE_STATS_WAIT_END_FAIR_H
#define FAIRLAB_PORT_UPDATE_STATS_WAIT_END_FAIR_H

#include "port.h"		/* compat.h: sched.h, stats.h; vmcalls.h */

/* fair.c */
static inline void
fl_update_stats_wait_end_fair(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_statistics *stats;
	struct task_struct *p = NULL;

	if (!schedstat_enabled())
		return;

	stats = __schedstats_from_se(se);

	/*
	 * When the sched_schedstat changes from 0 to 1, some sched se
	 * maybe already in the runqueue, the se->statistics.wait_start
	 * will be 0.So it will let the delta wrong. We need to avoid this
	 * scenario.
	 */
	if (unlikely(!schedstat_val(stats->wait_start)))
		return;

	if (entity_is_task(se))
		p = task_of(se);

	FL_VM(__update_stats_wait_end)(rq_of(cfs_rq), p, stats);
}

#endif /* FAIRLAB_PORT_UPDATE_STATS_WAIT_END_FAIR_H */
