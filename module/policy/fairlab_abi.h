/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairlab ABI shared by the kernel modules and the userspace tools:
 * numeric ids that appear in fairlab:* trace records, and their names.
 *
 * Pure C, no kernel or libc includes: the userspace analyzer decodes
 * exactly the numbers the kernel wrote.  Append only; never renumber.
 */
#ifndef FAIRLAB_ABI_H
#define FAIRLAB_ABI_H

/* tg->load_avg policies (tg_update.policy, policy_switch.*_policy). */
enum fl_tg_policy_id {
	FL_TG_STOCK,		/* the kernel's rule; arg: its rate limit (us, 0 = none) */
	FL_TG_FORCE,		/* every attempt, even delta 0: 3.x force_update */
	FL_TG_NONZERO,		/* delta != 0: Jason Low 2014 */
	FL_TG_RELATIVE,		/* |delta| > contrib/N */
	FL_TG_TURNER1,		/* |delta| > contrib/(8*(1+forced)) */
	FL_TG_TURNER2,		/* divisor = forced ? nr_cpus : 8 */
	FL_TG_FIXED,		/* |delta| > T */
	FL_TG_LOG2,		/* |delta| > B*(1+ilog2(nr_cpus)) */
	FL_TG_RATELIMIT,	/* stock, at most once per US us per cfs_rq */
	FL_TG_BUDGET,		/* |delta| > E% of tg->load_avg / nr_cpus */
	FL_TG_NR_POLICIES
};

/* update_pick_idlest() policies (pick_idlest.policy). */
enum fl_idlest_policy_id {
	FL_IDLEST_STOCK,	/* 6.1: most idle CPUs, ties to lower group_util */
	FL_IDLEST_IDLE_CPUS,	/* pre-5.9: most idle CPUs, ties keep the first */
	FL_IDLEST_NR_RUNNING,	/* most idle CPUs, ties to fewer runnable tasks */
	FL_IDLEST_NR_POLICIES
};

/*
 * policy_switch.kind.  FL_KIND_UNPATCH marks the start of the unpatching
 * transition (klp's pre_unpatch): from that record on, tasks already
 * switched back run the kernel's own functions, whose publishes of
 * tg->load_avg no record shows, until the patch is live again (its
 * FL_KIND_TG record).  old: the tg policy in force; new: the kernel's
 * stock (arg: its rate limit).
 */
enum fl_policy_kind {
	FL_KIND_TG,
	FL_KIND_IDLEST,
	FL_KIND_UNPATCH,
	/*
	 * A livepatch loaded after fairlab replaces one of its functions
	 * (new: stock, the kernel's rule, now in force), or is gone (new:
	 * the user's policy, restored); old: the user's tg policy.  At a
	 * fallback's start and end, tg and idlest records of the switch
	 * follow; while one is in force, describe repeats it.
	 */
	FL_KIND_FALLBACK,
	/*
	 * (4) The tg_layout in force (where each group's load sum lives):
	 * old_policy/new_policy an enum fl_layout_id (0 global, 1 node,
	 * 2 llc), old_arg/new_arg the read cache's refresh in us (0: no
	 * cache).  At every switch, and with old == new when the patch goes
	 * live and at describe time.
	 */
	FL_KIND_LAYOUT,
};

/*
 * tg_layout: where each task group's load sum lives; policy_switch
 * records of kind FL_KIND_LAYOUT carry it.
 */
enum fl_layout_id {
	FL_LAYOUT_GLOBAL,	/* tg->load_avg, the kernel's one counter */
	FL_LAYOUT_NODE,		/* one counter per NUMA node */
	FL_LAYOUT_LLC,		/* one counter per last-level cache */
	FL_NR_LAYOUTS
};

/*
 * tg_update.site: which replaced path made the update attempt.  Sites
 * named after a function are its update_load_avg() call(s); the _DIRECT
 * ones call update_tg_load_avg() themselves.
 */
enum fl_site {
	FL_SITE_ENQUEUE_ENTITY,
	FL_SITE_DEQUEUE_ENTITY,
	FL_SITE_SET_NEXT_ENTITY,
	FL_SITE_ENTITY_TICK,		/* task_tick_fair -> entity_tick */
	FL_SITE_ENQUEUE_TASK_FAIR,
	FL_SITE_DEQUEUE_TASK_FAIR,
	FL_SITE_UNTHROTTLE_CFS_RQ,
	FL_SITE_PROPAGATE_ENTITY,	/* propagate_entity_cfs_rq */
	FL_SITE_SET_SHARES,		/* __sched_group_set_shares */
	FL_SITE_BLOCKED_SE,		/* update_blocked_averages, per se */
	FL_SITE_BLOCKED_DIRECT,		/* __update_blocked_fair: the 3.x "forced" path */
	FL_SITE_ATTACH_ULA,		/* attach_entity_cfs_rq's update_load_avg */
	FL_SITE_ATTACH_DIRECT,		/* attach_entity_cfs_rq */
	FL_SITE_DETACH_ULA,		/* detach_entity_cfs_rq's update_load_avg */
	FL_SITE_DETACH_DIRECT,		/* detach_entity_cfs_rq */
	FL_SITE_RESYNC,			/* fairlab publishing held-back error */
	FL_SITE_CLEAR_TG_LOAD_AVG,	/* clear_tg_load_avg(): CPU offline (6.8+) */
	FL_NR_SITES
};

/*
 * Sites that make no publish decision: each writes unconditionally and
 * stamps the cfs_rq's publish time.  resync publishes load - contrib;
 * clear_tg_load_avg withdraws the whole contrib of a CPU going offline,
 * recorded as a publish of load 0 (delta = -contrib).
 */
#define FL_SITE_NO_DECISION(site) \
	((site) == FL_SITE_RESYNC || (site) == FL_SITE_CLEAR_TG_LOAD_AVG)

/* The forced path of 3.x (__update_blocked_averages_cpu's force_update). */
#define FL_SITE_IS_FORCED(site)	((site) == FL_SITE_BLOCKED_DIRECT)

/* tg ids: the cgroup id, or an autogroup id with this bit set; 0 = root. */
#define FL_TG_AUTOGROUP_FLAG	(1ULL << 62)

/* tg_update.since_ns when the cfs_rq has no recorded publish yet. */
#define FL_SINCE_NEVER		(~0ULL)

/* group_type values of kernel/sched/fair.c (6.1), for pick_idlest records. */
enum fl_group_type {
	FL_GROUP_HAS_SPARE,
	FL_GROUP_FULLY_BUSY,
	FL_GROUP_MISFIT_TASK,
	FL_GROUP_ASYM_PACKING,
	FL_GROUP_IMBALANCED,
	FL_GROUP_OVERLOADED,
};

extern const char *const fl_tg_policy_names[FL_TG_NR_POLICIES];
extern const char *const fl_idlest_policy_names[FL_IDLEST_NR_POLICIES];
extern const char *const fl_layout_names[FL_NR_LAYOUTS];
extern const char *const fl_site_names[FL_NR_SITES];
extern const char *const fl_group_type_names[6];

#endif /* FAIRLAB_ABI_H */
