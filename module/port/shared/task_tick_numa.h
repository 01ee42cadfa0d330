/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copy of task_tick_numa() of kernel/sched/fair.c
 * (CONFIG_NUMA_BALANCING), which task_tick_fair() inlines, shared by the
 * ports: its body is the same in Linux 6.1.192 (Debian 6.1.0-57-amd64) and
 * 6.12.117 (Debian 6.12.117+deb12-amd64).  A port whose kernel changed it
 * keeps its own copy in its directory, which the include path searches
 * first.  task_scan_start() is called out of line in vmlinux: a static
 * call (FL_VM(), the port's vmcalls.h).
 */
#ifndef FAIRLAB_PORT_TASK_TICK_NUMA_H
#define FAIRLAB_PORT_TASK_TICK_NUMA_H

#include "port.h"		/* compat.h: sched.h; vmcalls.h */
#include <linux/task_work.h>

#ifdef CONFIG_NUMA_BALANCING
/* fair.c (CONFIG_NUMA_BALANCING): Drive the periodic memory faults.. */
static inline void fl_task_tick_numa(struct rq *rq, struct task_struct *curr)
{
	struct callback_head *work = &curr->numa_work;
	u64 period, now;

	/*
	 * We don't care about NUMA placement if we don't have memory.
	 */
	if (!curr->mm || (curr->flags & (PF_EXITING | PF_KTHREAD)) || work->next != work)
		return;

	/*
	 * Using runtime rather than walltime has the dual advantage that
	 * we (mostly) drive the selection from busy threads and that the
	 * task needs to have done some actual work before we bother with
	 * NUMA placement.
	 */
	now = curr->se.sum_exec_runtime;
	period = (u64)curr->numa_scan_period * NSEC_PER_MSEC;

	if (now > curr->node_stamp + period) {
		if (!curr->node_stamp)
			curr->numa_scan_period = FL_VM(task_scan_start)(curr);
		curr->node_stamp += period;

		if (!time_before(jiffies, curr->mm->numa_next_scan))
			task_work_add(curr, work, TWA_RESUME);
	}
}
#else
/* fair.c (no CONFIG_NUMA_BALANCING: rt-amd64) */
static inline void fl_task_tick_numa(struct rq *rq, struct task_struct *curr) { }
#endif

#endif /* FAIRLAB_PORT_TASK_TICK_NUMA_H */
