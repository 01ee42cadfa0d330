/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fl_tg_read(): the one way the ports read tg->load_avg to weigh a group
 * entity (calc_group_shares(), port/shared/calc_group_shares.h).  Every
 * read is counted on the reading CPU (the tg_read rows of
 * /sys/kernel/fairlab/stats) and, while fairlab:tg_read is enabled,
 * recorded with the inputs and result of the shares computed from it.
 *
 * Version-independent: a port supplies the computation, this header the
 * counting and the trace.  Inline in the port's update_cfs_group(): with
 * tracing off a read adds a per-CPU increment and a jump-label nop to the
 * kernel's (make bench-profile on 6.1: 35.1 instructions per call against
 * vmlinux's 25.8).  Included by port.h, after sched.h; callers hold the
 * rq lock.
 */
#ifndef FAIRLAB_TG_READ_H
#define FAIRLAB_TG_READ_H

#include "fairlab.h"
#include "fairlab_trace_events.h"

/*
 * The record of one read, out of line.  Its inputs travel as scalars, in
 * registers: a struct passed by address had to be built on the stack in
 * every update_cfs_group() (a frame and a stack-protector check, +21
 * instructions per call on 6.1 in make bench-profile) even with tracing
 * off.
 */
void fl_tg_read_trace(struct cfs_rq *cfs_rq, long tg_load_avg, long load,
		      long contrib, long tg_shares, long shares);

/* Read @tg->load_avg and count the read on this CPU. */
static __always_inline long fl_tg_read(struct task_group *tg)
{
	this_cpu_inc(fl_stats->tg_reads);
	return atomic_long_read(&tg->load_avg);
}

/*
 * The read is complete: @shares was computed from @tg_load_avg (the value
 * read), @load (max(scale_load_down(load.weight), load_avg)), @contrib
 * (cfs_rq->tg_load_avg_contrib) and @tg_shares (READ_ONCE(tg->shares)).
 * Record it if tracing.
 */
static __always_inline void fl_tg_read_done(struct cfs_rq *cfs_rq,
					    long tg_load_avg, long load,
					    long contrib, long tg_shares,
					    long shares)
{
	if (unlikely(trace_tg_read_enabled()))
		fl_tg_read_trace(cfs_rq, tg_load_avg, load, contrib,
				 tg_shares, shares);
}

#endif /* FAIRLAB_TG_READ_H */
