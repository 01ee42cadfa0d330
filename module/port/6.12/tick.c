// SPDX-License-Identifier: GPL-2.0
/*
 * set_next_entity() and task_tick_fair() of Linux 6.12.117 (Debian
 * 6.12.117+deb12-amd64), kernel/sched/fair.c, re-expressed with their
 * update_load_avg() calls going to fl_update_load_avg().
 *
 * 6.12 (EEVDF) differs from the 6.1 port's tick.c: entity_tick() no longer
 * checks for preemption (update_curr() does), set_next_entity() stashes
 * the deadline (set_protect_slice()), and update_misfit_status() and
 * check_update_overutilized_status() test more; each body below is
 * 6.12.117's.
 */
#include "update_load_avg.h"

/* fair.c: We are picking a new current task - update its stats */
static inline void
fl_update_stats_curr_start(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	/*
	 * We are starting a new run period:
	 */
	se->exec_start = rq_clock_task(rq_of(cfs_rq));
}

/*
 * fair.c: HACK, stash a copy of deadline at the point of pick in vlag,
 * which isn't used until dequeue.
 */
static inline void fl_set_protect_slice(struct sched_entity *se)
{
	se->vlag = se->deadline;
}

/* Mirrors set_next_entity() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * __dequeue_entity() is called out of line in vmlinux; clear_buddies()
 * and the stats helpers are inlined there and re-expressed above.
 */
void fl_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	fl_clear_buddies(cfs_rq, se);

	/* 'current' is not kept within the tree. */
	if (se->on_rq) {
		/*
		 * Any task has to be enqueued before it get to execute on
		 * a CPU. So account for the time it spent waiting on the
		 * runqueue.
		 */
		fl_update_stats_wait_end_fair(cfs_rq, se);
		FL_VM(__dequeue_entity)(cfs_rq, se);
		fl_update_load_avg(cfs_rq, se, UPDATE_TG,
				   FL_SITE_SET_NEXT_ENTITY);

		fl_set_protect_slice(se);
	}

	fl_update_stats_curr_start(cfs_rq, se);
	SCHED_WARN_ON(cfs_rq->curr);
	cfs_rq->curr = se;

	/*
	 * Track our maximum slice length, if the CPU's load is at
	 * least twice that of our own weight (i.e. don't track it
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

/*
 * The reschedule entity_tick() asks for on a queued (hrtick) tick.  Mirrors
 * 6.12.117 with Debian's rt featureset (rt-amd64, CONFIG_PREEMPT_LAZY, the
 * lazy preemption of its PREEMPT_RT patches, upstream since 6.13): there
 * it calls resched_curr_lazy(), which sets TIF_NEED_RESCHED_LAZY (honoured
 * at the next tick or return to user) instead of TIF_NEED_RESCHED.  The
 * other flavours call resched_curr().  port-check compares the calls
 * (module/port/6.12/rt.txt).
 */
#ifdef CONFIG_PREEMPT_LAZY
#define fl_tick_resched_curr	FL_VM(resched_curr_lazy)
#else
#define fl_tick_resched_curr	FL_VM(resched_curr)
#endif

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
}

/* task_tick_numa(): the same in every port */
#include "task_tick_numa.h"

/* fair.c */
static inline void fl_update_misfit_status(struct task_struct *p, struct rq *rq)
{
	int cpu = cpu_of(rq);

	if (!fl_sched_asym_cpucap_active())
		return;

	/*
	 * Affinity allows us to go somewhere higher?  Or are we on biggest
	 * available CPU already? Or do we fit into this CPU ?
	 */
	if (!p || (p->nr_cpus_allowed == 1) ||
	    (arch_scale_cpu_capacity(cpu) == p->max_allowed_capacity) ||
	    fl_task_fits_cpu(p, cpu)) {

		rq->misfit_task_load = 0;
		return;
	}

	/*
	 * Make sure that misfit_task_load will not be null even if
	 * task_h_load() returns 0.
	 */
	rq->misfit_task_load = max_t(unsigned long, FL_VM(task_h_load)(p), 1);
}

/* Mirrors task_tick_fair() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * scheduler tick hitting a task of our scheduling class.
 *
 * NOTE: This function can be called remotely by the tick offload that
 * goes along full dynticks. Therefore no local assumption can be made
 * and everything must be accessed through the @rq and @curr passed in
 * parameters.
 *
 * Inlined in vmlinux and re-expressed here: entity_tick(),
 * task_tick_numa(), update_misfit_status() and
 * check_update_overutilized_status().  The static keys
 * sched_numa_balancing, sched_asym_cpucapacity and sched_energy_present
 * are read through their resolved addresses (compat.h).  update_curr(),
 * update_cfs_group(), resched_curr(), task_h_load(), task_scan_start()
 * and cpu_util_cfs() are called out of line in vmlinux.  No
 * task_tick_core(): no CONFIG_SCHED_CORE.
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

	BUILD_BUG_ON(IS_ENABLED(CONFIG_SCHED_CORE));
}
