// SPDX-License-Identifier: GPL-2.0
/*
 * update_blocked_averages() of Linux 6.1.192 (Debian 6.1.0-57-amd64),
 * kernel/sched/fair.c, with the __update_blocked_others() and
 * __update_blocked_fair() it inlines: its update_load_avg() calls go to
 * fl_update_load_avg(), its direct update_tg_load_avg() to fl_tg_update().
 */
#include "update_load_avg.h"

/* vmlinux functions and data only this file needs (fl_syms_blocked). */
static const struct sched_class *fl_rt_sched_class;
static const struct sched_class *fl_dl_sched_class;

const struct fl_symreq fl_syms_blocked[] = {
	/* data: compared by address with rq->curr->sched_class */
	FL_SYM(fl_rt_sched_class, rt_sched_class),
	FL_SYM(fl_dl_sched_class, dl_sched_class),
	{ }
};

/* fair.c (CONFIG_FAIR_GROUP_SCHED) */
static inline void fl_list_del_leaf_cfs_rq(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->on_list) {
		struct rq *rq = rq_of(cfs_rq);

		/*
		 * With cfs_rq being unthrottled/throttled during an enqueue,
		 * it can happen the tmp_alone_branch points the a leaf that
		 * we finally want to del. In this case, tmp_alone_branch moves
		 * to the prev element but it will point to rq->leaf_cfs_rq_list
		 * at the end of the enqueue.
		 */
		if (rq->tmp_alone_branch == &cfs_rq->leaf_cfs_rq_list)
			rq->tmp_alone_branch = cfs_rq->leaf_cfs_rq_list.prev;

		list_del_rcu(&cfs_rq->leaf_cfs_rq_list);
		cfs_rq->on_list = 0;
	}
}

/* for_each_leaf_cfs_rq_safe() .. child_cfs_rq_on_list(): same in every port */
#include "child_cfs_rq_on_list.h"

/* fair.c */
static inline bool fl_cfs_rq_is_decayed(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->load.weight)
		return false;

	if (!fl_load_avg_is_decayed(&cfs_rq->avg))
		return false;

	if (fl_child_cfs_rq_on_list(cfs_rq))
		return false;

	return true;
}

/*
 * fair.c (CONFIG_NO_HZ_COMMON).  thermal_load_avg() is 0 without
 * CONFIG_SCHED_THERMAL_PRESSURE, and there is no avg_irq without
 * CONFIG_HAVE_SCHED_AVG_IRQ (neither is set in this build).
 */
static inline bool fl_others_have_blocked(struct rq *rq)
{
	if (READ_ONCE(rq->avg_rt.util_avg))
		return true;

	if (READ_ONCE(rq->avg_dl.util_avg))
		return true;

	if (thermal_load_avg(rq))
		return true;

	BUILD_BUG_ON(IS_ENABLED(CONFIG_HAVE_SCHED_AVG_IRQ));

	return false;
}

/* fair.c (CONFIG_NO_HZ_COMMON) */
static inline void fl_update_blocked_load_tick(struct rq *rq)
{
	WRITE_ONCE(rq->last_blocked_load_update_tick, jiffies);
}

/* fair.c (CONFIG_NO_HZ_COMMON) */
static inline void fl_update_blocked_load_status(struct rq *rq, bool has_blocked)
{
	if (!has_blocked)
		rq->has_blocked_load = 0;
}

/*
 * fair.c: __update_blocked_others().  update_rt_rq_load_avg() and
 * update_dl_rq_load_avg() are called out of line in vmlinux.  Without
 * CONFIG_SCHED_THERMAL_PRESSURE and CONFIG_HAVE_SCHED_AVG_IRQ,
 * update_thermal_load_avg() and update_irq_load_avg() are pelt.h stubs
 * returning 0 and arch_scale_thermal_pressure() is 0 on x86: the only
 * effect left of their line is the clock assertion of rq_clock_thermal(),
 * kept as rq_clock_task() (same assertion; the shift by the unexported
 * sched_thermal_decay_shift only fed the no-op version).
 */
static inline bool fl___update_blocked_others(struct rq *rq, bool *done)
{
	const struct sched_class *curr_class;
	u64 now = rq_clock_pelt(rq);
	unsigned long thermal_pressure;
	bool decayed;

	/*
	 * update_load_avg() can call cpufreq_update_util(). Make sure that RT,
	 * DL and IRQ signals have been updated before updating CFS.
	 */
	curr_class = rq->curr->sched_class;

	thermal_pressure = arch_scale_thermal_pressure(cpu_of(rq));

	BUILD_BUG_ON(IS_ENABLED(CONFIG_SCHED_THERMAL_PRESSURE));
	decayed = FL_VM(update_rt_rq_load_avg)(now, rq, curr_class == fl_rt_sched_class) |
		  FL_VM(update_dl_rq_load_avg)(now, rq, curr_class == fl_dl_sched_class) |
		  update_thermal_load_avg(rq_clock_task(rq), rq, thermal_pressure) |
		  update_irq_load_avg(rq, 0);

	if (fl_others_have_blocked(rq))
		*done = false;

	return decayed;
}

/* __update_blocked_fair() and its helpers: the same in every port */
#include "update_blocked_fair.h"

/* Mirrors update_blocked_averages() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * update_rq_clock() is called out of line in vmlinux; rq_lock_irqsave()
 * is sched.h's, through compat.h (raw_spin_rq_lock_nested() resolved, the
 * several vmlinux copies of _raw_spin_rq_lock_irqsave() never named).
 */
void fl_update_blocked_averages(int cpu)
{
	bool decayed = false, done = true;
	struct rq *rq = cpu_rq(cpu);
	struct rq_flags rf;

	rq_lock_irqsave(rq, &rf);
	fl_update_blocked_load_tick(rq);
	FL_VM(update_rq_clock)(rq);

	decayed |= fl___update_blocked_others(rq, &done);
	decayed |= fl___update_blocked_fair(rq, &done);

	fl_update_blocked_load_status(rq, !done);
	if (decayed)
		fl_cpufreq_update_util(rq, 0);
	rq_unlock_irqrestore(rq, &rf);
}
