// SPDX-License-Identifier: GPL-2.0
/*
 * The traced half of fl_tg_read() (tg_read.h): one fairlab:tg_read record
 * per read of tg->load_avg while the event is enabled.  Out of line so
 * that the untraced path stays small in the replaced functions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "port.h"
#include "tg_read.h"

/* Under the reading cfs_rq's rq lock, IRQs off: the CPU cannot change. */
void fl_tg_read_trace(struct cfs_rq *cfs_rq, long tg_load_avg, long load,
		      long contrib, long tg_shares, long shares, s16 dom,
		      bool hit)
{
	trace_tg_read(fl_tg_id(cfs_rq->tg), cpu_of(rq_of(cfs_rq)),
		      tg_load_avg, load, cfs_rq->avg.load_avg, contrib,
		      tg_shares, shares, this_cpu_read(fl_stats->tg_reads),
		      dom, hit);
}
