// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay on two threads: the policies in two parts, the helper
 * thread's part replaying a batch of records while the engine fills the
 * next (fa_replay_int.h: struct fa_replay), the split rebalanced by the
 * parts' CPU time.
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
	if (!r->busy)
		return;
	fa_fj_wait(r->fj);
	r->busy = false;
	r->nomem1 |= r->part[1].nomem;
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
	u32 mid = r->part[0].hi;
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
	rp_set_part(r, &r->part[0], 0, mid);
	rp_set_part(r, &r->part[1], mid, r->npol);
	r->part[0].rules_made = false;
	r->part[1].rules_made = false;
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

	if (!n) {
		if (sync)
			rp_quiesce(r);
		return;
	}
	t0 = thread_ns();
	rp_quiesce(r);
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
