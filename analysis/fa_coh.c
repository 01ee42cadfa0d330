// SPDX-License-Identifier: GPL-2.0
/*
 * The coherence model of one tg->load_avg line (see fa_coh.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fa_coh.h"

/*
 * Idle core-to-core latencies of real machines, as published
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
	free(l->more);
	fa_coh_init(l);
}

const char *const fa_coh_miss_names[FA_COH_MISS_NR] = {
	[FA_COH_MISS_FREE] = "free", [FA_COH_MISS_NEAREST] = "nearest",
};

int fa_coh_miss_parse(const char *s)
{
	int m;

	for (m = 0; m < FA_COH_MISS_NR; m++)
		if (!strcmp(s, fa_coh_miss_names[m]))
			return m;
	return -1;
}

enum fa_coh_dist fa_coh_src_dist(const struct fa_coh_topo *t, s32 to,
				 enum fa_coh_dist known, const s32 *from, u32 n,
				 bool nearest)
{
	struct fa_coh_cpu c = fa_coh_cpu(t, to);
	enum fa_coh_dist d = known;
	u32 i;

	for (i = 0; i < n; i++) {
		enum fa_coh_dist di = fa_coh_dist_to(t, from[i], &c);

		if (di == FA_COH_UNKNOWN)
			return FA_COH_UNKNOWN;
		d = nearest ? fa_coh_nearer(d, di) : fa_coh_farther(d, di);
	}
	return d;
}

int fa_coh_share(struct fa_coh_line *l, s32 cpu)
{
	u32 w = (u32)cpu / 64;
	u64 *p;

	if (w > l->nmore) {
		/* CPU numbers fit u16's words: 64 * 65535 CPUs */
		if (w > UINT16_MAX)
			return -1;
		p = realloc(l->more, w * sizeof(*p));
		if (!p)
			return -1;
		memset(p + l->nmore, 0, (w - l->nmore) * sizeof(*p));
		l->more = p;
		l->nmore = (u16)w;
	}
	*fa_coh_word(l, w) |= 1ull << (cpu % 64);
	l->shared = true;
	return 0;
}

/* Holder @c's copy invalidated by (or read from by) @who: its distance noted. */
static void invalidated(const struct fa_coh_topo *t, const struct fa_coh_cpu *who,
			s32 c, struct fa_coh_src *s)
{
	enum fa_coh_dist d = fa_coh_dist_to(t, c, who);

	if (d != FA_COH_UNKNOWN)
		s->known = s->nearest ? fa_coh_nearer(s->known, d) :
					fa_coh_farther(s->known, d);
	else if (s->n < FA_COH_SRC_MAX)
		s->cpu[s->n++] = c;
	else
		s->over = true;
}

/*
 * The holders of @l but @who, noted in *@s (their farthest distance, or
 * nearest for @nearest, and those not placed); with @clear, their copies
 * invalidated.  Returns whether there was one.
 */
static bool holders(struct fa_coh_line *l, const struct fa_coh_topo *t,
		    const struct fa_coh_cpu *who, struct fa_coh_src *s,
		    bool nearest, bool clear)
{
	bool others = false;
	u32 w;
	int b;

	s->known = FA_COH_UNKNOWN;
	s->n = 0;
	s->over = false;
	s->nearest = nearest;
	if (l->owner >= 0 && l->owner != who->cpu) {
		invalidated(t, who, l->owner, s);
		others = true;
	}
	for (w = 0; w <= l->nmore; w++) {
		u64 *word = fa_coh_word(l, w), m = *word;

		while (m) {
			s32 c;

			b = __builtin_ctzll(m);
			m &= m - 1;
			c = (s32)(w * 64 + (u32)b);
			if (c == who->cpu)
				continue;
			invalidated(t, who, c, s);
			others = true;
		}
		if (clear)
			*word = 0;
	}
	return others;
}

void fa_coh_near_of(struct fa_coh_near *n, const struct fa_coh_topo *t,
		    const struct fa_coh_cpu *who)
{
	s32 c;

	n->d[FA_COH_LLC] = n->d[FA_COH_NODE] = n->d[FA_COH_XNODE] = 0;
	for (c = 0; c < 64; c++) {
		enum fa_coh_dist d = fa_coh_dist_to(t, c, who);

		if (d != FA_COH_UNKNOWN)
			n->d[d] |= 1ull << c;
	}
}

/* A transfer's distance from holders(): unknown while one is not placed. */
static int transfer(const struct fa_coh_src *s, bool others,
		    enum fa_coh_dist *dist)
{
	if (!others)
		return 0;
	*dist = s->n || s->over ? FA_COH_UNKNOWN : s->known;
	return 1;
}

/*
 * A write by @cpu to a line Shared (by others, or by @cpu only): the
 * others' copies invalidated, the transfer's distance the farthest;
 * unknown while one of them is not placed (in *@src: the others).
 */
int fa_coh_write_shared(struct fa_coh_line *l, const struct fa_coh_topo *t,
			const struct fa_coh_cpu *who, enum fa_coh_dist *dist,
			struct fa_coh_src *src)
{
	struct fa_coh_src own, *s = src ? src : &own;
	bool others = holders(l, t, who, s, false, true);

	l->shared = false;
	l->owner = who->cpu;
	return transfer(s, others, dist);
}

/*
 * A read by @who, which holds no copy, of a line others hold Shared: a
 * transfer from the nearest of them (FA_COH_MISS_NEAREST); unknown while
 * one of them is not placed (a nearer one may be among them).
 */
int fa_coh_read_shared(struct fa_coh_line *l, const struct fa_coh_topo *t,
		       const struct fa_coh_cpu *who, enum fa_coh_dist *dist,
		       struct fa_coh_src *src)
{
	struct fa_coh_src own, *s = src ? src : &own;
	bool others = holders(l, t, who, s, true, false);

	if (fa_coh_share(l, who->cpu))
		return -1;
	return transfer(s, others, dist);
}

double fa_coh_cost_ns(const struct fa_coh_machine *m, const u64 n[FA_COH_NR])
{
	return (double)n[FA_COH_LLC] * m->ns[FA_COH_LLC] +
	       (double)n[FA_COH_NODE] * m->ns[FA_COH_NODE] +
	       (double)n[FA_COH_XNODE] * m->ns[FA_COH_XNODE] +
	       (double)n[FA_COH_UNKNOWN] * m->ns[FA_COH_LLC];
}
