// SPDX-License-Identifier: GPL-2.0
/*
 * Reader -> engine pipeline on a second thread (see pipe.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipe.h"

/*
 * Hysteresis: a thread that had to wait is woken only when it has
 * FL_PIPE_WAKE batches to work on (or the end), not for each one, so that
 * two threads of unequal speed do not wake each other per batch.
 */
#define FL_PIPE_WAKE (FL_PIPE_BATCHES / 2)

/*
 * A batch holds its records packed: each takes the bytes its type uses
 * (fa_event_bytes(), rounded up to 8), not a whole struct fa_event.  A
 * tg_update is 80 of the struct's 168 bytes; every byte the reader's
 * thread writes, the engine's reads from the other core's cache, and
 * whatif took 3% less CPU packed (2026-12-04, 4 M-record generated file,
 * 4 alternating rounds).  buf has room for FL_PIPE_BATCH whole structs,
 * so a slot always has sizeof(struct fa_event) bytes to be decoded into.
 */
struct fl_batch {
	u32 n;
	u32 used;			/* bytes of buf holding n records */
	unsigned char buf[FL_PIPE_BATCH * sizeof(struct fa_event)]
		__attribute__((aligned(64)));
};

static inline u32 packed_bytes(const struct fa_event *ev)
{
	return (u32)((fa_event_bytes(ev) + 7) & ~(size_t)7);
}

struct fl_pipe {
	struct fa_engine *e;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled;		/* a batch was handed over, or done */
	pthread_cond_t emptied;		/* a batch was consumed */
	u64 head, tail;			/* batches handed over, consumed */
	bool done, quit;		/* under lock */
	bool reader_waits, engine_waits;	/* under lock: asleep on a condition */
	bool failed;			/* under lock: the engine failed */
	struct fl_batch *cur;		/* being filled by the reader */
	struct fl_batch ring[FL_PIPE_BATCHES];
};

static int feed(struct fa_engine *e, const struct fl_batch *b)
{
	struct fa_event *slot;
	u32 i, off = 0;

	for (i = 0; i < b->n; i++) {
		const struct fa_event *ev = (const struct fa_event *)(b->buf + off);

		slot = fa_engine_slot(e);
		if (!slot)
			return -1;
		memcpy(slot, ev, fa_event_bytes(ev));
		off += packed_bytes(ev);
		if (fa_engine_push(e))
			return -1;
	}
	return 0;
}

static double engine_cpu;

double fl_pipe_engine_cpu_secs(void)
{
	return engine_cpu;
}

/* Keeps the calling (engine) thread's CPU time in engine_cpu. */
static void *account(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	engine_cpu = (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
	return NULL;
}

static void *engine_thread(void *arg)
{
	struct fl_pipe *p = arg;
	struct fl_batch *b;
	bool failed = false;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		if (p->tail == p->head) {
			p->engine_waits = true;
			while (p->head - p->tail < FL_PIPE_WAKE && !p->done && !p->quit)
				pthread_cond_wait(&p->filled, &p->lock);
			p->engine_waits = false;
		}
		if (p->quit || p->tail == p->head) {
			pthread_mutex_unlock(&p->lock);
			return account();
		}
		b = &p->ring[p->tail % FL_PIPE_BATCHES];
		pthread_mutex_unlock(&p->lock);

		/* After a failure the batches are only drained. */
		if (!failed && feed(p->e, b))
			failed = true;

		pthread_mutex_lock(&p->lock);
		p->tail++;
		p->failed = failed;
		if (p->reader_waits &&
		    (failed || p->head - p->tail <= FL_PIPE_BATCHES - FL_PIPE_WAKE))
			pthread_cond_signal(&p->emptied);
		pthread_mutex_unlock(&p->lock);
	}
}

int fl_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int err;

	/*
	 * The thread takes no asynchronous signal: the guard's watchdog (and
	 * SIGINT, SIGTERM) go to the reader's thread.  Faults stay
	 * deliverable: one in our code is a bug, and crashes.
	 */
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGABRT);
	sigdelset(&all, SIGTRAP);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

struct fl_pipe *fl_pipe_start(struct fa_engine *e)
{
	const char *env = getenv("FAIRLAB_THREADS");
	struct fl_pipe *p;
	int err;

	if (env && !strcmp(env, "0"))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->e = e;
	if (pthread_mutex_init(&p->lock, NULL))
		goto fail;
	if (pthread_cond_init(&p->filled, NULL))
		goto fail_lock;
	if (pthread_cond_init(&p->emptied, NULL))
		goto fail_filled;
	err = fl_thread_start(&p->thread, engine_thread, p);
	if (err)
		goto fail_thread;
	return p;
fail_thread:
	pthread_cond_destroy(&p->emptied);
fail_filled:
	pthread_cond_destroy(&p->filled);
fail_lock:
	pthread_mutex_destroy(&p->lock);
fail:
	free(p);
	return NULL;
}

struct fa_event *fl_pipe_slot(struct fl_pipe *p)
{
	bool failed;

	if (p->cur)
		return (struct fa_event *)(p->cur->buf + p->cur->used);
	pthread_mutex_lock(&p->lock);
	if (p->head - p->tail == FL_PIPE_BATCHES) {
		p->reader_waits = true;
		while (p->head - p->tail > FL_PIPE_BATCHES - FL_PIPE_WAKE && !p->failed)
			pthread_cond_wait(&p->emptied, &p->lock);
		p->reader_waits = false;
	}
	failed = p->failed;
	pthread_mutex_unlock(&p->lock);
	if (failed)
		return NULL;
	/* Not in the consumer's range [tail, head): the reader's alone. */
	p->cur = &p->ring[p->head % FL_PIPE_BATCHES];
	p->cur->n = 0;
	p->cur->used = 0;
	return (struct fa_event *)p->cur->buf;
}

static void hand_over(struct fl_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->head++;
	if (p->engine_waits && p->head - p->tail >= FL_PIPE_WAKE)
		pthread_cond_signal(&p->filled);
	pthread_mutex_unlock(&p->lock);
	p->cur = NULL;
}

void fl_pipe_commit(struct fl_pipe *p)
{
	p->cur->used += packed_bytes((const struct fa_event *)(p->cur->buf + p->cur->used));
	if (++p->cur->n == FL_PIPE_BATCH)
		hand_over(p);
}

static void stop(struct fl_pipe *p, bool quit)
{
	pthread_mutex_lock(&p->lock);
	p->done = true;
	p->quit = quit;
	pthread_cond_signal(&p->filled);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->filled);
	pthread_cond_destroy(&p->emptied);
	pthread_mutex_destroy(&p->lock);
}

int fl_pipe_finish(struct fl_pipe *p)
{
	int ret;

	if (p->cur && p->cur->n)
		hand_over(p);
	stop(p, false);
	ret = p->failed ? -1 : 0;
	free(p);
	return ret;
}

void fl_pipe_abort(struct fl_pipe *p)
{
	stop(p, true);
	free(p);
}
