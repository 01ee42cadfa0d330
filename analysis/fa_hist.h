/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Weighted log-linear histogram of u64 values.
 *
 * Percentiles come from here instead of stored samples, so memory does not
 * grow with the length of a trace.  Values below 8 have a bucket each;
 * above, every power of two is split into 8 equal buckets, so a percentile
 * read back is at most 12.5% above the true value.  Weights are integers
 * (nanoseconds for time weighting), so results are exact and repeatable.
 */
#ifndef FA_HIST_H
#define FA_HIST_H

#include "fl_types.h"

#define FA_HIST_SUB_BITS	3
#define FA_HIST_SUB		(1u << FA_HIST_SUB_BITS)
#define FA_HIST_BUCKETS		(FA_HIST_SUB + (64 - FA_HIST_SUB_BITS) * FA_HIST_SUB)

/* Octave k >= 1 holds [2^(k-1), 2^k); octave 0 holds the value 0. */
#define FA_HIST_OCTAVES		65

/*
 * Weights saturate at 2^64-1 (see fa_hist.c).
 *
 * used: bit k set when a weight went to a bucket of run k, buckets
 * [k * FA_HIST_SUB, (k + 1) * FA_HIST_SUB); a bucket of a run not set is
 * 0.  A merge and a clear then touch only the runs in use: the engine
 * merges and clears each task group's histograms at every segment's
 * close, and a group idle in the segment holds one value, one bucket of
 * each.  Walking all FA_HIST_BUCKETS of every group made the closes
 * grow as groups x segments (21% of report's samples, all on its engine
 * thread, on a 16 M-record generated file with 1,024 group slots and
 * 1,720 segment closes).
 */
#define FA_HIST_RUNS		(FA_HIST_BUCKETS / FA_HIST_SUB)
struct fa_hist {
	u64 total;			/* sum of all weights */
	u64 used;			/* runs that may hold a weight */
	u64 w[FA_HIST_BUCKETS];
};
_Static_assert(FA_HIST_RUNS <= 64 && FA_HIST_RUNS * FA_HIST_SUB == FA_HIST_BUCKETS,
	       "fa_hist.used has a bit for each run of FA_HIST_SUB buckets");

static inline u32 fa_hist_ilog2(u64 v)
{
	return 63u - (u32)__builtin_clzll(v);	/* v != 0 */
}

/*
 * Inline: the what-if replay takes an index per policy per record.
 * Values below FA_HIST_SUB have a bucket each; from there, octave e
 * (2^e <= v < 2^(e+1)) has FA_HIST_SUB buckets, the top FA_HIST_SUB_BITS + 1
 * bits of v: with k = e - FA_HIST_SUB_BITS, bucket FA_HIST_SUB + k *
 * FA_HIST_SUB + the low FA_HIST_SUB_BITS of v >> k, which is k *
 * FA_HIST_SUB + (v >> k) since v >> k has its top bit at FA_HIST_SUB.
 * With k at least 0 the same form gives v for v < FA_HIST_SUB: no branch,
 * which mispredicts on errors that are sometimes 0 and sometimes not.
 */
static inline u32 fa_hist_index(u64 v)
{
	u32 e = fa_hist_ilog2(v | 1);
	u32 k = e > FA_HIST_SUB_BITS ? e - FA_HIST_SUB_BITS : 0;

	return k * FA_HIST_SUB + (u32)(v >> k);
}
u64 fa_hist_bucket_low(u32 idx);
u64 fa_hist_bucket_high(u32 idx);	/* inclusive */

void fa_hist_add(struct fa_hist *h, u64 v, u64 weight);

/*
 * Weights saturate instead of wrapping: corrupt timestamps can make a
 * span of ~2^63 ns, and a wrapped total would be smaller than a bucket.
 */
static inline u64 fa_hist_sat_add(u64 a, u64 b)
{
	return a + b < a ? ~0ull : a + b;
}

/*
 * fa_hist_add() to the bucket fa_hist_index() gave, without the total:
 * for a caller that adds the same weights to many histograms and their
 * sum to each total once.
 */
static inline __attribute__((always_inline)) void
fa_hist_add_bucket_by(struct fa_hist *h, u32 idx, u64 weight, const bool all)
{
	h->w[idx] = fa_hist_sat_add(h->w[idx], weight);
	if (!all)
		h->used |= 1ull << (idx / FA_HIST_SUB);
}

/*
 * fa_hist_add_bucket_by(..., true), for a caller that knows the bucket
 * cannot pass 2^64 - 1: the weights ever added to @h sum to less, so
 * the saturating add would give the same value.  A plain add is one
 * instruction where the saturating one is four (the what-if replay
 * takes two or three per policy and read).
 */
static inline __attribute__((always_inline)) void
fa_hist_add_bucket_exact(struct fa_hist *h, u32 idx, u64 weight)
{
	h->w[idx] += weight;
}

/*
 * One of the two above: the plain add for a histogram marked all in use
 * (@all) whose caller knows no bucket can pass 2^64 - 1 (@sat false),
 * else fa_hist_add_bucket_by().
 */
static inline __attribute__((always_inline)) void
fa_hist_add_bucket_as(struct fa_hist *h, u32 idx, u64 weight, const bool all,
		      const bool sat)
{
	if (all && !sat)
		fa_hist_add_bucket_exact(h, idx, weight);
	else
		fa_hist_add_bucket_by(h, idx, weight, all);
}

static inline void fa_hist_add_bucket(struct fa_hist *h, u32 idx, u64 weight)
{
	fa_hist_add_bucket_by(h, idx, weight, false);
}

/*
 * Every run marked in use, for good: a histogram that is never merged
 * into or cleared but added to in a hot loop (the what-if replay's, one
 * per policy) is added to with fa_hist_add_bucket_by(..., true), which
 * marks nothing.  A merge from it walks every run, as before the marks;
 * fa_hist_clear() leaves it marked.
 */
#define FA_HIST_ALL_RUNS	(~0ull >> (64 - FA_HIST_RUNS))
static inline void fa_hist_mark_all(struct fa_hist *h)
{
	h->used = FA_HIST_ALL_RUNS;
}

/* fa_hist_add() to the bucket fa_hist_index() gave. */
static inline void fa_hist_add_at(struct fa_hist *h, u32 idx, u64 weight)
{
	fa_hist_add_bucket(h, idx, weight);
	h->total = fa_hist_sat_add(h->total, weight);
}
void fa_hist_merge(struct fa_hist *dst, const struct fa_hist *src);
/* Every weight back to 0, touching only the runs in use (all: still all). */
void fa_hist_clear(struct fa_hist *h);

/*
 * Smallest bucket upper edge v such that the weight of values <= v is at
 * least p * total (0 < p <= 1); 0 for an empty histogram.
 */
u64 fa_hist_percentile(const struct fa_hist *h, double p);

/* Octave of a value, and the weights summed per octave. */
u32 fa_hist_octave(u64 v);
void fa_hist_octaves(const struct fa_hist *h, u64 out[FA_HIST_OCTAVES]);

#endif /* FA_HIST_H */
