// SPDX-License-Identifier: GPL-2.0
/*
 * set_next_entity() and task_tick_fair() of Linux 6.1.192 (Debian
 * 6.1.0-57-amd64), kernel/sched/fair.c, re-expressed with their
 * update_load_avg() calls going to fl_update_load_avg().
 */
#include "update_load_avg.h"

/* vmlinux functions and data only this file needs (fl_syms_tick). */
static unsigned int *fl_sysctl_sched_min_granularity;

const struct fl_symreq fl_syms_tick[] = {
	/* data */
	FL_SYM(fl_sysctl_sched_min_granularity, sysctl_sched_min_granularity),
	{ }
};

/* fair.c: We are picking a new current task - update its stats */
static inline void
fl_update_stats_curr_start(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	/*
	 * We are starting a new run period:
	 */
	se->exec_start = rq_clock_task(rq_of(cfs_rq));
}

/* Mirrors set_next_entity() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * clear_buddies() is called out of line in vmlinux; the inlined helpers are
 * re-expressed (fair_inline.h, above).
 */
void fl_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	FL_VM(clear_buddies)(cfs_rq, se);

	/* 'current' is not kept within the tree. */
	if (se->on_rq) {
		/*
		 * Any task has to be enqueued before it get to execute on
		 * a CPU. So account for the time it spent waiting on the
		 * runqueue.
		 */
		fl_update_stats_wait_end_fair(cfs_rq, se);
		fl___dequeue_entity(cfs_rq, se);
		fl_update_load_avg(cfs_rq, se, UPDATE_TG,
				   FL_SITE_SET_NEXT_ENTITY);
	}

	fl_update_stats_curr_start(cfs_rq, se);
	cfs_rq->curr = se;

	/*
	 * Track our maximum slice length, if the CPU's load is at
	 * least twice that of our own weight (i.e. dont track it
	 * when there are only lesser-weight tasks around):
	 */
	if (schedstat_enabled() &&
	    rq_of(cfs_rq)->cfs.load.weight >= 2*se->load.weight) {
		struct sched_statistics *stats;

		stats = __schedstats_from_se(se);
		__schedstat_set(stats->slice_max,
				max((u64)stats->slice_max,
				    se->sum_exec_runtime - se->prev_sum_exec_runtime));
	}

	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* fair.c: __pick_first_entity() (global in fair.c, inlined here) */
static inline struct sched_entity *fl___pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = rb_first_cached(&cfs_rq->tasks_timeline);

	if (!left)
		return NULL;

	return rb_entry(left, struct sched_entity, run_node);
}

/*
 * The reschedule entity_tick() and check_preempt_tick() ask for.  Mirrors
 * 6.1.192 with Debian's rt featureset (rt-amd64, CONFIG_PREEMPT_LAZY from
 * its PREEMPT_RT patches): there both call resched_curr_lazy(), which sets
 * TIF_NEED_RESCHED_LAZY so a preemptible-in-RT (sleeping-lock) section is
 * not preempted for a mere fairness tick, where the other flavours call
 * resched_curr().  port-check compares the calls (module/port/6.1/rt.txt).
 */
#ifdef CONFIG_PREEMPT_LAZY
#define fl_tick_resched_curr	FL_VM(resched_curr_lazy)
#else
#define fl_tick_resched_curr	FL_VM(resched_curr)
#endif

/* fair.c: Preempt the current task with a newly woken task if needed */
static inline void
fl_check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	unsigned long ideal_runtime, delta_exec;
	struct sched_entity *se;
	s64 delta;

	ideal_runtime = FL_VM(sched_slice)(cfs_rq, curr);
	delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;
	if (delta_exec > ideal_runtime) {
		fl_tick_resched_curr(rq_of(cfs_rq));
		/*
		 * The current task ran long enough, ensure it doesn't get
		 * re-elected due to buddy favours.
		 */
		FL_VM(clear_buddies)(cfs_rq, curr);
		return;
	}

	/*
	 * Ensure that a task that missed wakeup preemption by a
	 * narrow margin doesn't have to wait for a full slice.
	 * This also mitigates buddy induced latencies under load.
	 */
	if (delta_exec < *fl_sysctl_sched_min_granularity)
		return;

	se = fl___pick_first_entity(cfs_rq);
	delta = curr->vruntime - se->vruntime;

	if (delta < 0)
		return;

	if (delta > ideal_runtime)
		fl_tick_resched_curr(rq_of(cfs_rq));
}

/* fair.c (CONFIG_SCHED_HRTICK) */
static inline void
fl_entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued)
{
	/*
	 * Update run-time statistics of the 'current'.
	 */
	FL_VM(update_curr)(cfs_rq);

	/*
	 * Ensure that runnable average is periodically updated.
	 */
	fl_update_load_avg(cfs_rq, curr, UPDATE_TG, FL_SITE_ENTITY_TICK);
	fl_update_cfs_group(curr);

	/*
	 * queued ticks are scheduled to match the slice, so don't bother
	 * validating it and just reschedule.
	 */
	if (queued) {
		fl_tick_resched_curr(rq_of(cfs_rq));
		return;
	}
	/*
	 * don't let the period tick interfere with the hrtick preemption
	 */
	if (!sched_feat(DOUBLE_TICK) &&
			hrtimer_active(&rq_of(cfs_rq)->hrtick_timer))
		return;

	if (cfs_rq->nr_running > 1)
		fl_check_preempt_tick(cfs_rq, curr);
}

/* task_tick_numa(): the same in every port */
#include "task_tick_numa.h"

/* fair.c (no CONFIG_UCLAMP_TASK: uclamp_eff_value() is a constant) */
static inline int fl_task_fits_cpu(struct task_struct *p, int cpu)
{
	unsigned long uclamp_min = uclamp_eff_value(p, UCLAMP_MIN);
	unsigned long uclamp_max = uclamp_eff_value(p, UCLAMP_MAX);
	unsigned long util = fl_task_util_est(p);
	/*
	 * Return true only if the cpu fully fits the task requirements, which
	 * include the utilization but also the performance hints.
	 */
	return (fl_util_fits_cpu(util, uclamp_min, uclamp_max, cpu) > 0);
}

/* fair.c */
static inline void fl_update_misfit_status(struct task_struct *p, struct rq *rq)
{
	if (!fl_sched_asym_cpucap_active())
		return;

	if (!p || p->nr_cpus_allowed == 1) {
		rq->misfit_task_load = 0;
		return;
	}

	if (fl_task_fits_cpu(p, cpu_of(rq))) {
		rq->misfit_task_load = 0;
		return;
	}

	/*
	 * Make sure that misfit_task_load will not be null even if
	 * task_h_load() returns 0.
	 */
	rq->misfit_task_load = max_t(unsigned long, FL_VM(task_h_load)(p), 1);
}

/* Mirrors task_tick_fair() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * scheduler tick hitting a task of our scheduling class.
 *
 * NOTE: This function can be called remotely by the tick offload that
 * goes along full dynticks. Therefore no local assumption can be made
 * and everything must be accessed through the @rq and @curr passed in
 * parameters.
 *
 * Inlined in vmlinux and re-expressed here: entity_tick() (with
 * check_preempt_tick()), task_tick_numa(), update_misfit_status() and
 * check_update_overutilized_status().  The static keys sched_numa_balancing,
 * sched_asym_cpucapacity and sched_energy_present are read through their
 * resolved addresses (compat.h).  update_curr(), update_cfs_group(),
 * sched_slice(), resched_curr(), clear_buddies(), task_h_load() and
 * task_scan_start() are called out of line in vmlinux.  No task_tick_core():
 * no CONFIG_SCHED_CORE.
 */
void fl_task_tick_fair(struct rq *rq, struct task_struct *curr, int queued)
{
	struct cfs_rq *cfs_rq;
	struct sched_entity *se = &curr->se;

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);
		fl_entity_tick(cfs_rq, se, queued);
	}

	if (fl_static_key_on(&fl_vm.sched_numa_balancing->key))
		fl_task_tick_numa(rq, curr);

	fl_update_misfit_status(curr, rq);
	fl_check_update_overutilized_status(task_rq(curr));
}
