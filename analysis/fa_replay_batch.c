// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay a batch of records at a time; on two threads, the
 * policies in two parts, the helper thread's part replaying a batch of
 * records while the engine fills the next (fa_replay_int.h: struct
 * fa_replay), the split rebalanced by the parts' CPU time; unless asked
 * for, the helper is used only while it pays, tried by the wall clock
 * (choose()).
 */
#include <time.h>

#include "fa_replay_int.h"

/* The calling thread's CPU time, ns (0 where the clock is missing). */
static u64 thread_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

void rp_helper_job(void *arg)
{
	struct fa_replay *r = arg;
	u64 t0 = thread_ns();

	rp_replay_batch(r, &r->part[1], r->hb, r->hn);
	r->helper_ns = thread_ns() - t0;
}

void rp_quiesce(struct fa_replay *r)
{
	if (r->ring) {
		rp_ring_drain(r);
		return;
	}
	if (!r->busy)
		return;
	fa_fj_wait(r->fj);
	r->busy = false;
	r->nomem1 |= r->part[1].nomem;
}

/*
 * The parts' policies as fa_replay.solo and .mid say: every policy in
 * part[0] on one thread (set_solo()), or split at mid.  Each part then
 * makes its rules again at its next record.
 */
static void set_parts(struct fa_replay *r)
{
	u32 mid = r->solo ? r->npol : r->mid;

	rp_set_part(r, &r->part[0], 0, mid);
	rp_set_part(r, &r->part[1], mid, r->npol);
	r->part[0].rules_made = false;
	r->part[1].rules_made = false;
}

/*
 * At the handoff of a full batch: the engine thread's work since the
 * last one (its part of the previous batch, then the engine's on this
 * one while the helper replayed the previous batch) against the helper's part of
 * that batch, each averaged over the last batches (weight 1/8: one
 * batch's work depends on its groups and records).  The busier side
 * hands one policy to the other when it did over 1/16 more: each part
 * then makes its rules again at its next record.  Which thread replays a
 * policy changes no figure: its state is its own.
 */
static void rebalance(struct fa_replay *r, u64 own_ns, u64 other_ns)
{
	u32 mid = r->mid;
	u64 own, other;

	if (!r->own_avg) {
		r->own_avg = own_ns;
		r->other_avg = other_ns;
	}
	r->own_avg += own_ns / 8 - r->own_avg / 8;
	r->other_avg += other_ns / 8 - r->other_avg / 8;
	own = r->own_avg;
	other = r->other_avg;
	if (own > other + other / 16 && mid > 1)
		mid--;
	else if (other > own + own / 16 && mid + 1 < r->npol)
		mid++;
	else
		return;
	r->mid = mid;
	set_parts(r);
}

/*
 * Whether the helper pays is found by trying, unasked: a second thread is
 * a wall-clock gain only where a core is free for it and close to the
 * engine's, and the handoff moves every record's cache lines between the
 * two.  On one 2-core host, within minutes, the same replay took 1.7 s or
 * 2.6 s on two threads, against 2.05 s on one
 * (docs/history/2026-12-05-analyzer-speed.md, "Speed of fairlab whatif").
 * So RP_TRY full batches go each way, timed by the wall clock from handoff
 * to handoff, and the faster way keeps the next
 * RP_KEEP batches; then again.  Trying costs at most RP_TRY of every
 * 2 * RP_TRY + RP_KEEP batches the slower way.  Which thread replays a
 * policy changes no figure.
 */
#define RP_TRY	8
#define RP_KEEP	56
enum { RP_TRY_TWO, RP_TRY_ONE, RP_KEPT };

/*
 * Both parts' policies on the engine's thread (@solo), or split at
 * fa_replay.mid.  On one thread, part[0] takes them all: each part does
 * some work per record whatever its policies (its rules checked, a
 * read's kernel shares worked out), and one pass over the batch instead
 * of two took 4.5% less CPU (docs/history/2026-12-05-analyzer-speed.md,
 * "Speed of fairlab whatif").
 */
static void set_solo(struct fa_replay *r, bool solo)
{
	if (solo == r->solo)
		return;
	r->solo = solo;
	set_parts(r);
}

/* At a full batch's handoff, the helper idle: one thread or two for it. */
static void choose(struct fa_replay *r)
{
	u64 now;

	if (r->forced)
		return;
	now = rp_wall_ns();
	if (!r->phase_t0) {
		r->phase = RP_TRY_TWO;
		set_solo(r, false);
		r->left = RP_TRY;
		r->phase_t0 = now;
		return;
	}
	if (--r->left)
		return;
	switch (r->phase) {
	case RP_TRY_TWO:
		r->tried[1] = now - r->phase_t0;
		r->phase = RP_TRY_ONE;
		set_solo(r, true);
		r->left = RP_TRY;
		break;
	case RP_TRY_ONE:
		r->tried[0] = now - r->phase_t0;
		r->phase = RP_KEPT;
		set_solo(r, r->tried[0] <= r->tried[1]);
		r->left = RP_KEEP;
		break;
	default:
		r->phase = RP_TRY_TWO;
		set_solo(r, false);
		r->left = RP_TRY;
		break;
	}
	r->phase_t0 = now ? now : 1;
}

/*
 * The filled batch to both parts: the helper's part on it starts, the
 * engine thread's runs now, and the engine fills the other buffer while
 * the helper goes on (@sync: or waits for it).  Called with the helper's
 * previous batch perhaps still running: it finishes first.
 */
void rp_handoff(struct fa_replay *r, bool sync)
{
	u32 n = r->nbatch;
	u64 t0;

	if (r->ring) {
		rp_ring_handoff(r, sync);
		return;
	}
	if (!n) {
		if (sync)
			rp_quiesce(r);
		return;
	}
	if (!r->fj) {
		/* one thread: every policy in part[0] */
		rp_replay_batch(r, &r->part[0], r->batch, n);
		r->nbatch = 0;
		return;
	}
	t0 = thread_ns();
	rp_quiesce(r);
	if (n == RP_BATCH)
		choose(r);
	if (r->solo) {
		/* every policy in part[0] (set_solo()): nothing to rebalance */
		rp_replay_batch(r, &r->part[0], r->batch, n);
		r->batches[0] += n == RP_BATCH;
		r->mark = 0;
		r->nbatch = 0;
		return;
	}
	r->batches[1] += n == RP_BATCH;
	if (n == RP_BATCH && r->mark && t0)
		rebalance(r, t0 - r->mark, r->helper_ns);
	r->mark = t0;
	r->hb = r->batch;
	r->hn = n;
	r->busy = true;
	fa_fj_run(r->fj);
	rp_replay_batch(r, &r->part[0], r->hb, n);
	r->batch = r->batch == r->buf ? r->buf + RP_BATCH : r->buf;
	r->nbatch = 0;
	if (sync)
		rp_quiesce(r);
}

void fa_replay_flush(struct fa_replay *r)
{
	rp_handoff(r, true);
}
