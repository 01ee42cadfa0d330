// SPDX-License-Identifier: GPL-2.0
/*
 * Weighted log-linear histogram (see fa_hist.h).
 */
#include <stdint.h>
#include <string.h>

#include "fa_hist.h"

u64 fa_hist_bucket_low(u32 idx)
{
	u32 e, sub;

	if (idx < FA_HIST_SUB)
		return idx;
	e = (idx - FA_HIST_SUB) / FA_HIST_SUB + FA_HIST_SUB_BITS;
	sub = (idx - FA_HIST_SUB) % FA_HIST_SUB;
	return (u64)(FA_HIST_SUB + sub) << (e - FA_HIST_SUB_BITS);
}

u64 fa_hist_bucket_high(u32 idx)
{
	u32 e;

	if (idx < FA_HIST_SUB)
		return idx;
	e = (idx - FA_HIST_SUB) / FA_HIST_SUB + FA_HIST_SUB_BITS;
	return fa_hist_bucket_low(idx) + ((1ull << (e - FA_HIST_SUB_BITS)) - 1);
}

#define sat_add fa_hist_sat_add

void fa_hist_add(struct fa_hist *h, u64 v, u64 weight)
{
	fa_hist_add_at(h, fa_hist_index(v), weight);
}

/* The lowest run of FA_HIST_SUB buckets set in *runs, taken out of it. */
static inline u32 take_run(u64 *runs)
{
	u32 k = (u32)__builtin_ctzll(*runs);

	*runs &= *runs - 1;
	return k;
}

void fa_hist_merge(struct fa_hist *dst, const struct fa_hist *src)
{
	u64 runs = src->used;
	u32 i, k;

	if (!src->total)
		return;
	while (runs) {
		k = take_run(&runs);
		for (i = k * FA_HIST_SUB; i < (k + 1) * FA_HIST_SUB; i++)
			dst->w[i] = sat_add(dst->w[i], src->w[i]);
	}
	dst->used |= src->used;
	dst->total = sat_add(dst->total, src->total);
}

void fa_hist_clear(struct fa_hist *h)
{
	u64 runs = h->used;
	u32 k;

	while (runs) {
		k = take_run(&runs);
		memset(&h->w[k * FA_HIST_SUB], 0, FA_HIST_SUB * sizeof(h->w[0]));
	}
	h->used = h->used == FA_HIST_ALL_RUNS ? FA_HIST_ALL_RUNS : 0;
	h->total = 0;
}

u64 fa_hist_percentile(const struct fa_hist *h, double p)
{
	double target = p * (double)h->total;
	u64 cum = 0;
	u32 i;

	if (!h->total)
		return 0;
	for (i = 0; i < FA_HIST_BUCKETS; i++) {
		cum += h->w[i];
		if (h->w[i] && (double)cum >= target)
			return fa_hist_bucket_high(i);
	}
	return fa_hist_bucket_high(FA_HIST_BUCKETS - 1);
}

u32 fa_hist_octave(u64 v)
{
	return v ? fa_hist_ilog2(v) + 1 : 0;
}

void fa_hist_octaves(const struct fa_hist *h, u64 out[FA_HIST_OCTAVES])
{
	u32 i;

	for (i = 0; i < FA_HIST_OCTAVES; i++)
		out[i] = 0;
	for (i = 0; i < FA_HIST_BUCKETS; i++) {
		u64 *o = &out[fa_hist_octave(fa_hist_bucket_low(i))];

		*o = sat_add(*o, h->w[i]);
	}
}
