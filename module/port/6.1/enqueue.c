// SPDX-License-Identifier: GPL-2.0
/*
 * enqueue_entity(), enqueue_task_fair() and unthrottle_cfs_rq() of Linux
 * 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c, re-expressed with
 * their update_load_avg() calls going to fl_update_load_avg().
 */
#include "update_load_avg.h"

/* vmlinux functions and data only this file needs (fl_syms_enqueue). */
static tg_visitor fl_tg_nop;		/* core.c, passed to walk_tg_tree_from() */
static tg_visitor fl_tg_unthrottle_up;	/* fair.c, likewise */
static unsigned int *fl_sysctl_sched_latency;
/* the sched_stat_* tracepoints are not exported: their keys by address */
static struct tracepoint *fl_tp_sched_stat_wait;
static struct tracepoint *fl_tp_sched_stat_sleep;
static struct tracepoint *fl_tp_sched_stat_iowait;
static struct tracepoint *fl_tp_sched_stat_blocked;
static struct tracepoint *fl_tp_sched_stat_runtime;

const struct fl_symreq fl_syms_enqueue[] = {
	FL_SYM(fl_tg_nop, tg_nop),
	FL_SYM(fl_tg_unthrottle_up, tg_unthrottle_up),
	/* data */
	FL_SYM(fl_sysctl_sched_latency, sysctl_sched_latency),
	FL_SYM(fl_tp_sched_stat_wait, __tracepoint_sched_stat_wait),
	FL_SYM(fl_tp_sched_stat_sleep, __tracepoint_sched_stat_sleep),
	FL_SYM(fl_tp_sched_stat_iowait, __tracepoint_sched_stat_iowait),
	FL_SYM(fl_tp_sched_stat_blocked, __tracepoint_sched_stat_blocked),
	FL_SYM(fl_tp_sched_stat_runtime, __tracepoint_sched_stat_runtime),
	{ }
};

/* what enqueue_entity() inlines that is the same in every port */
#include "enqueue_entity_inline.h"

/*
 * fair.c: check_spread().  Out of line in vmlinux only as
 * check_spread.isra.0 (a changed ABI), so re-expressed; sysctl_sched_latency
 * is read through its resolved address.
 */
static inline void fl_check_spread(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	s64 d = se->vruntime - cfs_rq->min_vruntime;

	if (d < 0)
		d = -d;

	if (d > 3*(*fl_sysctl_sched_latency))
		schedstat_inc(cfs_rq->nr_spread_over);
}

/* fair.c */
static inline bool fl___entity_less(struct rb_node *a, const struct rb_node *b)
{
	struct sched_entity *sa = rb_entry(a, struct sched_entity, run_node);
	struct sched_entity *sb = rb_entry(b, struct sched_entity, run_node);

	/* entity_before() */
	return (s64)(sa->vruntime - sb->vruntime) < 0;
}

/* fair.c: Enqueue an entity into the rb-tree */
static inline void fl___enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	rb_add_cached(&se->run_node, &cfs_rq->tasks_timeline, fl___entity_less);
}

/* account_cfs_rq_runtime(), check_enqueue_throttle(): the same in every port */
#include "check_enqueue_throttle.h"

/* Mirrors enqueue_entity() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * update_curr(), update_cfs_group(), place_entity() and throttle_cfs_rq()
 * are called out of line in vmlinux; check_spread() (vmlinux has only an
 * .isra clone) and the inlined helpers are re-expressed above.
 */
void fl_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool renorm = !(flags & ENQUEUE_WAKEUP) || (flags & ENQUEUE_MIGRATED);
	bool curr = cfs_rq->curr == se;

	/*
	 * If we're the current task, we must renormalise before calling
	 * update_curr().
	 */
	if (renorm && curr)
		se->vruntime += cfs_rq->min_vruntime;

	FL_VM(update_curr)(cfs_rq);

	/*
	 * Otherwise, renormalise after, such that we're placed at the current
	 * moment in time, instead of some random moment in the past. Being
	 * placed in the past could significantly boost this task to the
	 * fairness detriment of existing tasks.
	 */
	if (renorm && !curr)
		se->vruntime += cfs_rq->min_vruntime;

	/*
	 * When enqueuing a sched_entity, we must:
	 *   - Update loads to have both entity and cfs_rq synced with now.
	 *   - For group_entity, update its runnable_weight to reflect the new
	 *     h_nr_running of its group cfs_rq.
	 *   - For group_entity, update its weight to reflect the new share of
	 *     its group cfs_rq
	 *   - Add its new weight to cfs_rq->load.weight
	 */
	fl_update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH,
			   FL_SITE_ENQUEUE_ENTITY);
	se_update_runnable(se);
	fl_update_cfs_group(se);
	fl_account_entity_enqueue(cfs_rq, se);

	if (flags & ENQUEUE_WAKEUP)
		FL_VM(place_entity)(cfs_rq, se, 0);
	/* Entity has migrated, no longer consider this task hot */
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;

	fl_check_schedstat_required();
	fl_update_stats_enqueue_fair(cfs_rq, se, flags);
	fl_check_spread(cfs_rq, se);
	if (!curr)
		fl___enqueue_entity(cfs_rq, se);
	se->on_rq = 1;

	if (cfs_rq->nr_running == 1) {
		fl_check_enqueue_throttle(cfs_rq);
		if (!fl_throttled_hierarchy(cfs_rq))
			fl_list_add_leaf_cfs_rq(cfs_rq);
	}
}

/* fair.c */
static inline void fl_util_est_enqueue(struct cfs_rq *cfs_rq,
				       struct task_struct *p)
{
	unsigned int enqueued;

	if (!sched_feat(UTIL_EST))
		return;

	/* Update root cfs_rq's estimated utilization */
	enqueued  = cfs_rq->avg.util_est.enqueued;
	enqueued += fl__task_util_est(p);
	WRITE_ONCE(cfs_rq->avg.util_est.enqueued, enqueued);

	trace_sched_util_est_cfs_tp(cfs_rq);
}

/* Mirrors enqueue_task_fair() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * enqueue_entity() is this module's (called directly: it is what the patch
 * makes vmlinux's call anyway); hrtick_update() and update_cfs_group() are
 * called out of line in vmlinux.
 */
void fl_enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct cfs_rq *cfs_rq;
	struct sched_entity *se = &p->se;
	int idle_h_nr_running = task_has_idle_policy(p);
	int task_new = !(flags & ENQUEUE_WAKEUP);

	/*
	 * The code below (indirectly) updates schedutil which looks at
	 * the cfs_rq utilization to select a frequency.
	 * Let's add the task's estimated utilization to the cfs_rq's
	 * estimated utilization, before we update schedutil.
	 */
	fl_util_est_enqueue(&rq->cfs, p);

	/*
	 * If in_iowait is set, the code below may not trigger any cpufreq
	 * utilization updates, so do it here explicitly with the IOWAIT flag
	 * passed.
	 */
	if (p->in_iowait)
		fl_cpufreq_update_util(rq, SCHED_CPUFREQ_IOWAIT);

	for_each_sched_entity(se) {
		if (se->on_rq)
			break;
		cfs_rq = cfs_rq_of(se);
		fl_enqueue_entity(cfs_rq, se, flags);

		cfs_rq->h_nr_running++;
		cfs_rq->idle_h_nr_running += idle_h_nr_running;

		if (fl_cfs_rq_is_idle(cfs_rq))
			idle_h_nr_running = 1;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(cfs_rq))
			goto enqueue_throttle;

		flags = ENQUEUE_WAKEUP;
	}

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);

		fl_update_load_avg(cfs_rq, se, UPDATE_TG,
				   FL_SITE_ENQUEUE_TASK_FAIR);
		se_update_runnable(se);
		fl_update_cfs_group(se);

		cfs_rq->h_nr_running++;
		cfs_rq->idle_h_nr_running += idle_h_nr_running;

		if (fl_cfs_rq_is_idle(cfs_rq))
			idle_h_nr_running = 1;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(cfs_rq))
			goto enqueue_throttle;
	}

	/* At this point se is NULL and we are at root level*/
	fl_add_nr_running(rq, 1);

	/*
	 * Since new tasks are assigned an initial util_avg equal to
	 * half of the spare capacity of their CPU, tiny tasks have the
	 * ability to cross the overutilized threshold, which will
	 * result in the load balancer ruining all the task placement
	 * done by EAS. As a way to mitigate that effect, do not account
	 * for the first enqueue operation of new tasks during the
	 * overutilized flag detection.
	 *
	 * A better way of solving this problem would be to wait for
	 * the PELT signals of tasks to converge before taking them
	 * into account, but that is not straightforward to implement,
	 * and the following generally works well enough in practice.
	 */
	if (!task_new)
		fl_check_update_overutilized_status(rq);

enqueue_throttle:
	fl_assert_list_leaf_cfs_rq(rq);

	FL_VM(hrtick_update)(rq);
}

/* Mirrors unthrottle_cfs_rq() of Linux 6.1.192 (Debian 6.1.0-57-amd64), kernel/sched/fair.c. */
/*
 * update_rq_clock(), walk_tg_tree_from() (with vmlinux's tg_nop and
 * tg_unthrottle_up) and resched_curr() are called out of line in vmlinux;
 * enqueue_entity() is this module's.
 */
void fl_unthrottle_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct cfs_bandwidth *cfs_b = fl_tg_cfs_bandwidth(cfs_rq->tg);
	struct sched_entity *se;
	long task_delta, idle_task_delta;

	se = cfs_rq->tg->se[cpu_of(rq)];

	cfs_rq->throttled = 0;

	FL_VM(update_rq_clock)(rq);

	raw_spin_lock(&cfs_b->lock);
	cfs_b->throttled_time += rq_clock(rq) - cfs_rq->throttled_clock;
	list_del_rcu(&cfs_rq->throttled_list);
	raw_spin_unlock(&cfs_b->lock);

	/* update hierarchical throttle state */
	FL_VM(walk_tg_tree_from)(cfs_rq->tg, fl_tg_nop, fl_tg_unthrottle_up, (void *)rq);

	if (!cfs_rq->load.weight) {
		if (!cfs_rq->on_list)
			return;
		/*
		 * Nothing to run but something to decay (on_list)?
		 * Complete the branch.
		 */
		for_each_sched_entity(se) {
			if (fl_list_add_leaf_cfs_rq(cfs_rq_of(se)))
				break;
		}
		goto unthrottle_throttle;
	}

	task_delta = cfs_rq->h_nr_running;
	idle_task_delta = cfs_rq->idle_h_nr_running;
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		if (se->on_rq)
			break;
		fl_enqueue_entity(qcfs_rq, se, ENQUEUE_WAKEUP);

		if (fl_cfs_rq_is_idle(group_cfs_rq(se)))
			idle_task_delta = cfs_rq->h_nr_running;

		qcfs_rq->h_nr_running += task_delta;
		qcfs_rq->idle_h_nr_running += idle_task_delta;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(qcfs_rq))
			goto unthrottle_throttle;
	}

	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		fl_update_load_avg(qcfs_rq, se, UPDATE_TG,
				   FL_SITE_UNTHROTTLE_CFS_RQ);
		se_update_runnable(se);

		if (fl_cfs_rq_is_idle(group_cfs_rq(se)))
			idle_task_delta = cfs_rq->h_nr_running;

		qcfs_rq->h_nr_running += task_delta;
		qcfs_rq->idle_h_nr_running += idle_task_delta;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(qcfs_rq))
			goto unthrottle_throttle;
	}

	/* At this point se is NULL and we are at root level*/
	fl_add_nr_running(rq, task_delta);

unthrottle_throttle:
	fl_assert_list_leaf_cfs_rq(rq);

	/* Determine whether we need to wake up potentially idle CPU: */
	if (rq->curr == rq->idle && rq->cfs.nr_running)
		FL_VM(resched_curr)(rq);
}
