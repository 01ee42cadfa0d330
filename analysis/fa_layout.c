// SPDX-License-Identifier: GPL-2.0
/*
 * Layouts of tg->load_avg and their lines in the coherence model (see
 * fa_layout.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fa_layout.h"
#include "fairlab_abi.h"
#include "policy.h"

/* the ids the kernel's policy_switch records carry (FL_KIND_LAYOUT) */
_Static_assert((int)FA_LAYOUT_GLOBAL == (int)FL_LAYOUT_GLOBAL &&
	       (int)FA_LAYOUT_NODE == (int)FL_LAYOUT_NODE &&
	       (int)FA_LAYOUT_LLC == (int)FL_LAYOUT_LLC &&
	       (int)FA_LAYOUT_NR == (int)FL_NR_LAYOUTS,
	       "fa_layout_kind follows fairlab_abi.h's fl_layout_id");
_Static_assert(FA_LAYOUT_MAX_REFRESH_US == FL_LAYOUT_MAX_REFRESH_US,
	       "one refresh limit for the analyzer and the module");

/* the module's parser (module/policy/policy.c), one for both sides */
int fa_layout_parse(const char *s, struct fa_layout *l)
{
	u32 refresh;
	u8 id;

	if (fl_layout_parse(s, strlen(s), &id, &refresh))
		return -1;
	l->kind = id;
	l->refresh_us = refresh;
	return 0;
}

const char *fa_layout_label(const struct fa_layout *l, char *buf, size_t n)
{
	const char *name = l->kind < FA_LAYOUT_NR ? fl_layout_names[l->kind] : "?";

	if (l->refresh_us)
		snprintf(buf, n, "%s:%u", name, l->refresh_us);
	else
		snprintf(buf, n, "%s", name);
	return buf;
}

void fa_layout_suffix(const struct fa_layout *l, char *buf, size_t n)
{
	size_t len = strlen(buf);
	char lay[32];

	if (fa_layout_split(l) && len < n)
		snprintf(buf + len, n - len, "/%s", fa_layout_label(l, lay, sizeof(lay)));
}

static int by_id(const void *a, const void *b)
{
	s32 x = *(const s32 *)a, y = *(const s32 *)b;

	return x < y ? -1 : x > y;
}

int fa_layout_doms(u32 kind, const struct fa_coh_topo *t, s32 **ids, u32 *cap)
{
	const s32 *v = kind == FA_LAYOUT_LLC ? t->llc : t->node;
	u32 i, n = 0, k;

	if (t->n > *cap) {
		s32 *p = realloc(*ids, t->n * sizeof(*p));

		if (!p)
			return -1;
		*ids = p;
		*cap = t->n;
	}
	for (i = 0; v && i < t->n; i++)
		if (v[i] >= 0)
			(*ids)[n++] = v[i];
	if (!n)
		return 0;
	qsort(*ids, n, sizeof(**ids), by_id);
	for (i = 1, k = 1; i < n; i++)
		if ((*ids)[i] != (*ids)[k - 1])
			(*ids)[k++] = (*ids)[i];
	return (int)k;
}

void fa_lay_group_init(struct fa_lay_group *g)
{
	memset(g, 0, sizeof(*g));
	fa_coh_init(&g->unplaced.ctr);
	fa_coh_init(&g->unplaced.cache);
}

static void dom_free(struct fa_lay_dom *d)
{
	fa_coh_free(&d->ctr);
	fa_coh_free(&d->cache);
}

void fa_lay_group_free(struct fa_lay_group *g)
{
	u32 i;

	for (i = 0; i < g->n; i++)
		dom_free(&g->d[i]);
	dom_free(&g->unplaced);
	free(g->d);
	free(g->unpl);
	fa_lay_group_init(g);
}

struct fa_lay_dom *fa_lay_get(struct fa_lay_group *g, s32 dom)
{
	struct fa_lay_dom *d;
	u32 n, i;

	if (dom < 0)
		return &g->unplaced;
	if ((u32)dom >= g->n) {
		n = (u32)dom + 1;
		d = realloc(g->d, n * sizeof(*d));
		if (!d)
			return NULL;
		memset(d + g->n, 0, (n - g->n) * sizeof(*d));
		for (i = g->n; i < n; i++) {
			fa_coh_init(&d[i].ctr);
			fa_coh_init(&d[i].cache);
		}
		g->d = d;
		g->n = n;
	}
	return &g->d[dom];
}

int fa_lay_unplaced_add(struct fa_lay_group *g, s32 cpu, s64 v)
{
	u32 i;

	for (i = 0; i < g->nunpl && g->unpl[i].cpu != cpu; i++)
		;
	if (i == g->nunpl) {
		if (g->nunpl == g->unpl_cap) {
			u32 n = g->unpl_cap ? 2 * g->unpl_cap : 4;
			struct fa_lay_unpl *p = realloc(g->unpl, n * sizeof(*p));

			if (!p)
				return -1;
			g->unpl = p;
			g->unpl_cap = n;
		}
		g->unpl[g->nunpl++] = (struct fa_lay_unpl){ cpu, 0 };
	}
	/* wraps, as fa_update.c */
	g->unpl[i].sum = (s64)((u64)g->unpl[i].sum + (u64)v);
	g->unplaced.sum = (s64)((u64)g->unplaced.sum + (u64)v);
	g->unplaced_used = true;
	return 0;
}

int fa_lay_place(struct fa_lay_group *g, const struct fa_layout *l,
		 const struct fa_coh_topo *t)
{
	u32 i = 0;

	if (!g->unplaced_used)
		return 0;
	while (i < g->nunpl) {
		struct fa_coh_cpu c = fa_coh_cpu(t, g->unpl[i].cpu);
		s32 dom = fa_layout_dom(l, &c);
		struct fa_lay_dom *d;
		s64 v = g->unpl[i].sum;

		if (dom < 0) {
			i++;
			continue;
		}
		d = fa_lay_get(g, dom);
		if (!d)
			return -1;
		d->sum = (s64)((u64)d->sum + (u64)v);
		g->unplaced.sum = (s64)((u64)g->unplaced.sum - (u64)v);
		g->unpl[i] = g->unpl[--g->nunpl];
	}
	if (!g->nunpl) {
		/* its line forgotten: a CPU unplaced later starts it afresh */
		g->unplaced_used = false;
		fa_coh_free(&g->unplaced.ctr);
	}
	return 0;
}

/* One line accessed by x->c, its transfer (if any) to the caller. */
static int access(struct fa_coh_line *l, struct fa_cont_line *cl,
		  const struct fa_lay_ctx *x, bool write)
{
	enum fa_coh_dist d = FA_COH_UNKNOWN;
	struct fa_coh_src src;
	int k = fa_coh_access_by(l, x->t, x->c, write, &d, &src);

	if (k > 0)
		x->note(x->arg, d, &src, write, cl);
	return k < 0 ? -1 : 0;
}

int fa_lay_write(struct fa_lay_group *g, const struct fa_layout *l,
		 const struct fa_lay_ctx *x, s64 delta)
{
	s32 dom = fa_layout_dom(l, x->c);
	struct fa_lay_dom *d = fa_lay_get(g, dom);

	if (!d)
		return -1;
	if (dom >= 0)
		d->sum = (s64)((u64)d->sum + (u64)delta);	/* wraps, as fa_update.c */
	else if (fa_lay_unplaced_add(g, x->c->cpu, delta))
		return -1;
	return access(&d->ctr, &d->ctr_c, x, true);
}

int fa_lay_read_own(struct fa_lay_group *g, const struct fa_layout *l,
		    const struct fa_lay_ctx *x)
{
	struct fa_lay_dom *d = fa_lay_get(g, fa_layout_dom(l, x->c));

	return d ? access(&d->ctr, &d->ctr_c, x, false) : -1;
}

/*
 * The lines a read of the sum by x->c touches: a hit (@hit) its domain's
 * cache line (@d) only; a miss every counter line, then, with a cache
 * (@d), the caller's fa_lay_store() writes @d's cache line.
 */
static int read_lines(struct fa_lay_group *g, const struct fa_lay_ctx *x,
		      struct fa_lay_dom *d, bool hit, u32 *lines)
{
	u32 i;

	*lines = 0;
	if (hit)
		return access(&d->cache, &d->cache_c, x, false) ? -1 : 1;
	/* every domain's counter, placed ones first, then the unplaced */
	for (i = 0; i < x->ndom; i++)
		if (access(&g->d[x->doms[i]].ctr, &g->d[x->doms[i]].ctr_c, x, false))
			return -1;
	*lines = x->ndom;
	if (g->unplaced_used) {
		if (access(&g->unplaced.ctr, &g->unplaced.ctr_c, x, false))
			return -1;
		++*lines;
	}
	return 0;
}

/* Every domain's slot made (fa_lay_get() may move them); the reader's, with a cache. */
static int read_slots(struct fa_lay_group *g, const struct fa_layout *l,
		      const struct fa_lay_ctx *x, struct fa_lay_dom **dom)
{
	s32 own = fa_layout_dom(l, x->c);
	u32 i;

	*dom = NULL;
	for (i = 0; i < x->ndom; i++)
		if (!fa_lay_get(g, x->doms[i]))
			return -1;
	if (l->refresh_us && own >= 0) {
		*dom = fa_lay_get(g, own);
		if (!*dom)
			return -1;
	}
	return 0;
}

int fa_lay_read_sum(struct fa_lay_group *g, const struct fa_layout *l,
		    const struct fa_lay_ctx *x, u64 now, struct fa_lay_dom **dom,
		    u32 *lines)
{
	u64 refresh = (u64)l->refresh_us * 1000;
	struct fa_lay_dom *d;

	*lines = 0;
	if (read_slots(g, l, x, dom))
		return -1;
	d = *dom;
	return read_lines(g, x, d, d && d->cache_valid && now >= d->cached_ts &&
			  now - d->cached_ts < refresh, lines);
}

int fa_lay_read_sum_as(struct fa_lay_group *g, const struct fa_layout *l,
		       const struct fa_lay_ctx *x, bool hit,
		       struct fa_lay_dom **dom, u32 *lines)
{
	*lines = 0;
	if (read_slots(g, l, x, dom))
		return -1;
	return read_lines(g, x, *dom, hit && *dom, lines);
}

int fa_lay_read_as(struct fa_lay_group *g, const struct fa_layout *l,
		   const struct fa_lay_ctx *x, bool hit, u32 *lines)
{
	struct fa_lay_dom *d;
	int k;

	*lines = 0;
	if (read_slots(g, l, x, &d))
		return -1;
	k = read_lines(g, x, d, hit && d, lines);
	/* a miss with a cache refreshes it: its line written */
	if (k == 0 && d && access(&d->cache, &d->cache_c, x, true))
		return -1;
	return k;
}

int fa_lay_store(struct fa_lay_dom *dom, const struct fa_lay_ctx *x,
		 s64 value, u64 now)
{
	dom->cached = value;
	dom->cached_ts = now;
	dom->cache_valid = true;
	return access(&dom->cache, &dom->cache_c, x, true);
}
