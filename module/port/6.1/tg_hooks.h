/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.1 port's hooks into the shared tg_update core (tg_update.h,
 * tg_update.c): what of update_tg_load_avg() differs between kernels
 * besides the publish decision.  Every port defines the same five; see
 * "Adding a port" in README.md.
 *
 * 6.1.192 has no rate limit of its own (no cfs_rq->last_update_tg_load_avg,
 * added in 6.7): the publish time fairlab's ratelimit policy needs is kept
 * in the module's table (pubtime.c), keyed by group id and CPU (ids are
 * never reused, so a freed group's stamp cannot reach a new one), on
 * sched_clock_cpu(), the clock 6.7's rate limit reads.
 */
#ifndef FAIRLAB_PORT61_TG_HOOKS_H
#define FAIRLAB_PORT61_TG_HOOKS_H

#include <linux/sched/clock.h>
#include "pubtime.h"
#include "policy/fairlab_abi.h"	/* FL_SINCE_NEVER */

u64 fl_tg_id(struct task_group *tg);	/* audit.c; fairlab.h */

/* stock's rate limit in us (the tg_update.policy_arg of stock): none on 6.1 */
#define FL_PORT_STOCK_GATE_US	0

/* True when update_tg_load_avg() returns before deciding: never on 6.1. */
static __always_inline bool fl_port_tg_skip(struct cfs_rq *cfs_rq)
{
	return false;
}

/* The clock publish times are kept in (ns). */
static __always_inline u64 fl_port_tg_clock(struct cfs_rq *cfs_rq, int cpu)
{
	return sched_clock_cpu(cpu);
}

/*
 * ns since @cfs_rq last published, or FL_SINCE_NEVER.  A stamp of 0 means
 * never (fl_port_tg_stamp() stores 1 for a clock of 0); a clock behind
 * the stamp is 0 ns since.
 */
static __always_inline u64 fl_port_tg_since(struct cfs_rq *cfs_rq, int cpu,
					    u64 now)
{
	u64 *last = fl_pubtime_find(fl_tg_id(cfs_rq->tg), cpu, true);

	if (!*last)
		return FL_SINCE_NEVER;
	return now > *last ? now - *last : 0;
}

/*
 * @cfs_rq published at @now.  Every publish stamps, whatever rule decided
 * it and whether traced or not (tg_update.h: fl_tg_stamp_now()), so that
 * after a switch to ratelimit its gate counts from each cfs_rq's true
 * last publish; this costs a table look-up per publish (not per
 * attempt), on a table that stays in cache.
 */
static __always_inline void fl_port_tg_stamp(struct cfs_rq *cfs_rq, int cpu,
					     u64 now)
{
	*fl_pubtime_find(fl_tg_id(cfs_rq->tg), cpu, true) = now ? now : 1;
}

#endif /* FAIRLAB_PORT61_TG_HOOKS_H */
