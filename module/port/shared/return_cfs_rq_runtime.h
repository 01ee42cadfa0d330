/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copy of return_cfs_rq_runtime() of kernel/sched/fair.c
 * (CONFIG_CFS_BANDWIDTH), and of what it inlines, shared by the ports:
 * their bodies and fair.c's three bandwidth constants are the same in Linux
 * 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64).  A port whose kernel changed them keeps its own
 * copy in its directory, which the include path searches first.
 *
 * dequeue_entity() inlines return_cfs_rq_runtime() in vmlinux; each port's
 * dequeue.c includes this after resolving fl_sysctl_sched_cfs_bandwidth_slice
 * (sysctl_sched_cfs_bandwidth_slice, static in fair.c) in its fl_syms_dequeue.
 */
#ifndef FAIRLAB_PORT_RETURN_CFS_RQ_RUNTIME_H
#define FAIRLAB_PORT_RETURN_CFS_RQ_RUNTIME_H

#include "fair_inline.h"	/* fl_tg_cfs_bandwidth(), fl_cfs_bandwidth_used() */

/* fair.c: minimum remaining period time to redistribute slack quota */
static const u64 fl_min_bandwidth_expiration = 2 * NSEC_PER_MSEC;
/* fair.c: how long we wait to gather additional slack before distributing */
static const u64 fl_cfs_bandwidth_slack_period = 5 * NSEC_PER_MSEC;
/* fair.c */
static const u64 fl_min_cfs_rq_runtime = 1 * NSEC_PER_MSEC;

/* fair.c */
static inline u64 fl_sched_cfs_bandwidth_slice(void)
{
	return (u64)*fl_sysctl_sched_cfs_bandwidth_slice * NSEC_PER_USEC;
}

/*
 * fair.c: Are we near the end of the current quota period?
 *
 * Requires cfs_b->lock for hrtimer_expires_remaining to be safe against the
 * hrtimer base being cleared by hrtimer_start. In the case of
 * migrate_hrtimers, base is never cleared, so we are fine.
 */
static inline int fl_runtime_refresh_within(struct cfs_bandwidth *cfs_b, u64 min_expire)
{
	struct hrtimer *refresh_timer = &cfs_b->period_timer;
	s64 remaining;

	/* if the call-back is running a quota refresh is already occurring */
	if (hrtimer_callback_running(refresh_timer))
		return 1;

	/* is a quota refresh about to occur? */
	remaining = ktime_to_ns(hrtimer_expires_remaining(refresh_timer));
	if (remaining < (s64)min_expire)
		return 1;

	return 0;
}

/* fair.c */
static inline void fl_start_cfs_slack_bandwidth(struct cfs_bandwidth *cfs_b)
{
	u64 min_left = fl_cfs_bandwidth_slack_period + fl_min_bandwidth_expiration;

	/* if there's a quota refresh soon don't bother with slack */
	if (fl_runtime_refresh_within(cfs_b, min_left))
		return;

	/* don't push forwards an existing deferred unthrottle */
	if (cfs_b->slack_started)
		return;
	cfs_b->slack_started = true;

	hrtimer_start(&cfs_b->slack_timer,
			ns_to_ktime(fl_cfs_bandwidth_slack_period),
			HRTIMER_MODE_REL);
}

/* fair.c: we know any runtime found here is valid as update_curr() precedes return */
static inline void fl___return_cfs_rq_runtime(struct cfs_rq *cfs_rq)
{
	struct cfs_bandwidth *cfs_b = fl_tg_cfs_bandwidth(cfs_rq->tg);
	s64 slack_runtime = cfs_rq->runtime_remaining - fl_min_cfs_rq_runtime;

	if (slack_runtime <= 0)
		return;

	raw_spin_lock(&cfs_b->lock);
	if (cfs_b->quota != RUNTIME_INF) {
		cfs_b->runtime += slack_runtime;

		/* we are under rq->lock, defer unthrottling using a timer */
		if (cfs_b->runtime > fl_sched_cfs_bandwidth_slice() &&
		    !list_empty(&cfs_b->throttled_cfs_rq))
			fl_start_cfs_slack_bandwidth(cfs_b);
	}
	raw_spin_unlock(&cfs_b->lock);

	/* even if it's not valid for return we don't want to try again */
	cfs_rq->runtime_remaining -= slack_runtime;
}

/* fair.c (CONFIG_CFS_BANDWIDTH) */
static __always_inline void fl_return_cfs_rq_runtime(struct cfs_rq *cfs_rq)
{
	if (!fl_cfs_bandwidth_used())
		return;

	if (!cfs_rq->runtime_enabled || cfs_rq->nr_running)
		return;

	fl___return_cfs_rq_runtime(cfs_rq);
}

#endif /* FAIRLAB_PORT_RETURN_CFS_RQ_RUNTIME_H */
