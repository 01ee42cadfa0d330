// SPDX-License-Identifier: GPL-2.0
/*
 * sched_balance_update_blocked_averages() of Linux 6.12.117 (Debian
 * 6.12.117+deb12-amd64), kernel/sched/fair.c (6.10 renamed it from
 * update_blocked_averages()), with the __update_blocked_others() and
 * __update_blocked_fair() it inlines: its update_load_avg() calls go to
 * fl_update_load_avg(), its direct update_tg_load_avg() to fl_tg_update().
 *
 * Differences from the 6.1 port's blocked.c, all 6.12.117's own:
 * __update_blocked_others() is one call of update_other_load_avgs()
 * (pelt.c), others_have_blocked() reads sched.h's cpu_util_rt/dl/irq()
 * and pelt.h's hw_load_avg(), and cfs_rq_is_decayed() keeps a cfs_rq
 * listed while its tg_load_avg_contrib is non-zero (stable 6.12.63, "Fix
 * unfairness caused by stalled tg_load_avg_contrib when the last task
 * migrates out").
 */
#include "update_load_avg.h"

/* fair.c (CONFIG_FAIR_GROUP_SCHED) */
static inline void fl_list_del_leaf_cfs_rq(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->on_list) {
		struct rq *rq = rq_of(cfs_rq);

		/*
		 * With cfs_rq being unthrottled/throttled during an enqueue,
		 * it can happen the tmp_alone_branch points to the leaf that
		 * we finally want to delete. In this case, tmp_alone_branch moves
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

/* fair.c (6.12.117: with the tg_load_avg_contrib test) */
static inline bool fl_cfs_rq_is_decayed(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->load.weight)
		return false;

	if (!fl_load_avg_is_decayed(&cfs_rq->avg))
		return false;

	if (fl_child_cfs_rq_on_list(cfs_rq))
		return false;

	if (cfs_rq->tg_load_avg_contrib)
		return false;

	return true;
}

/*
 * fair.c (CONFIG_NO_HZ_COMMON).  cpu_util_rt/dl/irq() (sched.h) and
 * hw_load_avg() (pelt.h) are used as they are: they read only the rq.
 */
static inline bool fl_others_have_blocked(struct rq *rq)
{
	if (cpu_util_rt(rq))
		return true;

	if (cpu_util_dl(rq))
		return true;

	if (hw_load_avg(rq))
		return true;

	if (cpu_util_irq(rq))
		return true;

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

/* fair.c: __update_blocked_others(); update_other_load_avgs() is pelt.c's. */
static inline bool fl___update_blocked_others(struct rq *rq, bool *done)
{
	bool updated;

	/*
	 * update_load_avg() can call cpufreq_update_util(). Make sure that RT,
	 * DL and IRQ signals have been updated before updating CFS.
	 */
	updated = FL_VM(update_other_load_avgs)(rq);

	if (fl_others_have_blocked(rq))
		*done = false;

	return updated;
}

/* __update_blocked_fair() and its helpers: the same in every port */
#include "update_blocked_fair.h"

/* Mirrors sched_balance_update_blocked_averages() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * update_rq_clock() is called out of line in vmlinux; rq_lock_irqsave()
 * is sched.h's, through compat.h (raw_spin_rq_lock_nested() resolved).
 */
void fl_sched_balance_update_blocked_averages(int cpu)
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
