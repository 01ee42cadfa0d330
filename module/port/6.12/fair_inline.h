/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inline helpers shared by the files of the 6.12 port that re-express
 * kernel/sched/fair.c of Linux 6.12.117 (Debian 6.12.117+deb12-amd64):
 * update_load_avg.h, attach.c, blocked.c, dequeue.c, enqueue.c, idlest.c,
 * offline.c, shares.c, tick.c.
 *
 * As in the 6.1 port, two kinds of things live here:
 *  - fl_p612: vmlinux data the replaced functions share and that vmlinux
 *    does not export to modules, resolved by name at init (fl_syms_shared
 *    in vmcalls.c).  The unexported vmlinux functions they call are static
 *    calls, FL_VM(name)() (vmcalls.h).
 *  - re-expressions of the fair.c / sched.h inlines used by more than one
 *    replaced function.  Each keeps its kernel name with an fl_ prefix so
 *    that it is never mistaken for a vmlinux copy; its body is the
 *    6.12.117 body (each compared with 6.12.117's fair.c: identical to
 *    6.1.192's for every helper here), with only the call mechanisms
 *    substituted (a static call for an unexported function, compat.h's
 *    accessors for unexported static keys and data).
 *
 * Only what the files written so far use is here; the enqueue, dequeue,
 * tick and blocked-averages replacements will add theirs.
 */
#ifndef FAIRLAB_PORT612_FAIR_INLINE_H
#define FAIRLAB_PORT612_FAIR_INLINE_H

#include "port.h"		/* compat.h, sched.h */
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
struct fl_port612 {
	struct update_util_data __rcu * __percpu *cpufreq_update_util_data;
};
extern struct fl_port612 fl_p612;

/* cfs_rq_throttled() .. list_add_leaf_cfs_rq(): the same in every port */
#include "list_add_leaf_cfs_rq.h"

/*
 * sched.h: cpufreq_update_util(), with the per-CPU cpufreq_update_util_data
 * (not exported) reached through its resolved address.
 */
static inline void fl_cpufreq_update_util(struct rq *rq, unsigned int flags)
{
	struct update_util_data *data;

	data = rcu_dereference_sched(*per_cpu_ptr(fl_p612.cpufreq_update_util_data,
						  cpu_of(rq)));
	if (data)
		data->func(data, rq_clock(rq), flags);
}

/* add_positive() .. update_cfs_rq_load_avg(): the same in every port */
#include "update_cfs_rq_load_avg.h"

/* fair.c */
static inline unsigned long fl_task_util(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.util_avg);
}

/* fair.c: _task_util_est() (6.9: util_est is one unsigned int) */
static inline unsigned long fl__task_util_est(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.util_est) & ~UTIL_AVG_UNCHANGED;
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

/* fair.c (no CONFIG_UCLAMP_TASK: uclamp_eff_value() is a constant) */
static inline int fl_task_fits_cpu(struct task_struct *p, int cpu)
{
	unsigned long uclamp_min = uclamp_eff_value(p, UCLAMP_MIN);
	unsigned long uclamp_max = uclamp_eff_value(p, UCLAMP_MAX);
	unsigned long util = fl_task_util_est(p);
	/*
	 * Return true only if the cpu fully fits the task requirements, which
	 * include the utilization but also the performance hints.
	 */
	return (fl_util_fits_cpu(util, uclamp_min, uclamp_max, cpu) > 0);
}

/* fair.c; cpu_util_cfs() is called out of line in vmlinux */
static inline bool fl_cpu_overutilized(int cpu)
{
	unsigned long  rq_util_min, rq_util_max;

	if (!fl_sched_energy_enabled())
		return false;

	rq_util_min = uclamp_rq_get(cpu_rq(cpu), UCLAMP_MIN);
	rq_util_max = uclamp_rq_get(cpu_rq(cpu), UCLAMP_MAX);

	/* Return true only if the utilization doesn't fit CPU's capacity */
	return !fl_util_fits_cpu(FL_VM(cpu_util_cfs)(cpu), rq_util_min, rq_util_max, cpu);
}

/* fair.c: overutilized value make sense only if EAS is enabled */
static inline bool fl_is_rd_overutilized(struct root_domain *rd)
{
	return !fl_sched_energy_enabled() || READ_ONCE(rd->overutilized);
}

/* fair.c */
static inline void fl_set_rd_overutilized(struct root_domain *rd, bool flag)
{
	if (!fl_sched_energy_enabled())
		return;

	WRITE_ONCE(rd->overutilized, flag);
	trace_sched_overutilized_tp(rd, flag);
}

/* fair.c */
static inline void fl_check_update_overutilized_status(struct rq *rq)
{
	/*
	 * overutilized field is used for load balancing decisions only
	 * if energy aware scheduler is being used
	 */

	if (!fl_is_rd_overutilized(rq->rd) && fl_cpu_overutilized(rq->cpu))
		fl_set_rd_overutilized(rq->rd, 1);
}

/* fair.c (CONFIG_FAIR_GROUP_SCHED) */
static inline int fl_cfs_rq_is_idle(struct cfs_rq *cfs_rq)
{
	return cfs_rq->idle > 0;
}

/* fair.c (CONFIG_FAIR_GROUP_SCHED) */
static inline int fl_se_is_idle(struct sched_entity *se)
{
	if (entity_is_task(se))
		return task_has_idle_policy(task_of(se));
	return fl_cfs_rq_is_idle(group_cfs_rq(se));
}

/* fair.c: __pick_root_entity() (global in fair.c, inlined here) */
static inline struct sched_entity *fl___pick_root_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *root = cfs_rq->tasks_timeline.rb_root.rb_node;

	if (!root)
		return NULL;

	return rb_entry(root, struct sched_entity, run_node);
}

/* fair.c */
static inline u64 fl_cfs_rq_min_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = fl___pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 min_slice = ~0ULL;

	if (curr && curr->on_rq)
		min_slice = curr->slice;

	if (root)
		min_slice = min(min_slice, root->min_slice);

	return min_slice;
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

/* fair.c */
static inline void fl_assert_list_leaf_cfs_rq(struct rq *rq)
{
	SCHED_WARN_ON(rq->tmp_alone_branch != &rq->leaf_cfs_rq_list);
}

/* fair.c: tg_cfs_bandwidth() */
static inline struct cfs_bandwidth *fl_tg_cfs_bandwidth(struct task_group *tg)
{
	return &tg->cfs_bandwidth;
}

/* update_stats_wait_end_fair(): the same in every port */
#include "update_stats_wait_end_fair.h"

/* fair.c: __clear_buddies_next() */
static inline void fl___clear_buddies_next(struct sched_entity *se)
{
	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);
		if (cfs_rq->next != se)
			break;

		cfs_rq->next = NULL;
	}
}

/* fair.c (inlined in vmlinux on 6.12, out of line on 6.1) */
static inline void fl_clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->next == se)
		fl___clear_buddies_next(se);
}

#endif /* FAIRLAB_PORT612_FAIR_INLINE_H */
