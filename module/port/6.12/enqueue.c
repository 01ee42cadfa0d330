// SPDX-License-Identifier: GPL-2.0
/*
 * enqueue_entity(), enqueue_task_fair() and unthrottle_cfs_rq() of Linux
 * 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c,
 * re-expressed with their update_load_avg() calls going to
 * fl_update_load_avg().
 *
 * 6.12 (EEVDF, delayed dequeue) differs much from the 6.1 port's
 * enqueue.c: place_entity() before and after update_cfs_group(), the
 * requeue of delayed entities, h_nr_queued/h_nr_runnable/h_nr_delayed,
 * group slices (cfs_rq_min_slice()) and the fair dl_server; each body
 * below is 6.12.117's.
 */
#include "update_load_avg.h"

/* vmlinux functions and data only this file needs (fl_syms_enqueue). */
static tg_visitor fl_tg_nop;		/* core.c, passed to walk_tg_tree_from() */
static tg_visitor fl_tg_unthrottle_up;	/* fair.c, likewise */
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
	FL_SYM(fl_tp_sched_stat_wait, __tracepoint_sched_stat_wait),
	FL_SYM(fl_tp_sched_stat_sleep, __tracepoint_sched_stat_sleep),
	FL_SYM(fl_tp_sched_stat_iowait, __tracepoint_sched_stat_iowait),
	FL_SYM(fl_tp_sched_stat_blocked, __tracepoint_sched_stat_blocked),
	FL_SYM(fl_tp_sched_stat_runtime, __tracepoint_sched_stat_runtime),
	{ }
};

/* fair.c */
static inline void fl_update_load_add(struct load_weight *lw, unsigned long inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

/* what enqueue_entity() inlines that is the same in every port */
#include "enqueue_entity_inline.h"

/* account_cfs_rq_runtime(), check_enqueue_throttle(): the same in every port */
#include "check_enqueue_throttle.h"

/* Mirrors enqueue_entity() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * place_entity(), update_curr(), update_cfs_group() and __enqueue_entity()
 * are called out of line in vmlinux; se_update_runnable() is sched.h's.
 */
void fl_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool curr = cfs_rq->curr == se;

	/*
	 * If we're the current task, we must renormalise before calling
	 * update_curr().
	 */
	if (curr)
		FL_VM(place_entity)(cfs_rq, se, flags);

	FL_VM(update_curr)(cfs_rq);

	/*
	 * When enqueuing a sched_entity, we must:
	 *   - Update loads to have both entity and cfs_rq synced with now.
	 *   - For group_entity, update its runnable_weight to reflect the new
	 *     h_nr_queued of its group cfs_rq.
	 *   - For group_entity, update its weight to reflect the new share of
	 *     its group cfs_rq
	 *   - Add its new weight to cfs_rq->load.weight
	 */
	fl_update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH,
			   FL_SITE_ENQUEUE_ENTITY);
	se_update_runnable(se);
	/*
	 * (fair.c 6.12.117) update_load_avg() above will have attached us to the pelt sum;
	 * but update_cfs_group() here will re-adjust the weight and have to
	 * undo/redo all that. Seems wasteful.
	 */
	fl_update_cfs_group(se);

	/*
	 * (fair.c 6.12.117) now that the entity has been re-weighted, and it's lag adjusted,
	 * we can place the entity.
	 */
	if (!curr)
		FL_VM(place_entity)(cfs_rq, se, flags);

	fl_account_entity_enqueue(cfs_rq, se);

	/* Entity has migrated, no longer consider this task hot */
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;

	fl_check_schedstat_required();
	fl_update_stats_enqueue_fair(cfs_rq, se, flags);
	if (!curr)
		FL_VM(__enqueue_entity)(cfs_rq, se);
	se->on_rq = 1;

	if (cfs_rq->nr_running == 1) {
		fl_check_enqueue_throttle(cfs_rq);
		if (!fl_throttled_hierarchy(cfs_rq)) {
			fl_list_add_leaf_cfs_rq(cfs_rq);
		} else {
			struct rq *rq = rq_of(cfs_rq);

			if (fl_cfs_rq_throttled(cfs_rq) && !cfs_rq->throttled_clock)
				cfs_rq->throttled_clock = rq_clock(rq);
			if (!cfs_rq->throttled_clock_self)
				cfs_rq->throttled_clock_self = rq_clock(rq);
		}
	}
}

/* fair.c: util_est_enqueue() */
static inline void fl_util_est_enqueue(struct cfs_rq *cfs_rq,
				       struct task_struct *p)
{
	unsigned int enqueued;

	if (!sched_feat(UTIL_EST))
		return;

	/* Update root cfs_rq's estimated utilization */
	enqueued  = cfs_rq->avg.util_est;
	enqueued += fl__task_util_est(p);
	WRITE_ONCE(cfs_rq->avg.util_est, enqueued);

	trace_sched_util_est_cfs_tp(cfs_rq);
}

/*
 * sched.h: add_nr_running(), re-expressed for its calls of the unexported
 * call_trace_sched_update_nr_running() and sched_can_stop_tick().
 */
static inline void fl_add_nr_running(struct rq *rq, unsigned count)
{
	unsigned prev_nr = rq->nr_running;

	rq->nr_running = prev_nr + count;
	if (trace_sched_update_nr_running_tp_enabled()) {
		FL_VM(call_trace_sched_update_nr_running)(rq, count);
	}

	if (prev_nr < 2 && rq->nr_running >= 2)
		set_rd_overloaded(rq->rd, 1);

	fl_sched_update_tick_dependency(rq);
}

/* Mirrors enqueue_task_fair() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * The enqueue_task method is called before nr_running is
 * increased. Here we update the fair scheduling stats and
 * then put the task into the rbtree.
 *
 * requeue_delayed_entity(), update_cfs_group(),
 * min_vruntime_cb_propagate(), dl_server_update_idle_time(),
 * dl_server_start() and hrtick_update() are called out of line in
 * vmlinux; enqueue_entity() is this module's (vmlinux inlines none of
 * it: it calls its own out of line, which this port replaces).
 */
void fl_enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct cfs_rq *cfs_rq;
	struct sched_entity *se = &p->se;
	int idle_h_nr_running = task_has_idle_policy(p);
	int h_nr_delayed = 0;
	int task_new = !(flags & ENQUEUE_WAKEUP);
	int rq_h_nr_queued = rq->cfs.h_nr_queued;
	u64 slice = 0;

	/*
	 * The code below (indirectly) updates schedutil which looks at
	 * the cfs_rq utilization to select a frequency.
	 * Let's add the task's estimated utilization to the cfs_rq's
	 * estimated utilization, before we update schedutil.
	 */
	if (!(p->se.sched_delayed && (task_on_rq_migrating(p) || (flags & ENQUEUE_RESTORE))))
		fl_util_est_enqueue(&rq->cfs, p);

	if (flags & ENQUEUE_DELAYED) {
		FL_VM(requeue_delayed_entity)(se);
		return;
	}

	/*
	 * If in_iowait is set, the code below may not trigger any cpufreq
	 * utilization updates, so do it here explicitly with the IOWAIT flag
	 * passed.
	 */
	if (p->in_iowait)
		fl_cpufreq_update_util(rq, SCHED_CPUFREQ_IOWAIT);

	if (task_new)
		h_nr_delayed = !!se->sched_delayed;

	for_each_sched_entity(se) {
		if (se->on_rq) {
			if (se->sched_delayed)
				FL_VM(requeue_delayed_entity)(se);
			break;
		}
		cfs_rq = cfs_rq_of(se);

		/*
		 * Basically set the slice of group entries to the min_slice of
		 * their respective cfs_rq. This ensures the group can service
		 * its entities in the desired time-frame.
		 */
		if (slice) {
			se->slice = slice;
			se->custom_slice = 1;
		}
		fl_enqueue_entity(cfs_rq, se, flags);
		slice = fl_cfs_rq_min_slice(cfs_rq);

		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable++;
		cfs_rq->h_nr_queued++;
		cfs_rq->idle_h_nr_running += idle_h_nr_running;
		cfs_rq->h_nr_delayed += h_nr_delayed;

		if (fl_cfs_rq_is_idle(cfs_rq))
			idle_h_nr_running = 1;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(cfs_rq))
			goto enqueue_throttle;

		flags = ENQUEUE_WAKEUP;
	}

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);

		fl_update_load_avg(cfs_rq, se, UPDATE_TG, FL_SITE_ENQUEUE_TASK_FAIR);
		se_update_runnable(se);
		fl_update_cfs_group(se);

		se->slice = slice;
		if (se != cfs_rq->curr)
			FL_VM(min_vruntime_cb_propagate)(&se->run_node, NULL);
		slice = fl_cfs_rq_min_slice(cfs_rq);

		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable++;
		cfs_rq->h_nr_queued++;
		cfs_rq->idle_h_nr_running += idle_h_nr_running;
		cfs_rq->h_nr_delayed += h_nr_delayed;

		if (fl_cfs_rq_is_idle(cfs_rq))
			idle_h_nr_running = 1;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(cfs_rq))
			goto enqueue_throttle;
	}

	if (!rq_h_nr_queued && rq->cfs.h_nr_queued) {
		/* Account for idle runtime */
		if (!rq->nr_running)
			FL_VM(dl_server_update_idle_time)(rq, rq->curr);
		FL_VM(dl_server_start)(&rq->fair_server);
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

/* Mirrors unthrottle_cfs_rq() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * update_rq_clock(), walk_tg_tree_from() (with vmlinux's tg_nop and
 * tg_unthrottle_up), dl_server_start() and resched_curr() are called out
 * of line in vmlinux; enqueue_entity() and dequeue_entity() (for an
 * entity still delayed) are this module's.
 */
void fl_unthrottle_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct cfs_bandwidth *cfs_b = fl_tg_cfs_bandwidth(cfs_rq->tg);
	struct sched_entity *se;
	long queued_delta, runnable_delta, idle_task_delta, delayed_delta;
	long rq_h_nr_queued = rq->cfs.h_nr_queued;

	se = cfs_rq->tg->se[cpu_of(rq)];

	cfs_rq->throttled = 0;

	FL_VM(update_rq_clock)(rq);

	raw_spin_lock(&cfs_b->lock);
	if (cfs_rq->throttled_clock) {
		cfs_b->throttled_time += rq_clock(rq) - cfs_rq->throttled_clock;
		cfs_rq->throttled_clock = 0;
	}
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

	queued_delta = cfs_rq->h_nr_queued;
	runnable_delta = cfs_rq->h_nr_runnable;
	idle_task_delta = cfs_rq->idle_h_nr_running;
	delayed_delta = cfs_rq->h_nr_delayed;
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		/* Handle any unfinished DELAY_DEQUEUE business first. */
		if (se->sched_delayed) {
			int flags = DEQUEUE_SLEEP | DEQUEUE_DELAYED;

			fl_dequeue_entity(qcfs_rq, se, flags);
		} else if (se->on_rq)
			break;
		fl_enqueue_entity(qcfs_rq, se, ENQUEUE_WAKEUP);

		if (fl_cfs_rq_is_idle(group_cfs_rq(se)))
			idle_task_delta = cfs_rq->h_nr_queued;

		qcfs_rq->h_nr_queued += queued_delta;
		qcfs_rq->h_nr_runnable += runnable_delta;
		qcfs_rq->idle_h_nr_running += idle_task_delta;
		qcfs_rq->h_nr_delayed += delayed_delta;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(qcfs_rq))
			goto unthrottle_throttle;
	}

	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		fl_update_load_avg(qcfs_rq, se, UPDATE_TG, FL_SITE_UNTHROTTLE_CFS_RQ);
		se_update_runnable(se);

		if (fl_cfs_rq_is_idle(group_cfs_rq(se)))
			idle_task_delta = cfs_rq->h_nr_queued;

		qcfs_rq->h_nr_queued += queued_delta;
		qcfs_rq->h_nr_runnable += runnable_delta;
		qcfs_rq->idle_h_nr_running += idle_task_delta;
		qcfs_rq->h_nr_delayed += delayed_delta;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(qcfs_rq))
			goto unthrottle_throttle;
	}

	/* Start the fair server if un-throttling resulted in new runnable tasks */
	if (!rq_h_nr_queued && rq->cfs.h_nr_queued)
		FL_VM(dl_server_start)(&rq->fair_server);

	/* At this point se is NULL and we are at root level*/
	fl_add_nr_running(rq, queued_delta);

unthrottle_throttle:
	fl_assert_list_leaf_cfs_rq(rq);

	/* Determine whether we need to wake up potentially idle CPU: */
	if (rq->curr == rq->idle && rq->cfs.nr_running)
		FL_VM(resched_curr)(rq);
}
