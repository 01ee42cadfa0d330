// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the coherence model (analysis/fa_coh.[ch]) on hand-worked
 * sequences of reads and writes, and of its cost on the machine tables.
 */
#include <string.h>

#include "fa_coh.h"
#include "tap.h"

/*
 * cpu0, cpu1: node 0, LLC 0; cpu2: node 0, LLC 1; cpu3: node 1, LLC 2;
 * cpu4: not placed.
 */
static const s32 node[] = { 0, 0, 0, 1, -1 };
static const s32 llc[] = { 0, 0, 1, 2, -1 };
static const struct fa_coh_topo topo = { node, llc, 5, FA_COH_MISS_FREE };

struct step {
	s32 cpu;
	bool write;
	int transfer;		/* expected return */
	enum fa_coh_dist d;	/* expected distance when a transfer */
	const char *why;
};

/*
 *  1 W0  line held by none: no transfer; M by 0
 *  2 R0  hit
 *  3 R1  0 modified it: transfer, same LLC; S {0,1}
 *  4 R2  clean copy: fill, no transfer; S {0,1,2}
 *  5 W2  invalidates 0 and 1 (LLC 0, node 0): transfer, same node; M by 2
 *  6 R3  2 modified it: transfer, cross-node; S {2,3}
 *  7 W3  invalidates 2: transfer, cross-node; M by 3
 *  8 R4  3 modified it, 4 not placed: transfer, unknown; S {3,4}
 *  9 W4  invalidates 3, 4 not placed: transfer, unknown; M by 4
 * 10 R4  hit
 * 11 W0  4 modified it: transfer, unknown; M by 0
 * Totals: LLC 1, node 1, cross-node 2, unknown 3; 3 of them by reads.
 */
static const struct step seq[] = {
	{ 0, true, 0, 0, "W0 on a line no CPU holds" },
	{ 0, false, 0, 0, "R0 after its own write: hit" },
	{ 1, false, 1, FA_COH_LLC, "R1 of 0's modified line: same LLC" },
	{ 2, false, 0, 0, "R2 of a shared line: fill, no transfer" },
	{ 2, true, 1, FA_COH_NODE, "W2 invalidating 0 and 1: same node" },
	{ 3, false, 1, FA_COH_XNODE, "R3 of 2's modified line: cross-node" },
	{ 3, true, 1, FA_COH_XNODE, "W3 invalidating 2: cross-node" },
	{ 4, false, 1, FA_COH_UNKNOWN, "R4 (not placed) of 3's line: unknown" },
	{ 4, true, 1, FA_COH_UNKNOWN, "W4 invalidating 3: unknown" },
	{ 4, false, 0, 0, "R4 after its own write: hit" },
	{ 0, true, 1, FA_COH_UNKNOWN, "W0 of 4's modified line: unknown" },
};

static void test_sequence(void)
{
	struct fa_coh_line l;
	u64 n[FA_COH_NR] = { 0 };
	unsigned int i, by_read = 0;

	fa_coh_init(&l);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		enum fa_coh_dist d = FA_COH_NR;
		int r = fa_coh_access(&l, &topo, seq[i].cpu, seq[i].write, &d);

		if (seq[i].transfer)
			ok(r == 1 && d == seq[i].d, "step %u: %s", i + 1, seq[i].why);
		else
			ok(r == 0, "step %u: %s", i + 1, seq[i].why);
		if (r == 1 && d < FA_COH_NR) {
			n[d]++;
			by_read += !seq[i].write;
		}
	}
	is_u64(n[FA_COH_LLC], 1, "totals: 1 same-LLC transfer");
	is_u64(n[FA_COH_NODE], 1, "totals: 1 same-node transfer");
	is_u64(n[FA_COH_XNODE], 2, "totals: 2 cross-node transfers");
	is_u64(n[FA_COH_UNKNOWN], 3, "totals: 3 of unknown distance");
	is_u64(by_read, 3, "totals: 3 caused by reads");
	/* 59 + 59 + 2 x 138 + 3 x 59 (unknown at the cheapest) = 571 ns */
	is_dbl(fa_coh_cost_ns(&fa_coh_machines[0], n), 571, "cost: Sapphire Rapids 571 ns");
	/* 23 + 107 + 2 x 197 + 3 x 23 = 593 ns */
	is_dbl(fa_coh_cost_ns(&fa_coh_machines[1], n), 593, "cost: EPYC Milan 593 ns");
	fa_coh_free(&l);
}

/*
 * Sharers past the first 64 CPUs: W0, R100 (transfer, 100 not placed),
 * R70 (fill), W0 invalidates 100 and 70 (transfer), R0 hit.
 */
static void test_many_cpus(void)
{
	struct fa_coh_line l;
	enum fa_coh_dist d;

	fa_coh_init(&l);
	ok(fa_coh_access(&l, &topo, 0, true, &d) == 0, "many CPUs: W0");
	ok(fa_coh_access(&l, &topo, 100, false, &d) == 1 && d == FA_COH_UNKNOWN,
	   "many CPUs: R100 of 0's line is a transfer");
	ok(fa_coh_access(&l, &topo, 70, false, &d) == 0, "many CPUs: R70 fills");
	ok(fa_coh_access(&l, &topo, 0, true, &d) == 1,
	   "many CPUs: W0 invalidates 100 and 70");
	ok(fa_coh_access(&l, &topo, 0, false, &d) == 0, "many CPUs: R0 hits");
	ok(fa_coh_access(&l, &topo, 70, false, &d) == 1,
	   "many CPUs: R70 after W0 is a transfer again (its copy was invalidated)");
	fa_coh_free(&l);
}

/*
 * A transfer of unknown distance gives back where it took the line from,
 * and fa_coh_src_dist() classifies it once the CPUs are placed.  With
 * topo (cpu4 not placed): W3, R4 (3 modified it: unknown, from 3 alone;
 * S {3,4}), R1 (fill; S {1,3,4}), W2 invalidates 1 (same node, other
 * LLC), 3 (cross-node) and 4 (unknown): unknown, known part cross-node,
 * from 4.  Placed later: cpu4 on node 0, LLC 1 (cpu2's): R4's distance
 * from 3 is cross-node, W2's the farthest of cross-node and same LLC:
 * cross-node.  Had cpu4 stayed unknown, W2 stays unknown.
 */
static void test_src(void)
{
	static const s32 node5[] = { 0, 0, 0, 1, 0 }, llc5[] = { 0, 0, 1, 2, 1 };
	const struct fa_coh_topo later = { node5, llc5, 5, FA_COH_MISS_FREE };
	struct fa_coh_cpu c4 = fa_coh_cpu(&topo, 4), c2 = fa_coh_cpu(&topo, 2);
	struct fa_coh_cpu c3 = fa_coh_cpu(&topo, 3), c1 = fa_coh_cpu(&topo, 1);
	struct fa_coh_src src;
	struct fa_coh_line l;
	enum fa_coh_dist d;

	fa_coh_init(&l);
	ok(fa_coh_access_by(&l, &topo, &c3, true, &d, &src) == 0, "src: W3 first");
	ok(fa_coh_access_by(&l, &topo, &c4, false, &d, &src) == 1 &&
	   d == FA_COH_UNKNOWN && src.n == 1 && src.cpu[0] == 3 &&
	   src.known == FA_COH_UNKNOWN, "src: R4 of 3's line: unknown, from 3");
	is_s64(fa_coh_src_dist(&topo, 4, src.known, src.cpu, src.n, src.nearest), FA_COH_UNKNOWN,
	       "src: R4 unknown while cpu4 is not placed");
	is_s64(fa_coh_src_dist(&later, 4, src.known, src.cpu, src.n, src.nearest), FA_COH_XNODE,
	       "src: R4 cross-node once cpu4 is on node 0");
	ok(fa_coh_access_by(&l, &topo, &c1, false, &d, &src) == 0, "src: R1 fills");
	ok(fa_coh_access_by(&l, &topo, &c2, true, &d, &src) == 1 &&
	   d == FA_COH_UNKNOWN && src.n == 1 && src.cpu[0] == 4 &&
	   src.known == FA_COH_XNODE && !src.over,
	   "src: W2 invalidating 1, 3 and 4: unknown, 4 unplaced, the others cross-node at most");
	is_s64(fa_coh_src_dist(&topo, 2, src.known, src.cpu, src.n, src.nearest), FA_COH_UNKNOWN,
	       "src: W2 unknown while cpu4 is not placed");
	is_s64(fa_coh_src_dist(&later, 2, src.known, src.cpu, src.n, src.nearest), FA_COH_XNODE,
	       "src: W2 cross-node once placed (the farthest holder, 3)");
	fa_coh_free(&l);
}

/*
 * --shared-miss=nearest: a read by a CPU without a copy of a line others
 * hold Shared is a transfer from the nearest holder (free by default).
 * With topo: W3; R2 (3 modified it: cross-node; S {2,3}); R0 (nearest
 * of 2, same node other LLC, and 3, cross-node: same node); R1 (nearest
 * 0, same LLC); R1 hit; R4 (not placed: unknown, from 0, 1, 2 and 3, the
 * nearest once placed: cpu4 on node 1, LLC 2, with 3: same LLC).  Under
 * free: R0, R1 and R4 are fills, 1 transfer.
 */
static void test_shared_miss(void)
{
	static const s32 node5[] = { 0, 0, 0, 1, 1 }, llc5[] = { 0, 0, 1, 2, 2 };
	const struct fa_coh_topo near = { node, llc, 5, FA_COH_MISS_NEAREST };
	const struct fa_coh_topo later = { node5, llc5, 5, FA_COH_MISS_NEAREST };
	static const struct { s32 cpu; bool write; int tr; enum fa_coh_dist d; } q[] = {
		{ 3, true, 0, 0 }, { 2, false, 1, FA_COH_XNODE },
		{ 0, false, 1, FA_COH_NODE }, { 1, false, 1, FA_COH_LLC },
		{ 1, false, 0, 0 }, { 4, false, 1, FA_COH_UNKNOWN },
	};
	struct fa_coh_line l, f;
	struct fa_coh_src src;
	enum fa_coh_dist d;
	unsigned int i, nfree = 0;

	fa_coh_init(&l);
	fa_coh_init(&f);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		struct fa_coh_cpu c = fa_coh_cpu(&near, q[i].cpu);
		int r = fa_coh_access_by(&l, &near, &c, q[i].write, &d, &src);

		ok(r == q[i].tr && (!r || d == q[i].d), "nearest: step %u (cpu%d %s)",
		   i + 1, q[i].cpu, q[i].write ? "W" : "R");
		nfree += fa_coh_access(&f, &topo, q[i].cpu, q[i].write, &d) == 1;
	}
	ok(src.nearest && src.n == 4 && !src.over, "nearest: R4 from the 4 holders, none placed from 4");
	is_s64(fa_coh_src_dist(&later, 4, src.known, src.cpu, src.n, src.nearest), FA_COH_LLC,
	       "nearest: R4 within an LLC once cpu4 shares cpu3's");
	is_u64(nfree, 1, "free: only R2 of 3's modified line is a transfer");
	fa_coh_free(&l);
	fa_coh_free(&f);
}

int main(void)
{
	test_sequence();
	test_shared_miss();
	test_src();
	test_many_cpus();
	return tap_done();
}
