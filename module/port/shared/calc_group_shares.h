/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copy of calc_group_shares() of kernel/sched/fair.c, the
 * reader of tg->load_avg, shared by the ports: its body is the same in
 * Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64).  A port whose kernel changed it keeps its own
 * copy in its directory, which the include path searches first.
 *
 * The read of tg->load_avg goes through fl_tg_read() (tg_read.h), which
 * counts it; fl_tg_read_done() records it with what it produced.  Inline
 * in each port's update_cfs_group() (reads.c), as in vmlinux.
 */
#ifndef FAIRLAB_PORT_CALC_GROUP_SHARES_H
#define FAIRLAB_PORT_CALC_GROUP_SHARES_H

#include "fair_inline.h"	/* port.h, fl_throttled_hierarchy() */
#include "tg_read.h"

/*
 * Mirrors calc_group_shares() of Linux 6.1.192 and 6.12.117,
 * kernel/sched/fair.c (CONFIG_SMP).  fair.c's long comment above it
 * derives the approximation:
 *
 *   shares = tg->shares * load / (tg->load_avg - contrib + load),
 *   load = max(scale_load_down(grq->load.weight), grq->avg.load_avg),
 *
 * where subtracting this cfs_rq's published contribution and adding its
 * current load ensures tg_weight >= load.
 */
static __always_inline long fl_calc_group_shares(struct cfs_rq *cfs_rq)
{
	struct task_group *tg = cfs_rq->tg;
	long tg_weight, tg_shares, load, shares, tg_load_avg, contrib;
	bool hit;
	s16 dom;

	tg_shares = READ_ONCE(tg->shares);

	load = max(scale_load_down(cfs_rq->load.weight), cfs_rq->avg.load_avg);

	/* tg->load_avg, or its split layout's sum (tg_read.h) */
	tg_load_avg = fl_tg_read(cfs_rq, &dom, &hit);
	contrib = cfs_rq->tg_load_avg_contrib;

	/* Ensure tg_weight >= load */
	tg_weight = tg_load_avg - contrib + load;

	shares = (tg_shares * load);
	if (tg_weight)
		shares /= tg_weight;

	/*
	 * MIN_SHARES is unscaled here (as in fair.c) so that a group with a
	 * small tg->shares can be split across CPUs: it is the floor weight
	 * of a group entity whose CPU runs nothing of the group.
	 */
	shares = clamp_t(long, shares, MIN_SHARES, tg_shares);
	fl_tg_read_done(cfs_rq, tg_load_avg, load, contrib, tg_shares, shares,
			dom, hit);
	return shares;
}

#endif /* FAIRLAB_PORT_CALC_GROUP_SHARES_H */
