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

/*
 * fa_coh_write_near() (a write by the writer's distance masks) against
 * fa_coh_access_by()'s walk over the sharers: on 64 CPUs, some not
 * placed, every writer and sharer sets drawn by a fixed LCG (1 to 63
 * readers, so that more than FA_COH_SRC_MAX unplaced holders occur):
 * the same result, distance, holders given back (in CPU order) and line
 * state.  And by hand, on topo: S {0,1,3} written by 2: 3 is the
 * farthest (cross-node); S {1,2,4} written by 0: 4 not placed, unknown
 * (2 at the same node: the known part).
 */
static void test_write_near(void)
{
	s32 node64[64], llc64[64];
	const struct fa_coh_topo t64 = { node64, llc64, 64, FA_COH_MISS_FREE };
	u64 seed = 12345, bad = 0, over = 0, unknown = 0;
	struct fa_coh_near n;
	struct fa_coh_src sa, sb;
	enum fa_coh_dist da, db;
	struct fa_coh_cpu c;
	struct fa_coh_line a, b;
	int ra, rb;
	s32 cpu, i;
	u32 k;

	for (i = 0; i < 64; i++) {
		node64[i] = i % 7 == 6 ? -1 : i / 16;
		llc64[i] = i % 5 == 4 ? -1 : i / 8;
	}
	for (k = 0; k < 4000; k++) {
		u32 nr;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		cpu = (s32)(seed >> 58);
		nr = 1 + (u32)((seed >> 32) % 63);
		fa_coh_init(&a);
		fa_coh_init(&b);
		for (i = 0; i < (s32)nr; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			fa_coh_access(&a, &t64, (s32)(seed >> 58), false, &da);
			fa_coh_access(&b, &t64, (s32)(seed >> 58), false, &db);
		}
		c = fa_coh_cpu(&t64, cpu);
		fa_coh_near_of(&n, &t64, &c);
		da = db = FA_COH_NR;
		ra = fa_coh_access_by(&a, &t64, &c, true, &da, &sa);
		rb = b.shared && b.owner < 0 && !b.nmore ?
		     fa_coh_write_near(&b, &c, &n, &db, &sb) : -2;
		if (ra != rb || a.owner != b.owner || a.shared != b.shared ||
		    a.w0 != b.w0 || (ra == 1 && da != db) ||
		    (ra == 1 && (sa.known != sb.known || sa.n != sb.n ||
				 sa.over != sb.over || sa.nearest != sb.nearest ||
				 memcmp(sa.cpu, sb.cpu, sa.n * sizeof(sa.cpu[0])))))
			bad++;
		over += ra == 1 && sa.over;
		unknown += ra == 1 && da == FA_COH_UNKNOWN;
		fa_coh_free(&a);
		fa_coh_free(&b);
	}
	is_u64(bad, 0, "write by masks: as the walk over the sharers, 4000 draws");
	ok(over > 0 && unknown > over, "write by masks: draws with over %d unplaced holders (%llu) and unknown ones (%llu)",
	   FA_COH_SRC_MAX, (unsigned long long)over, (unsigned long long)unknown);

	fa_coh_init(&b);
	fa_coh_access(&b, &topo, 0, false, &db);
	fa_coh_access(&b, &topo, 1, false, &db);
	fa_coh_access(&b, &topo, 3, false, &db);
	c = fa_coh_cpu(&topo, 2);
	fa_coh_near_of(&n, &topo, &c);
	ok(fa_coh_write_near(&b, &c, &n, &db, &sb) == 1 && db == FA_COH_XNODE &&
	   sb.n == 0 && b.owner == 2 && !b.shared && !b.w0,
	   "write by masks: S {0,1,3} written by 2: cross-node (3), M by 2");
	fa_coh_access(&b, &topo, 1, false, &db);
	fa_coh_access(&b, &topo, 4, false, &db);
	fa_coh_access(&b, &topo, 2, true, &db);		/* S {1,2,4} -> M by 2 */
	fa_coh_access(&b, &topo, 1, false, &db);
	fa_coh_access(&b, &topo, 4, false, &db);	/* S {1,2,4} */
	c = fa_coh_cpu(&topo, 0);
	fa_coh_near_of(&n, &topo, &c);
	ok(fa_coh_write_near(&b, &c, &n, &db, &sb) == 1 && db == FA_COH_UNKNOWN &&
	   sb.known == FA_COH_NODE && sb.n == 1 && sb.cpu[0] == 4,
	   "write by masks: S {1,2,4} written by 0: unknown (4), same node at least (2)");
	fa_coh_free(&b);
}

int main(void)
{
	test_sequence();
	test_shared_miss();
	test_src();
	test_many_cpus();
	test_write_near();
	return tap_done();
}
