// SPDX-License-Identifier: GPL-2.0
/*
 * rq_offline_fair() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64),
 * kernel/sched/fair.c, with the update_sysctl(),
 * unthrottle_offline_cfs_rqs(), clear_tg_offline_cfs_rqs() and
 * clear_tg_load_avg() it inlines in vmlinux (the last: fl_tg_clear()).
 *
 * clear_tg_load_avg() is the second writer of tg->load_avg on 6.12 (6.8):
 * when a CPU goes offline it withdraws that CPU's whole contribution,
 * unconditionally.  It is no publish decision, so no policy takes part;
 * it is the shared core's fl_tg_clear() (tg_update.c), which makes the
 * kernel's write and stamp and traces and counts it at a site of its own,
 * clear_tg_load_avg.  Replaced because it is inlined here, so that while
 * the patch is in force every write of tg->load_avg is fairlab's code
 * (surface.txt, write rq_offline_fair+0x133).
 */
#include "fair_inline.h"

/* fair.c data, not exported (fl_syms_offline) */
static unsigned int *fl_sysctl_sched_base_slice;
static unsigned int *fl_normalized_sysctl_sched_base_slice;
static unsigned int *fl_sysctl_sched_tunable_scaling;

const struct fl_symreq fl_syms_offline[] = {
	FL_SYM(fl_sysctl_sched_base_slice, sysctl_sched_base_slice),
	FL_SYM(fl_normalized_sysctl_sched_base_slice,
	       normalized_sysctl_sched_base_slice),
	FL_SYM(fl_sysctl_sched_tunable_scaling, sysctl_sched_tunable_scaling),
	{ }
};

/*
 * fair.c: get_update_sysctl_factor().  Increase the granularity value when
 * there are more CPUs, because with more CPUs the 'effective latency' as
 * visible to users decreases.  But the relationship is not linear, so pick
 * a second-best guess by going with the log2 of the number of CPUs.
 */
static inline unsigned int fl_get_update_sysctl_factor(void)
{
	unsigned int cpus = min_t(unsigned int, num_online_cpus(), 8);
	unsigned int factor;

	switch (*fl_sysctl_sched_tunable_scaling) {
	case SCHED_TUNABLESCALING_NONE:
		factor = 1;
		break;
	case SCHED_TUNABLESCALING_LINEAR:
		factor = cpus;
		break;
	case SCHED_TUNABLESCALING_LOG:
	default:
		factor = 1 + ilog2(cpus);
		break;
	}

	return factor;
}

/* fair.c: update_sysctl() (its SET_SYSCTL(sched_base_slice) written out) */
static inline void fl_update_sysctl(void)
{
	unsigned int factor = fl_get_update_sysctl_factor();

	*fl_sysctl_sched_base_slice = factor * *fl_normalized_sysctl_sched_base_slice;
}

/*
 * fair.c: unthrottle_offline_cfs_rqs(), the cpu offline callback.
 * unthrottle_cfs_rq() is called out of line in vmlinux: here the
 * module's replacement (enqueue.c) is called directly.
 */
static inline void fl_unthrottle_offline_cfs_rqs(struct rq *rq)
{
	struct task_group *tg;

	lockdep_assert_rq_held(rq);

	/*
	 * The rq clock has already been updated in the
	 * set_rq_offline(), so we should skip updating
	 * the rq clock again in unthrottle_cfs_rq().
	 */
	rq_clock_start_loop_update(rq);

	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		struct cfs_rq *cfs_rq = tg->cfs_rq[cpu_of(rq)];

		if (!cfs_rq->runtime_enabled)
			continue;

		/*
		 * clock_task is not advancing so we just need to make sure
		 * there's some valid quota amount
		 */
		cfs_rq->runtime_remaining = 1;
		/*
		 * Offline rq is schedulable till CPU is completely disabled
		 * in take_cpu_down(), so we prevent new cfs throttling here.
		 */
		cfs_rq->runtime_enabled = 0;

		if (fl_cfs_rq_throttled(cfs_rq))
			fl_unthrottle_cfs_rq(cfs_rq);
	}
	rcu_read_unlock();

	rq_clock_stop_loop_update(rq);
}

/* fair.c: clear_tg_offline_cfs_rqs(), the CPU offline callback */
static inline void fl_clear_tg_offline_cfs_rqs(struct rq *rq)
{
	struct task_group *tg;

	lockdep_assert_rq_held(rq);

	/*
	 * The rq clock has already been updated in
	 * set_rq_offline(), so we should skip updating
	 * the rq clock again in unthrottle_cfs_rq().
	 */
	rq_clock_start_loop_update(rq);

	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		struct cfs_rq *cfs_rq = tg->cfs_rq[cpu_of(rq)];

		fl_tg_clear(cfs_rq);	/* clear_tg_load_avg() */
	}
	rcu_read_unlock();

	rq_clock_stop_loop_update(rq);
}

/* Mirrors rq_offline_fair() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
void fl_rq_offline_fair(struct rq *rq)
{
	fl_update_sysctl();

	/* Ensure any throttled groups are reachable by pick_next_task */
	fl_unthrottle_offline_cfs_rqs(rq);

	/* Ensure that we remove rq contribution to group share: */
	fl_clear_tg_offline_cfs_rqs(rq);
}
