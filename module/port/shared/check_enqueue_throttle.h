/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copies of account_cfs_rq_runtime() and
 * check_enqueue_throttle() of kernel/sched/fair.c (CONFIG_CFS_BANDWIDTH),
 * which enqueue_entity() inlines, shared by the ports: their bodies are the
 * same in Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64).  A port whose kernel changed them keeps its own
 * copy in its directory, which the include path searches first.
 * __account_cfs_rq_runtime() and throttle_cfs_rq() are called out of line
 * in both vmlinux builds: static calls (FL_VM(), the port's vmcalls.h).
 */
#ifndef FAIRLAB_PORT_CHECK_ENQUEUE_THROTTLE_H
#define FAIRLAB_PORT_CHECK_ENQUEUE_THROTTLE_H

#include "fair_inline.h"	/* fl_cfs_rq_throttled(), fl_cfs_bandwidth_used() */

/* fair.c (CONFIG_CFS_BANDWIDTH) */
static __always_inline
void fl_account_cfs_rq_runtime(struct cfs_rq *cfs_rq, u64 delta_exec)
{
	if (!fl_cfs_bandwidth_used() || !cfs_rq->runtime_enabled)
		return;

	FL_VM(__account_cfs_rq_runtime)(cfs_rq, delta_exec);
}

/*
 * fair.c: When a group wakes up we want to make sure that its quota is not
 * already expired/exceeded, otherwise it may be allowed to steal additional
 * ticks of runtime as update_curr() throttling can not trigger until it's
 * on-rq.  throttle_cfs_rq() is called out of line in vmlinux.
 */
static inline void fl_check_enqueue_throttle(struct cfs_rq *cfs_rq)
{
	if (!fl_cfs_bandwidth_used())
		return;

	/* an active group must be handled by the update_curr()->put() path */
	if (!cfs_rq->runtime_enabled || cfs_rq->curr)
		return;

	/* ensure the group is not already throttled */
	if (fl_cfs_rq_throttled(cfs_rq))
		return;

	/* update runtime allocation */
	fl_account_cfs_rq_runtime(cfs_rq, 0);
	if (cfs_rq->runtime_remaining <= 0)
		FL_VM(throttle_cfs_rq)(cfs_rq);
}

#endif /* FAIRLAB_PORT_CHECK_ENQUEUE_THROTTLE_H */
