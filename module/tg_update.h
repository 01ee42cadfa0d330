/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fl_tg_update(): update_tg_load_avg() of 6.1 with the publish decision
 * taken by the active tg policy.  Inline in the port's callers, as
 * update_tg_load_avg() is in fair.c, so that the common case (tracing
 * off, a rule that needs neither the clock nor tg->load_avg) costs little
 * more than the kernel's own: the clock is read only to stamp a publish
 * (fl_tg_stamp_now()); everything else is fl_tg_update_slow()
 * (tg_update.c).  Included by port.h, after sched.h.
 */
#ifndef FAIRLAB_TG_UPDATE_H
#define FAIRLAB_TG_UPDATE_H

#include "fairlab.h"
#include "fairlab_trace_events.h"
#include "layout_hot.h"

void fl_tg_update_slow(struct cfs_rq *cfs_rq, unsigned int site,
		       const struct fl_tg_state *st);
/* clear_tg_load_avg() (6.8+), traced and counted (tg_update.c) */
void fl_tg_clear(struct cfs_rq *cfs_rq);

/*
 * Stamp @cfs_rq's publish time with the port's clock (tg_hooks.h), as
 * update_tg_load_avg() of Linux 6.12.117 stamps last_update_tg_load_avg
 * on each publish.  For the publishes of rules that read no clock, so
 * that every publish is stamped and a later rate limit (stock on 6.7+,
 * ratelimit, the kernel's own after an unpatch) counts from it.
 */
static __always_inline void fl_tg_stamp_now(struct cfs_rq *cfs_rq, int cpu)
{
	fl_port_tg_stamp(cfs_rq, cpu, fl_port_tg_clock(cfs_rq, cpu));
}

/*
 * Mirrors update_tg_load_avg() of Linux 6.1.192, kernel/sched/fair.c;
 * @site names the replaced path that called it.  Caller holds the
 * cfs_rq's rq lock.
 */
static __always_inline void fl_tg_update(struct cfs_rq *cfs_rq,
					 unsigned int site)
{
	const struct fl_tg_state *st;
	struct fl_tg_input in;
	unsigned long load;
	bool written;

	/* No need to update load_avg for root_task_group as it is not used. */
	if (cfs_rq->tg == fl_root_task_group)
		return;
	/* what the port's kernel checks before deciding (tg_hooks.h) */
	if (fl_port_tg_skip(cfs_rq))
		return;
	st = fl_tg_state_get();
	if (unlikely(trace_tg_update_enabled() ||
		     fl_tg_rule_needs_clock(&st->rule) ||
		     fl_tg_rule_needs_tg_load(&st->rule))) {
		fl_tg_update_slow(cfs_rq, site, st);
		return;
	}
	load = cfs_rq->avg.load_avg;
	in.delta = (long)(load - cfs_rq->tg_load_avg_contrib);
	in.contrib = cfs_rq->tg_load_avg_contrib;
	in.tg_load_avg = 0;		/* not read by this rule */
	in.since_ns = FL_SINCE_NEVER;	/* not read by this rule */
	in.nr_cpus = fl_nr_cpus;
	in.site = site;
	written = fl_tg_rule_decide(&st->rule, &in);
	if (written) {
		int cpu = cpu_of(rq_of(cfs_rq));
		s16 dom;

		fl_gen_bump(cfs_rq->tg, cpu);	/* for the audit (audit.c) */
		/* tg->load_avg, or the CPU's domain counter (layout_hot.h) */
		atomic_long_add(in.delta, fl_lay_target(cfs_rq->tg, cpu, &dom));
		cfs_rq->tg_load_avg_contrib = load;
		fl_tg_stamp_now(cfs_rq, cpu);
	}
	fl_stats_tg(site, st->pol.id, written);
}

#endif /* FAIRLAB_TG_UPDATE_H */
