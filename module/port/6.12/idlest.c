// SPDX-License-Identifier: GPL-2.0
/*
 * The fork/exec slow path: sched_balance_find_dst_group() of Linux
 * 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c (the 6.10
 * name of find_idlest_group()), with the decision of its inlined
 * update_pick_idlest() taken by the selected idlest policy
 * (fl_idlest_decide(), shared with userspace) and every decision traced
 * (fairlab:pick_idlest).
 *
 * Everything else here re-expresses what the compiler inlined into it:
 * update_sg_wakeup_stats() and its helpers.  cpu_util() and task_h_load()
 * are out of line in vmlinux and called as static calls (vmcalls.h).
 *
 * group_type: the values are fairlab's (enum fl_group_type, the order of
 * 6.1's enum group_type), which the policies and the pick_idlest records
 * use.  6.12's enum group_type has group_smt_balance (6.6) between
 * group_misfit_task and group_asym_packing; in this path it cannot occur:
 * group_classify() returns it only for sgs->group_smt_balance, which
 * update_sg_wakeup_stats() zeroes (memset) and never sets (only
 * update_sg_lb_stats(), the load balancer's, does).  Every type this path
 * can produce keeps its relative order, so each <, > and case below
 * decides as 6.12.117's does; its group_smt_balance tests are left out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "fair_inline.h"
#include "fairlab.h"
#include "fairlab_trace_events.h"

/* fair.c: lsub_positive(), remove and clamp on negative, from a local variable. */
#define fl_lsub_positive(_ptr, _val) do {			\
	typeof(_ptr) ptr = (_ptr);				\
	*ptr -= min_t(typeof(*ptr), *ptr, _val);		\
} while (0)

/* fair.c: cpu_load_without(), its cpu_load() written out */
static inline unsigned long fl_cpu_load_without(struct rq *rq, struct task_struct *p)
{
	struct cfs_rq *cfs_rq;
	unsigned int load;

	/* Task has no contribution or is new */
	if (cpu_of(rq) != task_cpu(p) || !READ_ONCE(p->se.avg.last_update_time))
		return rq->cfs.avg.load_avg;	/* cpu_load() */

	cfs_rq = &rq->cfs;
	load = READ_ONCE(cfs_rq->avg.load_avg);

	/* Discount task's util from CPU's util */
	fl_lsub_positive(&load, FL_VM(task_h_load)(p));

	return load;
}

/* fair.c: cpu_runnable_without(), its cpu_runnable() written out */
static inline unsigned long fl_cpu_runnable_without(struct rq *rq, struct task_struct *p)
{
	struct cfs_rq *cfs_rq;
	unsigned int runnable;

	/* Task has no contribution or is new */
	if (cpu_of(rq) != task_cpu(p) || !READ_ONCE(p->se.avg.last_update_time))
		return rq->cfs.avg.runnable_avg;	/* cpu_runnable() */

	cfs_rq = &rq->cfs;
	runnable = READ_ONCE(cfs_rq->avg.runnable_avg);

	/* Discount task's runnable from CPU's runnable */
	fl_lsub_positive(&runnable, p->se.avg.runnable_avg);

	return runnable;
}

/* fair.c: cpu_util_without(); cpu_util() is out of line in vmlinux */
static inline unsigned long fl_cpu_util_without(int cpu, struct task_struct *p)
{
	/* Task has no contribution or is new */
	if (cpu != task_cpu(p) || !READ_ONCE(p->se.avg.last_update_time))
		p = NULL;

	return FL_VM(cpu_util)(cpu, p, -1, 0);
}

/* fair.c: task_running_on_cpu - return 1 if @p is running on @cpu. */
static inline unsigned int fl_task_running_on_cpu(int cpu, struct task_struct *p)
{
	/* Task has no contribution or is new */
	if (cpu != task_cpu(p) || !READ_ONCE(p->se.avg.last_update_time))
		return 0;

	if (task_on_rq_queued(p))
		return 1;

	return 0;
}

/* fair.c: idle_cpu_without - would a given CPU be idle without p ? */
static inline int fl_idle_cpu_without(int cpu, struct task_struct *p)
{
	struct rq *rq = cpu_rq(cpu);

	if (rq->curr != rq->idle && rq->curr != p)
		return 0;

	/*
	 * rq->nr_running can't be used but an updated version without the
	 * impact of p on cpu must be used instead. The updated nr_running
	 * be computed and tested before calling idle_cpu_without().
	 */

	if (rq->ttwu_pending)
		return 0;

	return 1;
}

/* The part of fair.c's struct sg_lb_stats that the wakeup path fills. */
struct fl_sg_lb_stats {
	unsigned long avg_load;
	unsigned long group_load;
	unsigned long group_capacity;
	unsigned long group_util;
	unsigned long group_runnable;
	unsigned int sum_nr_running;
	unsigned int sum_h_nr_running;
	unsigned int idle_cpus;
	unsigned int group_weight;
	unsigned int group_type;	/* enum fl_group_type (see above) */
	unsigned int group_asym_packing;
	unsigned long group_misfit_task_load;
};

/* fair.c */
static inline bool
fl_group_is_overloaded(unsigned int imbalance_pct, struct fl_sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;

	if ((sgs->group_capacity * 100) <
			(sgs->group_util * imbalance_pct))
		return true;

	if ((sgs->group_capacity * imbalance_pct) <
			(sgs->group_runnable * 100))
		return true;

	return false;
}

/* fair.c */
static inline bool
fl_group_has_capacity(unsigned int imbalance_pct, struct fl_sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;

	if ((sgs->group_capacity * imbalance_pct) <
			(sgs->group_runnable * 100))
		return false;

	if ((sgs->group_capacity * 100) >
			(sgs->group_util * imbalance_pct))
		return true;

	return false;
}

/* fair.c */
static inline int fl_sg_imbalanced(struct sched_group *group)
{
	return group->sgc->imbalance;
}

/* fair.c: group_classify(), without its group_smt_balance test (see above) */
static inline unsigned int fl_group_classify(unsigned int imbalance_pct,
					     struct sched_group *group,
					     struct fl_sg_lb_stats *sgs)
{
	if (fl_group_is_overloaded(imbalance_pct, sgs))
		return FL_GROUP_OVERLOADED;

	if (fl_sg_imbalanced(group))
		return FL_GROUP_IMBALANCED;

	if (sgs->group_asym_packing)
		return FL_GROUP_ASYM_PACKING;

	if (sgs->group_misfit_task_load)
		return FL_GROUP_MISFIT_TASK;

	if (!fl_group_has_capacity(imbalance_pct, sgs))
		return FL_GROUP_FULLY_BUSY;

	return FL_GROUP_HAS_SPARE;
}

/*
 * fair.c: update_sg_wakeup_stats - Update sched_group's statistics for
 * wakeup.
 */
static inline void fl_update_sg_wakeup_stats(struct sched_domain *sd,
					     struct sched_group *group,
					     struct fl_sg_lb_stats *sgs,
					     struct task_struct *p)
{
	int i, nr_running;

	memset(sgs, 0, sizeof(*sgs));

	/* Assume that task can't fit any CPU of the group */
	if (sd->flags & SD_ASYM_CPUCAPACITY)
		sgs->group_misfit_task_load = 1;

	for_each_cpu_and(i, sched_group_span(group), p->cpus_ptr) {
		struct rq *rq = cpu_rq(i);
		unsigned int local;

		sgs->group_load += fl_cpu_load_without(rq, p);
		sgs->group_util += fl_cpu_util_without(i, p);
		sgs->group_runnable += fl_cpu_runnable_without(rq, p);
		local = fl_task_running_on_cpu(i, p);
		sgs->sum_h_nr_running += rq->cfs.h_nr_queued - local;

		nr_running = rq->nr_running - local;
		sgs->sum_nr_running += nr_running;

		/*
		 * No need to call idle_cpu_without() if nr_running is not 0
		 */
		if (!nr_running && fl_idle_cpu_without(i, p))
			sgs->idle_cpus++;

		/* Check if task fits in the CPU */
		if (sd->flags & SD_ASYM_CPUCAPACITY &&
		    sgs->group_misfit_task_load &&
		    fl_task_fits_cpu(p, i))
			sgs->group_misfit_task_load = 0;

	}

	sgs->group_capacity = group->sgc->capacity;

	sgs->group_weight = group->group_weight;

	sgs->group_type = fl_group_classify(sd->imbalance_pct, group, sgs);

	/*
	 * Computing avg_load makes sense only when group is fully busy or
	 * overloaded
	 */
	if (sgs->group_type == FL_GROUP_FULLY_BUSY ||
		sgs->group_type == FL_GROUP_OVERLOADED)
		sgs->avg_load = (sgs->group_load * SCHED_CAPACITY_SCALE) /
				sgs->group_capacity;
}

/* What fl_idlest_decide() and the pick_idlest record see of a group. */
static void fl_sg_to_policy(const struct fl_sg_lb_stats *sgs,
			    const struct sched_group *group,
			    struct fl_sg_stats *out)
{
	out->group_type = sgs->group_type;
	out->idle_cpus = sgs->idle_cpus;
	out->sum_nr_running = sgs->sum_nr_running;
	out->group_util = sgs->group_util;
	out->avg_load = sgs->avg_load;
	out->max_capacity = group ? group->sgc->max_capacity : 0;
}

/*
 * Mirrors update_pick_idlest() of Linux 6.12.117 (inlined into
 * sched_balance_find_dst_group), unchanged from 6.1.192 but for its
 * group_smt_balance case: the comparison itself is fl_idlest_decide()
 * (whose stock policy is this function's rule), shared with userspace;
 * here the kernel structs are translated and the decision traced.
 * @idlest is NULL on the first candidate, as in the original (whose
 * initial idlest_sgs, overloaded with avg_load UINT_MAX, loses to any
 * group that is not overloaded-and-heavier).
 */
static bool fl_update_pick_idlest(struct sched_group *idlest,
				  struct fl_sg_lb_stats *idlest_sgs,
				  struct sched_group *group,
				  struct fl_sg_lb_stats *sgs)
{
	u32 policy = fl_idlest_policy_get();
	struct fl_sg_stats is, gs;
	bool picked;

	fl_sg_to_policy(idlest_sgs, idlest, &is);
	fl_sg_to_policy(sgs, group, &gs);
	picked = fl_idlest_decide(policy, &is, &gs);

	fl_stats_idlest(policy, picked);
	if (trace_pick_idlest_enabled())
		trace_pick_idlest(idlest ? cpumask_first(sched_group_span(idlest)) : -1,
				  cpumask_first(sched_group_span(group)),
				  &is, &gs, picked, policy);
	return picked;
}

/* fair.c (CONFIG_NUMA) */
#define NUMA_IMBALANCE_MIN 2

/* fair.c (CONFIG_NUMA) */
static inline long
fl_adjust_numa_imbalance(int imbalance, int dst_running, int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;

	/*
	 * Allow a small imbalance based on a simple pair of communicating
	 * tasks that remain local when the destination is lightly loaded.
	 */
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;

	return imbalance;
}

/* Mirrors sched_balance_find_dst_group() of Linux 6.12.117 (Debian 6.12.117+deb12-amd64), kernel/sched/fair.c. */
/*
 * sched_balance_find_dst_group() finds and returns the least busy CPU
 * group within the domain.
 *
 * Assumes p is allowed on at least one CPU in sd.
 *
 * sched_group_cookie_match() is sched.h's (true: no CONFIG_SCHED_CORE);
 * this_cpu_cpumask_var_ptr(select_rq_mask) reads the resolved per-CPU
 * select_rq_mask (compat.h).
 */
struct sched_group *fl_sched_balance_find_dst_group(struct sched_domain *sd,
						    struct task_struct *p,
						    int this_cpu)
{
	struct sched_group *idlest = NULL, *local = NULL, *group = sd->groups;
	struct fl_sg_lb_stats local_sgs, tmp_sgs;
	struct fl_sg_lb_stats *sgs;
	unsigned long imbalance;
	struct fl_sg_lb_stats idlest_sgs = {
			.avg_load = UINT_MAX,
			.group_type = FL_GROUP_OVERLOADED,
	};

	do {
		int local_group;

		/* Skip over this group if it has no CPUs allowed */
		if (!cpumask_intersects(sched_group_span(group),
					p->cpus_ptr))
			continue;

		/* Skip over this group if no cookie matched */
		if (!sched_group_cookie_match(cpu_rq(this_cpu), p, group))
			continue;

		local_group = cpumask_test_cpu(this_cpu,
					       sched_group_span(group));

		if (local_group) {
			sgs = &local_sgs;
			local = group;
		} else {
			sgs = &tmp_sgs;
		}

		fl_update_sg_wakeup_stats(sd, group, sgs, p);

		if (!local_group && fl_update_pick_idlest(idlest, &idlest_sgs, group, sgs)) {
			idlest = group;
			idlest_sgs = *sgs;
		}

	} while (group = group->next, group != sd->groups);


	/* There is no idlest group to push tasks to */
	if (!idlest)
		return NULL;

	/* The local group has been skipped because of CPU affinity */
	if (!local)
		return idlest;

	/*
	 * If the local group is idler than the selected idlest group
	 * don't try and push the task.
	 */
	if (local_sgs.group_type < idlest_sgs.group_type)
		return NULL;

	/*
	 * If the local group is busier than the selected idlest group
	 * try and push the task.
	 */
	if (local_sgs.group_type > idlest_sgs.group_type)
		return idlest;

	switch (local_sgs.group_type) {
	case FL_GROUP_OVERLOADED:
	case FL_GROUP_FULLY_BUSY:

		/* Calculate allowed imbalance based on load */
		imbalance = scale_load_down(NICE_0_LOAD) *
				(sd->imbalance_pct-100) / 100;

		/*
		 * When comparing groups across NUMA domains, it's possible for
		 * the local domain to be very lightly loaded relative to the
		 * remote domains but "imbalance" skews the comparison making
		 * remote CPUs look much more favourable. When considering
		 * cross-domain, add imbalance to the load on the remote node
		 * and consider staying local.
		 */

		if ((sd->flags & SD_NUMA) &&
		    ((idlest_sgs.avg_load + imbalance) >= local_sgs.avg_load))
			return NULL;

		/*
		 * If the local group is less loaded than the selected
		 * idlest group don't try and push any tasks.
		 */
		if (idlest_sgs.avg_load >= (local_sgs.avg_load + imbalance))
			return NULL;

		if (100 * local_sgs.avg_load <= sd->imbalance_pct * idlest_sgs.avg_load)
			return NULL;
		break;

	case FL_GROUP_IMBALANCED:
	case FL_GROUP_ASYM_PACKING:
		/* Those type are not used in the slow wakeup path */
		return NULL;

	case FL_GROUP_MISFIT_TASK:
		/* Select group with the highest max capacity */
		if (local->sgc->max_capacity >= idlest->sgc->max_capacity)
			return NULL;
		break;

	case FL_GROUP_HAS_SPARE:
		if (sd->flags & SD_NUMA) {
			int imb_numa_nr = sd->imb_numa_nr;
#ifdef CONFIG_NUMA_BALANCING
			int idlest_cpu;
			/*
			 * If there is spare capacity at NUMA, try to select
			 * the preferred node
			 */
			if (cpu_to_node(this_cpu) == p->numa_preferred_nid)
				return NULL;

			idlest_cpu = cpumask_first(sched_group_span(idlest));
			if (cpu_to_node(idlest_cpu) == p->numa_preferred_nid)
				return idlest;
#endif /* CONFIG_NUMA_BALANCING */
			/*
			 * Otherwise, keep the task close to the wakeup source
			 * and improve locality if the number of running tasks
			 * would remain below threshold where an imbalance is
			 * allowed while accounting for the possibility the
			 * task is pinned to a subset of CPUs. If there is a
			 * real need of migration, periodic load balance will
			 * take care of it.
			 */
			if (p->nr_cpus_allowed != NR_CPUS) {
				struct cpumask *cpus = *this_cpu_ptr(fl_vm.select_rq_mask);

				cpumask_and(cpus, sched_group_span(local), p->cpus_ptr);
				imb_numa_nr = min(cpumask_weight(cpus), sd->imb_numa_nr);
			}

			imbalance = abs(local_sgs.idle_cpus - idlest_sgs.idle_cpus);
			if (!fl_adjust_numa_imbalance(imbalance,
						      local_sgs.sum_nr_running + 1,
						      imb_numa_nr)) {
				return NULL;
			}
		}

		/*
		 * Select group with highest number of idle CPUs. We could also
		 * compare the utilization which is more stable but it can end
		 * up that the group has less spare capacity but finally more
		 * idle CPUs which means more opportunity to run task.
		 */
		if (local_sgs.idle_cpus >= idlest_sgs.idle_cpus)
			return NULL;
		break;
	}

	BUILD_BUG_ON(!IS_ENABLED(CONFIG_NUMA));
	return idlest;
}
