/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's one private copy of update_load_avg() of kernel/sched/fair.c,
 * and of what it inlines, shared by the ports: update_load_avg() and the
 * propagate/update_tg_cfs_* helpers are the same, body by body, in Linux
 * 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian 6.12.117+deb12-amd64).
 * A port whose kernel changed them keeps its own copy in its directory,
 * which the include path searches first.
 *
 * In vmlinux update_load_avg() is `static inline`, hence notrace: klp cannot
 * patch it.  It holds three of the copies of update_tg_load_avg(); here each
 * becomes fl_tg_update(cfs_rq, site), which takes the publish decision
 * through the active policy.  Every replaced function of the port calls
 * fl_update_load_avg() with the site (enum fl_site) of its call.
 *
 * Always inline: vmlinux calls its update_load_avg() out of line, about
 * seven times per context switch on 6.1; inlined into the replacements, the call,
 * the register saves and the site argument disappear, which pays back part
 * of what klp's ftrace hop costs on entry to a replaced function.
 */
#ifndef FAIRLAB_PORT_UPDATE_LOAD_AVG_H
#define FAIRLAB_PORT_UPDATE_LOAD_AVG_H

#include "port_build.h"	/* FL_VARIANT_update_tg_cfs_runnable_* */

#include "fair_inline.h"

/* fair.c: cfs_rq_util_change() */
static inline void fl_cfs_rq_util_change(struct cfs_rq *cfs_rq, int flags)
{
	struct rq *rq = rq_of(cfs_rq);

	if (&rq->cfs == cfs_rq) {
		/*
		 * There are a few boundary cases this might miss but it should
		 * get called often enough that that should (hopefully) not be
		 * a real problem.
		 *
		 * It will not get called when we go idle, because the idle
		 * thread is a different class (!fair), nor will the utilization
		 * number include things like RT tasks.
		 *
		 * As is, the util number is not freq-invariant (we'd have to
		 * implement arch_scale_freq_capacity() for that).
		 *
		 * See cpu_util_cfs().
		 */
		fl_cpufreq_update_util(rq, flags);
	}
}

/* fair.c */
static inline void
fl_update_tg_cfs_util(struct cfs_rq *cfs_rq, struct sched_entity *se,
		      struct cfs_rq *gcfs_rq)
{
	long delta_sum, delta_avg = gcfs_rq->avg.util_avg - se->avg.util_avg;
	u32 new_sum, divider;

	/* Nothing to update */
	if (!delta_avg)
		return;

	/*
	 * cfs_rq->avg.period_contrib can be used for both cfs_rq and se.
	 * See ___update_load_avg() for details.
	 */
	divider = get_pelt_divider(&cfs_rq->avg);


	/* Set new sched_entity's utilization */
	se->avg.util_avg = gcfs_rq->avg.util_avg;
	new_sum = se->avg.util_avg * divider;
	delta_sum = (long)new_sum - (long)se->avg.util_sum;
	se->avg.util_sum = new_sum;

	/* Update parent cfs_rq utilization */
	fl_add_positive(&cfs_rq->avg.util_avg, delta_avg);
	fl_add_positive(&cfs_rq->avg.util_sum, delta_sum);

	/* See update_cfs_rq_load_avg() */
	cfs_rq->avg.util_sum = max_t(u32, cfs_rq->avg.util_sum,
					  cfs_rq->avg.util_avg * PELT_MIN_DIVIDER);
}

/*
 * Mirrors update_tg_cfs_runnable() of kernel/sched/fair.c in two variants,
 * picked at build time for the build compiled for (its fingerprint, see
 * module/port/<port>/fingerprints.txt), which differ only in the type of
 * new_sum, fl_runnable_sum_t:
 *   default: Linux 6.1.190 and later, 6.12.111 and later (u64 new_sum:
 *            runnable_avg * divider can exceed 32 bits);
 *   FL_VARIANT_update_tg_cfs_runnable_6_1_187 or ..._6_12_107: Linux
 *            6.1.187 and 6.12.107 and earlier, which compute new_sum in
 *            u32.  Those kernels multiply in unsigned long (64 bits here)
 *            and store the product in the u32: the (u64) product below,
 *            stored in a u32, keeps the same low 32 bits, so the result
 *            is truncated exactly as theirs is.
 */
#if defined(FL_VARIANT_update_tg_cfs_runnable_6_1_187) || \
	defined(FL_VARIANT_update_tg_cfs_runnable_6_12_107)
typedef u32 fl_runnable_sum_t;
#else
typedef u64 fl_runnable_sum_t;
#endif

static inline void
fl_update_tg_cfs_runnable(struct cfs_rq *cfs_rq, struct sched_entity *se,
			  struct cfs_rq *gcfs_rq)
{
	long delta_sum, delta_avg = gcfs_rq->avg.runnable_avg - se->avg.runnable_avg;
	fl_runnable_sum_t new_sum;
	u32 divider;

	/* Nothing to update */
	if (!delta_avg)
		return;

	/*
	 * cfs_rq->avg.period_contrib can be used for both cfs_rq and se.
	 * See ___update_load_avg() for details.
	 */
	divider = get_pelt_divider(&cfs_rq->avg);

	/* Set new sched_entity's runnable */
	se->avg.runnable_avg = gcfs_rq->avg.runnable_avg;
	new_sum = (u64)se->avg.runnable_avg * divider;
	delta_sum = (long)new_sum - (long)se->avg.runnable_sum;
	se->avg.runnable_sum = new_sum;

	/* Update parent cfs_rq runnable */
	fl_add_positive(&cfs_rq->avg.runnable_avg, delta_avg);
	fl_add_positive(&cfs_rq->avg.runnable_sum, delta_sum);
	/* See update_cfs_rq_load_avg() */
	cfs_rq->avg.runnable_sum = max_t(u32, cfs_rq->avg.runnable_sum,
					      cfs_rq->avg.runnable_avg * PELT_MIN_DIVIDER);
}

/* fair.c */
static inline void
fl_update_tg_cfs_load(struct cfs_rq *cfs_rq, struct sched_entity *se,
		      struct cfs_rq *gcfs_rq)
{
	long delta_avg, running_sum, runnable_sum = gcfs_rq->prop_runnable_sum;
	unsigned long load_avg;
	u64 load_sum = 0;
	s64 delta_sum;
	u32 divider;

	if (!runnable_sum)
		return;

	gcfs_rq->prop_runnable_sum = 0;

	/*
	 * cfs_rq->avg.period_contrib can be used for both cfs_rq and se.
	 * See ___update_load_avg() for details.
	 */
	divider = get_pelt_divider(&cfs_rq->avg);

	if (runnable_sum >= 0) {
		/*
		 * Add runnable; clip at LOAD_AVG_MAX. Reflects that until
		 * the CPU is saturated running == runnable.
		 */
		runnable_sum += se->avg.load_sum;
		runnable_sum = min_t(long, runnable_sum, divider);
	} else {
		/*
		 * Estimate the new unweighted runnable_sum of the gcfs_rq by
		 * assuming all tasks are equally runnable.
		 */
		if (scale_load_down(gcfs_rq->load.weight)) {
			load_sum = div_u64(gcfs_rq->avg.load_sum,
				scale_load_down(gcfs_rq->load.weight));
		}

		/* But make sure to not inflate se's runnable */
		runnable_sum = min(se->avg.load_sum, load_sum);
	}

	/*
	 * runnable_sum can't be lower than running_sum
	 * Rescale running sum to be in the same range as runnable sum
	 * running_sum is in [0 : LOAD_AVG_MAX <<  SCHED_CAPACITY_SHIFT]
	 * runnable_sum is in [0 : LOAD_AVG_MAX]
	 */
	running_sum = se->avg.util_sum >> SCHED_CAPACITY_SHIFT;
	runnable_sum = max(runnable_sum, running_sum);

	load_sum = se_weight(se) * runnable_sum;
	load_avg = div_u64(load_sum, divider);

	delta_avg = load_avg - se->avg.load_avg;
	if (!delta_avg)
		return;

	delta_sum = load_sum - (s64)se_weight(se) * se->avg.load_sum;

	se->avg.load_sum = runnable_sum;
	se->avg.load_avg = load_avg;
	fl_add_positive(&cfs_rq->avg.load_avg, delta_avg);
	fl_add_positive(&cfs_rq->avg.load_sum, delta_sum);
	/* See update_cfs_rq_load_avg() */
	cfs_rq->avg.load_sum = max_t(u32, cfs_rq->avg.load_sum,
					  cfs_rq->avg.load_avg * PELT_MIN_DIVIDER);
}

/* fair.c: Update task and its cfs_rq load average */
static inline int fl_propagate_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq, *gcfs_rq;

	if (entity_is_task(se))
		return 0;

	gcfs_rq = group_cfs_rq(se);
	if (!gcfs_rq->propagate)
		return 0;

	gcfs_rq->propagate = 0;

	cfs_rq = cfs_rq_of(se);

	fl_add_tg_cfs_propagate(cfs_rq, gcfs_rq->prop_runnable_sum);

	fl_update_tg_cfs_util(cfs_rq, se, gcfs_rq);
	fl_update_tg_cfs_runnable(cfs_rq, se, gcfs_rq);
	fl_update_tg_cfs_load(cfs_rq, se, gcfs_rq);

	trace_pelt_cfs_tp(cfs_rq);
	trace_pelt_se_tp(se);

	return 1;
}

/* Mirrors update_load_avg() of Linux 6.1.192 and 6.12.117 (the same body), kernel/sched/fair.c. */
/*
 * Update task and its cfs_rq load average.  The three update_tg_load_avg()
 * calls become fl_tg_update(cfs_rq, site).  attach_entity_load_avg(),
 * detach_entity_load_avg(), __update_load_avg_se() and
 * __update_load_avg_cfs_rq() are out of line in vmlinux and called there.
 */
static __always_inline void
fl_update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags,
		   unsigned int site)
{
	u64 now = cfs_rq_clock_pelt(cfs_rq);
	int decayed;

	/*
	 * Track task load average for carrying it to new CPU after migrated, and
	 * track group sched_entity load average for task_h_load calc in migration
	 */
	if (se->avg.last_update_time && !(flags & SKIP_AGE_LOAD))
		FL_VM(__update_load_avg_se)(now, cfs_rq, se);

	decayed  = fl_update_cfs_rq_load_avg(now, cfs_rq);
	decayed |= fl_propagate_entity_load_avg(se);

	if (!se->avg.last_update_time && (flags & DO_ATTACH)) {

		/*
		 * DO_ATTACH means we're here from enqueue_entity().
		 * !last_update_time means we've passed through
		 * migrate_task_rq_fair() indicating we migrated.
		 *
		 * IOW we're enqueueing a task on a new CPU.
		 */
		FL_VM(attach_entity_load_avg)(cfs_rq, se);
		fl_tg_update(cfs_rq, site);

	} else if (flags & DO_DETACH) {
		/*
		 * DO_DETACH means we're here from dequeue_entity()
		 * and we are migrating task out of the CPU.
		 */
		FL_VM(detach_entity_load_avg)(cfs_rq, se);
		fl_tg_update(cfs_rq, site);
	} else if (decayed) {
		fl_cfs_rq_util_change(cfs_rq, 0);

		if (flags & UPDATE_TG)
			fl_tg_update(cfs_rq, site);
	}
}

#endif /* FAIRLAB_PORT_UPDATE_LOAD_AVG_H */
