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

static s32 at(const s32 *v, u32 n, s32 cpu)
{
	return v && cpu >= 0 && (u32)cpu < n ? v[cpu] : -1;
}

static enum fa_coh_dist dist_of(const struct fa_coh_topo *t, s32 a, s32 b)
{
	s32 na = at(t->node, t->n, a), nb = at(t->node, t->n, b);
	s32 la = at(t->llc, t->n, a), lb = at(t->llc, t->n, b);

	if (na < 0 || nb < 0)
		return FA_COH_UNKNOWN;
	if (na != nb)
		return FA_COH_XNODE;
	if (la < 0 || lb < 0)
		return FA_COH_UNKNOWN;
	return la == lb ? FA_COH_LLC : FA_COH_NODE;
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

static int share(struct fa_coh_line *l, s32 cpu)
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
	return 0;
}

int fa_coh_access(struct fa_coh_line *l, const struct fa_coh_topo *t,
		  s32 cpu, bool write, enum fa_coh_dist *dist)
{
	enum fa_coh_dist d = FA_COH_UNKNOWN;
	bool others = false;
	u32 w;
	int b;

	if (cpu < 0 || fa_coh_hit(l, cpu, write))
		return 0;				/* hit */
	if (!write) {
		if (l->owner < 0)
			return share(l, cpu);		/* fill from a clean copy */
		*dist = dist_of(t, l->owner, cpu);	/* another CPU modified it */
		if (share(l, l->owner) || share(l, cpu))
			return -1;
		l->owner = -1;
		return 1;
	}
	if (l->owner >= 0) {
		d = dist_of(t, l->owner, cpu);
		others = true;
	}
	for (w = 0; w < l->nw; w++) {
		u64 m = l->sharers[w];

		while (m) {
			b = __builtin_ctzll(m);
			m &= m - 1;
			if ((s32)(w * 64 + (u32)b) == cpu)
				continue;
			d = others ? farther(d, dist_of(t, (s32)(w * 64 + (u32)b), cpu)) :
				     dist_of(t, (s32)(w * 64 + (u32)b), cpu);
			others = true;
		}
		l->sharers[w] = 0;
	}
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
