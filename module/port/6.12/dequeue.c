// SPDX-License-Identifier: GPL-2.0
/*
 * dequeue_entity() and dequeue_entities() of Linux 6.12.117 (Debian
 * 6.12.117+deb12-amd64), kernel/sched/fair.c, re-expressed with their
 * update_load_avg() calls going to fl_update_load_avg().
 *
 * On 6.12 dequeue_task_fair() is a thin wrapper that calls the
 * out-of-line dequeue_entities(), which holds the per-level update
 * (6.1's dequeue_task_fair() body); pick_next_entity() also calls it for
 * a delayed entity.  dequeue_entity() may now delay a dequeue
 * (DELAY_DEQUEUE), in which case its update_load_avg(.., 0) reaches no
 * update_tg_load_avg() (surface.txt: nocall dequeue_entity+0x186) and
 * stays a plain update (FL_SITE_DEQUEUE_ENTITY all the same, never
 * counted: with flags 0 fl_update_load_avg() makes no attempt).
 */
#include "update_load_avg.h"

/* vmlinux data only this file needs (fl_syms_dequeue). */
static unsigned int *fl_sysctl_sched_cfs_bandwidth_slice;
static struct static_key_false *fl_delayacct_key;

const struct fl_symreq fl_syms_dequeue[] = {
	FL_SYM(fl_sysctl_sched_cfs_bandwidth_slice, sysctl_sched_cfs_bandwidth_slice),
	FL_SYM(fl_delayacct_key, delayacct_key),
	{ }
};

/* fair.c */
static inline void fl_update_load_sub(struct load_weight *lw, unsigned long dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

/* what dequeue_entity() inlines that is the same in every port */
#include "dequeue_entity_inline.h"

/* fair.c */
static inline void fl_set_delayed(struct sched_entity *se)
{
	se->sched_delayed = 1;

	/*
	 * Delayed se of cfs_rq have no tasks queued on them.
	 * Do not adjust h_nr_runnable since dequeue_entities()
	 * will account it for blocked tasks.
	 */
	if (!entity_is_task(se))
		return;

	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		cfs_rq->h_nr_runnable--;
		cfs_rq->h_nr_delayed++;
		if (fl_cfs_rq_throttled(cfs_rq))
			break;
	}
}

/*
 * fair.c: clear_delayed() (vmlinux calls a split-off part of it,
 * clear_delayed.part.0.constprop.0; the whole body is here).
 */
static inline void fl_clear_delayed(struct sched_entity *se)
{
	se->sched_delayed = 0;

	/*
	 * Delayed se of cfs_rq have no tasks queued on them.
	 * Do not adjust h_nr_runnable since a dequeue has
	 * already accounted for it or an enqueue of a task
	 * below it will account for it in enqueue_task_fair().
	 */
	if (!entity_is_task(se))
		return;

	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		cfs_rq->h_nr_runnable++;
		cfs_rq->h_nr_delayed--;
		if (fl_cfs_rq_throttled(cfs_rq))
			break;
	}
}

/* fair.c */
static inline void fl_finish_delayed_dequeue_entity(struct sched_entity *se)
{
	fl_clear_delayed(se);
	if (sched_feat(DELAY_ZERO) && se->vlag > 0)
		se->vlag = 0;
}

/* return_cfs_rq_runtime() and its helpers: the same in every port */
#include "return_cfs_rq_runtime.h"

/* Mirrors dequeue_entity() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * update_curr(), entity_eligible(), update_entity_lag(),
 * __dequeue_entity() and update_cfs_group() are called out of line in
 * vmlinux; clear_buddies() and the rest are inlined there and
 * re-expressed (here and in fair_inline.h).
 */
bool fl_dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;

	FL_VM(update_curr)(cfs_rq);
	fl_clear_buddies(cfs_rq, se);

	if (flags & DEQUEUE_DELAYED) {
		SCHED_WARN_ON(!se->sched_delayed);
	} else {
		bool delay = sleep;
		/*
		 * DELAY_DEQUEUE relies on spurious wakeups, special task
		 * states must not suffer spurious wakeups, excempt them.
		 */
		if (flags & DEQUEUE_SPECIAL)
			delay = false;

		SCHED_WARN_ON(delay && se->sched_delayed);

		if (sched_feat(DELAY_DEQUEUE) && delay &&
		    !FL_VM(entity_eligible)(cfs_rq, se)) {
			fl_update_load_avg(cfs_rq, se, 0, FL_SITE_DEQUEUE_ENTITY);
			fl_set_delayed(se);
			return false;
		}
	}

	int action = UPDATE_TG;
	if (entity_is_task(se) && task_on_rq_migrating(task_of(se)))
		action |= DO_DETACH;

	/*
	 * When dequeuing a sched_entity, we must:
	 *   - Update loads to have both entity and cfs_rq synced with now.
	 *   - For group_entity, update its runnable_weight to reflect the new
	 *     h_nr_queued of its group cfs_rq.
	 *   - Subtract its previous weight from cfs_rq->load.weight.
	 *   - For group entity, update its weight to reflect the new share
	 *     of its group cfs_rq.
	 */
	fl_update_load_avg(cfs_rq, se, action, FL_SITE_DEQUEUE_ENTITY);
	se_update_runnable(se);

	fl_update_stats_dequeue_fair(cfs_rq, se, flags);

	FL_VM(update_entity_lag)(cfs_rq, se);
	if (sched_feat(PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}

	if (se != cfs_rq->curr)
		FL_VM(__dequeue_entity)(cfs_rq, se);
	se->on_rq = 0;
	fl_account_entity_dequeue(cfs_rq, se);

	/* return excess runtime on last dequeue */
	fl_return_cfs_rq_runtime(cfs_rq);

	fl_update_cfs_group(se);

	if (flags & DEQUEUE_DELAYED)
		fl_finish_delayed_dequeue_entity(se);

	if (cfs_rq->nr_running == 0)
		update_idle_cfs_rq_clock_pelt(cfs_rq);

	return true;
}

/* fair.c (CONFIG_FAIR_GROUP_SCHED) */
static inline struct sched_entity *fl_parent_entity(const struct sched_entity *se)
{
	return se->parent;
}

/* fair.c: Runqueue only has SCHED_IDLE tasks enqueued */
static inline int fl_sched_idle_rq(struct rq *rq)
{
	return unlikely(rq->nr_running == rq->cfs.idle_h_nr_running &&
			rq->nr_running);
}

/*
 * sched.h: sub_nr_running(), re-expressed for its calls of the unexported
 * call_trace_sched_update_nr_running() and sched_can_stop_tick().
 */
static inline void fl_sub_nr_running(struct rq *rq, unsigned count)
{
	rq->nr_running -= count;
	if (trace_sched_update_nr_running_tp_enabled()) {
		FL_VM(call_trace_sched_update_nr_running)(rq, -count);
	}

	/* Check if we still need preemption */
	fl_sched_update_tick_dependency(rq);
}

/*
 * delayacct.h: delayacct_blkio_start(), with the unexported delayacct_key
 * read through its resolved address and __delayacct_blkio_start() (not
 * exported) a static call.
 */
static inline void fl_delayacct_blkio_start(void)
{
	if (!fl_static_key_on(&fl_delayacct_key->key))
		return;

	if (current->delays)
		FL_VM(__delayacct_blkio_start)();
}

/* sched.h: __block_task(), for its delayacct_blkio_start() */
static inline void fl___block_task(struct rq *rq, struct task_struct *p)
{
	if (p->sched_contributes_to_load)
		rq->nr_uninterruptible++;

	if (p->in_iowait) {
		atomic_inc(&rq->nr_iowait);
		fl_delayacct_blkio_start();
	}

	ASSERT_EXCLUSIVE_WRITER(p->on_rq);

	/*
	 * The moment this write goes through, ttwu() can swoop in and migrate
	 * this task, rendering our rq->__lock ineffective.
	 *
	 * Callers must ensure to not reference @p after this -- we no longer
	 * own it.  (sched.h has the interleaving with try_to_wake_up().)
	 */
	smp_store_release(&p->on_rq, 0);
}

/* Mirrors dequeue_entities() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * Basically dequeue_task_fair(), except it can deal with dequeue_entity()
 * failing half-way through and resume the dequeue later.
 *
 * Returns:
 * -1 - dequeue delayed
 *  0 - dequeue throttled
 *  1 - dequeue complete
 *
 * set_next_buddy(), update_cfs_group(), min_vruntime_cb_propagate() and
 * hrtick_update() are called out of line in vmlinux; dequeue_entity() is
 * this module's.
 */
int fl_dequeue_entities(struct rq *rq, struct sched_entity *se, int flags)
{
	bool was_sched_idle = fl_sched_idle_rq(rq);
	bool task_sleep = flags & DEQUEUE_SLEEP;
	bool task_delayed = flags & DEQUEUE_DELAYED;
	struct task_struct *p = NULL;
	int idle_h_nr_running = 0;
	int h_nr_queued = 0;
	int h_nr_delayed = 0;
	struct cfs_rq *cfs_rq;
	u64 slice = 0;
	int ret = 0;

	if (entity_is_task(se)) {
		p = task_of(se);
		h_nr_queued = 1;
		idle_h_nr_running = task_has_idle_policy(p);
		if (!task_sleep && !task_delayed)
			h_nr_delayed = !!se->sched_delayed;
	}

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);

		if (!fl_dequeue_entity(cfs_rq, se, flags)) {
			if (p && &p->se == se)
				return -1;

			slice = fl_cfs_rq_min_slice(cfs_rq);
			break;
		}

		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable -= h_nr_queued;
		cfs_rq->h_nr_queued -= h_nr_queued;
		cfs_rq->idle_h_nr_running -= idle_h_nr_running;
		cfs_rq->h_nr_delayed -= h_nr_delayed;

		if (fl_cfs_rq_is_idle(cfs_rq))
			idle_h_nr_running = h_nr_queued;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(cfs_rq))
			goto out;

		/* Don't dequeue parent if it has other entities besides us */
		if (cfs_rq->load.weight) {
			slice = fl_cfs_rq_min_slice(cfs_rq);

			/* Avoid re-evaluating load for this entity: */
			se = fl_parent_entity(se);
			/*
			 * Bias pick_next to pick a task from this cfs_rq, as
			 * p is sleeping when it is within its sched_slice.
			 */
			if (task_sleep && se && !fl_throttled_hierarchy(cfs_rq))
				FL_VM(set_next_buddy)(se);
			break;
		}
		flags |= DEQUEUE_SLEEP;
		flags &= ~(DEQUEUE_DELAYED | DEQUEUE_SPECIAL);
	}

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);

		fl_update_load_avg(cfs_rq, se, UPDATE_TG, FL_SITE_DEQUEUE_TASK_FAIR);
		se_update_runnable(se);
		fl_update_cfs_group(se);

		se->slice = slice;
		if (se != cfs_rq->curr)
			FL_VM(min_vruntime_cb_propagate)(&se->run_node, NULL);
		slice = fl_cfs_rq_min_slice(cfs_rq);

		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable -= h_nr_queued;
		cfs_rq->h_nr_queued -= h_nr_queued;
		cfs_rq->idle_h_nr_running -= idle_h_nr_running;
		cfs_rq->h_nr_delayed -= h_nr_delayed;

		if (fl_cfs_rq_is_idle(cfs_rq))
			idle_h_nr_running = h_nr_queued;

		/* end evaluation on encountering a throttled cfs_rq */
		if (fl_cfs_rq_throttled(cfs_rq))
			goto out;
	}

	fl_sub_nr_running(rq, h_nr_queued);

	/* balance early to pull high priority tasks */
	if (unlikely(!was_sched_idle && fl_sched_idle_rq(rq)))
		rq->next_balance = jiffies;

	ret = 1;
out:
	if (p && task_delayed) {
		SCHED_WARN_ON(!task_sleep);
		SCHED_WARN_ON(p->on_rq != 1);

		/* Fix-up what dequeue_task_fair() skipped */
		FL_VM(hrtick_update)(rq);

		/*
		 * Fix-up what block_task() skipped.
		 *
		 * Must be last, @p might not be valid after this.
		 */
		fl___block_task(rq, p);
	}

	return ret;
}
