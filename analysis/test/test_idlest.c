// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the placement what-if (fa_idlest.h) on hand-made
 * pick_idlest sequences, fed through the engine as the reader does.
 * Every expected figure is worked out by hand in the comments; the
 * decisions themselves come from module/policy/.
 */
#include <string.h>

#include "fa_engine.h"
#include "fa_idlest.h"
#include "tap.h"

#define UINT_MAX_LOAD 0xffffffffull

static const struct fl_sg_stats SENT = {
	.group_type = FL_GROUP_OVERLOADED, .avg_load = UINT_MAX_LOAD,
};

/* A has_spare group: idle CPUs, group_util, sum_nr_running. */
static struct fl_sg_stats hs(u32 idle, u64 util, u32 nr)
{
	return (struct fl_sg_stats){ .group_type = FL_GROUP_HAS_SPARE, .idle_cpus = idle,
				     .group_util = util, .sum_nr_running = nr,
				     .max_capacity = 1024 };
}

static struct fl_sg_stats typed(u32 type, u64 avg_load)
{
	return (struct fl_sg_stats){ .group_type = type, .avg_load = avg_load,
				     .group_util = 900, .sum_nr_running = 3,
				     .max_capacity = 1024 };
}

static u64 ts;

static struct fa_event pick(s32 cpu, s32 icpu, struct fl_sg_stats is, s32 gcpu,
			    struct fl_sg_stats gs, bool picked, u8 policy)
{
	struct fa_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ++ts * 1000;
	ev.cpu = cpu;
	ev.type = FA_EV_PICK_IDLEST;
	ev.u.pick_idlest.idlest = is;
	ev.u.pick_idlest.group = gs;
	ev.u.pick_idlest.idlest_cpu = icpu;
	ev.u.pick_idlest.group_cpu = gcpu;
	ev.u.pick_idlest.picked = picked;
	ev.u.pick_idlest.policy = policy;
	return ev;
}

static struct fa_idlest_replay *run(const struct fa_event *ev, u32 n)
{
	struct fa_idlest_replay *r = fa_idlest_new();
	struct fa_engine_cfg cfg = { .idlest = r };
	struct fa_engine *e = fa_engine_new(&cfg);
	u32 i;

	for (i = 0; i < n; i++)
		fa_engine_feed(e, &ev[i]);
	fa_engine_finish(e);
	fa_idlest_finish(r);
	fa_engine_free(e);
	return r;
}

/*
 * Six calls on four CPUs, interleaved in time, recorded under stock:
 *  A (CPU 0): groups 2 hs(2 idle, util 50, nr 0), 4 hs(2, 10, 1),
 *     6 hs(2, 30, 0): stock takes 2, then 4 (util 50 > 10), keeps 4
 *     (10 < 30): recorded pick 4.  idle_cpus keeps the first of the tie,
 *     2; nr_running keeps 2 (0 > 1 no, 0 > 0 no): both differ.  Decided
 *     on the recorded stats: r2 (2 vs 4) idle_cpus no / nr_running no,
 *     recorded yes; r3 (4 vs 6) nr_running yes (1 > 0), recorded no.
 *  B (CPU 0): one candidate, group 1: everyone picks 1.
 *  M (CPU 1): begins inside a call (idlest_cpu 3): inconsistent, 1 record.
 *  C (CPU 1): group 0 fully_busy, then 6 has_spare (lower type): 6 for
 *     every policy.
 *  D (CPU 1): group 2, then a record whose idlest side (util 99) is not
 *     group 2's: inconsistent, 2 records.
 *  E (CPU 2): one candidate recorded as not picked, which every policy
 *     takes (a mismatch): recorded pick none, every policy's 0.
 *  F (CPU 3): group 0 overloaded with avg_load > UINT_MAX, which loses
 *     to the sentinel, then a second -1 record (the same call), group 4
 *     taken by all: one call of 2 candidates, no difference.
 */
static void test_calls(void)
{
	const struct fa_event ev[] = {
		pick(0, -1, SENT, 2, hs(2, 50, 0), 1, FL_IDLEST_STOCK),		/* A r1 */
		pick(1, 3, hs(1, 7, 0), 5, hs(1, 2, 0), 1, FL_IDLEST_STOCK),	/* M */
		pick(0, 2, hs(2, 50, 0), 4, hs(2, 10, 1), 1, FL_IDLEST_STOCK),	/* A r2 */
		pick(1, -1, SENT, 0, typed(FL_GROUP_FULLY_BUSY, 100), 1, FL_IDLEST_STOCK), /* C */
		pick(2, -1, SENT, 0, hs(1, 0, 0), 0, FL_IDLEST_STOCK),		/* E: wrong flag */
		pick(0, 4, hs(2, 10, 1), 6, hs(2, 30, 0), 0, FL_IDLEST_STOCK),	/* A r3 */
		pick(1, 0, typed(FL_GROUP_FULLY_BUSY, 100), 6, hs(1, 9, 0), 1, FL_IDLEST_STOCK),
		pick(3, -1, SENT, 0, typed(FL_GROUP_OVERLOADED, UINT_MAX_LOAD + 5), 0,
		     FL_IDLEST_STOCK),						/* F */
		pick(0, -1, SENT, 1, hs(1, 5, 0), 1, FL_IDLEST_STOCK),		/* B */
		pick(1, -1, SENT, 2, hs(2, 0, 0), 1, FL_IDLEST_STOCK),		/* D */
		pick(3, -1, SENT, 4, hs(2, 0, 0), 1, FL_IDLEST_STOCK),		/* F */
		pick(1, 2, hs(2, 99, 0), 4, hs(2, 0, 0), 1, FL_IDLEST_STOCK),	/* D: bad chain */
	};
	struct fa_idlest_replay *r = run(ev, sizeof(ev) / sizeof(ev[0]));
	const struct fa_idlest_totals *t = fa_idlest_totals(r);
	const struct fa_idlest_result *s = fa_idlest_result(r, FL_IDLEST_STOCK);
	const struct fa_idlest_result *i = fa_idlest_result(r, FL_IDLEST_IDLE_CPUS);
	const struct fa_idlest_result *n = fa_idlest_result(r, FL_IDLEST_NR_RUNNING);

	is_u64(t->records, 12, "12 records fed");
	is_u64(t->calls, 5, "calls A, B, C, E, F are consistent");
	is_u64(t->inconsistent, 2, "M (begins inside a call) and D (idlest side not the call's pick) are not");
	is_u64(t->inconsistent_records, 3, "M's record and D's two are left out");
	is_u64(t->mismatches, 1, "E's wrong picked flag is the one self-check mismatch");
	is_u64(t->policies_seen, 1u << FL_IDLEST_STOCK, "recorded under stock only");

	is_u64(s->calls, 5, "stock: 5 calls");
	is_u64(s->choice_calls, 3, "stock: A (3 candidates), C and F (2) hold a choice");
	is_u64(s->decisions, 9, "stock: 3 + 1 + 2 + 1 + 2 candidates");
	is_u64(s->differ, 1, "stock, the recorded policy: only E (its flag is wrong) differs");
	is_u64(s->by_type[FA_IDLEST_NONE][FL_GROUP_HAS_SPARE], 1, "stock: E is none -> has_spare");
	is_u64(s->dec_differ, 1, "stock: E's record is decided otherwise");

	is_u64(i->differ, 2, "idle_cpus: A (keeps group 2) and E differ");
	is_u64(i->by_type[FL_GROUP_HAS_SPARE][FL_GROUP_HAS_SPARE], 1, "idle_cpus: A is has_spare -> has_spare");
	is_u64(i->by_type[FA_IDLEST_NONE][FL_GROUP_HAS_SPARE], 1, "idle_cpus: E is none -> has_spare");
	is_u64(i->dec_differ, 2, "idle_cpus: A r2 and E decided otherwise");

	is_u64(n->differ, 2, "nr_running: A (keeps group 2) and E differ");
	is_u64(n->dec_differ, 3, "nr_running: A r2, A r3 and E decided otherwise");
	fa_idlest_free(r);
}

/*
 * Recorded under idle_cpus: groups 2 hs(1, 40, 2), 4 hs(1, 20, 1): the
 * first stays (recorded pick 2, r2 not picked).  stock takes 4 (40 > 20),
 * nr_running takes 4 (2 > 1): both differ; idle_cpus, the recorded, not.
 * The recorded policy reproduces every flag (no mismatch).
 */
static void test_recorded_idle_cpus(void)
{
	const struct fa_event ev[] = {
		pick(5, -1, SENT, 2, hs(1, 40, 2), 1, FL_IDLEST_IDLE_CPUS),
		pick(5, 2, hs(1, 40, 2), 4, hs(1, 20, 1), 0, FL_IDLEST_IDLE_CPUS),
	};
	struct fa_idlest_replay *r = run(ev, 2);
	const struct fa_idlest_totals *t = fa_idlest_totals(r);

	is_u64(t->calls, 1, "idle_cpus recording: one call");
	is_u64(t->mismatches, 0, "idle_cpus recording: every flag reproduced");
	is_u64(fa_idlest_result(r, FL_IDLEST_IDLE_CPUS)->differ, 0, "idle_cpus: its own picks");
	is_u64(fa_idlest_result(r, FL_IDLEST_STOCK)->differ, 1, "stock: takes group 4 (lower util)");
	is_u64(fa_idlest_result(r, FL_IDLEST_NR_RUNNING)->differ, 1, "nr_running: takes group 4 (fewer tasks)");
	is_u64(fa_idlest_result(r, FL_IDLEST_STOCK)->choice_calls, 1, "the call holds a choice");
	fa_idlest_free(r);
}

int main(void)
{
	test_calls();
	test_recorded_idle_cpus();
	return tap_done();
}
