/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inline helpers shared by the files of the 6.1 port that re-express
 * kernel/sched/fair.c of Linux 6.1.192 (Debian 6.1.0-57-amd64):
 * update_load_avg.h, enqueue.c, dequeue.c, tick.c, attach.c, blocked.c,
 * shares.c.
 *
 * Two kinds of things live here:
 *  - fl_p61: vmlinux data the replaced functions share and that vmlinux
 *    does not export to modules, resolved by name at init (fl_syms_shared in
 *    vmcalls.c).  The unexported vmlinux functions they call are static calls,
 *    FL_VM(name)() (vmcalls.h).
 *  - re-expressions of the fair.c / sched.h inlines that the compiler
 *    inlined into more than one of the replaced functions (the INL lines of
 *    ref/debian-6.1.0-57/inline-trees.txt).  Each keeps its kernel name with
 *    an fl_ prefix so that it is never mistaken for a vmlinux copy; its body
 *    is the 6.1.192 body, with only the call mechanisms substituted (a
 *    static call for an unexported function, compat.h's accessors for
 *    unexported static keys and data).
 *
 * Static keys: vmlinux keys reached only through a resolved address are
 * read with fl_static_key_on() (compat.h).  Tracepoints that vmlinux
 * exports (EXPORT_TRACEPOINT_SYMBOL_GPL in core.c: pelt_*_tp,
 * sched_util_est_*_tp, sched_overutilized_tp, sched_update_nr_running_tp)
 * are used as is: the module links against their exported key and static
 * call, so the module's jump-label and static-call sites are registered
 * with the vmlinux key at load and follow it like any module tracepoint
 * user.  The unexported sched_stat_* tracepoints are read by address
 * (enqueue.c).
 */
#ifndef FAIRLAB_PORT61_FAIR_INLINE_H
#define FAIRLAB_PORT61_FAIR_INLINE_H

#include "port.h"		/* compat.h, sched.h (and stats.h) */
#include "fairlab_abi.h"	/* FL_SITE_* */

/*
 * schedstat_enabled() is static_branch_unlikely(&sched_schedstats) in
 * stats.h; sched_schedstats is not exported.  Redirect it (and with it
 * schedstat_inc() & co) to the resolved key.
 */
#undef schedstat_enabled
#define schedstat_enabled()	fl_schedstat_enabled()

/* fair.c: optional actions of update_load_avg() */
#define UPDATE_TG	0x1
#define SKIP_AGE_LOAD	0x2
#define DO_ATTACH	0x4
#define DO_DETACH	0x8

/* fair.c (CONFIG_FAIR_GROUP_SCHED): walk up scheduling entities hierarchy */
#define for_each_sched_entity(se) \
		for (; se; se = se->parent)

/* vmlinux data shared by the port files (see above). */
struct fl_port61 {
	struct update_util_data __rcu * __percpu *cpufreq_update_util_data;
};
extern struct fl_port61 fl_p61;

/* fair.c */
static inline void fl_update_load_add(struct load_weight *lw, unsigned long inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

/* fair.c */
static inline void fl_update_load_sub(struct load_weight *lw, unsigned long dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

/* cfs_rq_throttled() .. list_add_leaf_cfs_rq(): the same in every port */
#include "list_add_leaf_cfs_rq.h"

/* fair.c */
static inline int fl_cfs_rq_is_idle(struct cfs_rq *cfs_rq)
{
	return cfs_rq->idle > 0;
}

/* fair.c */
static inline int fl_se_is_idle(struct sched_entity *se)
{
	if (entity_is_task(se))
		return task_has_idle_policy(task_of(se));
	return fl_cfs_rq_is_idle(group_cfs_rq(se));
}

/* fair.c: tg_cfs_bandwidth() */
static inline struct cfs_bandwidth *fl_tg_cfs_bandwidth(struct task_group *tg)
{
	return &tg->cfs_bandwidth;
}

/* fair.c */
static inline void fl_assert_list_leaf_cfs_rq(struct rq *rq)
{
	SCHED_WARN_ON(rq->tmp_alone_branch != &rq->leaf_cfs_rq_list);
}

/* fair.c: __dequeue_entity() */
static inline void fl___dequeue_entity(struct cfs_rq *cfs_rq,
				       struct sched_entity *se)
{
	rb_erase_cached(&se->run_node, &cfs_rq->tasks_timeline);
}

/* update_stats_wait_end_fair(): the same in every port */
#include "update_stats_wait_end_fair.h"

/*
 * sched.h: cpufreq_update_util(), with the per-CPU cpufreq_update_util_data
 * (not exported) reached through its resolved address.
 */
static inline void fl_cpufreq_update_util(struct rq *rq, unsigned int flags)
{
	struct update_util_data *data;

	data = rcu_dereference_sched(*per_cpu_ptr(fl_p61.cpufreq_update_util_data,
						  cpu_of(rq)));
	if (data)
		data->func(data, rq_clock(rq), flags);
}

/* sched.h (CONFIG_NO_HZ_FULL) */
static inline void fl_sched_update_tick_dependency(struct rq *rq)
{
	int cpu = cpu_of(rq);

	if (!tick_nohz_full_cpu(cpu))
		return;

	if (FL_VM(sched_can_stop_tick)(rq))
		tick_nohz_dep_clear_cpu(cpu, TICK_DEP_BIT_SCHED);
	else
		tick_nohz_dep_set_cpu(cpu, TICK_DEP_BIT_SCHED);
}

/* sched.h */
static inline void fl_add_nr_running(struct rq *rq, unsigned count)
{
	unsigned prev_nr = rq->nr_running;

	rq->nr_running = prev_nr + count;
	if (trace_sched_update_nr_running_tp_enabled()) {
		FL_VM(call_trace_sched_update_nr_running)(rq, count);
	}

	if (prev_nr < 2 && rq->nr_running >= 2) {
		if (!READ_ONCE(rq->rd->overload))
			WRITE_ONCE(rq->rd->overload, 1);
	}

	fl_sched_update_tick_dependency(rq);
}

/* sched.h */
static inline void fl_sub_nr_running(struct rq *rq, unsigned count)
{
	rq->nr_running -= count;
	if (trace_sched_update_nr_running_tp_enabled()) {
		FL_VM(call_trace_sched_update_nr_running)(rq, -count);
	}

	/* Check if we still need preemption */
	fl_sched_update_tick_dependency(rq);
}

/* add_positive() .. update_cfs_rq_load_avg(): the same in every port */
#include "update_cfs_rq_load_avg.h"

/* fair.c */
static inline unsigned long fl_task_util(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.util_avg);
}

/* fair.c: _task_util_est() */
static inline unsigned long fl__task_util_est(struct task_struct *p)
{
	struct util_est ue = READ_ONCE(p->se.avg.util_est);

	return max(ue.ewma, (ue.enqueued & ~UTIL_AVG_UNCHANGED));
}

/* fair.c */
static inline unsigned long fl_task_util_est(struct task_struct *p)
{
	return max(fl_task_util(p), fl__task_util_est(p));
}

/* fair.c (its cpu_rq() is the runqueues of vmlinux, compat.h) */
static inline unsigned long fl_capacity_of(int cpu)
{
	return cpu_rq(cpu)->cpu_capacity;
}

/* sched.h: re-expressed because sched.h's body names runqueues itself. */
static inline unsigned long fl_capacity_orig_of(int cpu)
{
	return cpu_rq(cpu)->cpu_capacity_orig;
}

/* sched.h: re-expressed because sched.h's body names runqueues itself. */
static inline unsigned long fl_cpu_util_cfs(int cpu)
{
	struct cfs_rq *cfs_rq;
	unsigned long util;

	cfs_rq = &cpu_rq(cpu)->cfs;
	util = READ_ONCE(cfs_rq->avg.util_avg);

	if (sched_feat(UTIL_EST)) {
		util = max_t(unsigned long, util,
			     READ_ONCE(cfs_rq->avg.util_est.enqueued));
	}

	return min(util, fl_capacity_orig_of(cpu));
}

/* fair.c */
#define fl_fits_capacity(cap, max)	((cap) * 1280 < (max) * 1024)

/*
 * fair.c: util_fits_cpu().  Without CONFIG_UCLAMP_TASK uclamp_is_used() is
 * the constant false, so the function returns right after its first test;
 * the uclamp part that follows in fair.c is unreachable in this build and
 * is not re-expressed.
 */
static inline int fl_util_fits_cpu(unsigned long util,
				   unsigned long uclamp_min,
				   unsigned long uclamp_max,
				   int cpu)
{
	unsigned long capacity = fl_capacity_of(cpu);
	bool fits;

	/*
	 * Check if the real util fits without any uclamp boost/cap applied.
	 */
	fits = fl_fits_capacity(util, capacity);

	BUILD_BUG_ON(IS_ENABLED(CONFIG_UCLAMP_TASK));
	return fits;
}

/* fair.c */
static inline bool fl_cpu_overutilized(int cpu)
{
	unsigned long  rq_util_min, rq_util_max;

	if (!fl_sched_energy_enabled())
		return false;

	rq_util_min = uclamp_rq_get(cpu_rq(cpu), UCLAMP_MIN);
	rq_util_max = uclamp_rq_get(cpu_rq(cpu), UCLAMP_MAX);

	/* Return true only if the utilization doesn't fit CPU's capacity */
	return !fl_util_fits_cpu(fl_cpu_util_cfs(cpu), rq_util_min, rq_util_max, cpu);
}

/* fair.c */
static inline void fl_set_rd_overutilized_status(struct root_domain *rd,
						 unsigned int status)
{
	if (!fl_sched_energy_enabled())
		return;

	WRITE_ONCE(rd->overutilized, status);
	trace_sched_overutilized_tp(rd, !!status);
}

/* fair.c */
static inline void fl_check_update_overutilized_status(struct rq *rq)
{
	/*
	 * overutilized field is used for load balancing decisions only
	 * if energy aware scheduler is being used
	 */
	if (!fl_sched_energy_enabled())
		return;

	if (!READ_ONCE(rq->rd->overutilized) && fl_cpu_overutilized(rq->cpu))
		fl_set_rd_overutilized_status(rq->rd, SG_OVERUTILIZED);
}

#endif /* FAIRLAB_PORT61_FAIR_INLINE_H */
