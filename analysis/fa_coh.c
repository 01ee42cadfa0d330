// SPDX-License-Identifier: GPL-2.0
/*
 * The coherence model of one tg->load_avg line (see fa_coh.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fa_coh.h"

/*
 * Idle core-to-core latencies of real machines, as issue 10 gives them
 * (Chips and Cheese core-to-core latency measurements, 2023): 2-socket
 * Sapphire Rapids 59 ns within a socket, 138 ns across; EPYC Milan 23 ns
 * within a CCX (one L3), 107 ns across CCXs, 197 ns across sockets.  A
 * node is taken as a socket; Sapphire Rapids has one L3 per socket, so
 * "another LLC, same node" costs what the same LLC does.
 */
const struct fa_coh_machine fa_coh_machines[] = {
	{ "spr", "2-socket Sapphire Rapids", { 59, 59, 138 },
	  "Chips and Cheese, 2023: 59 ns within a socket, 138 ns across" },
	{ "milan", "2-socket EPYC Milan", { 23, 107, 197 },
	  "Chips and Cheese, 2023: 23 ns within a CCX, 107 ns across CCXs, 197 ns across sockets" },
};
const int fa_coh_nr_machines =
	(int)(sizeof(fa_coh_machines) / sizeof(fa_coh_machines[0]));

void fa_coh_init(struct fa_coh_line *l)
{
	memset(l, 0, sizeof(*l));
	l->owner = -1;
}

void fa_coh_free(struct fa_coh_line *l)
{
	free(l->sharers);
	fa_coh_init(l);
}

/* The farther of two distances; unknown only when nothing is known. */
static enum fa_coh_dist farther(enum fa_coh_dist a, enum fa_coh_dist b)
{
	if (a == FA_COH_UNKNOWN)
		return b;
	if (b == FA_COH_UNKNOWN)
		return a;
	return a > b ? a : b;
}

int fa_coh_share(struct fa_coh_line *l, s32 cpu)
{
	u32 w = (u32)cpu / 64, n;
	u64 *p;

	if (w >= l->nw) {
		n = w + 1;
		p = realloc(l->sharers, n * sizeof(*p));
		if (!p)
			return -1;
		memset(p + l->nw, 0, (n - l->nw) * sizeof(*p));
		l->sharers = p;
		l->nw = n;
	}
	l->sharers[w] |= 1ull << (cpu % 64);
	l->shared = true;
	return 0;
}

/*
 * A write by @cpu to a line Shared (by others, or by @cpu only): the
 * others' copies invalidated, the transfer's distance the farthest.
 */
int fa_coh_write_shared(struct fa_coh_line *l, const struct fa_coh_topo *t,
			const struct fa_coh_cpu *who, enum fa_coh_dist *dist)
{
	s32 cpu = who->cpu;
	enum fa_coh_dist d = FA_COH_UNKNOWN;
	bool others = false;
	u32 w;
	int b;

	if (l->owner >= 0) {
		d = fa_coh_dist_to(t, l->owner, who);
		others = true;
	}
	for (w = 0; w < l->nw; w++) {
		u64 m = l->sharers[w];

		while (m) {
			s32 c;

			b = __builtin_ctzll(m);
			m &= m - 1;
			c = (s32)(w * 64 + (u32)b);
			if (c == cpu)
				continue;
			d = others ? farther(d, fa_coh_dist_to(t, c, who)) :
				     fa_coh_dist_to(t, c, who);
			others = true;
		}
		l->sharers[w] = 0;
	}
	l->shared = false;
	l->owner = cpu;
	if (!others)
		return 0;
	*dist = d;
	return 1;
}

double fa_coh_cost_ns(const struct fa_coh_machine *m, const u64 n[FA_COH_NR])
{
	return (double)n[FA_COH_LLC] * m->ns[FA_COH_LLC] +
	       (double)n[FA_COH_NODE] * m->ns[FA_COH_NODE] +
	       (double)n[FA_COH_XNODE] * m->ns[FA_COH_XNODE] +
	       (double)n[FA_COH_UNKNOWN] * m->ns[FA_COH_LLC];
}
