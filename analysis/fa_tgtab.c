// SPDX-License-Identifier: GPL-2.0
/*
 * Task group table: open addressing over 64-bit ids, dense entries.
 */
#include <stdlib.h>
#include <string.h>

#include "fa_tgtab.h"

void fa_tgtab_init(struct fa_tgtab *t)
{
	memset(t, 0, sizeof(*t));
}

void fa_tgtab_free(struct fa_tgtab *t)
{
	u32 i;

	for (i = 0; i < t->n; i++)
	{
		free(t->tg[i].cfs);
		fa_coh_free(&t->tg[i].coh);
		fa_lay_group_free(&t->tg[i].lay);
	}
	free(t->tg);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* 64-bit mix (splitmix64 finaliser): cgroup ids are small and dense. */
static u64 hash_id(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static u32 probe(const struct fa_tgtab *t, u64 id)
{
	u32 mask = t->nslots - 1;
	u32 s = (u32)hash_id(id) & mask;

	while (t->slot[s] && t->tg[t->slot[s] - 1].id != id)
		s = (s + 1) & mask;
	return s;
}

s64 fa_tgtab_find(const struct fa_tgtab *t, u64 id)
{
	u32 s;

	if (!t->nslots)
		return -1;
	s = probe(t, id);
	return t->slot[s] ? (s64)t->slot[s] - 1 : -1;
}

/* fa_tgtab_find(), trying the last group found first. */
static s64 find_cached(struct fa_tgtab *t, u64 id)
{
	s64 i;

	if (t->last < t->n && t->tg[t->last].id == id)
		return t->last;
	i = fa_tgtab_find(t, id);
	if (i >= 0)
		t->last = (u32)i;
	return i;
}

static int rehash(struct fa_tgtab *t, u32 nslots)
{
	u32 *old = t->slot, i;

	t->slot = calloc(nslots, sizeof(*t->slot));
	if (!t->slot) {
		t->slot = old;
		return -1;
	}
	t->nslots = nslots;
	for (i = 0; i < t->n; i++)
		t->slot[probe(t, t->tg[i].id)] = i + 1;
	free(old);
	return 0;
}

s64 fa_tgtab_get(struct fa_tgtab *t, u64 id)
{
	s64 idx = find_cached(t, id);
	struct fa_tg *g;
	u32 s;

	if (idx >= 0)
		return idx;
	/* Keep the load factor at or below 1/2. */
	if ((t->n + 1) * 2 > t->nslots &&
	    rehash(t, t->nslots ? t->nslots * 2 : 64))
		return -1;
	if (t->n == t->cap) {
		u32 cap = t->cap ? t->cap * 2 : 32;

		g = realloc(t->tg, cap * sizeof(*g));
		if (!g)
			return -1;
		t->tg = g;
		t->cap = cap;
	}
	g = &t->tg[t->n];
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->last_writer = -1;
	fa_coh_init(&g->coh);
	fa_lay_group_init(&g->lay);
	s = probe(t, id);
	t->slot[s] = ++t->n;
	return t->n - 1;
}

struct fa_cfs *fa_tg_cfs(struct fa_tg *g, u32 cpu)
{
	struct fa_cfs *c;
	u32 n;

	if (cpu >= FA_MAX_CPUS)
		return NULL;
	if (cpu >= g->nr_cfs) {
		/* Grow to the next power of two: CPUs appear a few times. */
		for (n = g->nr_cfs ? g->nr_cfs : 4; n <= cpu; n *= 2)
			;
		c = realloc(g->cfs, n * sizeof(*c));
		if (!c)
			return NULL;
		memset(c + g->nr_cfs, 0, (n - g->nr_cfs) * sizeof(*c));
		g->cfs = c;
		g->nr_cfs = n;
	}
	return &g->cfs[cpu];
}
