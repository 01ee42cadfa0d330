// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded work with interrupts off.  The resync and the audit visit every
 * task group, and any unprivileged user can make thousands of them (each
 * setsid() makes an autogroup), so neither may hold a run-queue lock for
 * all of them: they work in batches, holding ONE CPU's rq lock at a time
 * for at most FL_RESYNC_GROUPS_PER_HOLD groups (resync) or
 * FL_AUDIT_GROUPS_PER_HOLD groups (audit), one cfs_rq per group, whatever
 * the number of CPUs, releasing the lock and re-enabling interrupts
 * between batches.  Every such hold goes through fl_rq_hold_begin() and
 * fl_rq_hold_end(): it is counted here, with its length and the number of
 * rq locks fairlab held at once on that CPU (which must stay 1: fairlab
 * never nests two rq locks), and shown in /sys/kernel/fairlab/stats
 * (lockhold, lockhold_max, lockhold_ns, lockhold_locks).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/ktime.h>
#include "port.h"
#include "fairlab.h"
#include "lockhold.h"

struct fl_hold_stat {
	u64 holds, groups, ns;
	u64 max_groups, max_ns;
	u64 max_locks;		/* most rq locks fairlab held at once */
};

static DEFINE_SPINLOCK(fl_hold_lock);
static struct fl_hold_stat fl_holds[FL_NR_HOLDS];
static const char *const fl_hold_names[FL_NR_HOLDS] = { "resync", "audit" };

/* rq locks held by fairlab's batches on this CPU now (irqs off meanwhile) */
static DEFINE_PER_CPU(unsigned int, fl_rq_locks_held);

/*
 * Take @cpu's rq lock, interrupts off, for one bounded batch.  rq_lock()
 * takes the lock the rq's writers take (the core's shared one under core
 * scheduling), so nothing that publishes for @cpu's cfs_rqs runs until
 * fl_rq_hold_end().
 */
void fl_rq_hold_begin(struct fl_rq_hold *h, int cpu)
{
	h->rq = cpu_rq(cpu);
	h->t0 = ktime_get_mono_fast_ns();
	rq_lock_irqsave(h->rq, &h->rf);
	h->locks = __this_cpu_inc_return(fl_rq_locks_held);
}

/* Release the hold: it covered @groups groups of @kind. */
void fl_rq_hold_end(struct fl_rq_hold *h, unsigned int kind,
		    unsigned int groups)
{
	__this_cpu_dec(fl_rq_locks_held);
	rq_unlock_irqrestore(h->rq, &h->rf);
	fl_hold_account(kind, groups, ktime_get_mono_fast_ns() - h->t0,
			h->locks);
}

/*
 * The walk (lockhold.h): interrupts on between holds; no cond_resched()
 * there, inside the RCU section; cond_resched() between CPUs
 * (fl_rq_walk_all()).
 */
void fl_rq_walk_cpu(int cpu, fl_rq_walk_fn fn, void *arg, unsigned int kind)
{
	unsigned int in_hold = 0;
	struct task_group *tg;
	struct fl_rq_hold h;

	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		if (tg == fl_root_task_group || !tg->cfs_rq)
			continue;
		if (!in_hold)
			fl_rq_hold_begin(&h, cpu);
		fn(tg, cpu, arg);
		if (++in_hold == FL_RESYNC_GROUPS_PER_HOLD) {
			fl_rq_hold_end(&h, kind, in_hold);
			in_hold = 0;
		}
	}
	if (in_hold)
		fl_rq_hold_end(&h, kind, in_hold);
	rcu_read_unlock();
}

void fl_rq_walk_all(fl_rq_walk_fn fn, void *arg, unsigned int kind)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		fl_rq_walk_cpu(cpu, fn, arg, kind);
		cond_resched();
	}
}

/*
 * One lock hold of @kind that covered @groups groups in @ns (irqs off),
 * with @locks rq locks held by fairlab at once during it.
 */
void fl_hold_account(unsigned int kind, unsigned int groups, u64 ns,
		     unsigned int locks)
{
	struct fl_hold_stat *s = &fl_holds[kind];
	unsigned long flags;

	spin_lock_irqsave(&fl_hold_lock, flags);
	s->holds++;
	s->groups += groups;
	s->ns += ns;
	s->max_groups = max_t(u64, s->max_groups, groups);
	s->max_ns = max(s->max_ns, ns);
	s->max_locks = max_t(u64, s->max_locks, locks);
	spin_unlock_irqrestore(&fl_hold_lock, flags);
}

/*
 * The lines of @kind for /sys/kernel/fairlab/stats ("kind name a b"):
 *   lockhold NAME holds groups        lock holds, groups read in them
 *   lockhold_max NAME groups ns       the largest hold: groups, ns irqs off
 *   lockhold_ns NAME total_ns 0       time with irqs off, all holds
 *   lockhold_locks NAME max_held 0    most rq locks held at once (1)
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
	at += sysfs_emit_at(buf, at, "lockhold_locks %s %llu 0\n", name,
			    s.max_locks);
	return at;
}
