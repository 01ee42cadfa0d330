// SPDX-License-Identifier: GPL-2.0
/*
 * A helper thread for fork-join jobs (see fa_forkjoin.h).
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fa_forkjoin.h"

/* The processes sharing the CPUs (fa_set_cpu_share()). */
static long cpu_share = 1;

/* The CPUs this process may run on (its affinity mask), at least 1. */
static long affinity_cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set))
		return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

void fa_set_cpu_share(unsigned int procs)
{
	cpu_share = procs ? procs : 1;
}

/* This process's share of the CPUs it may run on, at least 1. */
static long usable_cpus(void)
{
	long n = affinity_cpus() / cpu_share;

	return n > 0 ? n : 1;
}

struct fa_fj {
	void (*fn)(void *arg);
	void *arg;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t go_cv, done_cv;
	unsigned long go, done;	/* jobs asked, jobs finished */
	bool stop;
	bool asked;		/* by FAIRLAB_THREADS */
};

static void *helper(void *p)
{
	struct fa_fj *f = p;
	unsigned long seen = 0;

	pthread_mutex_lock(&f->mu);
	for (;;) {
		while (f->go == seen && !f->stop)
			pthread_cond_wait(&f->go_cv, &f->mu);
		if (f->go == seen)
			break;	/* stop, no job pending */
		seen = f->go;
		pthread_mutex_unlock(&f->mu);
		f->fn(f->arg);
		pthread_mutex_lock(&f->mu);
		f->done = seen;
		pthread_cond_signal(&f->done_cv);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

int fa_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int err;

	/* signals stay with the caller's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

struct fa_fj *fa_fj_start(void (*fn)(void *arg), void *arg)
{
	const char *env = getenv("FAIRLAB_THREADS");
	/* "auto": the helper whatever the cores, its use tried as it goes */
	bool try = env && !strcmp(env, "auto");
	struct fa_fj *f;
	int err;

	/* 0: no thread at all; 1: the reader's pipeline thread only */
	if (env && !try && strtoul(env, NULL, 10) < 2)
		return NULL;
	/*
	 * Unasked, only with a core for it: the reader's pipeline already
	 * keeps two threads busy (decoding or the merge, and the engine),
	 * and a third on two cores only takes turns with them.  Measured on
	 * 2 cores (docs/history/2026-12-05-analyzer-speed.md, "Speed of
	 * fairlab whatif"): the helper made whatif 1.4x slower by wall clock
	 * and 1.8x by CPU time.
	 * Unasked, the caller also tries whether it pays (fa_fj_asked()).
	 */
	if (!env && usable_cpus() < FA_FJ_MIN_CPUS)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->fn = fn;
	f->arg = arg;
	f->asked = env && !try;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->go_cv, NULL);
	pthread_cond_init(&f->done_cv, NULL);
	err = fa_thread_start(&f->th, helper, f);
	if (err) {
		pthread_cond_destroy(&f->done_cv);
		pthread_cond_destroy(&f->go_cv);
		pthread_mutex_destroy(&f->mu);
		free(f);
		return NULL;
	}
	return f;
}

void fa_fj_run(struct fa_fj *f)
{
	pthread_mutex_lock(&f->mu);
	f->go++;
	pthread_cond_signal(&f->go_cv);
	pthread_mutex_unlock(&f->mu);
}

void fa_fj_wait(struct fa_fj *f)
{
	pthread_mutex_lock(&f->mu);
	while (f->done != f->go)
		pthread_cond_wait(&f->done_cv, &f->mu);
	pthread_mutex_unlock(&f->mu);
}

bool fa_fj_ring_wanted(void)
{
	const char *env = getenv("FAIRLAB_THREADS");

	if (env)
		return !strcmp(env, "ring");
	/*
	 * Unasked, only with a core for it, as the helper was: on 2 cores
	 * the ring's thread takes turns with the reader's and the engine's,
	 * and make bench-analyzer found it no faster than one thread there
	 * (docs/benchmarks.md, 2026-12-05 18:33-18:44).
	 */
	return usable_cpus() >= FA_FJ_MIN_CPUS;
}

int fa_fj_asked(const struct fa_fj *f)
{
	return f && f->asked;
}

void fa_fj_stop(struct fa_fj *f)
{
	if (!f)
		return;
	pthread_mutex_lock(&f->mu);
	f->stop = true;
	pthread_cond_signal(&f->go_cv);
	pthread_mutex_unlock(&f->mu);
	pthread_join(f->th, NULL);
	pthread_cond_destroy(&f->done_cv);
	pthread_cond_destroy(&f->go_cv);
	pthread_mutex_destroy(&f->mu);
	free(f);
}
