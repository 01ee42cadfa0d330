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
#include "layout_hot.h"

/*
 * The record of one read, out of line.  Its inputs travel as scalars, in
 * registers: a struct passed by address had to be built on the stack in
 * every update_cfs_group() (a frame and a stack-protector check, +21
 * instructions per call on 6.1 in make bench-profile) even with tracing
 * off.
 */
void fl_tg_read_trace(struct cfs_rq *cfs_rq, long tg_load_avg, long load,
		      long contrib, long tg_shares, long shares, s16 dom,
		      bool hit);

/*
 * Read @cfs_rq's group's sum of load and count the read on this CPU:
 * tg->load_avg, or under a split tg_layout the sum of its counters or
 * the reader's domain's cached sum (layout_hot.h: *@dom the reader's
 * domain, -1 when global; *@hit a cache hit, counted too).
 */
static __always_inline long fl_tg_read(struct cfs_rq *cfs_rq, s16 *dom,
				       bool *hit)
{
	long v;

	this_cpu_inc(fl_stats->tg_reads);
	v = fl_lay_read(cfs_rq->tg, cpu_of(rq_of(cfs_rq)), dom, hit);
	if (*hit)
		this_cpu_inc(fl_stats->tg_read_hits);
	return v;
}

/*
 * The read is complete: @shares was computed from @tg_load_avg (the value
 * read), @load (max(scale_load_down(load.weight), load_avg)), @contrib
 * (cfs_rq->tg_load_avg_contrib) and @tg_shares (READ_ONCE(tg->shares)),
 * by a reader of domain @dom (-1: global), from its cache if @hit.
 * Record it if tracing.
 */
static __always_inline void fl_tg_read_done(struct cfs_rq *cfs_rq,
					    long tg_load_avg, long load,
					    long contrib, long tg_shares,
					    long shares, s16 dom, bool hit)
{
	if (unlikely(trace_tg_read_enabled()))
		fl_tg_read_trace(cfs_rq, tg_load_avg, load, contrib,
				 tg_shares, shares, dom, hit);
}

#endif /* FAIRLAB_TG_READ_H */
