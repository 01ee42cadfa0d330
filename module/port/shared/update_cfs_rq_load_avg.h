/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's copy of update_cfs_rq_load_avg() of kernel/sched/fair.c, and
 * of the helpers it and update_load_avg.h use (add_positive(),
 * sub_positive(), add_tg_cfs_propagate()), shared by the ports: their bodies
 * are the same in Linux 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117
 * (Debian 6.12.117+deb12-amd64).  A port whose kernel changed them keeps its
 * own copy in its directory, which the include path searches first.
 *
 * Included by each port's fair_inline.h, after its port.h: the one call
 * mechanism substituted is the static call of the unexported
 * __update_load_avg_cfs_rq() (FL_VM(), the port's vmcalls.h).  Inlined in
 * update_load_avg() and in the blocked-averages replacement, as in vmlinux.
 */
#ifndef FAIRLAB_PORT_UPDATE_CFS_RQ_LOAD_AVG_H
#define FAIRLAB_PORT_UPDATE_CFS_RQ_LOAD_AVG_H

#include "port.h"		/* compat.h (sched.h, pelt.h), vmcalls.h */

/* fair.c: add_positive(), signed add and clamp on underflow. */
#define fl_add_positive(_ptr, _val) do {                        \
	typeof(_ptr) ptr = (_ptr);                              \
	typeof(_val) val = (_val);                              \
	typeof(*ptr) res, var = READ_ONCE(*ptr);                \
								\
	res = var + val;                                        \
								\
	if (val < 0 && res > var)                               \
		res = 0;                                        \
								\
	WRITE_ONCE(*ptr, res);                                  \
} while (0)

/* fair.c: sub_positive(), unsigned subtract and clamp on underflow. */
#define fl_sub_positive(_ptr, _val) do {			\
	typeof(_ptr) ptr = (_ptr);				\
	typeof(*ptr) val = (_val);				\
	typeof(*ptr) res, var = READ_ONCE(*ptr);		\
	res = var - val;					\
	if (res > var)						\
		res = 0;					\
	WRITE_ONCE(*ptr, res);					\
} while (0)

/* fair.c */
static inline void fl_add_tg_cfs_propagate(struct cfs_rq *cfs_rq,
					   long runnable_sum)
{
	cfs_rq->propagate = 1;
	cfs_rq->prop_runnable_sum += runnable_sum;
}

/*
 * fair.c: update_cfs_rq_load_avg() - update the cfs_rq's load/util averages
 * (inlined in update_load_avg() and __update_blocked_fair()).
 *
 * Return: true if the load decayed or we removed load.
 */
static inline int fl_update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq)
{
	unsigned long removed_load = 0, removed_util = 0, removed_runnable = 0;
	struct sched_avg *sa = &cfs_rq->avg;
	int decayed = 0;

	if (cfs_rq->removed.nr) {
		unsigned long r;
		u32 divider = get_pelt_divider(&cfs_rq->avg);

		raw_spin_lock(&cfs_rq->removed.lock);
		swap(cfs_rq->removed.util_avg, removed_util);
		swap(cfs_rq->removed.load_avg, removed_load);
		swap(cfs_rq->removed.runnable_avg, removed_runnable);
		cfs_rq->removed.nr = 0;
		raw_spin_unlock(&cfs_rq->removed.lock);

		r = removed_load;
		fl_sub_positive(&sa->load_avg, r);
		fl_sub_positive(&sa->load_sum, r * divider);
		/* See sa->util_sum below */
		sa->load_sum = max_t(u32, sa->load_sum, sa->load_avg * PELT_MIN_DIVIDER);

		r = removed_util;
		fl_sub_positive(&sa->util_avg, r);
		fl_sub_positive(&sa->util_sum, r * divider);
		/*
		 * Because of rounding, se->util_sum might ends up being +1 more than
		 * cfs->util_sum. Although this is not a problem by itself, detaching
		 * a lot of tasks with the rounding problem between 2 updates of
		 * util_avg (~1ms) can make cfs->util_sum becoming null whereas
		 * cfs_util_avg is not.
		 * Check that util_sum is still above its lower bound for the new
		 * util_avg. Given that period_contrib might have moved since the last
		 * sync, we are only sure that util_sum must be above or equal to
		 *    util_avg * minimum possible divider
		 */
		sa->util_sum = max_t(u32, sa->util_sum, sa->util_avg * PELT_MIN_DIVIDER);

		r = removed_runnable;
		fl_sub_positive(&sa->runnable_avg, r);
		fl_sub_positive(&sa->runnable_sum, r * divider);
		/* See sa->util_sum above */
		sa->runnable_sum = max_t(u32, sa->runnable_sum,
					      sa->runnable_avg * PELT_MIN_DIVIDER);

		/*
		 * removed_runnable is the unweighted version of removed_load so we
		 * can use it to estimate removed_load_sum.
		 */
		fl_add_tg_cfs_propagate(cfs_rq,
			-(long)(removed_runnable * divider) >> SCHED_CAPACITY_SHIFT);

		decayed = 1;
	}

	decayed |= FL_VM(__update_load_avg_cfs_rq)(now, cfs_rq);
	u64_u32_store_copy(sa->last_update_time,
			   cfs_rq->last_update_time_copy,
			   sa->last_update_time);
	return decayed;
}

#endif /* FAIRLAB_PORT_UPDATE_CFS_RQ_LOAD_AVG_H */
