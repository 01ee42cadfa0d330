/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairlab.ko internals shared between its files (not the 6.1 port: that is
 * port/6.1/port.h, which includes kernel/sched/sched.h; this header does
 * not, so files that need no scheduler internals stay clear of them).
 */
#ifndef FAIRLAB_H
#define FAIRLAB_H

#include <linux/types.h>
#include <linux/kobject.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/hash.h>
#include "policy/policy.h"

struct task_group;

/* port.c: stock's rate limit on the port's kernel (us; 0 = none). */
extern const u32 fl_port_stock_gate_us;

/* symbols.c */
unsigned long fl_lookup_name(const char *name);
int fl_resolve_symbols(void);
int fl_check_port(void);

/* params.c: the active policies, read locklessly on the hot paths. */
struct fl_tg_state {
	struct fl_tg_policy pol;	/* as set, traced */
	struct fl_tg_rule rule;		/* its rule for fl_nr_cpus */
};
extern struct fl_tg_state __rcu *fl_tg_cur;
/* Under the rq lock (an RCU-sched reader); valid once fl_params_init() ran. */
static inline const struct fl_tg_state *fl_tg_state_get(void)
{
	return rcu_dereference_sched(fl_tg_cur);
}
struct fl_tg_policy fl_tg_policy_get(void);
u32 fl_idlest_policy_get(void);
void fl_params_init(void);		/* module init, before the patch */
void fl_params_set_live(bool live);	/* switches take effect live */
void fl_params_unpatching(void);	/* the unpatch transition starts */
bool fl_params_fallback(bool on);	/* true if it changed the policies */
bool fl_params_user(struct fl_tg_policy *tg, u32 *idlest); /* in fallback */
void fl_params_describe(void);		/* a fallback record, if in force */
void fl_params_patched(void);		/* post_patch: writes count again */
void fl_params_exit(void);		/* module exit: tg_layout folded */

/* main.c: num_present_cpus() at load, the policies' nr_cpus input. */
extern u32 fl_nr_cpus;
/* klp_others.c: -EBUSY if another livepatch replaces one of ours. */
struct klp_patch;
extern struct list_head *fl_klp_patches;
int fl_klp_check_others(struct klp_patch *self);
bool fl_klp_replaces(struct klp_patch *self, const char *name);

/*
 * klp_later.c: a livepatch loaded after fairlab over one of its functions
 * makes fairlab fall back to the kernel's rule until it is gone.  The
 * check takes klp_mutex: never call it from a klp callback or under
 * fl_switch_lock, fl_audit_lock or fl_describe_lock.
 */
extern struct mutex *fl_klp_mutex;
void fl_klp_later_check(void);
int fl_klp_later_refuse(const char *param);	/* -EBUSY */
int fl_klp_later_init(struct klp_patch *self);
void fl_klp_later_exit(void);
extern struct kobj_attribute fl_fallback_attr;

/* main.c: the patch was in force and is not any more (unpatched, replaced). */
bool fl_patch_gone(void);

/* tg_update.c */
void fl_resync_all(void);	/* publish what policies held back */

/*
 * lockhold.c (and lockhold.h): work under rq locks in bounded batches, one
 * rq lock at a time.  A resync holds one CPU's rq lock for at most
 * FL_RESYNC_GROUPS_PER_HOLD groups; an audit holds one CPU's rq lock for
 * at most FL_AUDIT_GROUPS_PER_HOLD groups (one cfs_rq each), whatever
 * nr_cpu_ids is.  Figures: tools/README.md, "The audit and the stats file".
 */
#define FL_RESYNC_GROUPS_PER_HOLD	64
#define FL_AUDIT_GROUPS_PER_HOLD	64
enum { FL_HOLD_RESYNC, FL_HOLD_AUDIT, FL_NR_HOLDS };
void fl_hold_account(unsigned int kind, unsigned int groups, u64 ns,
		     unsigned int locks);
int fl_hold_show(unsigned int kind, char *buf, int at);

/*
 * audit_gen.c: write generations for the audit's snapshot (audit.c).
 * Every write fairlab makes to tg->load_avg and a cfs_rq's
 * tg_load_avg_contrib bumps, under that cfs_rq's rq lock, two counters in
 * that CPU's array: its group's bucket in each of two tables, by two
 * independent hashes of the group pointer; counters only grow.  Groups
 * that hash alike share a counter; the audit needs, on each CPU, only one
 * of a group's two counters undisturbed (audit.c), and a busy group
 * rarely shares both with another.
 */
#define FL_GEN_BITS	10
#define FL_GEN_HASHES	2
struct fl_gens {
	unsigned long gen[FL_GEN_HASHES][1 << FL_GEN_BITS];
};
extern struct fl_gens __percpu *fl_gens;
int fl_gens_init(void);
void fl_gens_exit(void);
/* @tg's bucket in table @k: hash_ptr() and a second, odd multiplier. */
static __always_inline unsigned int fl_gen_bucket(const struct task_group *tg,
						  unsigned int k)
{
	u64 v = (u64)(unsigned long)tg;

	if (!k)
		return hash_ptr(tg, FL_GEN_BITS);
	return (v * 0xff51afd7ed558ccdULL) >> (64 - FL_GEN_BITS);
}
/* A write to @tg's cfs_rq of @cpu; caller holds that rq's lock. */
static __always_inline void fl_gen_bump(const struct task_group *tg, int cpu)
{
	struct fl_gens *g = per_cpu_ptr(fl_gens, cpu);
	unsigned long *a = &g->gen[0][fl_gen_bucket(tg, 0)];
	unsigned long *b = &g->gen[1][fl_gen_bucket(tg, 1)];

	WRITE_ONCE(*a, *a + 1);
	WRITE_ONCE(*b, *b + 1);
}
/* The audit's read of @tg's counter in table @k; caller holds @cpu's rq lock. */
static __always_inline unsigned long fl_gen_read(const struct task_group *tg,
						 int cpu, unsigned int k)
{
	return READ_ONCE(per_cpu_ptr(fl_gens, cpu)->gen[k][fl_gen_bucket(tg, k)]);
}

/* pubtime.c: per-cfs_rq last publish time, keyed by cfs_rq pointer. */
int fl_pubtime_init(void);
void fl_pubtime_exit(void);

/* stats.c: per-CPU counters, shown in /sys/kernel/fairlab/stats. */
struct fl_stats {
	u64 site_attempts[FL_NR_SITES];
	u64 site_writes[FL_NR_SITES];
	u64 policy_attempts[FL_TG_NR_POLICIES];
	u64 policy_writes[FL_TG_NR_POLICIES];
	u64 idlest_decisions[FL_IDLEST_NR_POLICIES][2];	/* [policy][picked] */
	u64 pubtime_evictions;
	u64 tg_reads;		/* reads of tg->load_avg (tg_read.h) */
	u64 tg_read_hits;	/* of them, tg_layout read-cache hits */
};
extern struct fl_stats __percpu *fl_stats;
int fl_stats_init(void);
void fl_stats_exit(void);

/* An update attempt: inline, a few per-CPU adds on every attempt. */
static __always_inline void fl_stats_tg(unsigned int site, u32 policy,
					bool written)
{
	if (site < FL_NR_SITES) {
		this_cpu_inc(fl_stats->site_attempts[site]);
		this_cpu_add(fl_stats->site_writes[site], (u64)written);
	}
	if (policy < FL_TG_NR_POLICIES) {
		this_cpu_inc(fl_stats->policy_attempts[policy]);
		this_cpu_add(fl_stats->policy_writes[policy], (u64)written);
	}
}
void fl_stats_pubtime_evicted(void);
void fl_stats_idlest(u32 policy, bool picked);
extern const struct attribute_group fl_stats_group;

/* audit.c */
u64 fl_tg_id(struct task_group *tg);
/* audit.c: the task groups alive now, counted under RCU */
unsigned int fl_count_groups(void);
/* No snapshot runs between them (a tg_layout switch, layout.c). */
void fl_audit_pause(void);
void fl_audit_resume(void);
int fl_audit_emit(void);
int fl_audit_show(char *buf, int at);	/* its stats lines */
int fl_audit_init(struct kobject *dir);	/* the audit file, in @dir */
struct kernfs_node;
struct kernfs_ops;
extern struct kernfs_node *(*fl_kernfs_create_file)(struct kernfs_node *parent,
	const char *name, umode_t mode, kuid_t uid, kgid_t gid, loff_t size,
	const struct kernfs_ops *ops, void *priv, const void *ns,
	struct lock_class_key *key);
extern struct kobj_attribute fl_audit_trigger_attr;

/* topology.c: tg_info and cpu_topology records (describe). */
void fl_describe(void);
extern struct kobj_attribute fl_describe_attr;

#endif /* FAIRLAB_H */
