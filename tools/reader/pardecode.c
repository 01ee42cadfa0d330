// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU streams decoded on several threads, merged in order (see
 * pardecode.h).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "guard.h"
#include "merge.h"
#include "pardecode.h"
#include "pipe.h"

#define WAIT_MS 250

struct slot {
	int n, status;			/* records; fill()'s return */
	char err[200];
	struct fl_par_item it[];	/* [par.items] */
};

struct stream {
	struct slot *slot[FL_PAR_SLOTS];	/* allocated by its thread on first use */
	unsigned long long head, tail;	/* under lock: slots filled, consumed */
	bool finished;			/* under lock: its last slot is filled */
	int pos;			/* the merge's: next record of slot tail */
	bool have;			/* the merge's: slot tail is filled */
};

struct par;

struct worker {
	struct par *p;
	int w;
	pthread_t t;
	bool started;
};

struct par {
	/*
	 * The caller's source, copied: a stalled thread left running must not
	 * read the caller's stack after fl_par_run() returns.
	 */
	struct fl_par_src src;
	int threads;
	int items;			/* records per slot (slot_items()) */
	pthread_mutex_t lock;
	pthread_cond_t filled;		/* a slot was filled, or fatal */
	pthread_cond_t space;		/* a slot was consumed, or quit */
	unsigned long long progress;	/* under lock: slots filled */
	unsigned int stall_ms;		/* no slot filled for that long: a stall */
	bool quit;			/* under lock */
	bool fatal;			/* under lock: fatal_msg says why */
	bool stalled;			/* the merge's: the fatal end was a stall */
	char fatal_msg[200];
	double decode_cpu;		/* under lock */
	struct stream *st;
	struct worker wk[];
};

static struct fl_par_stats last;

/*
 * What is left on purpose (fl_par_keep()), reachable from here.  A fixed
 * array: a faulted thread must not call malloc (the fault may have come
 * inside it, its lock held).
 */
#define FL_PAR_KEPT	1024
static void *kept[FL_PAR_KEPT];
static atomic_uint nkept;

void fl_par_keep(void *ptr)
{
	unsigned int i;

	if (!ptr)
		return;
	i = atomic_fetch_add(&nkept, 1);
	if (i < FL_PAR_KEPT)
		kept[i] = ptr;
}

const struct fl_par_stats *fl_par_last_stats(void)
{
	return &last;
}

static double secs(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
	return secs(CLOCK_THREAD_CPUTIME_ID);
}

static void set_fatal(struct par *p, const char *msg)
{
	pthread_mutex_lock(&p->lock);
	if (!p->fatal) {
		p->fatal = true;
		snprintf(p->fatal_msg, sizeof(p->fatal_msg), "%s", msg);
	}
	pthread_cond_broadcast(&p->filled);
	pthread_mutex_unlock(&p->lock);
}

/* Under lock: the stream of thread @w most in need of a slot, or -1. */
static int most_needed(struct par *p, int w, bool *all_done)
{
	unsigned long long fill, best_fill = FL_PAR_SLOTS;
	int i, best = -1;

	*all_done = true;
	for (i = w; i < p->src.streams; i += p->threads) {
		if (p->st[i].finished)
			continue;
		*all_done = false;
		fill = p->st[i].head - p->st[i].tail;
		if (fill < best_fill) {
			best_fill = fill;
			best = i;
		}
	}
	return best;
}

static void *decode_thread(void *arg)
{
	struct worker *wk = arg;
	struct par *p = wk->p;
	const struct fl_par_src *s = &p->src;
	double t0 = cpu_now();
	volatile int cur = -1;
	char msg[200];
	sigjmp_buf env;
	struct slot *sl;
	void *work;
	bool done;
	int i, ret;

	work = s->work_new(s->src);
	if (!work) {
		set_fatal(p, "out of memory");
		goto out;
	}
	if (sigsetjmp(env, 1)) {
		fl_guard_local_env = NULL;
		snprintf(msg, sizeof(msg), "libtraceevent faulted decoding the records of CPU index %d (a corrupt ring-buffer page)",
			 cur);
		set_fatal(p, msg);
		fl_par_keep(work);	/* its state is inconsistent: left, not freed */
		goto out;
	}
	fl_guard_local_env = &env;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		while ((i = most_needed(p, wk->w, &done)) < 0 && !done && !p->quit)
			pthread_cond_wait(&p->space, &p->lock);
		if (p->quit)
			i = -1;
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			break;
		sl = p->st[i].slot[p->st[i].head % FL_PAR_SLOTS];
		if (!sl) {
			sl = malloc(sizeof(*sl) + (size_t)p->items * sizeof(sl->it[0]));
			if (!sl) {
				set_fatal(p, "out of memory");
				break;
			}
			p->st[i].slot[p->st[i].head % FL_PAR_SLOTS] = sl;
		}
		cur = i;
		sl->n = 0;
		sl->err[0] = '\0';
		ret = s->fill(s->src, work, i, sl->it, p->items, &sl->n, sl->err,
			      sizeof(sl->err));
		sl->status = ret;
		pthread_mutex_lock(&p->lock);
		p->st[i].head++;
		p->st[i].finished = ret != 0;
		p->progress++;
		pthread_cond_broadcast(&p->filled);
		pthread_mutex_unlock(&p->lock);
	}
	fl_guard_local_env = NULL;
	s->work_free(s->src, work);
out:
	pthread_mutex_lock(&p->lock);
	p->decode_cpu += cpu_now() - t0;
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/*
 * Stream @i's next record in *@it: 1, 0 when the stream has no more, -2
 * (its error in @err), -3 (fatal: a thread faulted, stalled, or memory).
 */
static int next_item(struct par *p, int i, const struct fl_par_item **it,
		     char *err, size_t errlen, double *wait)
{
	struct stream *st = &p->st[i];
	unsigned long long seen;
	unsigned int idle_ms;
	struct timespec dl;
	struct slot *sl;
	double t;

	for (;;) {
		if (!st->have) {
			pthread_mutex_lock(&p->lock);
			t = secs(CLOCK_MONOTONIC);
			seen = p->progress;
			idle_ms = 0;
			while (st->tail == st->head && !p->fatal) {
				clock_gettime(CLOCK_REALTIME, &dl);
				dl.tv_nsec += WAIT_MS * 1000000L;
				if (dl.tv_nsec >= 1000000000L) {
					dl.tv_sec++;
					dl.tv_nsec -= 1000000000L;
				}
				if (pthread_cond_timedwait(&p->filled, &p->lock, &dl) != ETIMEDOUT)
					continue;
				if (p->progress != seen) {
					seen = p->progress;
					idle_ms = 0;
				} else if ((idle_ms += WAIT_MS) >= p->stall_ms) {
					p->fatal = true;
					p->stalled = true;
					snprintf(p->fatal_msg, sizeof(p->fatal_msg),
						 "libtraceevent made no progress for %u s decoding the records of CPU index %d (a corrupt ring-buffer page makes it loop)",
						 p->stall_ms / 1000, i);
				}
			}
			*wait += secs(CLOCK_MONOTONIC) - t;
			if (p->fatal) {
				snprintf(err, errlen, "%s", p->fatal_msg);
				pthread_mutex_unlock(&p->lock);
				return -3;
			}
			pthread_mutex_unlock(&p->lock);
			st->have = true;
		}
		/* slot tail is the merge's until it moves tail on: no lock */
		sl = st->slot[st->tail % FL_PAR_SLOTS];
		if (st->pos < sl->n) {
			*it = &sl->it[st->pos];
			return 1;
		}
		if (sl->status > 0)
			return 0;
		if (sl->status < 0) {
			snprintf(err, errlen, "%s", sl->err);
			return -2;
		}
		pthread_mutex_lock(&p->lock);
		st->tail++;
		pthread_cond_broadcast(&p->space);
		pthread_mutex_unlock(&p->lock);
		st->pos = 0;
		st->have = false;
	}
}

static int merge(struct par *p, int (*deliver)(const struct fl_par_item *it, void *arg),
		 void *arg, char *err, size_t errlen, double *wait)
{
	const struct fl_par_item *it;
	int n = 0, i, ret = 0, got;
	struct fl_key *h;

	h = malloc((size_t)p->src.streams * sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	for (i = 0; i < p->src.streams; i++) {
		got = next_item(p, i, &it, err, errlen, wait);
		if (got < 0) {
			free(h);
			return got;
		}
		if (got) {
			h[n].ts = it->ts;
			h[n++].i = i;
		}
	}
	fl_heap_init(h, n);
	while (n > 0) {
		i = h[0].i;
		it = &p->st[i].slot[p->st[i].tail % FL_PAR_SLOTS]->it[p->st[i].pos];
		ret = deliver(it, arg);
		if (ret < 0)
			break;
		p->st[i].pos++;
		got = next_item(p, i, &it, err, errlen, wait);
		if (got < 0) {
			ret = got;
			break;
		}
		fl_heap_next(h, &n, got, got ? it->ts : 0);
	}
	free(h);
	return ret;
}

/* Records per slot for @streams streams (FL_PAR_BYTES). */
static int slot_items(int streams)
{
	size_t n = FL_PAR_BYTES / ((size_t)(streams > 1 ? streams : 1) *
				   FL_PAR_SLOTS * sizeof(struct fl_par_item));

	return n < FL_PAR_ITEMS_MIN ? FL_PAR_ITEMS_MIN :
	       n > FL_PAR_ITEMS_MAX ? FL_PAR_ITEMS_MAX : (int)n;
}

int fl_par_run(const struct fl_par_src *s, int threads,
	       int (*deliver)(const struct fl_par_item *it, void *arg), void *arg,
	       char *err, size_t errlen)
{
	double t0 = cpu_now(), wait = 0;
	struct par *p;
	int w, i, k, ret;

	if (threads > s->streams)
		threads = s->streams;
	if (threads < 1)
		threads = 1;
	p = calloc(1, sizeof(*p) + (size_t)threads * sizeof(p->wk[0]));
	if (p)
		p->st = calloc((size_t)s->streams, sizeof(*p->st));
	if (!p || !p->st) {
		if (p)
			free(p);
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	p->src = *s;
	p->threads = threads;
	p->items = slot_items(s->streams);
	p->stall_ms = fl_guard_stall_secs() * 1000u;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->filled, NULL);
	pthread_cond_init(&p->space, NULL);
	for (w = 0; w < threads; w++) {
		p->wk[w].p = p;
		p->wk[w].w = w;
		p->wk[w].started = !fl_thread_start(&p->wk[w].t, decode_thread, &p->wk[w]);
		if (!p->wk[w].started)
			set_fatal(p, "cannot start a decoding thread");
	}
	ret = merge(p, deliver, arg, err, errlen, &wait);
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_broadcast(&p->space);
	pthread_mutex_unlock(&p->lock);
	last.threads = threads;
	last.items = p->items;
	last.merge_cpu_secs = cpu_now() - t0;
	last.merge_wait_secs = wait;
	if (ret == -3 && p->stalled) {
		/*
		 * A thread spins in the library on memory it may read: leave
		 * it all.  Should it come back, it finds quit set, and what it
		 * then touches is p and the caller's source, which the caller
		 * leaves too (-4).
		 */
		for (w = 0; w < threads; w++)
			if (p->wk[w].started)
				pthread_detach(p->wk[w].t);
		fl_par_keep(p);
		return -4;
	}
	for (w = 0; w < threads; w++)
		if (p->wk[w].started)
			pthread_join(p->wk[w].t, NULL);
	last.decode_cpu_secs = p->decode_cpu;
	for (i = 0; i < s->streams; i++)
		for (k = 0; k < FL_PAR_SLOTS; k++)
			free(p->st[i].slot[k]);
	pthread_cond_destroy(&p->space);
	pthread_cond_destroy(&p->filled);
	pthread_mutex_destroy(&p->lock);
	free(p->st);
	free(p);
	return ret;
}
