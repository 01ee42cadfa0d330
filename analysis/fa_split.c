// SPDX-License-Identifier: GPL-2.0
/*
 * report's coherence model of a recording made under a split tg_layout
 * (fa_layout.h): the lines of each group's domain counters, fed the
 * recorded accesses.  A record takes this path when its segment's layout
 * (policy_switch FL_KIND_LAYOUT) is split and the record names a domain
 * (split_dom, fa_events.h); the others touch the group's one
 * tg->load_avg line (fa_coh_note()), as they do in the kernel: a group
 * that got no counters stays global.
 *
 * The lines are those of fa_layout.h, placed by the analyzer's own
 * topology (cpu_topology): a write moves its CPU's domain's counter line;
 * a policy's own read before it decides reads that line; a read of the
 * sum reads every domain's counter line then (with a read cache) writes
 * the reader's domain's cache line, or, when the record says it was a
 * cache hit (cache_hit), reads that cache line only.  Whether a read hit
 * is the kernel's, as recorded; whatif (fa_replay_layout.c) decides it by
 * the rule instead.  The recorded domain number says only that the
 * access was split: the line is the CPU's domain by cpu_topology, the
 * numbering every other part of the analyzer uses.
 */
#include "fa_engine_int.h"

struct split_note {
	struct fa_engine *e;
	u32 i;
	s32 cpu;
};

/* A transfer on one of group i's domain lines: counted as fa_coh_note() counts. */
static void note(void *arg, enum fa_coh_dist d, const struct fa_coh_src *src,
		 bool write, struct fa_cont_line *cl)
{
	struct split_note *n = arg;
	struct fa_engine *e = n->e;

	(void)cl;	/* report prices no contention */
	if (d == FA_COH_UNKNOWN)
		fa_pending_add_transfer(&e->pend, (s32)e->nsegments, n->i, 0, n->cpu,
						src);
	e->seg.coh[d]++;
	e->seg.tgs[n->i].coh_transfers++;
	if (!write)
		e->seg.coh_by_read++;
}

/* The domains a sum reads under the segment's layout, current with the topology. */
static int doms(struct fa_engine *e, const struct fa_coh_topo *t)
{
	int n;

	if (e->split_doms_gen == e->topo_gen + 1 &&
	    e->split_doms_kind == e->seg.layout.kind)
		return 0;
	n = fa_layout_doms(e->seg.layout.kind, t, &e->split_doms, &e->split_doms_cap);
	if (n < 0)
		return -1;
	e->split_ndom = (u32)n;
	e->split_doms_gen = e->topo_gen + 1;
	e->split_doms_kind = e->seg.layout.kind;
	return 0;
}

/* One access of group @i's domain lines by @cpu: read or write, what kind. */
enum split_op { SPLIT_WRITE, SPLIT_READ_OWN, SPLIT_READ_SUM, SPLIT_READ_HIT };

static int access(struct fa_engine *e, u32 i, s32 cpu, enum split_op op)
{
	struct fa_coh_topo t = fa_engine_topo(e);
	struct fa_coh_cpu c = fa_coh_cpu(&t, cpu);
	struct split_note n = { e, i, cpu };
	struct fa_lay_ctx x;
	struct fa_lay_group *g = &e->tgtab.tg[i].lay;
	const struct fa_layout *l = &e->seg.layout;
	struct fa_segment *s = &e->seg;
	u32 lines = 0;
	int k;

	if (doms(e, &t))
		return -1;
	x = (struct fa_lay_ctx){ &t, &c, e->split_doms, e->split_ndom, note, &n };
	switch (op) {
	case SPLIT_WRITE:
		s->split_writes++;
		return fa_lay_write(g, l, &x, 0);
	case SPLIT_READ_OWN:
		return fa_lay_read_own(g, l, &x);
	case SPLIT_READ_HIT:
	case SPLIT_READ_SUM:
		k = fa_lay_read_as(g, l, &x, op == SPLIT_READ_HIT, &lines);
		if (k < 0)
			return -1;
		s->split_reads++;
		s->split_hits += k;
		s->split_lines += lines;
		return 0;
	}
	return 0;
}

/* The record is split: its segment's layout is, and it names a domain. */
static bool split(struct fa_engine *e, u16 split_dom)
{
	if (!split_dom)
		return false;
	if (fa_layout_split(&e->seg.layout))
		return true;
	/* a domain without a split layout in force: its layout record lost */
	e->seg.split_unlabelled++;
	return false;
}

int fa_split_write(struct fa_engine *e, u32 i, s32 cpu, u16 split_dom)
{
	return split(e, split_dom) ? access(e, i, cpu, SPLIT_WRITE)
				   : fa_coh_note(e, i, cpu, true);
}

int fa_split_read_own(struct fa_engine *e, u32 i, s32 cpu, u16 split_dom)
{
	return split(e, split_dom) ? access(e, i, cpu, SPLIT_READ_OWN)
				   : fa_coh_note(e, i, cpu, false);
}

int fa_split_read(struct fa_engine *e, u32 i, s32 cpu, u16 split_dom, bool hit)
{
	if (!split(e, split_dom))
		return fa_coh_note(e, i, cpu, false);
	return access(e, i, cpu, hit ? SPLIT_READ_HIT : SPLIT_READ_SUM);
}

void fa_split_reset(struct fa_engine *e)
{
	u32 i;

	/* the kernel allocates new counters at every switch */
	for (i = 0; i < e->tgtab.n; i++)
		fa_lay_group_free(&e->tgtab.tg[i].lay);
	e->split_doms_gen = 0;
}

int fa_split_place(struct fa_engine *e)
{
	struct fa_coh_topo t = fa_engine_topo(e);
	u32 i;

	if (!fa_layout_split(&e->seg.layout))
		return 0;
	for (i = 0; i < e->tgtab.n; i++)
		if (fa_lay_place(&e->tgtab.tg[i].lay, &e->seg.layout, &t))
			return -1;
	return 0;
}
