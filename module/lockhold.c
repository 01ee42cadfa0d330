// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded work with interrupts off.  The resync and the audit visit every
 * task group, and any unprivileged user can make thousands of them (each
 * setsid() makes an autogroup), so neither may hold a run-queue lock for
 * all of them: they work in batches of at most FL_RESYNC_GROUPS_PER_HOLD
 * groups (resync, one rq lock) or FL_AUDIT_CFS_RQS_PER_HOLD cfs_rqs
 * (audit, every rq lock), releasing the locks and re-enabling interrupts
 * between batches.  Each hold is counted here, with its length, and shown
 * in /sys/kernel/fairlab/stats (lockhold, lockhold_max).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/ktime.h>
#include "port.h"
#include "fairlab.h"

struct fl_hold_stat {
	u64 holds, groups, ns;
	u64 max_groups, max_ns;
};

static DEFINE_SPINLOCK(fl_hold_lock);
static struct fl_hold_stat fl_holds[FL_NR_HOLDS];
static const char *const fl_hold_names[FL_NR_HOLDS] = { "resync", "audit" };

/*
 * Every CPU's rq lock, in CPU order (as double_rq_lock() orders two), with
 * interrupts off: no update_tg_load_avg() can run anywhere meanwhile, so a
 * group's tg->load_avg and all its cfs_rqs' contribs are read consistently.
 * Each rq's own __lock is taken, as sched_core_lock() does for SMT
 * siblings, so that this also excludes every rq-lock holder when core
 * scheduling makes siblings share one lock.  No lockdep nesting
 * annotation: the ported builds have no lockdep, and its 8 subclasses
 * could not name one lock per CPU anyway.
 */
void fl_rq_lock_all(unsigned long *flags)
{
	int cpu;

	local_irq_save(*flags);
	for_each_possible_cpu(cpu)
		raw_spin_lock(&cpu_rq(cpu)->__lock);
}

void fl_rq_unlock_all(unsigned long flags)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_unlock(&cpu_rq(cpu)->__lock);
	local_irq_restore(flags);
}

/* One lock hold of @kind that covered @groups groups in @ns (irqs off). */
void fl_hold_account(unsigned int kind, unsigned int groups, u64 ns)
{
	struct fl_hold_stat *s = &fl_holds[kind];
	unsigned long flags;

	spin_lock_irqsave(&fl_hold_lock, flags);
	s->holds++;
	s->groups += groups;
	s->ns += ns;
	s->max_groups = max_t(u64, s->max_groups, groups);
	s->max_ns = max(s->max_ns, ns);
	spin_unlock_irqrestore(&fl_hold_lock, flags);
}

/*
 * The lines of @kind for /sys/kernel/fairlab/stats ("kind name a b"):
 *   lockhold NAME holds groups        lock holds, groups read in them
 *   lockhold_max NAME groups ns       the largest hold: groups, ns irqs off
 *   lockhold_ns NAME total_ns 0       time with irqs off, all holds
 */
int fl_hold_show(unsigned int kind, char *buf, int at)
{
	struct fl_hold_stat s;
	unsigned long flags;
	const char *name = fl_hold_names[kind];

	spin_lock_irqsave(&fl_hold_lock, flags);
	s = fl_holds[kind];
	spin_unlock_irqrestore(&fl_hold_lock, flags);
	at += sysfs_emit_at(buf, at, "lockhold %s %llu %llu\n", name, s.holds,
			    s.groups);
	at += sysfs_emit_at(buf, at, "lockhold_max %s %llu %llu\n", name,
			    s.max_groups, s.max_ns);
	at += sysfs_emit_at(buf, at, "lockhold_ns %s %llu 0\n", name, s.ns);
	return at;
}
