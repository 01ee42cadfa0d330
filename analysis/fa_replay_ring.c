// SPDX-License-Identifier: GPL-2.0
/*
 * What-if replay on a thread of its own, every policy on it (part[1]),
 * fed through a ring of RP_RING_SLOTS batches by the engine's thread
 * (fa_replay_int.h: struct rp_ring).  A slot holds a batch of records
 * and then what the engine's thread queued behind them (struct rp_cap: a
 * segment close's spans and figures), which the replay thread applies
 * after the records, in order: so a close never waits for the replay.
 *
 * Why a ring and not the two halves of fa_replay_batch.c: the replay
 * itself costs about as much on either thread, but every record the
 * engine's thread writes into a line the replay thread read last costs
 * a transfer between their caches.  With 8 slots whatif took 18% more
 * CPU than on one thread, with 32 about 4% more, for 7% less wall time
 * on 2 CPUs in alternating rounds, but none in a make bench-analyzer run
 * (docs/benchmarks.md, 2026-12-05 17:52-18:44): unasked, the ring waits
 * for a third CPU (fa_fj_ring_wanted()).
 */
#include <pthread.h>
#include <stdlib.h>

#include "fa_replay_int.h"

struct rp_ring {
	pthread_mutex_t mu;
	pthread_cond_t filled;	/* a slot was handed over, or quit */
	pthread_cond_t emptied;	/* a slot was replayed */
	pthread_t th;
	u64 head, tail;		/* slots handed over, replayed (under mu) */
	bool quit;		/* under mu */
	u64 wait_ns[2];		/* the engine's thread / the replay thread waited */
	struct rp_slot slot[RP_RING_SLOTS];
};

/* The slot the engine's thread fills: not in the replay thread's [tail, head). */
static struct rp_slot *own_slot(struct rp_ring *g)
{
	return &g->slot[g->head % RP_RING_SLOTS];
}

/*
 * Under mu, on the engine's thread: until fewer than @limit slots are
 * queued for the replay thread, the time waited counted.
 */
static void wait_below(struct rp_ring *g, u64 limit)
{
	u64 t0;

	if (g->head - g->tail < limit)
		return;
	t0 = rp_wall_ns();
	while (g->head - g->tail >= limit)
		pthread_cond_wait(&g->emptied, &g->mu);
	g->wait_ns[0] += rp_wall_ns() - t0;
}

static void replay_slot(struct fa_replay *r, const struct rp_slot *s)
{
	u32 k;

	rp_replay_batch(r, &r->part[1], s->recs, s->n);
	for (k = 0; k < s->ncap; k++)
		rp_cap_apply(r, &s->cap[k]);
}

static void *replay_thread(void *arg)
{
	struct fa_replay *r = arg;
	struct rp_ring *g = r->ring;

	pthread_mutex_lock(&g->mu);
	for (;;) {
		if (g->tail == g->head && !g->quit) {
			u64 t0 = rp_wall_ns();

			while (g->tail == g->head && !g->quit)
				pthread_cond_wait(&g->filled, &g->mu);
			g->wait_ns[1] += rp_wall_ns() - t0;
		}
		if (g->tail == g->head)
			break;	/* quit, every slot replayed */
		pthread_mutex_unlock(&g->mu);
		replay_slot(r, &g->slot[g->tail % RP_RING_SLOTS]);
		pthread_mutex_lock(&g->mu);
		g->tail++;
		pthread_cond_signal(&g->emptied);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

int rp_ring_start(struct fa_replay *r)
{
	struct rp_ring *g = calloc(1, sizeof(*g));
	u32 i;

	if (!g)
		return -1;
	for (i = 0; i < RP_RING_SLOTS; i++) {
		g->slot[i].recs = calloc(RP_BATCH, sizeof(struct rp_rec));
		if (!g->slot[i].recs)
			goto fail;
	}
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->filled, NULL);
	pthread_cond_init(&g->emptied, NULL);
	r->ring = g;
	r->batch = g->slot[0].recs;
	r->nbatch = 0;
	/* the reader's guard signals its own thread only */
	if (!fa_thread_start(&g->th, replay_thread, r))
		return 0;
	r->ring = NULL;
	r->batch = NULL;
	pthread_cond_destroy(&g->emptied);
	pthread_cond_destroy(&g->filled);
	pthread_mutex_destroy(&g->mu);
fail:
	for (i = 0; i < RP_RING_SLOTS; i++)
		free(g->slot[i].recs);
	free(g);
	return -1;
}

/*
 * The engine's slot, its records (fa_replay.nbatch) and what was queued
 * behind them, to the replay thread; the next slot, once it is free.
 */
static void hand_over(struct fa_replay *r)
{
	struct rp_ring *g = r->ring;
	struct rp_slot *s = own_slot(g);

	s->n = r->nbatch;
	pthread_mutex_lock(&g->mu);
	g->head++;
	pthread_cond_signal(&g->filled);
	wait_below(g, RP_RING_SLOTS);	/* the next slot free */
	pthread_mutex_unlock(&g->mu);
	s = own_slot(g);
	s->n = 0;
	s->ncap = 0;
	r->batch = s->recs;
	r->nbatch = 0;
}

void rp_ring_handoff(struct fa_replay *r, bool sync)
{
	const struct rp_slot *s = own_slot(r->ring);

	if (r->nbatch || s->ncap)
		hand_over(r);
	if (sync)
		rp_ring_drain(r);
}

void rp_ring_drain(struct fa_replay *r)
{
	struct rp_ring *g = r->ring;

	pthread_mutex_lock(&g->mu);
	wait_below(g, 1);	/* none queued */
	pthread_mutex_unlock(&g->mu);
	/* the replay thread's part, read while it is idle */
	r->nomem1 |= r->part[1].nomem;
}

struct rp_cap *rp_ring_cap(struct fa_replay *r)
{
	struct rp_slot *s = own_slot(r->ring);

	if (s->ncap == s->capn) {
		u32 n = s->capn ? 2 * s->capn : 64;
		struct rp_cap *c = n > s->capn ? realloc(s->cap, n * sizeof(*c)) : NULL;

		if (!c)
			return NULL;
		s->cap = c;
		s->capn = n;
	}
	return &s->cap[s->ncap++];
}

void rp_ring_waits(const struct fa_replay *r, u64 *engine_ns, u64 *replay_ns)
{
	struct rp_ring *g = r->ring;

	*engine_ns = *replay_ns = 0;
	if (!g)
		return;
	pthread_mutex_lock(&g->mu);
	*engine_ns = g->wait_ns[0];
	*replay_ns = g->wait_ns[1];
	pthread_mutex_unlock(&g->mu);
}

void rp_ring_stop(struct fa_replay *r)
{
	struct rp_ring *g = r->ring;
	u32 i;

	if (!g)
		return;
	pthread_mutex_lock(&g->mu);
	g->quit = true;
	pthread_cond_signal(&g->filled);
	pthread_mutex_unlock(&g->mu);
	pthread_join(g->th, NULL);
	pthread_cond_destroy(&g->emptied);
	pthread_cond_destroy(&g->filled);
	pthread_mutex_destroy(&g->mu);
	for (i = 0; i < RP_RING_SLOTS; i++) {
		free(g->slot[i].recs);
		free(g->slot[i].cap);
	}
	free(g);
	r->ring = NULL;
}
