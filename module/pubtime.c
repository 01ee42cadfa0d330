// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cfs_rq "last published at" times, kept by the module because 6.1's
 * struct cfs_rq has no last_update_tg_load_avg (added in 6.7).
 *
 * A small open-addressed table per CPU, indexed by the cfs_rq's CPU, so
 * that it is only touched under that CPU's rq lock (which every
 * update_tg_load_avg() caller holds): no locking, no allocation, at most
 * FL_PUBTIME_PROBES probes.  When all probes are taken the oldest entry is
 * evicted (counted in stats: the evicted cfs_rq then looks "never
 * published", which ratelimit treats as allowed).
 *
 * Keyed by the group's id (cgroup id, or flagged autogroup id), not by the
 * cfs_rq pointer: neither id is ever reused, while a freed cfs_rq's memory
 * is, and a new cfs_rq at an old address would inherit the old stamp (its
 * first publish delayed under ratelimit).  Entries of dead groups are
 * never matched again and age out by eviction, oldest first.
 *
 * Chosen over klp shadow variables: klp_shadow_get() takes a global
 * spinlock-protected hash and klp_shadow_get_or_alloc() allocates, neither
 * acceptable under the rq lock on every update attempt.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/percpu.h>
#include "fairlab.h"
#include "pubtime.h"

#define FL_PUBTIME_BITS		8
#define FL_PUBTIME_SLOTS	(1U << FL_PUBTIME_BITS)
#define FL_PUBTIME_PROBES	8

struct fl_pubtime_slot {
	u64 key;	/* tg id; 0 = free (the root group is never kept) */
	u64 ns;
};

struct fl_pubtime_table {
	struct fl_pubtime_slot slot[FL_PUBTIME_SLOTS];
};

static struct fl_pubtime_table __percpu *fl_pubtime;

int fl_pubtime_init(void)
{
	fl_pubtime = alloc_percpu(struct fl_pubtime_table);
	return fl_pubtime ? 0 : -ENOMEM;
}

void fl_pubtime_exit(void)
{
	free_percpu(fl_pubtime);
	fl_pubtime = NULL;
}

u64 *fl_pubtime_find(u64 key, int cpu, bool create)
{
	struct fl_pubtime_table *t = per_cpu_ptr(fl_pubtime, cpu);
	u32 h = hash_64(key, FL_PUBTIME_BITS);
	struct fl_pubtime_slot *victim = NULL, *s;
	int i;

	for (i = 0; i < FL_PUBTIME_PROBES; i++) {
		s = &t->slot[(h + i) & (FL_PUBTIME_SLOTS - 1)];
		if (s->key == key)
			return &s->ns;
		if (!s->key) {
			if (!create)
				return NULL;
			s->key = key;
			s->ns = 0;
			return &s->ns;
		}
		if (!victim || s->ns < victim->ns)
			victim = s;
	}
	if (!create)
		return NULL;
	fl_stats_pubtime_evicted();
	victim->key = key;
	victim->ns = 0;
	return &victim->ns;
}
