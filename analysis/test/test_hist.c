// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the log-linear histogram and of the error accumulator.
 */
#include <stdint.h>
#include <string.h>

#include "fa_err.h"
#include "tap.h"

/* Buckets tile [0, 2^64): contiguous, each value in its own bucket. */
static void test_buckets(void)
{
	u32 i, bad = 0;
	u64 v;
	int sh;

	is_u64(fa_hist_bucket_low(0), 0, "hist: first bucket starts at 0");
	is_u64(fa_hist_bucket_high(FA_HIST_BUCKETS - 1), UINT64_MAX,
	       "hist: last bucket ends at 2^64-1");
	for (i = 0; i + 1 < FA_HIST_BUCKETS; i++)
		if (fa_hist_bucket_high(i) + 1 != fa_hist_bucket_low(i + 1))
			bad++;
	is_u64(bad, 0, "hist: buckets are contiguous");
	bad = 0;
	for (sh = 0; sh < 64; sh++) {
		for (v = (1ull << sh) - 1; v <= (1ull << sh) + 1; v++) {
			i = fa_hist_index(v);
			if (i >= FA_HIST_BUCKETS || v < fa_hist_bucket_low(i) ||
			    v > fa_hist_bucket_high(i))
				bad++;
		}
	}
	/* inside the octaves too: every value below 2^16, every sub-bucket */
	for (v = 0; v < (1u << 16); v++) {
		i = fa_hist_index(v);
		if (i >= FA_HIST_BUCKETS || v < fa_hist_bucket_low(i) ||
		    v > fa_hist_bucket_high(i))
			bad++;
	}
	i = fa_hist_index(UINT64_MAX);
	if (i != FA_HIST_BUCKETS - 1)
		bad++;
	is_u64(bad, 0, "hist: every value falls in its bucket");
	/* Width is at most 1/8 of the bucket's lower edge above 8. */
	ok(fa_hist_bucket_high(fa_hist_index(1000)) - fa_hist_bucket_low(fa_hist_index(1000))
	   + 1 <= 1000 / 8, "hist: 12.5%% resolution");
	is_u64(fa_hist_octave(0), 0, "hist: octave of 0");
	is_u64(fa_hist_octave(1), 1, "hist: octave of 1");
	is_u64(fa_hist_octave(3), 2, "hist: octave of 3");
	is_u64(fa_hist_octave(64), 7, "hist: octave of 64");
}

/*
 * Weights 1 at 0, 2 at 1, 7 at 5: total 10.  p10 = 0, p30 = 1,
 * p31 = 5, p100 = 5; values below 8 are exact.
 */
static void test_percentiles(void)
{
	struct fa_hist h = { 0 };
	u64 oct[FA_HIST_OCTAVES];

	is_u64(fa_hist_percentile(&h, 0.99), 0, "hist: empty percentile is 0");
	fa_hist_add(&h, 0, 1);
	fa_hist_add(&h, 1, 2);
	fa_hist_add(&h, 5, 7);
	is_u64(h.total, 10, "hist: total weight");
	is_u64(fa_hist_percentile(&h, 0.10), 0, "hist: p10");
	is_u64(fa_hist_percentile(&h, 0.30), 1, "hist: p30");
	is_u64(fa_hist_percentile(&h, 0.31), 5, "hist: p31");
	is_u64(fa_hist_percentile(&h, 1.0), 5, "hist: p100");
	fa_hist_octaves(&h, oct);
	is_u64(oct[0] + oct[1] + oct[3], 10, "hist: octaves hold all weight");
	is_u64(oct[3], 7, "hist: 5 is in octave [4,8)");
}

/*
 * Error accumulator: |E| 10 for 3 ns with sum(load) 100, then -40 for
 * 1 ns with sum(load) 0 (relative undefined): mean |E| = 70/4, relative
 * mean over the 3 defined ns = 0.1; merge doubles the integrals.
 */
static void test_err(void)
{
	struct fa_err a = { 0 }, b = { 0 };

	fa_err_span(&a, 10, 100, 3);
	fa_err_point(&a, 10, 100);
	fa_err_span(&a, -40, 0, 1);
	fa_err_point(&a, -40, 0);
	fa_err_span(&a, 1000, 1, 0);		/* no time, no weight */
	is_u64(a.time_ns, 4, "err: time");
	is_dbl(fa_err_mean_abs(&a), 70.0 / 4, "err: mean |E|");
	is_u64(a.rel_time_ns, 3, "err: relative defined 3 ns");
	is_dbl(fa_err_mean_rel(&a), 0.1, "err: mean relative");
	is_u64(a.max_abs, 40, "err: max |E|");
	is_dbl(a.max_rel, 0.1, "err: max relative ignores sum(load) = 0");
	is_u64(fa_err_p_abs(&a, 0.75), 10, "err: p75 |E|");
	is_u64(fa_err_p_abs(&a, 0.99), 40, "err: p99 |E| capped at max");
	is_dbl(fa_err_p_rel(&a, 0.99), 0.1, "err: p99 relative");
	fa_err_merge(&b, &a);
	fa_err_merge(&b, &a);
	is_dbl(b.abs_time, 140, "err: merge adds integrals");
	is_u64(b.abs.total, 8, "err: merge adds histograms");
	fa_err_span(&b, INT64_MIN, INT64_MAX, 1);
	is_u64(fa_err_p_abs(&b, 1.0), 40, "err: p100 capped at the points seen");
}

/*
 * A merge and a clear touch only the runs in use (fa_hist.used): against
 * a bucket-by-bucket sum kept beside them, on weights spread over every
 * run (bucket 0, the last bucket, values from 0 to 2^64-1), into a
 * histogram that already holds weights of its own.
 */
static void test_runs(void)
{
	static struct fa_hist a, b, c;
	static u64 want[FA_HIST_BUCKETS];
	u64 v = 1, bad = 0, i, nonzero = 0;
	u32 k;

	for (i = 0; i < 3000; i++) {
		struct fa_hist *h = i % 3 ? &a : &b;
		u32 idx = fa_hist_index(v);

		fa_hist_add(h, v, i + 1);
		want[idx] += i + 1;
		v = v * 6364136223846793005ull + 1442695040888963407ull;
		v >>= i % 64;	/* small values too */
	}
	fa_hist_add(&a, 0, 5);
	want[0] += 5;
	fa_hist_add(&b, ~0ull, 7);
	want[FA_HIST_BUCKETS - 1] += 7;
	ok((a.used & 1) && (b.used >> (FA_HIST_RUNS - 1)) & 1,
	   "runs: the first and the last run marked in use");
	c = b;
	fa_hist_merge(&c, &a);
	for (k = 0; k < FA_HIST_BUCKETS; k++) {
		bad += c.w[k] != want[k];
		nonzero += c.w[k] != 0;
		if (c.w[k] && !((c.used >> (k / FA_HIST_SUB)) & 1))
			bad++;
	}
	ok(!bad && nonzero > 100, "runs: merge equals the bucket-by-bucket sum (%llu buckets in use)",
	   (unsigned long long)nonzero);
	is_u64(c.total, a.total + b.total, "runs: merge adds totals");
	fa_hist_clear(&c);
	for (k = 0, bad = 0; k < FA_HIST_BUCKETS; k++)
		bad += c.w[k] != 0;
	ok(!bad && !c.used && !c.total, "runs: clear leaves every bucket 0");
	fa_hist_merge(&c, &a);
	fa_hist_merge(&c, &b);
	for (k = 0, bad = 0; k < FA_HIST_BUCKETS; k++)
		bad += c.w[k] != want[k];
	ok(!bad, "runs: a cleared histogram merges as a new one");

	/* marked all in use: added to without marks, merged whole */
	fa_hist_clear(&c);
	fa_hist_mark_all(&c);
	for (k = 0; k < FA_HIST_BUCKETS; k += 37)
		fa_hist_add_bucket_by(&c, k, k + 1, true);
	c.total = 1;
	memset(&a, 0, sizeof(a));
	fa_hist_merge(&a, &c);
	for (k = 0, bad = 0; k < FA_HIST_BUCKETS; k++)
		bad += a.w[k] != (k % 37 ? 0 : k + 1);
	ok(!bad, "runs: a histogram marked all merges every run");
	fa_hist_clear(&c);
	ok(c.used == FA_HIST_ALL_RUNS && !c.w[37] && !c.total,
	   "runs: clear empties a histogram marked all and leaves it marked");
}

/*
 * fa_err_clear() leaves every byte of a struct fa_err zero, whatever it
 * held: a field added to the struct and not to the clear fails here.
 */
static void test_err_clear(void)
{
	static struct fa_err e, zero;

	memset(&e, 0x5a, sizeof(e));
	e.abs.used = FA_HIST_ALL_RUNS;
	e.rel.used = FA_HIST_ALL_RUNS;
	e.bnd.used = FA_HIST_ALL_RUNS;
	fa_err_clear(&e);
	e.abs.used = e.rel.used = e.bnd.used = 0;	/* marked all: stays marked */
	ok(!memcmp(&e, &zero, sizeof(e)), "err: clear zeroes every field and bucket");
}

/*
 * fa_err_rel_ppm() rounds up without ceil() (fa_err.h): hand-computed
 * values, then ceil()'s own result on doubles of every exponent below the
 * saturation (a bit pattern stepped through the range, a fraction or not).
 */
static void test_rel_ppm(void)
{
	u64 bits, bad = 0, n = 0;

	is_u64(fa_err_rel_ppm(0.0), 0, "rel_ppm: 0");
	is_u64(fa_err_rel_ppm(0.25), 250000, "rel_ppm: 0.25 exactly 250000 ppm");
	is_u64(fa_err_rel_ppm(0.0000005), 1, "rel_ppm: half a ppm rounds up to 1");
	is_u64(fa_err_rel_ppm(1.0000005), 1000001, "rel_ppm: 1000000.5 ppm rounds up");
	is_u64(fa_err_rel_ppm(9.0e12), 9000000000000000000ull,
	       "rel_ppm: 9e18 ppm saturates");
	is_u64(fa_err_rel_ppm(1.0e300), 9000000000000000000ull,
	       "rel_ppm: far above saturates");
	is_u64(fa_err_rel_ppm(1.0e10), 10000000000000000ull,
	       "rel_ppm: 1e16 ppm, past 2^53 (an integer already)");
	/* 0x3c00... (about 1e-19) to 0x4300... (2^49: ppm past 9e18) */
	for (bits = 0x3c00000000000000ull; bits < 0x4300000000000000ull;
	     bits += 0x000000b1a5e37c9dull) {
		double rel, ppm;

		__builtin_memcpy(&rel, &bits, sizeof(rel));
		ppm = __builtin_ceil(rel * FA_REL_SCALE);
		n++;
		if (fa_err_rel_ppm(rel) !=
		    (ppm >= 9.0e18 ? (u64)9.0e18 : (u64)(s64)ppm))
			bad++;
	}
	ok(n > 100000 && !bad, "rel_ppm: as ceil() on %llu doubles (%llu differ)",
	   (unsigned long long)n, (unsigned long long)bad);
}

int main(void)
{
	test_buckets();
	test_percentiles();
	test_err();
	test_runs();
	test_err_clear();
	test_rel_ppm();
	return tap_done();
}
