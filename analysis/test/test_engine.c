// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the statistics engine on synthetic record sequences.
 * Every expected figure is worked out by hand in the comment above it.
 */
#include <stdlib.h>
#include <string.h>

#include "fa_engine.h"
#include "fa_read.h"
#include "records.h"
#include "tap.h"

#define TG_A	17ull
#define TG_B	(5ull | FL_TG_AUTOGROUP_FLAG)

/* ---- record builders ------------------------------------------------ */

/* A write whose figures do not matter, only who wrote when. */
static struct fa_event wr(u64 ts, s32 cpu, u64 tg)
{
	return upd(ts, cpu, tg, cpu, 10, 0, true, 10, FL_TG_FORCE, 0);
}

/* A cpu_topology record: each CPU its own LLC. */
static struct fa_event topo(u64 ts, s32 cpu, s32 node)
{
	return topology(ts, cpu, node, cpu);
}

static struct fa_event sw(u64 ts, s32 cpu, u8 kind, u8 oldp, u32 olda,
			  u8 newp, u32 newa)
{
	struct fa_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cpu = cpu;
	ev.type = FA_EV_POLICY_SWITCH;
	ev.u.policy_switch.kind = kind;
	ev.u.policy_switch.old_policy = oldp;
	ev.u.policy_switch.old_arg = olda;
	ev.u.policy_switch.new_policy = newp;
	ev.u.policy_switch.new_arg = newa;
	return ev;
}

static struct fa_event info(u64 ts, u64 tg, const char *name)
{
	struct fa_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.type = FA_EV_TG_INFO;
	ev.u.tg_info.tg = tg;
	ev.u.tg_info.level = 1;
	snprintf(ev.u.tg_info.name, sizeof(ev.u.tg_info.name), "%s", name);
	return ev;
}

static struct fa_event pick(u64 ts, s32 cpu, u8 policy, s32 idlest_cpu,
			    u32 idle_a, u64 util_a, u32 idle_b, u64 util_b,
			    bool picked)
{
	struct fa_event ev;
	struct fa_pick_idlest *p = &ev.u.pick_idlest;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cpu = cpu;
	ev.type = FA_EV_PICK_IDLEST;
	p->idlest_cpu = idlest_cpu;
	p->group_cpu = 2;
	p->idlest.group_type = FL_GROUP_HAS_SPARE;
	p->idlest.idle_cpus = idle_a;
	p->idlest.group_util = util_a;
	p->group.group_type = FL_GROUP_HAS_SPARE;
	p->group.idle_cpus = idle_b;
	p->group.group_util = util_b;
	p->policy = policy;
	p->picked = picked;
	return ev;
}

static struct fa_event audit(u64 ts, u64 tg, s64 tg_load_avg, s64 sum_contrib,
			     u64 sum_load)
{
	struct fa_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.type = FA_EV_TG_AUDIT;
	ev.u.tg_audit.seq = 1;
	ev.u.tg_audit.tg = tg;
	ev.u.tg_audit.tg_load_avg = tg_load_avg;
	ev.u.tg_audit.sum_contrib = sum_contrib;
	ev.u.tg_audit.sum_load = sum_load;
	return ev;
}

/* An audit record at @ts of a snapshot taken at @snap (0: no snap_ns). */
static struct fa_event audit_at(u64 ts, u64 snap, u64 seq, u64 tg, s64 tla)
{
	struct fa_event ev = audit(ts, tg, tla, tla, (u64)tla);

	ev.u.tg_audit.seq = seq;
	ev.u.tg_audit.snap_ns = snap;
	ev.u.tg_audit.has_snap = snap != 0;
	return ev;
}

/* ---- running the engine and keeping what it reports ------------------ */

#define MAX_SEGS 8

struct run {
	struct fa_engine *e;
	u32 nseg;
	struct fa_segment seg[MAX_SEGS];	/* deep copies */
	u32 nbins;
	struct fa_bin bins[64];
	u32 nwin;
	struct fa_audit_window win[8];
};

static void copy_segment(struct fa_segment *dst, const struct fa_segment *src)
{
	*dst = *src;
	dst->tgs = malloc(src->nr_tgs * sizeof(*src->tgs) + 1);
	dst->cpus = malloc(src->nr_cpus * sizeof(*src->cpus) + 1);
	if (src->nr_tgs)
		memcpy(dst->tgs, src->tgs, src->nr_tgs * sizeof(*src->tgs));
	if (src->nr_cpus)
		memcpy(dst->cpus, src->cpus, src->nr_cpus * sizeof(*src->cpus));
}

static void on_segment(const struct fa_segment *s, void *arg)
{
	struct run *r = arg;

	if (r->nseg < MAX_SEGS)
		copy_segment(&r->seg[r->nseg], s);
	r->nseg++;
}

static void on_bin(const struct fa_bin *b, void *arg)
{
	struct run *r = arg;

	if (r->nbins < 64)
		r->bins[r->nbins] = *b;
	r->nbins++;
}

static void on_audit_window(const struct fa_audit_window *w, void *arg)
{
	struct run *r = arg;

	if (r->nwin < 8)
		r->win[r->nwin] = *w;
	r->nwin++;
}

static void run_start(struct run *r, u64 bin_ns)
{
	struct fa_engine_cfg cfg = {
		.on_segment = on_segment, .on_bin = on_bin,
		.on_audit_window = on_audit_window,
		.bin_ns = bin_ns, .arg = r,
	};

	memset(r, 0, sizeof(*r));
	r->e = fa_engine_new(&cfg);
}

static void feed(struct run *r, const struct fa_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fa_engine_feed(r->e, &ev[i]))
			ok(0, "feed record %zu", i);
}

static void run_end(struct run *r)
{
	u32 i;

	for (i = 0; i < r->nseg && i < MAX_SEGS; i++) {
		free(r->seg[i].tgs);
		free(r->seg[i].cpus);
	}
	fa_engine_free(r->e);
}

/* Dense index of a task group in the engine (groups are numbered as seen). */
static u32 tg_index(const struct run *r, u64 id)
{
	u32 i;

	for (i = 0; fa_engine_tg(r->e, i); i++)
		if (fa_engine_tg(r->e, i)->id == id)
			return i;
	return ~0u;
}

/* ---- tests ------------------------------------------------------------ */

/*
 * Writes to A: cpu0@100, cpu0@200, cpu1@300, skip cpu1@400, cpu0@500,
 * cpu2@600.  Writer switches: 0->1 @300, 1->0 @500, 0->2 @600 = 3.
 * Nodes: cpu0,cpu1 on 0, cpu2 on 1: only 0->2 crosses nodes.
 * B writes on cpu1@250 and cpu3@350 in between: B's own switch 1->3
 * (cpu3 has no node: unknown), and B does not make A's 300 write local.
 */
static void test_writer_switches(void)
{
	struct run r;
	struct fa_event ev[] = {
		topo(10, 0, 0), topo(10, 1, 0), topo(10, 2, 1),
		wr(100, 0, TG_A), wr(200, 0, TG_A), wr(250, 1, TG_B),
		wr(300, 1, TG_A), wr(350, 3, TG_B),
		upd(400, 1, TG_A, 1, 10, 10, false, 10, FL_TG_FORCE, 0),
		wr(500, 0, TG_A), wr(600, 2, TG_A),
	};
	const struct fa_segment *s;
	u32 a, b;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	is_u64(r.nseg, 1, "switches: one segment");
	s = &r.seg[0];
	a = tg_index(&r, TG_A);
	b = tg_index(&r, TG_B);
	is_u64(s->tgs[a].attempts, 6, "switches: A attempts");
	is_u64(s->tgs[a].writes, 5, "switches: A writes");
	is_u64(s->tgs[a].switches, 3, "switches: A writer switches");
	is_u64(s->tgs[a].xnode, 1, "switches: A cross-node switches");
	is_u64(s->tgs[a].xnode_unknown, 0, "switches: A all nodes known");
	is_u64(s->tgs[b].switches, 1, "switches: B writer switches");
	is_u64(s->tgs[b].xnode_unknown, 1, "switches: B switch to a CPU without node");
	is_u64(s->switches, 4, "switches: segment total");
	is_u64(s->xnode, 1, "switches: segment cross-node");
	is_u64(s->cpus[0].switches_in, 1, "switches: cpu0 took the line once");
	is_u64(s->cpus[1].switches_in, 1, "switches: cpu1 took the line once");
	is_u64(s->cpus[2].switches_in, 1, "switches: cpu2 took the line once");
	is_u64(s->cpus[2].xnode_in, 1, "switches: cpu2 took it across nodes");
	is_u64(s->cpus[3].switches_in, 1, "switches: cpu3 took B's line");
	is_u64(s->cpus[3].xnode_unknown_in, 1, "switches: cpu3's node unknown");
	is_u64(s->cpus[2].xnode_unknown_in, 0, "switches: cpu2's switch-in placed");
	is_u64(s->cpus[1].attempts, 3, "switches: cpu1 attempts (A 300, A 400, B 250)");
	is_u64(s->cpus[1].writes, 2, "switches: cpu1 writes");
	/* Rates: 8 attempts over 10..600 ns = 590 ns. */
	is_dbl(fa_segment_rate(s, s->attempts), 8 / 590e-9,
	       "switches: attempts per second of trace time");
	run_end(&r);
}

/*
 * Records before the describe: A writes on cpu0@100, cpu2@200, cpu3@300
 * (switches 0->2 and 2->3, nodes unknown then), then cpu_topology places
 * cpu0,1 on node 0 and cpu2,3 on node 1 @400, then cpu1@500 (3->1, known
 * at once).  0->2 and 3->1 cross nodes, 2->3 does not: 3 switches, 2
 * cross-node, none left unknown.  cpu4 (no topology) stays unknown: B's
 * 1->4 @600.
 */
static void test_switches_before_topology(void)
{
	struct run r;
	struct fa_event ev[] = {
		wr(100, 0, TG_A), wr(200, 2, TG_A), wr(300, 3, TG_A),
		topo(400, 0, 0), topo(400, 1, 0), topo(400, 2, 1), topo(400, 3, 1),
		wr(500, 1, TG_A), wr(550, 1, TG_B), wr(600, 4, TG_B),
	};
	const struct fa_segment *s;
	u32 a, b;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	s = &r.seg[0];
	a = tg_index(&r, TG_A);
	b = tg_index(&r, TG_B);
	is_u64(s->tgs[a].switches, 3, "late topology: A writer switches");
	is_u64(s->tgs[a].xnode, 2, "late topology: A's 0->2 and 3->1 cross nodes");
	is_u64(s->tgs[a].xnode_unknown, 0, "late topology: A's early switches placed");
	is_u64(s->cpus[2].xnode_in, 1, "late topology: cpu2 took A's line across nodes");
	is_u64(s->cpus[3].xnode_in, 0, "late topology: cpu3 took it within node 1");
	is_u64(s->cpus[3].xnode_unknown_in, 0, "late topology: cpu3's switch-in placed");
	is_u64(s->tgs[b].xnode_unknown, 1, "late topology: B's switch to cpu4 stays unknown");
	is_u64(s->xnode, 2, "late topology: segment cross-node");
	is_u64(s->xnode_unknown, 1, "late topology: segment unknown (cpu4 only)");
	run_end(&r);
}

/*
 * Group A, cfs_rqs on cpu0 and cpu1, policy fixed:55.
 *   t=1000 cpu0 load 100 contrib 0   written  -> term 0,   E = 0,   sum(load) 100
 *   t=2000 cpu1 load 50  contrib 0   skipped  -> term -50, E = -50, sum(load) 150
 *   t=5000 cpu0 load 120 contrib 100 skipped  -> term -20, E = -70, sum(load) 170
 *   t=6000 cpu1 load 60  contrib 0   written  -> term 0,   E = -20, sum(load) 180
 *   t=10000 end (a tg_info record).
 * Spans of |E|: 0 x1000, 50 x3000, 70 x1000, 20 x4000 = 9000 ns,
 * integral 300000, mean 33.33; max 70; time-weighted p99 = 70
 * (0.99 * 9000 = 8910 > 8000 = time at or below 50).
 * Relative: 0, 1/3, 70/170, 20/180, mean (1000 + 1000*70/170 +
 * 4000*20/180) / 9000, max 70/170.
 * fixed:55 publishes |delta| > 55: 100 yes, 50 no, 20 no, 60 yes, as
 * recorded, so the replay agrees everywhere.
 */
static void error_events(struct fa_event *ev)
{
	ev[0] = upd(1000, 0, TG_A, 0, 100, 0, true, 100, FL_TG_FIXED, 55);
	ev[1] = upd(2000, 1, TG_A, 1, 50, 0, false, 100, FL_TG_FIXED, 55);
	ev[2] = upd(5000, 0, TG_A, 0, 120, 100, false, 100, FL_TG_FIXED, 55);
	ev[3] = upd(6000, 1, TG_A, 1, 60, 0, true, 160, FL_TG_FIXED, 55);
	ev[4] = info(10000, TG_A, "bench");
}

static void test_error(void)
{
	struct fa_event ev[5];
	const struct fa_tg_seg *t;
	const struct fa_segment *s;
	struct run r;
	u64 oct[FA_HIST_OCTAVES];
	double mean_rel = (1000.0 + 1000.0 * 70 / 170 + 4000.0 * 20 / 180) / 9000;
	u64 p50;

	error_events(ev);
	run_start(&r, 0);
	feed(&r, ev, 5);
	fa_engine_finish(r.e);
	s = &r.seg[0];
	t = &s->tgs[tg_index(&r, TG_A)];
	is_u64(t->err.time_ns, 9000, "error: observed time");
	is_dbl(t->err.abs_time, 300000, "error: integral of |E|");
	is_dbl(fa_err_mean_abs(&t->err), 300000.0 / 9000, "error: time-weighted mean |E|");
	is_u64(t->err.max_abs, 70, "error: max |E|");
	is_u64(fa_err_p_abs(&t->err, 0.99), 70, "error: time-weighted p99 |E|");
	p50 = fa_err_p_abs(&t->err, 0.50);
	ok(p50 >= 20 && p50 <= 22, "error: p50 within one bucket (12.5%%) above 20");
	if (p50 < 20 || p50 > 22)
		printf("#   p50 = %llu\n", (unsigned long long)p50);
	is_dbl(t->err.max_rel, 70.0 / 170, "error: max relative");
	is_dbl(fa_err_mean_rel(&t->err), mean_rel, "error: time-weighted mean relative");
	is_s64(t->gap, 0, "error: tg_load_avg == sum(contrib) at the end");
	is_u64(s->replay_mismatch, 0, "error: policy.c agrees with every recorded decision");
	is_u64(s->contrib_jumps, 0, "error: no record missed");
	fa_hist_octaves(&t->err.abs, oct);
	is_u64(oct[0], 1000, "error: log2 histogram, |E| = 0");
	is_u64(oct[5], 4000, "error: log2 histogram, [16,32)");
	is_u64(oct[6], 3000, "error: log2 histogram, [32,64)");
	is_u64(oct[7], 1000, "error: log2 histogram, [64,128)");
	is_u64(s->err.time_ns, 9000, "error: segment aggregate = the only group");
	ok(!strcmp(fa_engine_tg(r.e, tg_index(&r, TG_A))->name, "bench"),
	   "error: group named from tg_info");
	run_end(&r);
}

/*
 * The same records with a policy switch fixed:55 -> fixed:59 on cpu3 at
 * t=4000 (records after it carry fixed:59; 59 keeps the replay exact),
 * and a no-op switch (at load, old == new) at t=500 that must not split.
 *   segment 0 [1000,4000]: |E| 0 x1000, 50 x2000: time 3000, integral 100000
 *   segment 1 [4000,10000]: 50 x1000, 70 x1000, 20 x4000: 6000, 200000
 * The whole trace adds up to the unsplit figures.
 */
static void test_segments(void)
{
	struct fa_event ev[8];
	const struct fa_segment *tot;
	struct run r;
	u32 a;
	char buf[32];

	ev[0] = sw(500, 0, FL_KIND_TG, FL_TG_FIXED, 55, FL_TG_FIXED, 55);
	error_events(ev + 1);
	ev[6] = ev[5];						/* tg_info @10000 */
	ev[5] = upd(6000, 1, TG_A, 1, 60, 0, true, 160, FL_TG_FIXED, 59);
	ev[4] = upd(5000, 0, TG_A, 0, 120, 100, false, 100, FL_TG_FIXED, 59);
	ev[3] = sw(4000, 3, FL_KIND_TG, FL_TG_FIXED, 55, FL_TG_FIXED, 59);
	ev[7] = sw(10000, 2, FL_KIND_IDLEST, FL_IDLEST_STOCK, 0,
		   FL_IDLEST_STOCK, 0);
	run_start(&r, 0);
	feed(&r, ev, 8);
	fa_engine_finish(r.e);
	a = tg_index(&r, TG_A);
	is_u64(r.nseg, 2, "segments: split at the switch only");
	if (r.nseg != 2) {
		run_end(&r);
		return;
	}
	is_u64(r.seg[0].t_start, 500, "segments: first starts at the first record");
	is_u64(r.seg[0].t_end, 4000, "segments: first ends at the switch");
	is_u64(r.seg[1].t_start, 4000, "segments: second starts at the switch");
	is_u64(r.seg[1].t_end, 10000, "segments: second ends at the last record");
	ok(!strcmp(fa_tg_policy_label(&r.seg[0].tg_policy, buf, sizeof(buf)), "fixed:55"),
	   "segments: first labelled fixed:55");
	ok(!strcmp(fa_tg_policy_label(&r.seg[1].tg_policy, buf, sizeof(buf)), "fixed:59"),
	   "segments: second labelled fixed:59");
	is_u64(r.seg[0].tgs[a].attempts, 2, "segments: attempts before");
	is_u64(r.seg[1].tgs[a].attempts, 2, "segments: attempts after");
	is_u64(r.seg[0].tgs[a].err.time_ns, 3000, "segments: error time before");
	is_dbl(r.seg[0].tgs[a].err.abs_time, 100000, "segments: error integral before");
	is_u64(r.seg[1].tgs[a].err.time_ns, 6000, "segments: error time after");
	is_dbl(r.seg[1].tgs[a].err.abs_time, 200000, "segments: error integral after");
	is_u64(r.seg[1].tgs[a].err.max_abs, 70, "segments: max after");
	is_u64(r.seg[0].tgs[a].err.max_abs, 50, "segments: max before");
	is_u64(r.seg[1].foreign_policy, 0, "segments: records match their segment");
	is_u64(r.seg[0].replay_mismatch + r.seg[1].replay_mismatch, 0,
	       "segments: replay agrees");
	tot = fa_engine_total(r.e);
	is_u64(tot->attempts, 4, "segments: total attempts");
	is_u64(tot->err.time_ns, 9000, "segments: total error time");
	is_dbl(tot->err.abs_time, 300000, "segments: total error integral");
	ok(tot->tg_policy_mixed && !tot->tg_policy_known,
	   "segments: whole trace has mixed policies");
	run_end(&r);
}

/*
 * A switch before any tg_update or pick_idlest only relabels; so does a
 * second one; an idlest switch with records splits.
 */
static void test_segment_relabel(void)
{
	struct fa_event ev[] = {
		sw(100, 0, FL_KIND_TG, FL_TG_STOCK, 0, FL_TG_NONZERO, 0),
		sw(200, 0, FL_KIND_TG, FL_TG_NONZERO, 0, FL_TG_FORCE, 0),
		wr(300, 0, TG_A),
		sw(400, 1, FL_KIND_IDLEST, FL_IDLEST_STOCK, 0, FL_IDLEST_NR_RUNNING, 0),
		wr(500, 1, TG_A),
	};
	struct run r;
	char buf[32];

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	is_u64(r.nseg, 2, "relabel: empty leading segments are not reported");
	if (r.nseg == 2) {
		ok(r.seg[0].tg_policy.id == FL_TG_FORCE, "relabel: last label wins");
		ok(!strcmp(fa_idlest_policy_label(r.seg[1].idlest_policy, buf, sizeof(buf)),
			   "nr_running"), "relabel: idlest switch splits and labels");
		ok(r.seg[1].tg_policy.id == FL_TG_FORCE, "relabel: tg label carries over");
		is_u64(r.seg[1].switches, 1, "relabel: last writer carries over segments");
	}
	run_end(&r);
}

/*
 * Three writes to A at one timestamp from cpu2, cpu0, cpu1 in every
 * order, then cpu2 at t=200.  Ties go by CPU: 0, 1, 2, so 0->1 and 1->2
 * switch, and the last writer is cpu2: the t=200 write is local.  Two
 * switches whatever the arrival order.
 */
static void test_equal_timestamps(void)
{
	static const int perm[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
		{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	struct fa_event ties[3] = { wr(100, 2, TG_A), wr(100, 0, TG_A), wr(100, 1, TG_A) };
	struct fa_event ev[4];
	struct run r;
	int p, i;

	for (p = 0; p < 6; p++) {
		for (i = 0; i < 3; i++)
			ev[i] = ties[perm[p][i]];
		ev[3] = wr(200, 2, TG_A);
		run_start(&r, 0);
		feed(&r, ev, 4);
		fa_engine_finish(r.e);
		is_u64(r.seg[0].switches, 2, "ties: order %d%d%d gives 2 switches",
		       perm[p][0], perm[p][1], perm[p][2]);
		run_end(&r);
	}
}

/*
 * A record older than one already processed (cpu0 @200 after cpu1 @300)
 * is counted late and happens at 300, where, as a tie on cpu0, it goes
 * before cpu1's record.  A's error spans exactly first-to-last record
 * (100..400 = 300 ns), never a negative time.
 *   @100 cpu0 load 10 contrib 0 skipped: E = -10
 *   @200 -> @300 cpu0 load 30 contrib 0 skipped: E = -30 (|E| 10 for 200 ns)
 *   @300 cpu1 load 5 contrib 0 skipped:  E = -35 (0 ns at 30)
 *   @400 end: |E| 35 for 100 ns.  Integral 2000 + 3500 = 5500.
 */
static void test_late_records(void)
{
	struct fa_event ev[] = {
		upd(100, 0, TG_A, 0, 10, 0, false, 0, FL_TG_FIXED, 100),
		upd(300, 1, TG_A, 1, 5, 0, false, 0, FL_TG_FIXED, 100),
		upd(200, 0, TG_A, 0, 30, 0, false, 0, FL_TG_FIXED, 100),
		info(400, TG_B, "other"),
	};
	struct run r;
	u32 a;

	run_start(&r, 0);
	feed(&r, ev, 4);
	fa_engine_finish(r.e);
	a = tg_index(&r, TG_A);
	is_u64(r.seg[0].late, 1, "late: one record counted late");
	is_u64(r.seg[0].tgs[a].err.time_ns, 300, "late: time spans first to last record");
	is_dbl(r.seg[0].tgs[a].err.abs_time, 5500, "late: integral with the late record at 300");
	is_u64(r.seg[0].tgs[a].err.max_abs, 35, "late: max includes the late record");
	run_end(&r);
}

/*
 * pick_idlest, all has_spare:
 *   stock, idle 2 vs 3 -> candidate has more idle CPUs: picked (recorded 1)
 *   stock, idle 2 vs 2, util 10 vs 5 -> lower util wins: picked, but the
 *     record says 0: one mismatch
 *   idle_cpus, tie -> the first stays: not picked (recorded 0)
 *   stock, no idlest yet (idlest_cpu -1) -> picked (recorded 1)
 */
static void test_pick_idlest(void)
{
	struct fa_event ev[] = {
		pick(100, 0, FL_IDLEST_STOCK, 0, 2, 0, 3, 0, true),
		pick(200, 0, FL_IDLEST_STOCK, 0, 2, 10, 2, 5, false),
		pick(300, 1, FL_IDLEST_IDLE_CPUS, 0, 2, 10, 2, 5, false),
		pick(400, 1, FL_IDLEST_STOCK, -1, 0, 0, 1, 0, true),
	};
	struct run r;
	const struct fa_segment *s;

	run_start(&r, 0);
	feed(&r, ev, 4);
	fa_engine_finish(r.e);
	s = &r.seg[0];
	is_u64(s->idlest[FL_IDLEST_STOCK].decisions, 3, "idlest: stock decisions");
	is_u64(s->idlest[FL_IDLEST_STOCK].picked, 2, "idlest: stock picked");
	is_u64(s->idlest[FL_IDLEST_STOCK].mismatch, 1, "idlest: stock replay mismatch");
	is_u64(s->idlest[FL_IDLEST_IDLE_CPUS].decisions, 1, "idlest: idle_cpus decisions");
	is_u64(s->idlest[FL_IDLEST_IDLE_CPUS].picked, 0, "idlest: idle_cpus kept the first");
	is_u64(s->idlest[FL_IDLEST_IDLE_CPUS].mismatch, 0, "idlest: idle_cpus agrees");
	is_u64(s->cpus[1].idlest, 2, "idlest: per-CPU decisions");
	ok(s->idlest_policy_known && s->idlest_policy == FL_IDLEST_STOCK,
	   "idlest: segment labelled by the first record");
	run_end(&r);
}

/*
 * Consistency checks: a record whose contrib (before) is not what the
 * previous record of that cfs_rq left means records were missed; a
 * written=0 record that stock would publish is a replay mismatch; the
 * audit compares tg->load_avg with sum(contrib) and our E with the exact
 * one; a record on a CPU out of range is counted and ignored.
 *   cpu0: load 100 written (contrib 100), then contrib 90 recorded: a jump.
 *   second record: load 120 contrib 90 -> delta 30 > 90/64, stock would
 *   publish, recorded skipped: mismatch.  E = 90 - 120 = -30.
 *   audit 1: tg_load_avg 100, sum_contrib 100, sum_load 120: exact E -20,
 *   ours -30: tracking difference 10.  audit 2: 100 vs 90: a violation.
 */
static void test_consistency(void)
{
	struct fa_event ev[] = {
		upd(100, 0, TG_A, 0, 100, 0, true, 100, FL_TG_STOCK, 0),
		upd(200, 0, TG_A, 0, 120, 90, false, 100, FL_TG_STOCK, 0),
		audit(300, TG_A, 100, 100, 120),
		audit(300, TG_A, 100, 90, 120),
		audit(300, TG_B, 5, 5, 5),
		upd(400, -1, TG_A, 0, 1, 1, false, 0, FL_TG_STOCK, 0),
		upd(400, 0, TG_A, FA_MAX_CPUS, 1, 1, false, 0, FL_TG_STOCK, 0),
	};
	struct run r;
	const struct fa_segment *s;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	s = &r.seg[0];
	is_u64(s->contrib_jumps, 1, "consistency: missed record detected");
	is_u64(s->replay_mismatch, 1, "consistency: replay mismatch detected");
	is_u64(s->audits, 3, "consistency: audits");
	is_u64(s->audit_violations, 1, "consistency: tg->load_avg != sum(contrib)");
	is_u64(s->audit_max_abs_err, 20, "consistency: audited |E|");
	is_u64(s->audit_max_track, 10, "consistency: tracked vs audited E");
	is_u64(s->audit_untracked, 1, "consistency: audit of a group never updated");
	is_u64(s->bad_cpu, 2, "consistency: out-of-range CPUs ignored");
	is_u64(s->attempts, 2, "consistency: ignored records are not attempts");
	run_end(&r);
}

/*
 * Per-site and remote attempts: a blocked-averages update of cpu1's
 * cfs_rq executed on cpu0 is remote; sites are counted per record.
 */
static void test_sites(void)
{
	struct fa_event ev[3];
	struct run r;
	const struct fa_segment *s;

	ev[0] = upd(100, 0, TG_A, 1, 10, 0, true, 10, FL_TG_FORCE, 0);
	ev[0].u.tg_update.site = FL_SITE_BLOCKED_DIRECT;
	ev[1] = upd(200, 0, TG_A, 0, 10, 0, true, 20, FL_TG_FORCE, 0);
	ev[1].u.tg_update.site = FL_SITE_ATTACH_DIRECT;
	ev[2] = upd(300, 0, TG_A, 0, 10, 10, false, 20, FL_TG_NONZERO, 0);
	ev[2].u.tg_update.site = 200;	/* unknown site */
	run_start(&r, 0);
	feed(&r, ev, 3);
	fa_engine_finish(r.e);
	s = &r.seg[0];
	is_u64(s->sites[FL_SITE_BLOCKED_DIRECT].writes, 1, "sites: blocked_averages write");
	is_u64(s->sites[FL_SITE_ATTACH_DIRECT].attempts, 1, "sites: attach attempt");
	is_u64(s->sites[FL_NR_SITES].attempts, 1, "sites: unknown site counted apart");
	is_u64(s->cpus[0].remote, 1, "sites: remote attempt");
	is_u64(s->policy_attempts[FL_TG_FORCE], 2, "sites: attempts per policy");
	is_u64(s->foreign_policy, 1, "sites: record under another policy");
	run_end(&r);
}

/*
 * Time bins of 1000 ns over the error sequence: 9 bins from 1000 to
 * 10000; Σ|E| per bin: 0, 50, 50, 50, 70, 20, 20, 20, 20; one attempt
 * in bins 0, 1, 4 and 5, writes in bins 0 and 5.
 */
static void test_bins(void)
{
	static const double want[9] = { 0, 50, 50, 50, 70, 20, 20, 20, 20 };
	struct fa_event ev[5];
	struct run r;
	u32 i;
	int good = 1;

	error_events(ev);
	run_start(&r, 1000);
	feed(&r, ev, 5);
	fa_engine_finish(r.e);
	is_u64(r.nbins, 9, "bins: count");
	for (i = 0; i < 9 && i < r.nbins; i++) {
		if (r.bins[i].err_sum != want[i] ||
		    r.bins[i].t_start != 1000 + 1000 * (u64)i)
			good = 0;
	}
	ok(good, "bins: time-weighted sum of |E| per bin");
	is_u64(r.bins[4].attempts, 1, "bins: attempts in bin 4");
	is_u64(r.bins[5].writes, 1, "bins: writes in bin 5");
	is_dbl(r.bins[4].err_rel, 70.0 / 170, "bins: relative error");
	run_end(&r);
}

/* A long silence does not emit one bin per empty interval. */
static void test_bins_gap(void)
{
	struct fa_event ev[] = { wr(0, 0, TG_A), wr(1ull << 60, 0, TG_A) };
	struct run r;

	run_start(&r, 1);
	feed(&r, ev, 2);
	fa_engine_finish(r.e);
	ok(r.nbins < 100010, "bins: a 2^60 ns gap emits %u bins, bounded", r.nbins);
	run_end(&r);
}

/*
 * Audit windows of group A, all writes by policy force (delta = load -
 * contrib, added to tg->load_avg):
 *   100 cpu0 0 -> 10: +10 (tla 10)     200 cpu1 0 -> 5: +5 (tla 15)
 *   audit 1: snapshot at 250, tla 15; its record at 400
 *   300 cpu0 10 -> 14: +4 (tla 19)     -- between snapshot and record
 *   500 cpu1 5 -> 2: -3 (tla 16)       550 cpu0 skipped (+1, not written)
 *   audit 2: snapshot at 600, tla 16; its record at 700
 * By snap_ns: window (250, 600]: writes +4 and -3 = +1 = 16 - 15: equal.
 * By record time: window (400, 700]: only -3, against 16 - 15 = +1: the
 * +4 at 300 falls before the first audit, a mismatch.
 */
static void audit_window_run(struct run *r, bool snap)
{
	struct fa_event ev[] = {
		upd(100, 0, TG_A, 0, 10, 0, true, 10, FL_TG_FORCE, 0),
		upd(200, 1, TG_A, 1, 5, 0, true, 15, FL_TG_FORCE, 0),
		upd(300, 0, TG_A, 0, 14, 10, true, 19, FL_TG_FORCE, 0),
		audit_at(400, snap ? 250 : 0, 1, TG_A, 15),
		upd(500, 1, TG_A, 1, 2, 5, true, 16, FL_TG_FORCE, 0),
		upd(550, 0, TG_A, 0, 15, 14, false, 16, FL_TG_NONZERO, 0),
		audit_at(700, snap ? 600 : 0, 2, TG_A, 16),
	};

	run_start(r, 0);
	feed(r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r->e);
}

static void test_audit_windows(void)
{
	const struct fa_segment *t;
	struct run r;

	audit_window_run(&r, true);
	t = fa_engine_total(r.e);
	is_u64(r.nwin, 1, "audit window: one window between two audits");
	is_u64(r.win[0].seq_from, 1, "audit window: from seq 1");
	is_u64(r.win[0].seq_to, 2, "audit window: to seq 2");
	is_u64(r.win[0].t_from, 250, "audit window: first snapshot placed at its snap_ns");
	is_u64(r.win[0].t_to, 600, "audit window: second snapshot at its snap_ns");
	is_s64(r.win[0].tla_to - r.win[0].tla_from, 1, "audit window: delta tg->load_avg 16 - 15");
	is_s64(r.win[0].written, 1, "audit window: written deltas +4 -3 (the write between snapshot and record counted)");
	is_u64(r.win[0].writes, 2, "audit window: two writes (the skipped attempt is none)");
	ok(r.win[0].exact, "audit window: placed exactly");
	is_u64(t->audit_windows, 1, "audit window: counted");
	is_u64(t->audit_window_mismatch, 0, "audit window: delta equals the written deltas");
	is_u64(t->audit_at_record + t->audit_unplaced, 0, "audit window: no approximate placement");
	run_end(&r);

	audit_window_run(&r, false);
	t = fa_engine_total(r.e);
	is_u64(r.nwin, 1, "audit window, no snap_ns: one window");
	is_u64(r.win[0].t_from, 400, "audit window, no snap_ns: placed at the record");
	is_s64(r.win[0].written, -3, "audit window, no snap_ns: only the -3 write after the first record");
	ok(!r.win[0].exact, "audit window, no snap_ns: not exact");
	is_u64(t->audit_window_mismatch, 1, "audit window, no snap_ns: the misplaced write shows as a mismatch");
	is_u64(t->audit_at_record, 2, "audit window, no snap_ns: both audits placed at their records");
	run_end(&r);
}

/*
 * A write missing from the recording: A's tg->load_avg moves by 30 between
 * audits (10 -> 40) but the one traced write adds 20: a mismatch of 10.
 * Group B, audited twice without a write, moves 0 = 0.  A snapshot taken
 * after more than FA_AUDIT_REACH writes of another group (C) cannot be placed
 * back among them: counted, not guessed.
 */
static void test_audit_mismatch(void)
{
	static struct fa_event ev[FA_AUDIT_REACH + 64];
	const struct fa_segment *t;
	struct run r;
	u32 n = 0, k;

	ev[n++] = upd(100, 0, TG_A, 0, 10, 0, true, 10, FL_TG_FORCE, 0);
	ev[n++] = audit_at(200, 150, 1, TG_A, 10);
	ev[n++] = audit_at(200, 150, 1, TG_B, 7);
	ev[n++] = upd(300, 1, TG_A, 1, 20, 0, true, 40, FL_TG_FORCE, 0);
	ev[n++] = audit_at(400, 350, 2, TG_A, 40);
	ev[n++] = audit_at(400, 350, 2, TG_B, 7);
	/* seq 3 of A: snapshot at 450, then FA_AUDIT_REACH + 1 writes of C */
	for (k = 0; k <= FA_AUDIT_REACH; k++)
		ev[n++] = upd(460 + k, 2, 99, 2, k + 1, k, true, k + 1, FL_TG_FORCE, 0);
	ev[n++] = audit_at(460 + FA_AUDIT_REACH + 1, 450, 3, TG_A, 40);
	run_start(&r, 0);
	feed(&r, ev, n);
	fa_engine_finish(r.e);
	t = fa_engine_total(r.e);
	is_u64(r.nwin, 3, "audit mismatch: windows A 1-2, B 1-2, A 2-3");
	is_u64(r.win[0].tg, TG_A, "audit mismatch: first window is A's");
	is_s64(r.win[0].tla_to - r.win[0].tla_from, 30, "audit mismatch: A's tg->load_avg moved 30");
	is_s64(r.win[0].written, 20, "audit mismatch: A's traced writes add 20");
	is_s64(r.win[1].written, 0, "audit mismatch: B: no write, no move");
	is_u64(t->audit_windows, 3, "audit mismatch: three windows");
	is_u64(t->audit_window_mismatch, 1, "audit mismatch: A's first window only");
	ok(!r.win[0].unpatch, "audit mismatch: no unpatch, a mismatch");
	is_u64(t->audit_unplaced, 1, "audit mismatch: the snapshot behind the write log's reach");
	ok(!r.win[2].exact, "audit mismatch: that window is not exact");
	is_u64(t->audit_untracked, 2, "audit mismatch: B, never updated, audited twice");
	run_end(&r);
}

/*
 * Unpatching (fa_engine.h): contrib jumps and audit windows that do not
 * add up are counted apart from the time fairlab.ko records that the
 * patch begins unpatching until it is live again.  Group A under force:
 *   300: cfs_rq 0 contrib 11 recorded after 10 written: a jump (missed);
 *   400: unpatch record;
 *   500: contrib 15 after 12 written: the kernel's own publish (unpatch);
 *   audits at 150 (10) and 550 (20): tg->load_avg moved 10, the traced
 *   writes +1 (300) and +5 (500) add 6: a window after the unpatch;
 *   700: tg policy_switch force -> force (the patch live again);
 *   800: contrib 25 after 20 written: a jump (missed) again.
 * No segment closes.
 */
static void test_unpatch(void)
{
	const struct fa_event ev[] = {
		sw(50, 0, FL_KIND_TG, FL_TG_FORCE, 0, FL_TG_FORCE, 0),
		upd(100, 0, TG_A, 0, 10, 0, true, 0, FL_TG_FORCE, 0),
		audit_at(200, 150, 1, TG_A, 10),
		upd(300, 0, TG_A, 0, 12, 11, true, 11, FL_TG_FORCE, 0),
		sw(400, 0, FL_KIND_UNPATCH, FL_TG_FORCE, 0, FL_TG_STOCK, 0),
		upd(500, 0, TG_A, 0, 20, 15, true, 15, FL_TG_FORCE, 0),
		audit_at(600, 550, 2, TG_A, 20),
		sw(700, 0, FL_KIND_TG, FL_TG_FORCE, 0, FL_TG_FORCE, 0),
		upd(800, 0, TG_A, 0, 30, 25, true, 25, FL_TG_FORCE, 0),
	};
	const struct fa_segment *t;
	struct run r;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	t = fa_engine_total(r.e);
	is_u64(r.nseg, 1, "unpatch: closes no segment");
	is_u64(t->unpatches, 1, "unpatch: one unpatch record");
	is_u64(t->contrib_jumps, 2, "unpatch: the jumps before it and after the patch is live again are missed records");
	is_u64(t->tgs[0].contrib_jumps, 2, "unpatch: ... in the group's count too");
	is_u64(t->unpatch_jumps, 1, "unpatch: the jump after it is the kernel's own publish");
	is_u64(t->audit_windows, 1, "unpatch: one audit window");
	is_s64(r.win[0].tla_to - r.win[0].tla_from, 10, "unpatch: tg->load_avg moved 10");
	is_s64(r.win[0].written, 6, "unpatch: the traced writes add 6");
	ok(r.win[0].unpatch, "unpatch: the window is marked");
	is_u64(t->audit_window_unpatch, 1, "unpatch: the window ending after it is counted apart");
	is_u64(t->audit_window_mismatch, 0, "unpatch: ... not as writes missing");
	run_end(&r);
}

/*
 * calc_group_shares() by hand: tg_weight = tla - contrib + load,
 * shares = tg_shares * load / tg_weight clamped to [2, tg_shares].
 */
static void test_calc_group_shares(void)
{
	/* 1024 * 100 / (100 - 100 + 100) = 1024 */
	is_s64(fa_calc_group_shares(100, 100, 100, 1024), 1024, "shares: alone in the group: all of tg_shares");
	/* 1024 * 300 / (100 - 0 + 300) = 768 */
	is_s64(fa_calc_group_shares(100, 0, 300, 1024), 768, "shares: 1024 * 300 / 400 = 768");
	/* 1024 * 300 / (400 - 0 + 300) = 307200 / 700 = 438.86 -> 438 */
	is_s64(fa_calc_group_shares(400, 0, 300, 1024), 438, "shares: 307200 / 700 truncates to 438");
	/* cpu.weight 100 (scaled 1048576): 1048576 * 1000 / 3000 = 349525.33 */
	is_s64(fa_calc_group_shares(3000, 1000, 1000, 1048576), 349525, "shares: scaled tg->shares");
	/* tg_weight 0 - 5 + 5 = 0: undivided 1024 * 5, clamped to 1024 */
	is_s64(fa_calc_group_shares(0, 5, 5, 1024), 1024, "shares: tg_weight 0 leaves tg_shares * load, clamped");
	/* load 0: 0, raised to MIN_SHARES */
	is_s64(fa_calc_group_shares(100, 0, 0, 1024), FA_MIN_SHARES, "shares: floor MIN_SHARES = 2");
	/* __clamp() tests tg_shares first: 0 >= 0 gives 0, not MIN_SHARES */
	is_s64(fa_calc_group_shares(100, 0, 0, 0), 0, "shares: clamp_t() as __clamp(): the cap wins over the floor");
}

/*
 * Shares error.  Group A, tg_shares 1024.  Tracked: cfs0 load 100 (written,
 * contrib 100), cfs1 load 300 (not written, contrib 0): sum(load) = 400
 * while the kernel's tg->load_avg is 100.  The ideal of a read of cfs_rq i
 * is 1024 * load / (sum over the OTHER cfs_rqs of their loads + load):
 *   t=2000 read cfs0 (cpu0, nr 1): given 1024*100/(100-100+100) = 1024,
 *          ideal 1024*100/(300+100) = 256: |diff| 768, rel 3.0,
 *          bounded 768/1024 = 0.75
 *   t=3000 read cfs1 (cpu1, nr 1): given 1024*300/(100-0+300) = 768,
 *          ideal 1024*300/(100+300) = 768: no error.  (cfs1's own
 *          unpublished 300 is not the others' staleness: with sum(load) -
 *          contrib + load = 700 the ideal was 438, an error of 330.)
 *   t=4000 read cfs0 (cpu0, nr 2), tla 400: given 256 = ideal: 0
 *   t=5000 read cfs1 (cpu1, nr 3: one read of cpu1 unrecorded), as at 3000
 * Each error holds until the next read of its cfs_rq (or the end, 5000):
 *   cfs0: 0.75 for 2000 ns, 0 for 1000 ns; cfs1: 0 for 2000 ns.
 *   time 5000 ns; bounded mean 0.75 * 2000 / 5000 = 0.3, max 0.75, p50 0
 *   (3000 of 5000 ns at 0), p99 0.75 (the bucket's edge capped at the
 *   max); relative mean 3.0 * 2000 / 5000 = 1.2, max 3.0; log2
 *   histogram of the bounded form in ppm: 0 -> octave 0 (3000), 750000
 *   ppm -> [2^19, 2^20) = octave 20 (2000).
 * Then a read of group B, which no tg_update named (untracked: no error),
 * and one of A whose shares do not follow from its fields (mismatch).
 */
#define NR_SHARES_EV 6
static struct fa_event shares_ev[NR_SHARES_EV];

static void shares_records(void)
{
	shares_ev[0] = upd(1000, 0, TG_A, 0, 100, 0, true, 100, FL_TG_STOCK, 0);
	shares_ev[1] = upd(1000, 1, TG_A, 1, 300, 0, false, 100, FL_TG_STOCK, 0);
	shares_ev[2] = rd(2000, 0, TG_A, 0, 100, 100, 100, 1024, 1024, 1);
	shares_ev[3] = rd(3000, 1, TG_A, 1, 100, 0, 300, 1024, 768, 1);
	shares_ev[4] = rd(4000, 0, TG_A, 0, 400, 100, 100, 1024, 256, 2);
	shares_ev[5] = rd(5000, 1, TG_A, 1, 100, 0, 300, 1024, 768, 3);
}

static void test_shares_error(void)
{
	const struct fa_segment *s;
	const struct fa_tg_seg *t;
	u64 oct[FA_HIST_OCTAVES];
	struct run r;
	struct fa_event more[2];

	shares_records();
	is_s64(fa_ideal_shares(300, 100, 1024), 256, "shares: ideal 1024 * 100 / (300 + 100)");
	is_s64(fa_ideal_shares(0, 0, 1024), FA_MIN_SHARES, "shares: ideal of an idle group alone: MIN_SHARES");
	run_start(&r, 0);
	feed(&r, shares_ev, NR_SHARES_EV);
	fa_engine_finish(r.e);
	s = &r.seg[0];
	t = &s->tgs[tg_index(&r, TG_A)];
	is_u64(s->reads, 4, "shares: 4 reads");
	is_u64(t->reads, 4, "shares: 4 reads of A");
	is_u64(t->reads_tracked, 4, "shares: all 4 with a tracked sum(load)");
	is_u64(s->read_mismatch, 0, "shares: every recorded shares follows from its fields");
	is_u64(s->read_gaps, 1, "shares: cpu1's nr 1 -> 3 is one read not recorded");
	is_u64(t->shares.time_ns, 5000, "shares: cfs_rq-time observed (3000 + 2000 ns)");
	is_u64(t->shares.max_abs, 768, "shares: max |given - ideal|");
	is_dbl(t->shares.max_bnd, 0.75, "shares: max bounded error 768/1024");
	is_dbl(fa_err_mean_bnd(&t->shares), 0.3, "shares: time-weighted mean bounded error");
	is_dbl(fa_err_p_bnd(&t->shares, 0.50), 0.0, "shares: time-weighted p50 (3000 of 5000 ns at 0)");
	is_dbl(fa_err_p_bnd(&t->shares, 0.99), 0.75, "shares: time-weighted p99 (capped at the max)");
	is_dbl(t->shares.max_rel, 3.0, "shares: max relative error 768/256");
	is_dbl(fa_err_mean_rel(&t->shares), 1.2, "shares: time-weighted mean relative error");
	fa_hist_octaves(&t->shares.bnd, oct);
	is_u64(oct[0], 3000, "shares: log2 histogram, error 0");
	is_u64(oct[20], 2000, "shares: log2 histogram, [2^19, 2^20) ppm");
	is_u64(s->shares.time_ns, 5000, "shares: segment aggregate = the only group");
	is_dbl(fa_err_mean_bnd(&s->shares), 0.3, "shares: segment mean = the group's");
	run_end(&r);

	run_start(&r, 0);
	feed(&r, shares_ev, NR_SHARES_EV);
	more[0] = rd(6000, 2, TG_B, 2, 50, 0, 50, 1024, 512, 1);	/* 1024*50/100 */
	more[1] = rd(7000, 0, TG_A, 0, 400, 100, 100, 1024, 999, 3);
	feed(&r, more, 2);
	fa_engine_finish(r.e);
	s = &r.seg[0];
	is_u64(s->read_untracked, 1, "shares: a read of a group no tg_update named is untracked");
	is_u64(s->read_mismatch, 1, "shares: a recorded shares that calc_group_shares() disputes");
	is_u64(s->tgs[tg_index(&r, TG_B)].shares.time_ns, 0, "shares: no error time for the untracked group");
	run_end(&r);
}

/*
 * Records that do not add up: the run above with, on cfs0 at 2500 (cpu0's
 * read nr 2), a read whose shares 38010 do not follow from its fields,
 * and at 2600 (nr 3) one with a negative shares.  Both are left out as if
 * absent: every figure of the shares error is the clean run's, and both
 * are counted.
 */
static void test_shares_bad_records(void)
{
	struct fa_event ev[NR_SHARES_EV + 2];
	const struct fa_tg_seg *clean, *bad;
	struct run a, b;
	u32 i, n = 0;

	for (i = 0; i < NR_SHARES_EV; i++) {
		ev[n++] = shares_ev[i];
		if (shares_ev[i].ts == 2000) {
			ev[n++] = rd(2500, 0, TG_A, 0, 100, 100, 100, 1024, 38010, 2);
			ev[n++] = rd(2600, 0, TG_A, 0, 100, 100, 100, 1024, -5, 3);
		}
	}
	ev[n - 2].u.tg_read.nr = 4;	/* cpu0's read at 4000 */
	run_start(&a, 0);
	feed(&a, shares_ev, NR_SHARES_EV);
	fa_engine_finish(a.e);
	run_start(&b, 0);
	feed(&b, ev, n);
	fa_engine_finish(b.e);
	clean = &a.seg[0].tgs[tg_index(&a, TG_A)];
	bad = &b.seg[0].tgs[tg_index(&b, TG_A)];
	is_u64(b.seg[0].read_mismatch, 2, "bad reads: both counted (read_mismatch)");
	is_u64(b.seg[0].reads, 6, "bad reads: still reads (of the line)");
	is_u64(b.seg[0].read_gaps, 1, "bad reads: nr still followed");
	is_dbl(fa_err_mean_bnd(&bad->shares), fa_err_mean_bnd(&clean->shares),
	       "bad reads: the bounded mean does not move");
	is_dbl(fa_err_mean_rel(&bad->shares), fa_err_mean_rel(&clean->shares),
	       "bad reads: the relative mean does not move");
	is_u64(bad->shares.max_abs, clean->shares.max_abs, "bad reads: the max does not move");
	is_dbl(bad->shares.max_rel, clean->shares.max_rel, "bad reads: the relative max does not move");
	is_u64(bad->shares.time_ns, clean->shares.time_ns, "bad reads: the time observed does not move");
	is_u64(bad->reads_tracked, clean->reads_tracked, "bad reads: not among the tracked reads");
	run_end(&a);
	run_end(&b);
}

/*
 * A read's error ends with its segment.  cfs0's read at 2000 (bounded
 * 0.75, as above), a switch to force at 3000, and in the next segment
 * cfs1's read at 4000 (no error) until the end at 5000.  Segment 0: 0.75
 * held 1000 ns.  Segment 1: only cfs1's 0 for 1000 ns; max 0, mean 0.
 */
static void test_shares_segment_end(void)
{
	struct fa_event ev[] = {
		shares_ev[0], shares_ev[1], shares_ev[2],
		sw(3000, 0, FL_KIND_TG, FL_TG_STOCK, 0, FL_TG_FORCE, 0),
		upd(3500, 1, TG_A, 1, 300, 0, false, 100, FL_TG_FORCE, 0),
		rd(4000, 1, TG_A, 1, 100, 0, 300, 1024, 768, 2),
		rd(5000, 2, TG_A, 2, 100, 0, 0, 1024, 2, 1),
	};
	const struct fa_tg_seg *t0, *t1;
	struct run r;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	is_u64(r.nseg, 2, "segment end: two segments");
	t0 = &r.seg[0].tgs[tg_index(&r, TG_A)];
	t1 = &r.seg[1].tgs[tg_index(&r, TG_A)];
	is_u64(t0->shares.time_ns, 1000, "segment end: segment 0 holds cfs0's read 2000..3000");
	is_dbl(fa_err_mean_bnd(&t0->shares), 0.75, "segment end: segment 0's mean");
	is_u64(t1->shares.time_ns, 1000, "segment end: segment 1 holds only its own read 4000..5000");
	is_dbl(t1->shares.max_bnd, 0.0, "segment end: segment 1's max is its own reads'");
	is_dbl(fa_err_mean_bnd(&t1->shares), 0.0, "segment end: no error carried past the switch");
	ok(fa_err_mean_bnd(&t1->shares) <= t1->shares.max_bnd &&
	   fa_err_p_bnd(&t1->shares, 0.99) <= t1->shares.max_bnd,
	   "segment end: mean <= max, p99 <= max");
	run_end(&r);
}

/*
 * The coherence model fed by the engine: writes are written tg_updates,
 * reads tg_reads, each on its executing CPU.  cpu0 on node 0, cpu1 on
 * node 1 (LLC = CPU).  A: W0 @100 (no holder), R1 @200 (0 modified it:
 * cross-node, by a read), W1 @300 (invalidates 0: cross-node, by a
 * write), an unwritten attempt on cpu0 @400 (no access), R1 @500 (hit).
 * B: W0 @150 alone (no transfer).  Segment: 2 cross-node, 1 by a read;
 * group A 2, group B 0.
 */
static void test_coherence(void)
{
	struct fa_event ev[] = {
		topo(1, 0, 0), topo(1, 1, 1),
		upd(100, 0, TG_A, 0, 10, 0, true, 10, FL_TG_FORCE, 0),
		upd(150, 0, TG_B, 0, 10, 0, true, 10, FL_TG_FORCE, 0),
		rd(200, 1, TG_A, 1, 10, 0, 0, 1024, 2, 1),
		upd(300, 1, TG_A, 1, 5, 0, true, 15, FL_TG_FORCE, 0),
		upd(400, 0, TG_A, 0, 10, 10, false, 15, FL_TG_STOCK, 0),
		rd(500, 1, TG_A, 1, 15, 5, 5, 1024, 341, 2),
	};
	const struct fa_segment *s;
	struct run r;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	s = &r.seg[0];
	is_u64(s->coh[FA_COH_XNODE], 2, "coherence: 2 cross-node transfers");
	is_u64(s->coh[FA_COH_LLC] + s->coh[FA_COH_NODE] + s->coh[FA_COH_UNKNOWN], 0,
	       "coherence: no other transfer");
	is_u64(s->coh_by_read, 1, "coherence: 1 caused by a read");
	is_u64(s->tgs[tg_index(&r, TG_A)].coh_transfers, 2, "coherence: both on A's line");
	is_u64(s->tgs[tg_index(&r, TG_B)].coh_transfers, 0, "coherence: none on B's");
	is_u64(s->read_mismatch, 0, "coherence: the reads' shares follow from their fields");
	run_end(&r);
}

/*
 * Transfers made before cpu_topology places their CPUs are classified
 * when it does, by the mechanism that classifies writer switches.  cpu0,
 * cpu1 on node 0, cpu2, cpu3 on node 1, each its own LLC; cpu4 never
 * placed.  A: W0 @100 (no holder), W2 @200 (invalidates 0: pending),
 * R3 @250 (2 modified it: pending, by a read; S {2,3}), W0 @300
 * (invalidates 2 and 3: pending, two holders), topology @400, W1 @500
 * (invalidates 0: same node, at once).  Once placed: 0->2 cross-node,
 * 2->3 same node (other LLC), {2,3}->0 cross-node, 0->1 same node: 2
 * cross-node, 2 same node, none unknown; writer switches 0->2, 2->0
 * cross-node, 0->1 not.  B: W1 @550, W4 @600 (invalidates 1, 4 not
 * placed: unknown), R0 @650 (4 modified it: unknown; S {4,0}), W1 @700
 * (invalidates 4, never placed, and 0, same node: unknown): 3 unknown,
 * for good, as are B's writer switches 1->4 and 4->1.
 */
static void test_transfers_before_topology(void)
{
	struct fa_event ev[] = {
		wr(100, 0, TG_A), wr(200, 2, TG_A),
		rd(250, 3, TG_A, 3, 10, 0, 0, 1024, 2, 1),
		wr(300, 0, TG_A),
		topo(400, 0, 0), topo(400, 1, 0), topo(400, 2, 1), topo(400, 3, 1),
		wr(500, 1, TG_A),
		wr(550, 1, TG_B), wr(600, 4, TG_B),
		rd(650, 0, TG_B, 0, 10, 0, 0, 1024, 2, 1),
		wr(700, 1, TG_B),
	};
	const struct fa_segment *s;
	struct run r;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	fa_engine_finish(r.e);
	s = &r.seg[0];
	is_u64(s->coh[FA_COH_XNODE], 2, "late topology: 2 cross-node transfers (0->2, {2,3}->0)");
	is_u64(s->coh[FA_COH_NODE], 2, "late topology: 2 same-node transfers (2->3 by a read, 0->1)");
	is_u64(s->coh[FA_COH_LLC], 0, "late topology: none within an LLC");
	is_u64(s->coh[FA_COH_UNKNOWN], 3, "late topology: B's 3 transfers involving cpu4 stay unknown");
	is_u64(s->coh_by_read, 2, "late topology: 2 transfers by reads");
	is_u64(s->tgs[tg_index(&r, TG_A)].coh_transfers, 4, "late topology: A's line 4 transfers");
	is_u64(s->xnode, 2, "late topology: writer switches 0->2, 2->0 cross nodes");
	is_u64(s->xnode_unknown, 2, "late topology: B's 1->4, 4->1 unknown");
	run_end(&r);
}

/*
 * A policy that reads tg->load_avg at its decision (budget) reads the
 * line before it writes; the records do not show it, the policy's
 * definition does.  cpu0 on node 0, cpu1 and cpu2 on node 1, each its own
 * LLC.  A under budget:5: @100 cpu0 R (fill) W (alone: M by 0); @200
 * cpu1 R (0 modified it: cross-node, by a read) W (invalidates 0:
 * cross-node); @300 cpu0 not written: R (1 modified it: cross-node, by a
 * read; S {0,1}); @350 cpu2 not written: R of a line 0 and 1 hold Shared
 * (free under --shared-miss=free); @400 a resync on cpu1 (no decision: no
 * read), written: W (invalidates 0 and 2: cross-node).  4 cross-node, 2
 * by reads (its writes alone: 1).  With --shared-miss=nearest, @350 is a
 * transfer from 1, the nearest (same node): 4 cross-node, 1 same node, 3
 * by reads.
 */
static void test_policy_reads(void)
{
	struct fa_event ev[] = {
		topo(1, 0, 0), topo(1, 1, 1), topo(1, 2, 1),
		upd(100, 0, TG_A, 0, 10, 0, true, 10, FL_TG_BUDGET, 5),
		upd(200, 1, TG_A, 1, 10, 0, true, 20, FL_TG_BUDGET, 5),
		upd(300, 0, TG_A, 0, 11, 10, false, 20, FL_TG_BUDGET, 5),
		upd(350, 2, TG_A, 2, 1, 0, false, 20, FL_TG_BUDGET, 5),
		upd(400, 1, TG_A, 1, 12, 10, true, 22, FL_TG_BUDGET, 5),
	};
	struct fa_engine_cfg cfg = { 0 };
	const struct fa_segment *t;
	struct fa_engine *e;
	int m;

	ev[7].u.tg_update.site = FL_SITE_RESYNC;
	for (m = 0; m < FA_COH_MISS_NR; m++) {
		size_t i;

		cfg.coh_miss = (enum fa_coh_miss)m;
		e = fa_engine_new(&cfg);
		for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
			fa_engine_feed(e, &ev[i]);
		fa_engine_finish(e);
		t = fa_engine_total(e);
		is_u64(t->coh[FA_COH_XNODE], 4, "policy reads (%s): 4 cross-node transfers",
		       fa_coh_miss_names[m]);
		is_u64(t->coh[FA_COH_NODE], m ? 1 : 0, "policy reads (%s): same-node transfers",
		       fa_coh_miss_names[m]);
		is_u64(t->coh_by_read, m ? 3 : 2, "policy reads (%s): by reads",
		       fa_coh_miss_names[m]);
		is_u64(t->coh[FA_COH_LLC] + t->coh[FA_COH_UNKNOWN], 0,
		       "policy reads (%s): no other", fa_coh_miss_names[m]);
		fa_engine_free(e);
	}
}

/*
 * A layout switch (policy_switch kind FL_KIND_LAYOUT, the kernel side's
 * records of split layouts) closes the segment like a policy switch:
 * writes at 1 ms; node:1000 at 2 ms; writes at 3 ms; node:1000 again at
 * 4 ms (no change: no segment); global at 5 ms; a later livepatch's
 * fallback record (kind FL_KIND_FALLBACK, whose fields read as a layout
 * would say node:1000) at 5.5 ms (no layout: no segment); a write at
 * 6 ms; an unknown layout (7) at 7 ms (ignored).  Three segments:
 * global, node:1000, global.
 */
static void test_layout_switch(void)
{
	const struct fa_event ev[] = {
		wr(1000000, 0, 5), sw(2000000, 0, FL_KIND_LAYOUT, 0, 0, 1, 1000),
		wr(3000000, 1, 5), sw(4000000, 0, FL_KIND_LAYOUT, 1, 1000, 1, 1000),
		sw(5000000, 0, FL_KIND_LAYOUT, 1, 1000, 0, 0),
		sw(5500000, 0, FL_KIND_FALLBACK, 0, 0, 1, 1000), wr(6000000, 0, 5),
		sw(7000000, 0, FL_KIND_LAYOUT, 0, 0, 7, 0),
	};
	struct run r;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	if (fa_engine_finish(r.e))
		ok(0, "finish");
	is_u64(r.nseg, 3, "layout switches: 3 segments");
	ok(r.nseg == 3 && r.seg[0].layout.kind == FA_LAYOUT_GLOBAL &&
	   r.seg[1].layout.kind == FA_LAYOUT_NODE && r.seg[1].layout.refresh_us == 1000 &&
	   r.seg[2].layout.kind == FA_LAYOUT_GLOBAL && !r.seg[2].layout.refresh_us,
	   "layout switches: global, node:1000, global (a fallback record and an unknown layout ignored)");
	ok(r.nseg == 3 && r.seg[1].attempts == 1, "layout switches: node:1000's segment holds the 3 ms write");
	run_end(&r);
}

/*
 * report on a recording made under a split layout (fa_split.c): the
 * recorded domain and cache_hit decide which lines move.  cpu0, cpu1 on
 * node 0, cpu2, cpu3 on node 1, each its own LLC; node:1000 from 50.
 * Group A's lines: counters c0 (node 0), c1 (node 1), node 0's cache k0.
 *  - W0 @100 (domain 0): c0 held by none: no transfer; M by 0.
 *  - W2 @200 (domain 1): c1 likewise; M by 2.
 *  - R1 @300, a miss: reads c0 (M by 0: same node, another LLC: a node
 *    transfer, by a read) and c1 (M by 2: cross-node, by a read), 2
 *    lines; then writes k0 (held by none: free; M by 1).
 *  - R0 @400, a hit: reads k0 only (M by 1: a node transfer, by a read).
 *  - W3 @500 (domain 1): c1 Shared by 2 and 1: invalidates both, the
 *    farthest (1, node 0) gives the distance: cross-node, by a write.
 *  - W1 @600 naming no domain (a group that got no counters): A's global
 *    line, held by none: no transfer.
 *  - B: W0 @650 (domain 0), its counter held by none: no transfer; its
 *    tg_load_avg 99 is that counter, so B's gap stays unset (0).
 * Segment 0: 2 node + 2 cross-node transfers, 3 by reads; 4 domain
 * writes, 2 reads of the sum, 1 hit, 2 counter lines read.
 * Then global from 700; W0 @800 still naming domain 0 (its layout record
 * lost): counted unlabelled, modeled on the global line (M by 1: a node
 * transfer).  Segment 1: 1 node transfer, 1 unlabelled, no domain write.
 */
static void test_split_layout(void)
{
	const struct fa_event ev[] = {
		topo(1, 0, 0), topo(1, 1, 0), topo(1, 2, 1), topo(1, 3, 1),
		sw(50, 0, FL_KIND_LAYOUT, 0, 0, 1, 1000),
		in_dom(wr(100, 0, TG_A), 0, false),
		in_dom(wr(200, 2, TG_A), 1, false),
		in_dom(rd(300, 1, TG_A, 1, 10, 0, 0, 1024, 2, 1), 0, false),
		in_dom(rd(400, 0, TG_A, 0, 10, 0, 0, 1024, 2, 1), 0, true),
		in_dom(wr(500, 3, TG_A), 1, false),
		wr(600, 1, TG_A),
		in_dom(upd(650, 0, TG_B, 0, 10, 0, true, 99, FL_TG_FORCE, 0), 0, false),
		sw(700, 0, FL_KIND_LAYOUT, 1, 1000, 0, 0),
		in_dom(wr(800, 0, TG_A), 0, false),
	};
	const struct fa_segment *s;
	struct run r;

	run_start(&r, 0);
	feed(&r, ev, sizeof(ev) / sizeof(ev[0]));
	if (fa_engine_finish(r.e))
		ok(0, "finish");
	is_u64(r.nseg, 2, "split layout: 2 segments");
	if (r.nseg != 2) {
		run_end(&r);
		return;
	}
	s = &r.seg[0];
	is_u64(s->coh[FA_COH_NODE], 2, "split layout: 2 node transfers");
	is_u64(s->coh[FA_COH_XNODE], 2, "split layout: 2 cross-node transfers");
	is_u64(s->coh[FA_COH_LLC] + s->coh[FA_COH_UNKNOWN], 0, "split layout: no other");
	is_u64(s->coh_by_read, 3, "split layout: 3 by reads");
	is_u64(s->tgs[tg_index(&r, TG_A)].coh_transfers, 4, "split layout: all on A's lines");
	is_u64(s->split_writes, 4, "split layout: 4 domain writes (3 of A, 1 of B)");
	is_u64(s->split_reads, 2, "split layout: 2 reads of the sum");
	is_u64(s->split_hits, 1, "split layout: 1 recorded cache hit");
	is_u64(s->split_lines, 2, "split layout: 2 counter lines read (the miss)");
	is_u64(s->split_unlabelled, 0, "split layout: none unlabelled");
	/* B's only record names a domain: its tg_load_avg (99) is no sum, no gap */
	is_s64(s->tgs[tg_index(&r, TG_B)].gap, 0,
	       "split layout: a domain record's counter is not taken for the gap");
	s = &r.seg[1];
	is_u64(s->coh[FA_COH_NODE], 1, "split layout, then global: the global line's node transfer");
	is_u64(s->coh[FA_COH_XNODE] + s->coh[FA_COH_LLC], 0, "split layout, then global: no other");
	is_u64(s->split_unlabelled, 1, "split layout, then global: 1 domain record unlabelled");
	is_u64(s->split_writes, 0, "split layout, then global: no domain write");
	run_end(&r);
}

int main(void)
{
	test_layout_switch();
	test_split_layout();
	test_coherence();
	test_policy_reads();
	test_transfers_before_topology();
	test_calc_group_shares();
	test_shares_error();
	test_shares_bad_records();
	test_shares_segment_end();
	test_writer_switches();
	test_switches_before_topology();
	test_error();
	test_segments();
	test_segment_relabel();
	test_equal_timestamps();
	test_late_records();
	test_pick_idlest();
	test_consistency();
	test_sites();
	test_bins();
	test_bins_gap();
	test_audit_windows();
	test_audit_mismatch();
	test_unpatch();
	return tap_done();
}
