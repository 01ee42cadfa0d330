/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A MODEL of the coherence traffic on one task group's tg->load_avg line,
 * replayed from the recorded reads (tg_read) and writes (written
 * tg_update), in timestamp order, by the CPU that executed each.
 *
 * The line is Modified by one CPU, or Shared by a set of CPUs (or held by
 * none, at the start).  A transfer is
 *   - a read by CPU c of a line another CPU holds Modified (the line then
 *     is Shared by both), or
 *   - a write by c to a line another CPU holds, Modified or Shared (the
 *     others' copies are invalidated; c then holds it Modified);
 * everything else is a hit or a fill from a clean copy, not counted.  A
 * transfer's distance is that between c and the CPU it takes the line
 * from (for an invalidation: the farthest other holder): same last-level
 * cache, same NUMA node, across nodes (cpu_topology), or unknown.
 *
 * It is a LOWER BOUND: it counts the fairlab-traced accesses only, one
 * transfer per access, and prices each at an idle machine's core-to-core
 * latency; under contention a transfer queues behind others and costs far
 * more (perf c2c measured thousands of cycles per HITM on this line).
 */
#ifndef FA_COH_H
#define FA_COH_H

#include <stdbool.h>

#include "fl_types.h"

enum fa_coh_dist {
	FA_COH_LLC,		/* same last-level cache */
	FA_COH_NODE,		/* same node, another LLC */
	FA_COH_XNODE,		/* another node */
	FA_COH_UNKNOWN,		/* a CPU cpu_topology did not place */
	FA_COH_NR
};

/* Where each CPU is: node[cpu], llc[cpu] (-1 or cpu >= n: unknown). */
struct fa_coh_topo {
	const s32 *node, *llc;
	u32 n;
};

struct fa_coh_line {
	s32 owner;		/* CPU holding it Modified, -1 none */
	u32 nw;			/* words of sharers */
	u64 *sharers;		/* Shared by these CPUs (when owner < 0) */
};

void fa_coh_init(struct fa_coh_line *l);
void fa_coh_free(struct fa_coh_line *l);

/* @cpu holds a Shared copy of the line. */
static inline bool fa_coh_shares(const struct fa_coh_line *l, s32 cpu)
{
	u32 w = (u32)cpu / 64;

	return w < l->nw && (l->sharers[w] >> (cpu % 64)) & 1;
}

/*
 * @cpu's access is a hit, which changes nothing (fa_coh_access() returns
 * 0 for it): inline for callers that model many lines per access (the
 * what-if replay: one line per policy).
 */
static inline bool fa_coh_hit(const struct fa_coh_line *l, s32 cpu, bool write)
{
	return l->owner == cpu ||
	       (!write && l->owner < 0 && cpu >= 0 && fa_coh_shares(l, cpu));
}

/*
 * @cpu reads (@write false) or writes the line.  Returns 1 for a transfer
 * (its distance in *@dist), 0 for none, -1 out of memory.
 */
int fa_coh_access(struct fa_coh_line *l, const struct fa_coh_topo *t,
		  s32 cpu, bool write, enum fa_coh_dist *dist);

/* A machine's idle core-to-core transfer latencies (ns), with its source. */
struct fa_coh_machine {
	const char *key;		/* metric name part, e.g. "spr" */
	const char *name;
	double ns[FA_COH_XNODE + 1];	/* LLC, NODE, XNODE */
	const char *source;
};

extern const struct fa_coh_machine fa_coh_machines[];
extern const int fa_coh_nr_machines;

/*
 * Modeled cost (ns) of @n[d] transfers per distance on machine @m; an
 * unknown distance is priced as the cheapest (a lower bound, like the
 * rest).
 */
double fa_coh_cost_ns(const struct fa_coh_machine *m, const u64 n[FA_COH_NR]);

#endif /* FA_COH_H */
