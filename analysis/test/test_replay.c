// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the what-if replay (fa_replay.h) on synthetic record
 * sequences.  Every expected figure is worked out by hand in the comment
 * above it; the decisions themselves come from module/policy/.
 */
#include <string.h>

#include "fa_engine.h"
#include "fa_replay.h"
#include "records.h"
#include "tap.h"

#define TG	9ull
#define MS	1000000ull

/* records.h's tg_update of group TG, with since_ns and nr_cpus. */
static struct fa_event upd_t(u64 ts, s32 cpu, s32 cfs_cpu, u64 load, u64 contrib,
			     bool written, s64 tg_load_after, u64 since_ns,
			     u8 policy, u32 arg, u16 nr_cpus)
{
	struct fa_event ev = upd(ts, cpu, TG, cfs_cpu, load, contrib, written,
				 tg_load_after, policy, arg);

	ev.u.tg_update.since_ns = since_ns;
	ev.u.tg_update.nr_cpus = nr_cpus;
	return ev;
}

struct run {
	struct fa_engine *e;
	struct fa_replay *r;
};

/*
 * Feeds @n records through an engine replaying @np policies under layouts
 * @lay (@replay_only: struct fa_engine_cfg's).
 */
static void run_cfg(struct run *x, const struct fl_tg_policy *pol,
		    const struct fa_layout *lay, u32 np, const struct fa_event *ev,
		    u32 n, bool replay_only)
{
	struct fa_engine_cfg cfg = { 0 };
	u32 i;

	x->r = fa_replay_new_layouts(pol, lay, np, FA_REPLAY_REL | FA_REPLAY_SHARES_ABS);
	cfg.replay = x->r;
	cfg.replay_only = replay_only;
	x->e = fa_engine_new(&cfg);
	for (i = 0; i < n; i++)
		if (fa_engine_feed(x->e, &ev[i]))
			ok(0, "feed record %u", i);
	if (fa_engine_finish(x->e))
		ok(0, "finish");
}

static void run_lay(struct run *x, const struct fl_tg_policy *pol,
		    const struct fa_layout *lay, u32 np, const struct fa_event *ev, u32 n)
{
	run_cfg(x, pol, lay, np, ev, n, false);
}

/* ... all under the global layout. */
static void run(struct run *x, const struct fl_tg_policy *pol, u32 np,
		const struct fa_event *ev, u32 n)
{
	run_lay(x, pol, NULL, np, ev, n);
}

static void done(struct run *x)
{
	fa_engine_free(x->e);
	fa_replay_free(x->r);
}

static const struct fa_segment *fig(const struct run *x, u32 i)
{
	return &fa_replay_result(x->r, i)->fig;
}

/*
 * One cfs_rq, recorded under stock (contrib/64), loads 100, 110, 120, 125
 * at 0, 10, 20, 30 ms, executed on CPUs 0, 1, 1, 0.  Stock writes all four
 * (|delta| 100, 10, 10, 5 against contrib/64 = 0, 1, 1, 1).
 *  fixed:16   writes at 0 (100 > 16) and 20 ms (120 - 100 = 20 > 16), not
 *             at 10 (10) and 30 (5): 2 writes, 1 switch (CPU 0 -> 1);
 *             E = 0, -10, 0, -5: |E| max 10, mean over the 30 ms of trace
 *             = 10 * 10 ms / 30 ms = 3.333; diverged at 10 and 30 ms.
 *  nonzero    writes all four: switches 0->1, 1->0 = 2; E = 0.
 *  recorded   (stock) as recorded: 4 writes, diverged 0.
 */
static void test_fixed_and_switches(void)
{
	const struct fl_tg_policy pol[] = {
		{ FL_TG_FIXED, 16 }, { FL_TG_NONZERO, 0 }, { FA_REPLAY_RECORDED, 0 },
	};
	struct fa_event ev[] = {
		upd_t(0 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4),
		upd_t(10 * MS, 1, 0, 110, 100, true, 110, 10 * MS, FL_TG_STOCK, 0, 4),
		upd_t(20 * MS, 1, 0, 120, 110, true, 120, 10 * MS, FL_TG_STOCK, 0, 4),
		upd_t(30 * MS, 0, 0, 125, 120, true, 125, 10 * MS, FL_TG_STOCK, 0, 4),
	};
	struct run x;

	run(&x, pol, 3, ev, 4);
	is_u64(fig(&x, 0)->attempts, 4, "fixed:16: 4 attempts");
	is_u64(fig(&x, 0)->writes, 2, "fixed:16: writes at 0 and 20 ms");
	is_u64(fig(&x, 0)->switches, 1, "fixed:16: one writer switch (CPU 0 -> 1)");
	is_u64(fig(&x, 0)->err.max_abs, 10, "fixed:16: |E| max 10");
	is_dbl(fa_err_mean_abs(&fig(&x, 0)->err), 10.0 / 3.0,
	       "fixed:16: |E| time-weighted mean 10 x 10 ms / 30 ms");
	is_u64(fa_replay_result(x.r, 0)->diverged, 2, "fixed:16: diverged at 10 and 30 ms");
	is_u64(fig(&x, 1)->writes, 4, "nonzero: writes every attempt");
	is_u64(fig(&x, 1)->switches, 2, "nonzero: switches 0 -> 1 -> 0");
	is_u64(fig(&x, 1)->err.max_abs, 0, "nonzero: no error");
	is_u64(fig(&x, 2)->writes, 4, "recorded: stock's 4 writes");
	is_u64(fa_replay_result(x.r, 2)->diverged, 0, "recorded: every decision as recorded");
	is_dbl(fa_err_mean_abs(&fig(&x, 2)->err),
	       fa_err_mean_abs(&fa_engine_total(x.e)->err), "recorded: the engine's mean |E|");
	done(&x);
}

/*
 * ratelimit measures time on the kernel's sched_clock, which here runs
 * ahead of the trace clock.  Recorded under ratelimit:1000 (1 ms):
 *   r1 trace 1.0 ms, never published: writes; sched clock S1.
 *   r2 trace 1.6 ms (0.6 ms later), since_ns 1.2 ms: writes (>= 1 ms).
 *   r3 trace 2.0 ms, since_ns 1.0 ms after r2: writes.
 * The rebuilt clock: S2 = S1 + 1.2 ms, S3 = S2 + 1.0 ms = S1 + 2.2 ms.
 *  ratelimit:1000  as recorded: 3 writes (the trace clock's 0.6 ms
 *                  would refuse r2).
 *  ratelimit:1500  r2: 1.2 ms < 1.5: no; r3: S3 - S1 = 2.2 ms: writes: 2.
 *  ratelimit:2500  r2: 1.2, r3: 2.2 ms, both < 2.5: 1 write.
 */
static void test_ratelimit_clock(void)
{
	const struct fl_tg_policy pol[] = {
		{ FL_TG_RATELIMIT, 1000 }, { FL_TG_RATELIMIT, 1500 },
		{ FL_TG_RATELIMIT, 2500 },
	};
	struct fa_event ev[] = {
		upd_t(1000000, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_RATELIMIT, 1000, 4),
		upd_t(1600000, 0, 0, 200, 100, true, 200, 1200000, FL_TG_RATELIMIT, 1000, 4),
		upd_t(2000000, 0, 0, 300, 200, true, 300, 1000000, FL_TG_RATELIMIT, 1000, 4),
	};
	struct run x;

	run(&x, pol, 3, ev, 3);
	is_u64(fig(&x, 0)->writes, 3, "ratelimit:1000: the recorded 3 writes (sched clock, not trace clock)");
	is_u64(fa_replay_result(x.r, 0)->diverged, 0, "ratelimit:1000: no decision differs");
	is_u64(fig(&x, 1)->writes, 2, "ratelimit:1500: writes at r1 and r3 (2.2 ms after r1)");
	is_u64(fig(&x, 2)->writes, 1, "ratelimit:2500: writes at r1 only");
	done(&x);
}

/*
 * budget:50 at nr_cpus 2 publishes when |delta| * 200 > tg_load_avg * 50.
 * Two cfs_rqs, recorded under stock (every record writes):
 *   r1 cfs0 0 -> 100, tg_load_avg after 100: before 0: budget writes.
 *   r2 cfs1 0 -> 100, after 200: before 100: 100*200 > 100*50: writes.
 *   r3 cfs0 100 -> 140, after 240: before 200: 40*200 = 8000 > 10000? no.
 *   r4 cfs1 100 -> 160, after 300: recorded before 240, but under budget
 *      cfs0 still holds 100, not 140: tg->load_avg 200:
 *      60*200 = 12000 > 200*50 = 10000: writes (with the recorded 240,
 *      12000 > 12000 would not).
 * budget:50: 3 writes, diverged 1 (r3).
 * Its own reads of tg->load_avg, one per decision before it (CPUs not
 * placed: distances unknown): r1 R0 (fill) W0; r2 R1 (0 modified it:
 * transfer, by a read) W1 (invalidates 0: transfer); r3 R0 (1 modified
 * it: transfer, by a read); r4 R1 (hit) W1 (invalidates 0: transfer): 4
 * transfers, 2 by reads, where its writes alone make 1.  The engine
 * (stock: no read of its own) writes on 0, 1, 0, 1: 3 transfers, none by
 * a read.
 */
static void test_budget_tg_load(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_BUDGET, 50 } };
	struct fa_event ev[] = {
		upd_t(1 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2),
		upd_t(2 * MS, 1, 1, 100, 0, true, 200, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2),
		upd_t(3 * MS, 0, 0, 140, 100, true, 240, 2 * MS, FL_TG_STOCK, 0, 2),
		upd_t(4 * MS, 1, 1, 160, 100, true, 300, 2 * MS, FL_TG_STOCK, 0, 2),
	};
	struct run x;

	run(&x, pol, 1, ev, 4);
	is_u64(fig(&x, 0)->writes, 3, "budget:50: writes r1, r2, r4 (replayed tg->load_avg 200 at r4)");
	is_u64(fa_replay_result(x.r, 0)->diverged, 1, "budget:50: only r3 differs from stock");
	/* E after r4: cfs0 100 - 140 = -40, cfs1 0: |E| max 40 */
	is_u64(fig(&x, 0)->err.max_abs, 40, "budget:50: |E| max 40 (cfs0 held back)");
	is_u64(fig(&x, 0)->coh[FA_COH_UNKNOWN], 4, "budget:50: 4 transfers with its own reads");
	is_u64(fig(&x, 0)->coh_by_read, 2, "budget:50: 2 of them by its reads at r2, r3");
	is_u64(fa_engine_total(x.e)->coh[FA_COH_UNKNOWN], 3, "engine (stock): 3 transfers");
	is_u64(fa_engine_total(x.e)->coh_by_read, 0, "engine (stock): stock reads nothing");
	done(&x);
}

/*
 * A record of a split tg_layout holds its domain's counter in
 * tg_load_avg (here 1000 after, 900 before, against one cfs_rq 0 -> 100):
 * not tg->load_avg, so the replay takes no excess from it (tg_ksum 0).
 * budget:50 at nr_cpus 2 then decides on 0 before: 100 * 200 > 0: writes.
 * Read as tg->load_avg (900 before) it would hold back: 20000 > 45000? no.
 */
static void test_budget_split_record(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_BUDGET, 50 } };
	struct fa_event ev[] = {
		upd_t(1 * MS, 0, 0, 100, 0, true, 1000, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2),
	};
	struct run x;

	ev[0].u.tg_update.split_dom = 1;	/* domain 0 */
	run(&x, pol, 1, ev, 1);
	is_u64(fig(&x, 0)->writes, 1, "budget:50 on a split-layout record: no excess taken from its domain counter: writes");
	done(&x);
}

/*
 * A 6.7+ kernel's stock (recorded with its rate-limit gate, 1000 us):
 *   r1 1.0 ms, never published, load 100, contrib 0: writes.
 *   r2 1.5 ms, since 0.5 ms, load 200, contrib 100: |delta| 100 > 100/64
 *      but within the gate: held back.
 *   r3 2.2 ms, since 1.2 ms, load 210, contrib 100: writes.
 *  stock      replayed with the recording's gate: r1 and r3, as recorded
 *             (6.1's stock, no gate, would also write r2).
 *  nonzero    writes all three; diverged at r2.
 * The engine agrees with every recorded decision (replay_mismatch 0).
 */
static void test_stock_gate(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_STOCK, 0 }, { FL_TG_NONZERO, 0 } };
	struct fa_event ev[] = {
		upd_t(1000000, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 1000, 4),
		upd_t(1500000, 0, 0, 200, 100, false, 100, 500000, FL_TG_STOCK, 1000, 4),
		upd_t(2200000, 0, 0, 210, 100, true, 210, 1200000, FL_TG_STOCK, 1000, 4),
	};
	struct run x;

	run(&x, pol, 2, ev, 3);
	is_u64(fig(&x, 0)->writes, 2, "stock (gate 1000 us recorded): writes r1 and r3");
	is_u64(fa_replay_result(x.r, 0)->diverged, 0, "stock: exact self-replay with the recorded gate");
	is_u64(fig(&x, 1)->writes, 3, "nonzero: writes all three");
	is_u64(fa_replay_result(x.r, 1)->diverged, 1, "nonzero: differs at r2");
	is_u64(fa_engine_total(x.e)->replay_mismatch, 0,
	       "engine: stock with its gate agrees with every recorded decision");
	done(&x);
}

/* records.h's tg_read of group TG, tg->shares 1024. */
static struct fa_event rd_t(u64 ts, s32 cpu, s32 cfs_cpu, s64 tg_load_avg,
			    u64 contrib, u64 load, s64 shares, u64 nr)
{
	return rd(ts, cpu, TG, cfs_cpu, tg_load_avg, contrib, load, 1024, shares, nr);
}

/*
 * Reads under other policies: the shares a policy's own tg->load_avg
 * gives, and its line's transfers.  Recorded under stock, tg->shares 1024:
 *   u1  0 ms  CPU0 cfs0 load 100, contrib 0: written (tg->load_avg 100)
 *   u2 10 ms  CPU1 cfs1 load 200, contrib 0: written (300)
 *   u3 20 ms  CPU0 cfs1 load 210, contrib 200: written (10 > 200/64; 310)
 *   r1 30 ms  CPU0 reads cfs0: tg->load_avg 310, contrib 100, load 100:
 *             shares 1024 * 100 / (310 - 100 + 100) = 330 (330.3)
 *   r2 50 ms  CPU1 reads cfs1: 310, contrib 210, load 210: 1024 * 210 /
 *             310 = 693 (693.7)
 *   u4 60 ms  CPU0 cfs0 load 100, contrib 100: not written (delta 0)
 * The ideal (tg->load_avg = sum(load) = 310) is the recorded shares at
 * both reads: no shares error as recorded.
 *  fixed:16  holds u3 back (10 <= 16): at r1 its tg->load_avg is 310 +
 *            E (-10) = 300, cfs0's contrib 100: 102400 / 300 = 341, off
 *            the ideal by 11 (11/330 = 3.33%); at r2 cfs1's own contrib is
 *            200: 215040 / (300 - 200 + 210) = 693: no error.  Errors
 *            held until the next read of the cfs_rq or the end (60 ms):
 *            3.33% for 30 ms, 0 for 10 ms: mean 3.33% x 30/40 = 2.5%.
 *            Line: W0, W1 (transfer), R0 (transfer: 1 modified it), R1
 *            (hit, Shared): 2 transfers, 1 by a read.
 *  recorded  stock: W0, W1 (transfer), W0 (u3: transfer), R0 (hit), R1
 *            (transfer: 0 modified it): 3, 1 by a read; the engine's.
 */
static void reads_records(struct fa_event ev[6])
{
	ev[0] = upd_t(0 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4);
	ev[1] = upd_t(10 * MS, 1, 1, 200, 0, true, 300, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4);
	ev[2] = upd_t(20 * MS, 0, 1, 210, 200, true, 310, 10 * MS, FL_TG_STOCK, 0, 4);
	ev[3] = rd_t(30 * MS, 0, 0, 310, 100, 100, 330, 1);
	ev[4] = rd_t(50 * MS, 1, 1, 310, 210, 210, 693, 1);
	ev[5] = upd_t(60 * MS, 0, 0, 100, 100, false, 310, 60 * MS, FL_TG_STOCK, 0, 4);
}

static void test_reads(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_FIXED, 16 }, { FA_REPLAY_RECORDED, 0 } };
	struct fa_event ev[6];
	const struct fa_segment *t;
	struct run x;

	reads_records(ev);

	run(&x, pol, 2, ev, 6);
	t = fa_engine_total(x.e);
	is_u64(t->read_mismatch, 0, "the recorded shares are calc_group_shares()'s");
	is_u64(fig(&x, 0)->writes, 2, "fixed:16: writes u1, u2 (u3 held back)");
	is_u64(fig(&x, 0)->reads, 2, "fixed:16: the 2 recorded reads");
	is_u64(fig(&x, 0)->shares.max_abs, 11, "fixed:16: |given - ideal| max 341 - 330 = 11");
	is_dbl(fig(&x, 0)->shares.max_rel, 11.0 / 330, "fixed:16: shares error max 11/330");
	is_dbl(fa_err_mean_rel(&fig(&x, 0)->shares), 11.0 / 330 * 30 / 40,
	       "fixed:16: time-weighted mean 3.33%% x 30 ms / 40 ms of cfs_rq-time");
	is_u64(fig(&x, 0)->coh[FA_COH_UNKNOWN], 2, "fixed:16: 2 transfers (CPUs not placed)");
	is_u64(fig(&x, 0)->coh_by_read, 1, "fixed:16: 1 of them by a read");
	is_u64(fig(&x, 1)->coh[FA_COH_UNKNOWN], 3, "recorded: 3 transfers");
	is_u64(fig(&x, 1)->coh_by_read, 1, "recorded: 1 of them by a read");
	is_u64(t->coh[FA_COH_UNKNOWN], 3, "engine: the same 3 transfers");
	is_u64(fig(&x, 1)->shares.max_abs, 0, "recorded: no shares error");
	is_u64(fig(&x, 1)->shares.time_ns, t->shares.time_ns,
	       "recorded: the engine's cfs_rq-time of the shares error (40 ms)");
	is_u64(t->shares.time_ns, 40 * MS, "engine: 30 + 10 ms of cfs_rq-time");
	done(&x);
}

/*
 * test_reads()'s records with a read that does not add up (r0, 40 ms:
 * CPU0 reads cfs0, shares 38010, not calc_group_shares() of its fields)
 * and a switch to force at 55 ms.  r0 is left out as if absent, by the
 * engine and by every replayed policy alike (its line read only: fixed:16
 * R0 at 40 ms hits, recorded R0 hits too); the reads' errors end at the
 * switch: r1's held 30..55 ms, r2's 50..55 ms, none in the second segment.
 *  fixed:16  r1 off by 11: bounded 11/1024, relative 11/330, for 25 of
 *            30 ms of cfs_rq-time: means 11/1024 x 25/30, 11/330 x 25/30.
 *  recorded  the engine's figures: no error, 30 ms.
 */
static void bad_read_records(struct fa_event ev[8])
{
	struct fa_event base[6];

	reads_records(base);
	memcpy(ev, base, 4 * sizeof(*ev));	/* u1, u2, u3, r1 */
	ev[4] = rd_t(40 * MS, 0, 0, 310, 100, 100, 38010, 2);
	ev[5] = base[4];			/* r2 */
	memset(&ev[6], 0, sizeof(ev[6]));
	ev[6].ts = 55 * MS;
	ev[6].type = FA_EV_POLICY_SWITCH;
	ev[6].u.policy_switch.kind = FL_KIND_TG;
	ev[6].u.policy_switch.old_policy = FL_TG_STOCK;
	ev[6].u.policy_switch.new_policy = FL_TG_FORCE;
	ev[7] = base[5];			/* u4 */
}

static void test_reads_bad_and_segment_end(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_FIXED, 16 }, { FA_REPLAY_RECORDED, 0 } };
	struct fa_event ev[8];
	const struct fa_segment *t, *f;
	struct run x;

	bad_read_records(ev);
	run(&x, pol, 2, ev, 8);
	t = fa_engine_total(x.e);
	f = fig(&x, 0);
	is_u64(t->read_mismatch, 1, "bad read: counted by the engine");
	is_u64(f->reads, 3, "bad read: still a read of the line");
	is_u64(f->shares.time_ns, 30 * MS, "fixed:16: errors end at the switch (25 + 5 ms)");
	is_dbl(f->shares.max_bnd, 11.0 / 1024, "fixed:16: bounded max 11/1024");
	is_dbl(fa_err_mean_bnd(&f->shares), 11.0 / 1024 * 25 / 30,
	       "fixed:16: bounded mean, the bad read left out");
	is_dbl(fa_err_mean_rel(&f->shares), 11.0 / 330 * 25 / 30,
	       "fixed:16: relative mean, the bad read left out");
	is_u64(fig(&x, 1)->shares.time_ns, t->shares.time_ns, "recorded: the engine's cfs_rq-time");
	is_dbl(fig(&x, 1)->shares.bnd_time, t->shares.bnd_time, "recorded: the engine's bounded integral");
	is_dbl(fig(&x, 1)->shares.max_bnd, t->shares.max_bnd, "recorded: the engine's bounded max");
	is_u64(fig(&x, 1)->coh_by_read, t->coh_by_read, "recorded: the engine's transfers by reads");
	done(&x);
}

/*
 * An engine that keeps of the recording's own errors only their times
 * (fa_engine_cfg.replay_only, fairlab whatif's) feeds the replay the
 * same: test_reads_bad_and_segment_end()'s records (updates, reads, a bad
 * read, two segments), u4 not written at a load of 130 against its
 * contrib 100 and u5 at 70 ms (E -30 held 10 ms), give every policy the
 * same figures, statistic for statistic.  The engine's own statistics
 * are then empty (the full engine's |E| max 30) but for those times,
 * the same as the full engine's.
 */
static void test_replay_only(void)
{
	const struct fl_tg_policy pol[] = {
		{ FL_TG_FIXED, 16 }, { FL_TG_NONZERO, 0 }, { FA_REPLAY_RECORDED, 0 },
	};
	struct fa_event ev[9];
	const struct fa_segment *ta, *tb;
	struct run a, b;
	u32 i;

	bad_read_records(ev);	/* its u4 replaced: */
	ev[7] = upd_t(60 * MS, 0, 0, 130, 100, false, 310, 60 * MS, FL_TG_STOCK, 0, 4);
	ev[8] = upd_t(70 * MS, 0, 0, 130, 100, false, 310, 70 * MS, FL_TG_STOCK, 0, 4);
	run_cfg(&a, pol, NULL, 3, ev, 9, false);
	run_cfg(&b, pol, NULL, 3, ev, 9, true);
	for (i = 0; i < 3; i++) {
		const struct fa_segment *fa = fig(&a, i), *fb = fig(&b, i);

		ok(!memcmp(&fa->err, &fb->err, sizeof(fa->err)),
		   "replay_only: policy %u's error statistics the same", i);
		ok(!memcmp(&fa->shares, &fb->shares, sizeof(fa->shares)),
		   "replay_only: policy %u's shares error statistics the same", i);
		ok(fa->writes == fb->writes && fa->switches == fb->switches &&
		   !memcmp(fa->coh, fb->coh, sizeof(fa->coh)) &&
		   fa->reads == fb->reads && fa->attempts == fb->attempts,
		   "replay_only: policy %u's counts the same", i);
	}
	ta = fa_engine_total(a.e);
	tb = fa_engine_total(b.e);
	is_u64(ta->err.max_abs, 30, "full engine: its own |E| max, 130 - 100");
	ok(ta->err.abs_time > 0, "full engine: its own integral of |E|");
	is_u64(tb->err.max_abs, 0, "replay_only: no maximum of the recording's E");
	is_dbl(tb->err.abs_time, 0, "replay_only: no integral of it");
	is_u64(tb->err.time_ns, ta->err.time_ns, "replay_only: the time E was held kept");
	is_u64(tb->err.abs.total, ta->err.abs.total, "replay_only: ... and its histogram's total");
	is_u64(tb->shares.time_ns, ta->shares.time_ns, "replay_only: the shares' time kept");
	is_u64(tb->shares.bnd.total, ta->shares.bnd.total, "replay_only: ... bounded total too");
	is_u64(tb->coh[FA_COH_UNKNOWN], 0, "replay_only: no line model of the recording");
	ok(ta->coh[FA_COH_UNKNOWN] > 0, "full engine: its line model kept");
	is_u64(tb->reads, ta->reads, "replay_only: the reads counted");
	is_u64(tb->attempts, ta->attempts, "replay_only: the attempts counted");
	done(&a);
	done(&b);
}

/* A cpu_topology record: one LLC per node. */
static struct fa_event topo(u64 ts, s32 cpu, s32 node)
{
	return topology(ts, cpu, node, node);
}

/*
 * Writer switches recorded before cpu_topology places their CPUs (idle
 * CPUs' records land before the describe): unknown when made, classified
 * once both CPUs are placed, by the engine's own code (fa_pending_*).
 * Writes (stock, every one written) on CPUs 0, 1, 2, 0; then CPU 0 on
 * node 0, CPU 1 on node 1, CPU 2 on node 0: switches 0->1 (cross-node),
 * 1->2 (cross-node), 2->0 (same node): 3 switches, 2 cross-node, none
 * unknown, for "recorded" and nonzero (which writes the same) as for
 * the engine; fixed:16 writes only the first two (loads 100, 200 from 0,
 * then deltas of 5): 1 switch, cross-node.  The line transfers of those
 * writes, unknown when made too, are classified by the same mechanism
 * (one LLC per node): W1 invalidates 0 and W2 invalidates 1 across
 * nodes, W0 invalidates 2 within LLC 0: 2 cross-node, 1 same LLC, for
 * the engine, "recorded" and nonzero; fixed:16 1 cross-node.
 */
static void test_switch_resolve(void)
{
	const struct fl_tg_policy pol[] = {
		{ FA_REPLAY_RECORDED, 0 }, { FL_TG_NONZERO, 0 }, { FL_TG_FIXED, 16 },
	};
	struct fa_event ev[] = {
		upd_t(1 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4),
		upd_t(2 * MS, 1, 1, 200, 0, true, 300, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4),
		upd_t(3 * MS, 2, 1, 205, 200, true, 305, 1 * MS, FL_TG_STOCK, 0, 4),
		upd_t(4 * MS, 0, 0, 105, 100, true, 310, 3 * MS, FL_TG_STOCK, 0, 4),
		topo(5 * MS, 0, 0), topo(5 * MS, 1, 1), topo(5 * MS, 2, 0),
	};
	const struct fa_segment *t;
	struct run x;
	u32 i;

	run(&x, pol, 3, ev, 7);
	t = fa_engine_total(x.e);
	is_u64(t->xnode, 2, "engine: 2 cross-node switches once the CPUs are placed");
	is_u64(t->xnode_unknown, 0, "engine: none left unknown");
	for (i = 0; i < 2; i++) {
		is_u64(fig(&x, i)->switches, 3, "policy %u: 3 switches", i);
		is_u64(fig(&x, i)->xnode, 2, "policy %u: 2 cross-node, as the engine's", i);
		is_u64(fig(&x, i)->xnode_unknown, 0, "policy %u: none left unknown", i);
	}
	is_u64(fig(&x, 2)->switches, 1, "fixed:16: 1 switch (0 -> 1)");
	is_u64(fig(&x, 2)->xnode, 1, "fixed:16: cross-node");
	is_u64(fig(&x, 2)->xnode_unknown, 0, "fixed:16: none left unknown");
	is_u64(t->coh[FA_COH_XNODE], 2, "engine: 2 cross-node transfers once placed");
	is_u64(t->coh[FA_COH_LLC], 1, "engine: 1 transfer within an LLC");
	is_u64(t->coh[FA_COH_UNKNOWN], 0, "engine: no transfer left unknown");
	for (i = 0; i < 2; i++)
		ok(!memcmp(fig(&x, i)->coh, t->coh, sizeof(t->coh)),
		   "policy %u: transfers per distance as the engine's", i);
	is_u64(fig(&x, 2)->coh[FA_COH_XNODE], 1, "fixed:16: 1 cross-node transfer");
	is_u64(fig(&x, 2)->coh[FA_COH_UNKNOWN], 0, "fixed:16: no transfer left unknown");
	done(&x);
}

/*
 * A CPU going offline (6.8+ clear_tg_load_avg): recorded as a write of
 * load 0, delta = -contrib, site clear_tg_load_avg, under whatever policy
 * is active; no decision.  Recorded under nonzero, nr_cpus 2, group TG:
 *   r1 1 ms cfs0 load 100 contrib 0: writes (tg_load_avg 100).
 *   r2 2 ms cfs1 load 60 contrib 0: writes (160).
 *   r3 3 ms cfs1 load 70 contrib 60: writes (170).
 *   r4 4 ms cfs1 cleared: load 0, contrib 70: written (100).
 *   r5 5 ms cfs1 cleared again, contrib 0: written, delta 0 (nonzero
 *      would hold a delta of 0 back: not a decision).
 *   r6 6 ms cfs0 load 100 contrib 100: delta 0, not written.
 *  fixed:64   r1 writes (100 > 64), r2 not (60): E = -60; r3 writes
 *             (70 - 0 > 64): E = 0; r4 and r5 clear: cfs1's contrib and
 *             load 0, E = 0; r6 not: 4 writes, |E| max 60, diverged at
 *             r2 only.
 *  recorded   5 writes, diverged 0.
 * The engine: no replay mismatch (r4, r5 are not replayed through
 * nonzero), 2 writes at site clear_tg_load_avg.
 */
static void test_offline_clear(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_FIXED, 64 }, { FA_REPLAY_RECORDED, 0 } };
	struct fa_event ev[] = {
		upd_t(1 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_NONZERO, 0, 2),
		upd_t(2 * MS, 1, 1, 60, 0, true, 160, FL_SINCE_NEVER, FL_TG_NONZERO, 0, 2),
		upd_t(3 * MS, 1, 1, 70, 60, true, 170, 1 * MS, FL_TG_NONZERO, 0, 2),
		upd_t(4 * MS, 1, 1, 0, 70, true, 100, FL_SINCE_NEVER, FL_TG_NONZERO, 0, 2),
		upd_t(5 * MS, 1, 1, 0, 0, true, 100, FL_SINCE_NEVER, FL_TG_NONZERO, 0, 2),
		upd_t(6 * MS, 0, 0, 100, 100, false, 100, 5 * MS, FL_TG_NONZERO, 0, 2),
	};
	const struct fa_segment *t;
	struct run x;

	ev[3].u.tg_update.site = FL_SITE_CLEAR_TG_LOAD_AVG;
	ev[4].u.tg_update.site = FL_SITE_CLEAR_TG_LOAD_AVG;
	run(&x, pol, 2, ev, 6);
	is_u64(fig(&x, 0)->writes, 4, "offline: fixed:64 writes r1, r3 and both clears");
	is_u64(fa_replay_result(x.r, 0)->diverged, 1, "offline: fixed:64 differs at r2 only");
	is_u64(fig(&x, 0)->err.max_abs, 60, "offline: fixed:64 |E| max 60 (r2 held back)");
	is_u64(fig(&x, 1)->writes, 5, "offline: recorded 5 writes");
	is_u64(fa_replay_result(x.r, 1)->diverged, 0, "offline: recorded replays every record as is");
	t = fa_engine_total(x.e);
	is_u64(t->replay_mismatch, 0, "offline: a clear is no decision of the recorded policy");
	is_u64(t->sites[FL_SITE_CLEAR_TG_LOAD_AVG].writes, 2,
	       "offline: 2 writes at site clear_tg_load_avg");
	is_u64(t->err.max_abs, 0, "offline: the engine's E stays 0 (cleared cfs_rq: load 0, contrib 0)");
	done(&x);
}

/*
 * Layouts (fa_layout.h).  CPU 0 on node 0, CPU 1 on node 1 (one LLC
 * each); test_reads()'s records, with u5 (35 ms, CPU0 cfs0 load 150,
 * contrib 100: written, tg->load_avg 360) and r3 (40 ms, CPU0 reads cfs0:
 * 360, contrib 150, load 150: 1024 * 150 / 360 = 426, the ideal) before
 * r2 (reading 360: 1024 * 210 / 360 = 597), and u4 (60 ms) with cfs0's
 * load and contrib 150 (not written).
 * Order: u1 0, u2 10, u3 20, r1 30, u5 35, r3 40, r2 50, u4 60 ms.
 * Stock's decisions (contrib/64) do not read tg->load_avg: every layout
 * decides as recorded.
 *  stock (global): W0; W1 (xnode); W0 u3 (xnode); R0 r1 hit; W0 u5 hit;
 *            R0 r3 hit; R1 r2 (0 modified it: xnode): 3 transfers, 1 by
 *            a read, no shares error.
 *  stock/node: counters L0 (node 0), L1 (node 1).  u1 L0 M0; u2 L1 M1;
 *            u3 (CPU 0 writes cfs1's delta) L0 hit; r1 L0 hit, L1 M1 ->
 *            0: xnode; u5 L0 hit; r3 L0 hit, L1 (0 shares it) hit; r2 L0
 *            M0 -> 1: xnode, L1 hit: 2 transfers, both by reads; 3 reads
 *            of 2 lines: 6 lines; the same sums: no shares error.
 *  stock/node:15000 (15 ms cache, C0 and C1): r1 a miss (C0 none): L1
 *            xnode, the sum 310 stored (C0 M0); r3 10 ms later: a hit,
 *            C0 held by 0: no transfer, the stale 310 used: 1024 * 150 /
 *            (310 - 150 + 150) = 495, off the ideal 426 by 69; r2 (node
 *            1, C1 none): a miss, L0 xnode: 2 transfers, 4 lines, 1 hit.
 *            The error: r3's 69 (69/1024 bounded) held 40..60 ms on cfs0;
 *            r1's 0 30..40 ms, r2's 0 on cfs1 50..60 ms: 40 ms of
 *            cfs_rq-time, mean 69/1024 x 20/40.
 */
static void test_layouts(void)
{
	const struct fl_tg_policy pol[] = {
		{ FL_TG_STOCK, 0 }, { FL_TG_STOCK, 0 }, { FL_TG_STOCK, 0 },
	};
	const struct fa_layout lay[] = {
		{ FA_LAYOUT_GLOBAL, 0 }, { FA_LAYOUT_NODE, 0 }, { FA_LAYOUT_NODE, 15000 },
	};
	struct fa_event base[6], ev[10];
	const struct fa_replay_result *g, *n, *c;
	struct run x;

	reads_records(base);
	ev[0] = topo(0, 0, 0);
	ev[1] = topo(0, 1, 1);
	memcpy(&ev[2], base, 4 * sizeof(ev[0]));	/* u1 u2 u3 r1 */
	ev[6] = upd_t(35 * MS, 0, 0, 150, 100, true, 360, 35 * MS, FL_TG_STOCK, 0, 4);
	ev[7] = rd_t(40 * MS, 0, 0, 360, 150, 150, 426, 2);
	/* r2 after u5: 360, contrib 210, load 210: 215040 / 360 = 597 */
	ev[8] = rd_t(50 * MS, 1, 1, 360, 210, 210, 597, 1);
	/* u4 with u5's contrib: load 150, contrib 150, not written */
	ev[9] = upd_t(60 * MS, 0, 0, 150, 150, false, 360, 25 * MS, FL_TG_STOCK, 0, 4);
	run_lay(&x, pol, lay, 3, ev, 10);
	g = fa_replay_result(x.r, 0);
	n = fa_replay_result(x.r, 1);
	c = fa_replay_result(x.r, 2);
	is_u64(fa_engine_total(x.e)->read_mismatch, 0, "layouts: the recorded shares are calc_group_shares()'s");
	is_u64(g->fig.coh[FA_COH_XNODE], 3, "global: 3 cross-node transfers");
	is_u64(g->fig.coh_by_read, 1, "global: 1 by a read");
	is_u64(g->line_reads, 0, "global: no counter lines counted");
	is_u64(n->fig.writes, 4, "node: stock's 4 writes (u1, u2, u3, u5)");
	is_u64(g->fig.shares.max_abs, 0, "global: no shares error");
	is_u64(n->diverged, 0, "node: stock decides as recorded");
	is_u64(n->fig.coh[FA_COH_XNODE], 2, "node: 2 cross-node transfers");
	is_u64(n->fig.coh[FA_COH_LLC] + n->fig.coh[FA_COH_NODE] + n->fig.coh[FA_COH_UNKNOWN], 0,
	       "node: and no other");
	is_u64(n->fig.coh_by_read, 2, "node: both by reads");
	is_u64(n->line_reads, 6, "node: 3 reads of 2 counter lines");
	is_u64(n->cache_hits, 0, "node: no cache");
	is_u64(n->fig.shares.max_abs, 0, "node: the same sums: no shares error");
	is_u64(c->fig.coh[FA_COH_XNODE], 2, "node:15000: 2 cross-node transfers");
	is_u64(c->line_reads, 4, "node:15000: 2 misses of 2 counter lines");
	is_u64(c->cache_hits, 1, "node:15000: r3 a hit");
	is_u64(c->fig.shares.max_abs, 69, "node:15000: r3 uses the stale 310: 495, ideal 426");
	is_dbl(fig(&x, 2)->shares.max_bnd, 69.0 / 1024, "node:15000: 69/1024 of tg->shares");
	is_dbl(fa_err_mean_bnd(&fig(&x, 2)->shares), 69.0 / 1024 * 20 / 40,
	       "node:15000: held 20 of 40 ms of cfs_rq-time");
	done(&x);
}

/*
 * A recording made under node:15000 (a policy_switch of kind layout at 0
 * names it), test_layouts()'s records with their domains: the updates'
 * tg_load_avg is now the writer's domain counter (u1 100, u2 200, u3 110,
 * u5 160, u4 160), and the kernel's cache decided otherwise than the rule
 * on the record times: r1 (30 ms) a hit, on a sum of 310 CPU 0's domain
 * cached before the recording began; r3 (40 ms) a hit (310, stale: 495
 * shares); r2 (50 ms, CPU 1) a miss (360).
 *  stock/node:15000 (the recording's own layout): the recorded outcome.
 *            r1, r3 read C0 only (CPU 0's own line: no transfer); r2 a
 *            miss: L0 (last written by CPU 0, u5) xnode, L1 its own, then
 *            stores C1: 1 cross-node transfer, 2 hits, 2 counter lines;
 *            the values as recorded: r1 310 (330, the ideal: no error),
 *            r3 310 (495 against 426: 69), r2 360: report's figures.
 *  stock/node:10000 (another layout): the rule on the record times.  r1
 *            a miss (no cache): L1 xnode, stores C0 (310); r3 10 ms
 *            later, not within 10 ms: a miss (L0 its own, L1 shared
 *            since r1), stores 360; r2 a miss, L0 xnode: 2 transfers, 0
 *            hits, 6 lines, no shares error.
 */
static void test_layout_recorded_hits(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_STOCK, 0 }, { FL_TG_STOCK, 0 } };
	const struct fa_layout lay[] = { { FA_LAYOUT_NODE, 15000 }, { FA_LAYOUT_NODE, 10000 } };
	struct fa_event ev[11];
	const struct fa_replay_result *own, *oth;
	const struct fa_segment *t;
	struct run x;

	memset(&ev[2], 0, sizeof(ev[2]));
	ev[0] = topo(0, 0, 0);
	ev[1] = topo(0, 1, 1);
	ev[2].ts = 0;
	ev[2].cpu = 0;
	ev[2].type = FA_EV_POLICY_SWITCH;
	ev[2].u.policy_switch.kind = FL_KIND_LAYOUT;
	ev[2].u.policy_switch.new_policy = FA_LAYOUT_NODE;
	ev[2].u.policy_switch.new_arg = 15000;
	ev[3] = in_dom(upd_t(0 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4), 0, false);
	ev[4] = in_dom(upd_t(10 * MS, 1, 1, 200, 0, true, 200, FL_SINCE_NEVER, FL_TG_STOCK, 0, 4), 1, false);
	ev[5] = in_dom(upd_t(20 * MS, 0, 1, 210, 200, true, 110, 10 * MS, FL_TG_STOCK, 0, 4), 0, false);
	ev[6] = in_dom(rd_t(30 * MS, 0, 0, 310, 100, 100, 330, 1), 0, true);
	ev[7] = in_dom(upd_t(35 * MS, 0, 0, 150, 100, true, 160, 35 * MS, FL_TG_STOCK, 0, 4), 0, false);
	ev[8] = in_dom(rd_t(40 * MS, 0, 0, 310, 150, 150, 495, 2), 0, true);
	ev[9] = in_dom(rd_t(50 * MS, 1, 1, 360, 210, 210, 597, 1), 1, false);
	ev[10] = in_dom(upd_t(60 * MS, 0, 0, 150, 150, false, 160, 25 * MS, FL_TG_STOCK, 0, 4), 0, false);
	run_lay(&x, pol, lay, 2, ev, 11);
	own = fa_replay_result(x.r, 0);
	oth = fa_replay_result(x.r, 1);
	t = fa_engine_total(x.e);
	is_u64(t->read_mismatch, 0, "recorded hits: the recorded shares are calc_group_shares()'s");
	is_u64(t->split_hits, 2, "recorded hits: report counts r1 and r3 as hits");
	is_u64(own->diverged, 0, "own layout: stock decides as recorded");
	is_u64(own->cache_hits, 2, "own layout: r1 and r3 hit, as recorded");
	is_u64(own->line_reads, 2, "own layout: r2's 2 counter lines");
	is_u64(own->fig.coh[FA_COH_XNODE], 1, "own layout: 1 cross-node transfer (r2 reads L0)");
	is_u64(own->fig.coh[FA_COH_XNODE], t->coh[FA_COH_XNODE], "own layout: report's cross-node transfers");
	is_u64(own->fig.coh_by_read, t->coh_by_read, "own layout: report's transfers by reads");
	is_u64(own->fig.shares.max_abs, 69, "own layout: r3 used the recorded stale 310: 495, ideal 426");
	is_u64(own->fig.shares.max_abs, t->shares.max_abs, "own layout: report's shares error max");
	is_dbl(fa_err_mean_bnd(&own->fig.shares), fa_err_mean_bnd(&t->shares),
	       "own layout: report's mean shares error");
	is_dbl(fa_err_mean_bnd(&own->fig.shares), 69.0 / 1024 * 20 / 40,
	       "own layout: 69/1024 held 20 of 40 ms of cfs_rq-time");
	is_u64(oth->cache_hits, 0, "node:10000: no hit by the rule");
	is_u64(oth->line_reads, 6, "node:10000: 3 misses of 2 counter lines");
	is_u64(oth->fig.coh[FA_COH_XNODE], 2, "node:10000: 2 cross-node transfers");
	is_u64(oth->fig.shares.max_abs, 0, "node:10000: fresh sums: no shares error");
	done(&x);
}

/*
 * A recording's first records, made before the recorder described the
 * topology and announced the layout (the kernel under node since before
 * the recording; CPU 0 on node 0, CPU 1 on node 1, placed at 1 ms):
 *   u1  0 ms  CPU0 cfs0 load 100, contrib 0: written (node 0's counter
 *             100; CPU 0 not placed yet, no layout announced)
 *   topology at 1 ms; policy_switch layout node -> node at 1 ms
 *   u2 10 ms  CPU1 cfs1 load 200, contrib 0: written (node 1's: 200)
 *   r1 20 ms  CPU1 reads cfs1: sum 300: 1024 * 200 / 300 = 682
 *   r2 30 ms  CPU0 reads cfs0: 300: 1024 * 100 / 300 = 341
 *  report    u1 in a segment of no layout: the global line (first access:
 *            0).  The switch starts fresh counter lines L0, L1: u2 W1 L1
 *            (first: 0); r1 L0 (never written: fill, 0), L1 its own (0);
 *            r2 L0 (fill, 0), L1 M1 -> 0: xnode.  1 transfer, by a read;
 *            2 reads of 2 counter lines.
 *  stock/node (the recording's own layout): u1 writes CPU 0's part to the
 *            unplaced counter U (first access: 0); placed at 1 ms, the
 *            part moves to L0's counter and U is gone (its line with it).
 *            Then as report: 1 cross-node transfer, 4 lines.  (Before
 *            U was read by every later sum: r1 read U, M0 -> 1, a
 *            second xnode transfer, and 6 lines.)
 */
static void test_layout_late_topology(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_STOCK, 0 } };
	const struct fa_layout lay[] = { { FA_LAYOUT_NODE, 0 } };
	struct fa_event ev[7];
	const struct fa_replay_result *own;
	const struct fa_segment *t;
	struct run x;
	u64 n = 0;
	int d;

	ev[0] = in_dom(upd_t(0 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2), 0, false);
	ev[1] = topo(1 * MS, 0, 0);
	ev[2] = topo(1 * MS, 1, 1);
	memset(&ev[3], 0, sizeof(ev[3]));
	ev[3].ts = 1 * MS;
	ev[3].cpu = 0;
	ev[3].type = FA_EV_POLICY_SWITCH;
	ev[3].u.policy_switch.kind = FL_KIND_LAYOUT;
	ev[3].u.policy_switch.old_policy = FA_LAYOUT_NODE;
	ev[3].u.policy_switch.new_policy = FA_LAYOUT_NODE;
	ev[4] = in_dom(upd_t(10 * MS, 1, 1, 200, 0, true, 200, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2), 1, false);
	ev[5] = in_dom(rd_t(20 * MS, 1, 1, 300, 200, 200, 682, 1), 1, false);
	ev[6] = in_dom(rd_t(30 * MS, 0, 0, 300, 100, 100, 341, 1), 0, false);
	run_lay(&x, pol, lay, 1, ev, 7);
	own = fa_replay_result(x.r, 0);
	t = fa_engine_total(x.e);
	is_u64(t->read_mismatch, 0, "late topology: the recorded shares are calc_group_shares()'s");
	is_u64(t->coh[FA_COH_XNODE], 1, "late topology: report's 1 cross-node transfer (r2 reads L1)");
	is_u64(t->split_lines, 4, "late topology: report's 2 reads of 2 counter lines");
	is_u64(own->diverged, 0, "late topology: stock decides as recorded");
	is_u64(own->fig.coh[FA_COH_XNODE], 1, "late topology: own layout's 1 cross-node transfer");
	for (d = 0; d < FA_COH_NR; d++)
		n += own->fig.coh[d];
	is_u64(n, 1, "late topology: and no other (no read of an unplaced counter)");
	is_u64(own->fig.coh_by_read, t->coh_by_read, "late topology: report's transfers by reads");
	is_u64(own->line_reads, 4, "late topology: 2 reads of 2 counter lines, as report");
	done(&x);
}

/*
 * budget:50 under node (CPU 0 on node 0, CPU 1 on node 1):
 * test_budget_tg_load()'s records decided on the writer's domain counter
 * (its replayed contribs; the recording holds nothing else: tg_ksum 0):
 *   r1 CPU0 cfs0 0 -> 100: counter 0: writes (node 0: 100)
 *   r2 CPU1 cfs1 0 -> 100: node 1's counter 0: writes (100)
 *   r3 CPU0 cfs0 100 -> 140: node 0's 100: 40*200 = 8000 > 100*50: writes
 *      (global: 200, no)
 *   r4 CPU1 cfs1 100 -> 160: node 1's 100: writes.
 * 4 writes, as stock recorded them: diverged 0.  Lines: r1 R0 L0 (fill)
 * W0 (its own copy only: 0); r2 R1 L1 (fill) W1 (0); r3, r4 hits: no
 * transfer (global budget:50: 4).
 */
static void test_budget_node(void)
{
	const struct fl_tg_policy pol[] = { { FL_TG_BUDGET, 50 } };
	const struct fa_layout lay[] = { { FA_LAYOUT_NODE, 0 } };
	struct fa_event ev[] = {
		topo(0, 0, 0), topo(0, 1, 1),
		upd_t(1 * MS, 0, 0, 100, 0, true, 100, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2),
		upd_t(2 * MS, 1, 1, 100, 0, true, 200, FL_SINCE_NEVER, FL_TG_STOCK, 0, 2),
		upd_t(3 * MS, 0, 0, 140, 100, true, 240, 2 * MS, FL_TG_STOCK, 0, 2),
		upd_t(4 * MS, 1, 1, 160, 100, true, 300, 2 * MS, FL_TG_STOCK, 0, 2),
	};
	struct run x;
	u64 n = 0;
	int d;

	run_lay(&x, pol, lay, 1, ev, 6);
	is_u64(fig(&x, 0)->writes, 4, "budget:50/node: 4 writes (r3 too: node 0's counter 100)");
	is_u64(fa_replay_result(x.r, 0)->diverged, 0, "budget:50/node: as stock recorded");
	is_u64(fig(&x, 0)->err.max_abs, 0, "budget:50/node: no error");
	for (d = 0; d < FA_COH_NR; d++)
		n += fig(&x, 0)->coh[d];
	is_u64(n, 0, "budget:50/node: no transfer (each node's line stays on its CPU)");
	done(&x);
}

/*
 * The replay's histograms add plainly while the spans it was handed sum
 * below 2^64 - 1 (fa_replay.hist_budget) and saturate from there, as the
 * engine's do.  Two groups, TG and TG + 1, recorded under fixed:1000, one
 * cfs_rq each on CPU 0, with the same records:
 *   u1  0 ms       load 2000, contrib 0: written (2000 > 1000), E 0
 *   u2  1 ms       load 2100, contrib 2000: not written (100), E -100
 *   u3  T = 2^64 - 1 - 2 ms  load 2000: E 0 again
 * |E| = 100 is held T - 1 ms in each group, 2^64 - 3 ms - 1 ns: below
 * 2^64 for one group, above it for two.  The engine saturates its
 * bucket of 100 when it merges the groups at the close; the replay adds
 * each group's span to its policy's bucket at the group's u3: TG's
 * (the spans summed so far 2^64 - 1 ms - 1 ns: exact), then TG + 1's,
 * the sum then saturated: it must saturate too, not wrap to 2^64 - 6 ms
 * - 2 ns.
 */
static void test_hist_saturates(void)
{
	const struct fl_tg_policy pol[] = { { FA_REPLAY_RECORDED, 0 } };
	const u64 T = ~0ull - 2 * MS;
	struct fa_event ev[6];
	const struct fa_segment *t, *f;
	struct run x;
	u32 i, b = fa_hist_index(100);

	for (i = 0; i < 2; i++) {
		ev[i] = upd(0, 0, TG + i, 0, 2000, 0, true, 2000, FL_TG_FIXED, 1000);
		ev[2 + i] = upd(1 * MS, 0, TG + i, 0, 2100, 2000, false, 2000,
				FL_TG_FIXED, 1000);
		ev[4 + i] = upd(T, 0, TG + i, 0, 2000, 2000, false, 2000,
				FL_TG_FIXED, 1000);
	}
	run(&x, pol, 1, ev, 6);
	t = fa_engine_total(x.e);
	f = fig(&x, 0);
	is_u64(t->err.abs.w[b], ~0ull, "engine: |E| = 100 held 2 x (2^64 - 3 ms - 1 ns): saturated");
	is_u64(f->err.abs.w[b], t->err.abs.w[b], "recorded: the engine's saturated bucket, not a wrapped one");
	is_u64(f->err.max_abs, 100, "recorded: |E| max 100");
	is_u64(f->writes, 2, "recorded: the 2 writes (u1 in each group)");
	ok(!memcmp(f->err.abs.w, t->err.abs.w, sizeof(t->err.abs.w)),
	   "recorded: every |E| bucket the engine's");
	done(&x);
}

/*
 * The same for the reads' shares error: test_reads()'s u1-u3, r1 (cfs0,
 * 30 ms) and r2 (cfs1, 50 ms), then cfs0 read again at T = 2^64 - 1 -
 * 2 ms and cfs1 at T + 1 ns, with the same fields (no shares error as
 * recorded: its buckets 0).  r1's error is held T - 30 ms, r2's T - 50
 * ms + 1 ns: each below 2^64, together above.  The replay adds r1's span
 * plainly (the spans so far below 2^64 - 1), r2's saturating.
 */
static void test_hist_saturates_reads(void)
{
	const struct fl_tg_policy pol[] = { { FA_REPLAY_RECORDED, 0 } };
	const u64 T = ~0ull - 2 * MS;
	struct fa_event ev[7];
	const struct fa_segment *t, *f;
	struct run x;

	reads_records(ev);	/* its u4 replaced: */
	ev[5] = rd_t(T, 0, 0, 310, 100, 100, 330, 1);
	ev[6] = rd_t(T + 1, 1, 1, 310, 210, 210, 693, 1);
	run(&x, pol, 1, ev, 7);
	t = fa_engine_total(x.e);
	f = fig(&x, 0);
	is_u64(t->read_mismatch, 0, "reads past 2^63 ns: every read adds up");
	is_u64(t->shares.bnd.w[0], ~0ull, "engine: no shares error held 2 x ~2^64 ns: saturated");
	is_u64(f->shares.bnd.w[0], ~0ull, "recorded: its bounded bucket saturated, not wrapped");
	ok(!memcmp(f->shares.bnd.w, t->shares.bnd.w, sizeof(t->shares.bnd.w)),
	   "recorded: every bounded shares-error bucket the engine's");
	ok(!memcmp(f->shares.rel.w, t->shares.rel.w, sizeof(t->shares.rel.w)),
	   "recorded: every relative shares-error bucket the engine's");
	done(&x);
}

int main(void)
{
	test_fixed_and_switches();
	test_ratelimit_clock();
	test_budget_tg_load();
	test_budget_split_record();
	test_stock_gate();
	test_reads();
	test_reads_bad_and_segment_end();
	test_replay_only();
	test_switch_resolve();
	test_offline_clear();
	test_layouts();
	test_layout_recorded_hits();
	test_layout_late_topology();
	test_budget_node();
	test_hist_saturates();
	test_hist_saturates_reads();
	return tap_done();
}
