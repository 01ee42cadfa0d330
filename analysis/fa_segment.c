// SPDX-License-Identifier: GPL-2.0
/*
 * Segment statistics: allocation, reset between segments, and merging
 * of a closed segment into the whole-trace figures.
 */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "fa_engine_int.h"

double fa_segment_seconds(const struct fa_segment *s)
{
	return s->t_end > s->t_start ? (double)(s->t_end - s->t_start) / 1e9 : 0.0;
}

double fa_segment_rate(const struct fa_segment *s, u64 count)
{
	double sec = fa_segment_seconds(s);

	return sec > 0.0 ? (double)count / sec : 0.0;
}

bool fa_segment_tg_active(const struct fa_segment *s, u32 i)
{
	return i < s->nr_tgs &&
	       (s->tgs[i].attempts || s->tgs[i].err.time_ns ||
		s->tgs[i].reads);
}

void fa_seg_init(struct fa_segment *s)
{
	memset(s, 0, sizeof(*s));
}

void fa_seg_free(struct fa_segment *s)
{
	free(s->tgs);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

/* Grows a zero-filled array of @size-byte elements from *n to at least @want. */
static int grow(void **arr, u32 *n, u32 want, size_t size)
{
	u32 cap = *n ? *n : 8;
	void *p;

	if (want <= *n)
		return 0;
	while (cap < want)
		cap *= 2;
	p = realloc(*arr, (size_t)cap * size);
	if (!p)
		return -1;
	memset((char *)p + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
	*arr = p;
	*n = cap;
	return 0;
}

int fa_seg_reserve(struct fa_segment *s, u32 nr_tgs, u32 nr_cpus)
{
	if (grow((void **)&s->tgs, &s->nr_tgs, nr_tgs, sizeof(*s->tgs)))
		return -1;
	return grow((void **)&s->cpus, &s->nr_cpus, nr_cpus, sizeof(*s->cpus));
}

/*
 * A group's figures back to zero: its two error records by the runs of
 * their histograms in use (fa_err_clear()), the rest of the struct, a few
 * counters, by bytes.  A memset of all 24 KB of every group ever seen at
 * every segment's close grew as groups x segments.
 */
static void tg_seg_clear(struct fa_tg_seg *t)
{
	unsigned char *b = (unsigned char *)t;
	size_t e0 = offsetof(struct fa_tg_seg, err), e1 = e0 + sizeof(t->err);
	size_t s0 = offsetof(struct fa_tg_seg, shares), s1 = s0 + sizeof(t->shares);

	_Static_assert(offsetof(struct fa_tg_seg, err) + sizeof(struct fa_err) <=
		       offsetof(struct fa_tg_seg, shares),
		       "err before shares in struct fa_tg_seg");
	fa_err_clear(&t->err);
	fa_err_clear(&t->shares);
	memset(b, 0, e0);
	memset(b + e1, 0, s0 - e1);
	memset(b + s1, 0, sizeof(*t) - s1);
}

/* Zero every figure but keep the arrays (their sizes are capacities). */
void fa_seg_reset(struct fa_segment *s)
{
	struct fa_tg_seg *tgs = s->tgs;
	struct fa_cpu_seg *cpus = s->cpus;
	u32 nr_tgs = s->nr_tgs, nr_cpus = s->nr_cpus, i;

	for (i = 0; tgs && i < nr_tgs; i++)
		tg_seg_clear(&tgs[i]);
	if (cpus)
		memset(cpus, 0, (size_t)nr_cpus * sizeof(*cpus));
	memset(s, 0, sizeof(*s));
	s->tgs = tgs;
	s->nr_tgs = nr_tgs;
	s->cpus = cpus;
	s->nr_cpus = nr_cpus;
}

static void max_u64(u64 *dst, u64 v)
{
	if (v > *dst)
		*dst = v;
}

int fa_seg_merge(struct fa_segment *d, const struct fa_segment *s, bool times)
{
	u32 i;

	if (fa_seg_reserve(d, s->nr_tgs, s->nr_cpus))
		return -1;
	/* The caller sets d->t_start: a merge only extends the end. */
	max_u64(&d->t_end, s->t_end);

	d->records += s->records;
	d->attempts += s->attempts;
	d->writes += s->writes;
	d->switches += s->switches;
	d->xnode += s->xnode;
	d->xnode_unknown += s->xnode_unknown;
	d->contrib_jumps += s->contrib_jumps;
	d->unpatches += s->unpatches;
	d->unpatch_jumps += s->unpatch_jumps;
	d->replay_mismatch += s->replay_mismatch;
	d->foreign_policy += s->foreign_policy;
	d->bad_cpu += s->bad_cpu;
	d->late += s->late;
	fa_err_merge_kept(&d->err, &s->err, times);
	d->reads += s->reads;
	d->read_mismatch += s->read_mismatch;
	d->read_untracked += s->read_untracked;
	d->read_gaps += s->read_gaps;
	fa_err_merge_kept(&d->shares, &s->shares, times);
	for (i = 0; i < FA_COH_NR; i++)
		d->coh[i] += s->coh[i];
	d->coh_by_read += s->coh_by_read;
	d->split_writes += s->split_writes;
	d->split_reads += s->split_reads;
	d->split_hits += s->split_hits;
	d->split_lines += s->split_lines;
	d->split_unlabelled += s->split_unlabelled;

	for (i = 0; i < s->nr_tgs; i++) {
		struct fa_tg_seg *dt = &d->tgs[i];
		const struct fa_tg_seg *st = &s->tgs[i];

		if (!st->attempts && !st->err.time_ns && !st->reads &&
		    !st->coh_transfers)
			continue;
		dt->attempts += st->attempts;
		dt->writes += st->writes;
		dt->switches += st->switches;
		dt->xnode += st->xnode;
		dt->xnode_unknown += st->xnode_unknown;
		dt->contrib_jumps += st->contrib_jumps;
		dt->gap = st->gap;
		fa_err_merge_kept(&dt->err, &st->err, times);
		dt->reads += st->reads;
		dt->reads_tracked += st->reads_tracked;
		dt->coh_transfers += st->coh_transfers;
		fa_err_merge_kept(&dt->shares, &st->shares, times);
	}
	for (i = 0; i < s->nr_cpus; i++) {
		struct fa_cpu_seg *dc = &d->cpus[i];
		const struct fa_cpu_seg *sc = &s->cpus[i];

		dc->attempts += sc->attempts;
		dc->writes += sc->writes;
		dc->switches_in += sc->switches_in;
		dc->xnode_in += sc->xnode_in;
		dc->xnode_unknown_in += sc->xnode_unknown_in;
		dc->remote += sc->remote;
		dc->idlest += sc->idlest;
	}
	for (i = 0; i < FA_SITES; i++) {
		d->sites[i].attempts += s->sites[i].attempts;
		d->sites[i].writes += s->sites[i].writes;
	}
	for (i = 0; i < FA_TG_POLICIES; i++)
		d->policy_attempts[i] += s->policy_attempts[i];
	for (i = 0; i < FA_IDLEST_POLICIES; i++) {
		d->idlest[i].decisions += s->idlest[i].decisions;
		d->idlest[i].picked += s->idlest[i].picked;
		d->idlest[i].mismatch += s->idlest[i].mismatch;
	}
	d->audits += s->audits;
	d->audit_unchecked += s->audit_unchecked;
	d->audit_violations += s->audit_violations;
	max_u64(&d->audit_max_abs_err, s->audit_max_abs_err);
	max_u64(&d->audit_max_track, s->audit_max_track);
	d->audit_untracked += s->audit_untracked;
	d->audit_windows += s->audit_windows;
	d->audit_window_mismatch += s->audit_window_mismatch;
	d->audit_window_unpatch += s->audit_window_unpatch;
	d->audit_at_record += s->audit_at_record;
	d->audit_unplaced += s->audit_unplaced;
	return 0;
}
