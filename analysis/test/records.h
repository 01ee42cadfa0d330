/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record builders shared by the engine's and the replay's unit tests.
 */
#ifndef FA_TEST_RECORDS_H
#define FA_TEST_RECORDS_H

#include <string.h>

#include "fa_events.h"

/* A tg_update: since_ns never, site enqueue_entity, nr_cpus 4. */
__attribute__((unused))
static struct fa_event upd(u64 ts, s32 cpu, u64 tg, s32 cfs_cpu, u64 load,
			   u64 contrib, bool written, s64 tg_load_avg,
			   u8 policy, u32 arg)
{
	struct fa_event ev;
	struct fa_tg_update *u = &ev.u.tg_update;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cpu = cpu;
	ev.type = FA_EV_TG_UPDATE;
	u->tg = tg;
	u->cfs_cpu = cfs_cpu;
	u->load = load;
	u->contrib = contrib;
	u->delta = (s64)load - (s64)contrib;
	u->written = written;
	u->tg_load_avg = tg_load_avg;
	u->since_ns = FL_SINCE_NEVER;
	u->site = FL_SITE_ENQUEUE_ENTITY;
	u->policy = policy;
	u->arg = arg;
	u->nr_cpus = 4;
	return ev;
}

/* A tg_read record (nr: the reading CPU's count with this read). */
__attribute__((unused))
static struct fa_event rd(u64 ts, s32 cpu, u64 tg, s32 cfs_cpu, s64 tla,
			  u64 contrib, u64 load, u64 tg_shares, s64 shares,
			  u64 nr)
{
	struct fa_event ev;
	struct fa_tg_read *r = &ev.u.tg_read;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cpu = cpu;
	ev.type = FA_EV_TG_READ;
	r->tg = tg;
	r->cfs_cpu = cfs_cpu;
	r->tg_load_avg = tla;
	r->contrib = contrib;
	r->load = load;
	r->load_avg = load;
	r->tg_shares = tg_shares;
	r->shares = shares;
	r->nr = nr;
	return ev;
}

/* A cpu_topology record (executed on CPU 0, as the describe writes them). */
__attribute__((unused))
static struct fa_event topology(u64 ts, s32 cpu, s32 node, s32 llc)
{
	struct fa_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.type = FA_EV_CPU_TOPOLOGY;
	ev.u.cpu_topology.cpu = cpu;
	ev.u.cpu_topology.node = node;
	ev.u.cpu_topology.llc = llc;
	return ev;
}

/*
 * @ev (a tg_update or tg_read) as recorded under a split layout: domain
 * @dom, and for a read whether the kernel served it from the cache.
 */
__attribute__((unused))
static struct fa_event in_dom(struct fa_event ev, s32 dom, bool hit)
{
	if (ev.type == FA_EV_TG_UPDATE) {
		ev.u.tg_update.split_dom = (u16)(dom + 1);
	} else {
		ev.u.tg_read.split_dom = (u16)(dom + 1);
		ev.u.tg_read.cache_hit = hit;
	}
	return ev;
}

#endif /* FA_TEST_RECORDS_H */
