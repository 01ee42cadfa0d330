// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the layouts of tg->load_avg in the coherence model
 * (analysis/fa_layout.[ch]): hand-worked sequences of publishes and reads
 * under global, node and node with a read cache, their transfers by
 * distance, lines read and cache hits; parsing and the domain lists.
 */
#include <stdlib.h>
#include <string.h>

#include "fa_layout.h"
#include "tap.h"

/*
 * As test_coh.c: cpu0, cpu1: node 0, LLC 0; cpu2: node 0, LLC 1; cpu3:
 * node 1, LLC 2; cpu4: not placed.
 */
static const s32 node[] = { 0, 0, 0, 1, -1 };
static const s32 llc[] = { 0, 0, 1, 2, -1 };
static const struct fa_coh_topo topo = { node, llc, 5, FA_COH_MISS_FREE };
static const s32 nodes[] = { 0, 1 };

/* Transfers counted by the model's callback. */
struct tally {
	u64 n[FA_COH_NR];
	u64 by_read;
};

static void note(void *arg, enum fa_coh_dist d, const struct fa_coh_src *src,
		 bool write, struct fa_cont_line *cl)
{
	struct tally *t = arg;

	(void)src;
	(void)cl;
	t->n[d]++;
	t->by_read += !write;
}

static u64 total(const struct tally *t)
{
	return t->n[FA_COH_LLC] + t->n[FA_COH_NODE] + t->n[FA_COH_XNODE] +
	       t->n[FA_COH_UNKNOWN];
}

struct op {
	s32 cpu;
	bool write;
	s64 delta;
	u64 ts;
};

/*
 * Ops @q under layout @l on group @g; a read's sum stored at a miss
 * with a cache is the counters' total.  Returns lines read, hits in *@hits.
 */
static u64 run(struct fa_lay_group *g, const struct fa_layout *l,
	       const struct op *q, unsigned int n, struct tally *t, u64 *hits,
	       s64 *last_used)
{
	u64 lines = 0;
	unsigned int i;

	*hits = 0;
	for (i = 0; i < n; i++) {
		struct fa_coh_cpu c = fa_coh_cpu(&topo, q[i].cpu);
		struct fa_lay_ctx x = { &topo, &c, nodes, 2, note, t };
		struct fa_lay_dom *d;
		u32 k, got;
		s64 sum = 0;
		int r;

		if (q[i].write) {
			ok(!fa_lay_write(g, l, &x, q[i].delta), "op %u: W%d", i + 1, q[i].cpu);
			continue;
		}
		r = fa_lay_read_sum(g, l, &x, q[i].ts, &d, &got);
		lines += got;
		for (k = 0; k < g->n; k++)
			sum += g->d[k].sum;
		sum += g->unplaced.sum;
		*last_used = sum;
		if (r == 1) {
			++*hits;
			*last_used = d->cached;
		} else if (d) {
			ok(!fa_lay_store(d, &x, sum, q[i].ts), "op %u: R%d stores", i + 1, q[i].cpu);
		}
	}
	return lines;
}

/*
 * The same 7 ops under global (one line, fa_coh.h alone) and node:
 *
 *   op        global (one line G)            node (L0: node 0, L1: node 1)
 *   1 W0 +10  G none: 0; M0                  L0 none: 0; L0 M0
 *   2 W3 +5   G M0 -> 3: xnode; M3           L1 none: 0; L1 M3
 *   3 R1      G M3 -> 1: xnode; S{3,1}       L0 M0 -> 1: LLC; L1 M3 -> 1: xnode
 *   4 W2 +1   G S{3,1}: 3 xnode, 1 node:     L0 S{0,1}: invalidated from 2 (other
 *             farthest xnode; M2               LLC, same node): node; L0 M2
 *   5 W3 +1   G M2 -> 3: xnode; M3           L1 S{3,1}: 1 invalidated: xnode
 *   6 R3      G hit                          L0 M2 -> 3: xnode; L1 hit (M3)
 *   7 R0      G M3 -> 0: xnode; S{3,0}       L0 S{2,3}: fill (free); L1 M3 -> 0: xnode
 *
 * global: 5 transfers, all cross-node, 2 by reads (3, 7);
 * node: 6: LLC 1, node 1, xnode 4, 4 by reads (3 twice, 6, 7); 6 lines
 * read (2 per read); counters L0 = 11, L1 = 6.
 */
static const struct op seq[] = {
	{ 0, true, 10, 0 }, { 3, true, 5, 0 }, { 1, false, 0, 0 },
	{ 2, true, 1, 0 }, { 3, true, 1, 0 }, { 3, false, 0, 0 },
	{ 0, false, 0, 0 },
};

static void test_global_node(void)
{
	const struct fa_layout nl = { FA_LAYOUT_NODE, 0 };
	struct tally tg = { { 0 }, 0 }, tn = { { 0 }, 0 };
	struct fa_coh_line g;
	struct fa_lay_group lg;
	unsigned int i;
	u64 hits, lines;
	s64 used = 0;

	fa_coh_init(&g);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		enum fa_coh_dist d = FA_COH_NR;

		if (fa_coh_access(&g, &topo, seq[i].cpu, seq[i].write, &d) == 1)
			note(&tg, d, NULL, seq[i].write, NULL);
	}
	is_u64(total(&tg), 5, "global: 5 transfers");
	is_u64(tg.n[FA_COH_XNODE], 5, "global: all 5 cross-node");
	is_u64(tg.by_read, 2, "global: 2 by reads");
	fa_coh_free(&g);

	fa_lay_group_init(&lg);
	lines = run(&lg, &nl, seq, sizeof(seq) / sizeof(seq[0]), &tn, &hits, &used);
	is_u64(total(&tn), 6, "node: 6 transfers");
	is_u64(tn.n[FA_COH_LLC], 1, "node: 1 same-LLC (op 3, L0)");
	is_u64(tn.n[FA_COH_NODE], 1, "node: 1 same-node (op 4)");
	is_u64(tn.n[FA_COH_XNODE], 4, "node: 4 cross-node (ops 3, 5, 6, 7)");
	is_u64(tn.n[FA_COH_UNKNOWN], 0, "node: none unknown");
	is_u64(tn.by_read, 4, "node: 4 by reads");
	is_u64(lines, 6, "node: 3 reads of 2 counter lines each");
	is_u64(hits, 0, "node: no cache, no hit");
	is_s64(lg.d[0].sum, 11, "node: node 0's counter 10 + 1");
	is_s64(lg.d[1].sum, 6, "node: node 1's counter 5 + 1");
	is_s64(used, 17, "node: a read uses the counters' total");
	fa_lay_group_free(&lg);
}

/*
 * node:1000 (REFRESH 1,000,000 ns): counters L0, L1, caches C0, C1.
 *
 *   op  t (ns)    what
 *   1   0         W0 +10: L0 none: 0; L0 M0
 *   2   0         W3 +5:  L1 none: 0; L1 M3
 *   3   100       R1: C0 invalid: miss; L0 M0 -> 1: LLC; L1 M3 -> 1: xnode;
 *                 store 15: C0 none: 0; C0 M1
 *   4   200       W0 +2: L0 S{0,1}: 1 invalidated: LLC; L0 M0
 *   5   500       R0: age 400 < 1e6: hit, uses 15 (the counters hold 17);
 *                 C0 M1 -> 0: LLC; C0 S{1,0}
 *   6   1000400   R2: age 1000300: miss; L0 M0 -> 2: node; L1 S{3,1}: fill
 *                 (free); store 17: C0 S{1,0} invalidated from 2: node; C0 M2
 *   7   1000500   R3: C1 invalid: miss; L0 S{0,2}: fill; L1 held by 3: hit;
 *                 store: C1 none: 0
 *
 * Transfers: LLC 3 (ops 3, 4, 5), node 2 (op 6 twice), xnode 1 (op 3);
 * by reads 4 (3 twice, 5, 6's L0); 1 hit; 6 counter lines read.
 */
static void test_cache(void)
{
	static const struct op q[] = {
		{ 0, true, 10, 0 }, { 3, true, 5, 0 }, { 1, false, 0, 100 },
		{ 0, true, 2, 200 }, { 0, false, 0, 500 },
	};
	static const struct op q2[] = {
		{ 2, false, 0, 1000400 }, { 3, false, 0, 1000500 },
	};
	struct fa_layout l;
	struct tally t = { { 0 }, 0 };
	struct fa_lay_group g;
	u64 hits, hits2, lines;
	s64 used = 0;

	ok(!fa_layout_parse("node:1000", &l) && l.kind == FA_LAYOUT_NODE &&
	   l.refresh_us == 1000, "node:1000 parses");
	fa_lay_group_init(&g);
	lines = run(&g, &l, q, sizeof(q) / sizeof(q[0]), &t, &hits, &used);
	is_u64(hits, 1, "cache: op 5 a hit (400 ns old)");
	is_s64(used, 15, "cache: the hit uses the stale sum 15, not 17");
	lines += run(&g, &l, q2, sizeof(q2) / sizeof(q2[0]), &t, &hits2, &used);
	is_u64(hits2, 0, "cache: op 6 a miss (1000300 ns old), op 7 (node 1) a miss");
	is_s64(used, 17, "cache: op 7's sum is the counters' 17");
	is_s64(g.d[0].cached, 17, "cache: op 6 refreshed node 0's cache to 17");
	is_u64(t.n[FA_COH_LLC], 3, "cache: 3 same-LLC (ops 3, 4, 5)");
	is_u64(t.n[FA_COH_NODE], 2, "cache: 2 same-node (op 6: L0 read, C0 store)");
	is_u64(t.n[FA_COH_XNODE], 1, "cache: 1 cross-node (op 3: L1)");
	is_u64(t.by_read, 4, "cache: 4 by reads");
	is_u64(lines, 6, "cache: 3 misses read 2 counter lines each");
	fa_lay_group_free(&g);
}

/*
 * A writer cpu_topology did not place: W4 +7 on the unplaced counter (no
 * holder: 0); R0 then reads L0, L1 (never written: fills, 0) and it: 4
 * modified it, 4 not placed: 1 transfer of unknown distance; 3 lines.
 * Its read has no cache (no domain): a miss, nothing to store.
 */
static void test_unplaced(void)
{
	static const struct op q[] = { { 4, true, 7, 0 }, { 0, false, 0, 10 } };
	const struct fa_layout l = { FA_LAYOUT_NODE, 1000 };
	struct tally t = { { 0 }, 0 };
	struct fa_lay_group g;
	struct fa_coh_cpu c4 = fa_coh_cpu(&topo, 4);
	struct fa_lay_ctx x = { &topo, &c4, nodes, 2, note, &t };
	struct fa_lay_dom *d = (void *)1;
	u64 hits, lines;
	s64 used = 0;
	u32 got;

	fa_lay_group_init(&g);
	lines = run(&g, &l, q, 2, &t, &hits, &used);
	is_u64(lines, 3, "unplaced: R0 reads L0, L1 and the unplaced counter");
	is_u64(t.n[FA_COH_UNKNOWN], 1, "unplaced: 1 transfer of unknown distance");
	is_u64(total(&t), 1, "unplaced: and no other");
	is_s64(used, 7, "unplaced: the sum holds its 7");
	ok(fa_lay_read_sum(&g, &l, &x, 20, &d, &got) == 0 && !d,
	   "unplaced: a reader without a domain has no cache");
	fa_lay_group_free(&g);
}

/*
 * fa_lay_place(): W4 +7 and W4 -2 on the unplaced counter U (CPU 4's part
 * 5); R0 reads L0, L1, U (3 lines).  CPU 4 then placed on node 1 (a
 * topology of its own): its part 5 moves to L1's counter (6 + 5 = 11
 * after W3 +6), U is gone: R0 reads L0 and L1 only (2 lines), the sum
 * still 11.  A CPU 4 part of a group placed under a topology where CPU 4
 * is still unknown stays.
 */
static void test_place(void)
{
	static const s32 node2[] = { 0, 0, 0, 1, 1 };
	static const s32 llc2[] = { 0, 0, 1, 2, 2 };
	const struct fa_coh_topo placed = { node2, llc2, 5, FA_COH_MISS_FREE };
	const struct fa_layout l = { FA_LAYOUT_NODE, 0 };
	struct fa_coh_cpu c4 = fa_coh_cpu(&topo, 4), c3 = fa_coh_cpu(&placed, 3),
			  c0 = fa_coh_cpu(&placed, 0);
	struct tally t = { { 0 }, 0 };
	struct fa_lay_ctx x4 = { &topo, &c4, nodes, 2, note, &t };
	struct fa_lay_ctx x3 = { &placed, &c3, nodes, 2, note, &t };
	struct fa_lay_ctx x0 = { &placed, &c0, nodes, 2, note, &t };
	struct fa_lay_group g;
	struct fa_lay_dom *d;
	u32 got;

	fa_lay_group_init(&g);
	ok(!fa_lay_write(&g, &l, &x4, 7) && !fa_lay_write(&g, &l, &x4, -2), "place: W4 +7, W4 -2");
	ok(!fa_lay_place(&g, &l, &topo), "place: CPU 4 not placed yet");
	ok(g.unplaced_used, "place: its part stays unplaced");
	ok(!fa_lay_read_sum(&g, &l, &x0, 0, &d, &got), "place: R0");
	is_u64(got, 3, "place: R0 reads L0, L1 and U");
	ok(!fa_lay_place(&g, &l, &placed), "place: CPU 4 on node 1");
	ok(!g.unplaced_used, "place: U gone");
	is_s64(g.unplaced.sum, 0, "place: nothing left in U");
	ok(!fa_lay_write(&g, &l, &x3, 6), "place: W3 +6");
	is_s64(g.d[1].sum, 11, "place: L1's counter holds CPU 4's 5 and W3's 6");
	ok(!fa_lay_read_sum(&g, &l, &x0, 0, &d, &got), "place: R0 again");
	is_u64(got, 2, "place: R0 reads L0 and L1 only");
	fa_lay_group_free(&g);
}

static void test_parse(void)
{
	static const char *const bad[] = { "global:5", "node:", "node:x", "numa",
					   "llc:10000001", "node:1000x", "" };
	struct fa_layout l;
	char buf[32];
	unsigned int i;

	ok(!fa_layout_parse("global", &l) && l.kind == FA_LAYOUT_GLOBAL &&
	   !l.refresh_us && !fa_layout_split(&l), "global parses, not split");
	ok(!fa_layout_parse("llc", &l) && l.kind == FA_LAYOUT_LLC && !l.refresh_us,
	   "llc parses");
	ok(!strcmp(fa_layout_label(&l, buf, sizeof(buf)), "llc"), "llc's label");
	ok(!fa_layout_parse("node:100000", &l) &&
	   !strcmp(fa_layout_label(&l, buf, sizeof(buf)), "node:100000"),
	   "node:100000's label");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		l.kind = 99;
		ok(fa_layout_parse(bad[i], &l) && l.kind == 99, "'%s' refused", bad[i]);
	}
}

/* LLC ids are their first CPU's: sparse; the domains are the distinct ids. */
static void test_doms(void)
{
	static const s32 n2[] = { 0, 0, 1, 1, -1 }, l2[] = { 0, 0, 2, 2, -1 };
	const struct fa_coh_topo t2 = { n2, l2, 5, FA_COH_MISS_FREE };
	s32 *ids = NULL;
	u32 cap = 0;
	int n;

	n = fa_layout_doms(FA_LAYOUT_LLC, &t2, &ids, &cap);
	ok(n == 2 && ids[0] == 0 && ids[1] == 2, "llc ids 0, 0, 2, 2: domains 0 and 2");
	n = fa_layout_doms(FA_LAYOUT_NODE, &topo, &ids, &cap);
	ok(n == 2 && ids[0] == 0 && ids[1] == 1, "nodes 0, 0, 0, 1: domains 0 and 1");
	n = fa_layout_doms(FA_LAYOUT_LLC, &topo, &ids, &cap);
	ok(n == 3 && ids[2] == 2, "llc ids 0, 0, 1, 2: 3 domains");
	free(ids);
}

/*
 * The contention term (fa_cont.h), by hand, W = 1000 ns:
 *  n 1, L 100: rho 0.1, M/D/1 0.1*100/1.8 = 5.6 but the batch bound
 *              (1-1)*100/2 = 0: 100 ns (a lone transfer waits for none)
 *  n 5, L 500: S 100, rho 0.5: M/D/1 0.5*100/(2*0.5) = 50 <= batch
 *              4*100/2 = 200: 500 + 5*50 = 750 ns
 *  n 12, L 1200: rho 1.2 >= 1: batch 11*100/2 = 550: 1200 + 12*550 = 7800
 *  n 2, L 1800 (S 900): rho 1.8: batch 450: 1800 + 900 = 2700
 * Windows of a line: transfers at 100, 900 (window 0), 1500 (window 1),
 * 100 ns each: window 0 n 2, L 200, rho 0.2: M/D/1 0.2*100/1.6 = 12.5
 * <= batch 50: 200 + 25 = 225; window 1 n 1: 100; total 325.  Scaled
 * by 5: window 0 n 10, L 1000, rho 1: batch 9*100/2 = 450: 1000 + 4500
 * = 5500; window 1 n 5, L 500: 750 (above): 6250.
 */
static void test_cont(void)
{
	struct fa_cont_line l = { 0, 0, 0 };
	struct fa_cont_sum s = { 0, 0 };

	is_dbl(fa_cont_window(1, 100, 1000), 100, "contention: a lone transfer: its latency");
	is_dbl(fa_cont_window(5, 500, 1000), 750, "contention: rho 0.5: M/D/1 wait 50 ns each");
	is_dbl(fa_cont_window(12, 1200, 1000), 7800, "contention: rho 1.2: 11 x 100 / 2 ns each");
	is_dbl(fa_cont_window(2, 1800, 1000), 2700, "contention: rho 1.8, n 2: 450 ns each");
	is_dbl(fa_cont_window(0, 0, 1000), 0, "contention: an empty window: 0");
	fa_cont_add(&l, &s, 1000, 5, 100, 100);
	fa_cont_add(&l, &s, 1000, 5, 900, 100);
	is_dbl(s.ns, 0, "contention: window 0 open: nothing yet");
	fa_cont_add(&l, &s, 1000, 5, 1500, 100);
	is_dbl(s.ns, 225, "contention: window 0 closed by window 1: 225 ns");
	fa_cont_close(&l, &s, 1000, 5);
	is_dbl(s.ns, 325, "contention: window 1 closed: 325 ns");
	is_dbl(s.scaled_ns, 6250, "contention: scaled by 5: 5500 + 750 ns");
	fa_cont_close(&l, &s, 1000, 5);
	is_dbl(s.ns, 325, "contention: closing a closed line adds nothing");
}

int main(void)
{
	test_cont();
	test_global_node();
	test_cache();
	test_unplaced();
	test_place();
	test_parse();
	test_doms();
	return tap_done();
}
