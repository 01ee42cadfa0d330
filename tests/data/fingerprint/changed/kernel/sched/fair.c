// SPDX-License-Identifier: GPL-2.0
/* A two-function excerpt of kernel/sched/fair.c (Linux 6.1.192). */
static inline void
update_tg_cfs_runnable(struct cfs_rq *cfs_rq, struct sched_entity *se, struct cfs_rq *gcfs_rq)
{
	long delta_sum, delta_avg = gcfs_rq->avg.runnable_avg - se->avg.runnable_avg;
	u64 new_sum;
	u32 divider;

	/* Nothing to update */
	if (!delta_avg)
		return;

	divider = get_pelt_divider(&cfs_rq->avg);
	se->avg.runnable_avg = gcfs_rq->avg.runnable_avg;
	new_sum = (u64)se->avg.runnable_avg * divider;
	delta_sum = (long)new_sum - (long)se->avg.runnable_sum;
	se->avg.runnable_sum = new_sum;
}

#ifdef CONFIG_FAIR_GROUP_SCHED
static inline bool cfs_rq_is_decayed(struct cfs_rq *cfs_rq)
{
	if (!cfs_rq->load.weight)
		return false;
	return true;
}
#else
static inline bool cfs_rq_is_decayed(struct cfs_rq *cfs_rq) { return true; }
#endif
