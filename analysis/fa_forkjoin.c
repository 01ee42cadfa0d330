// SPDX-License-Identifier: GPL-2.0
/*
 * A helper thread for fork-join jobs (see fa_forkjoin.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>

#include "fa_forkjoin.h"

struct fa_fj {
	void (*fn)(void *arg);
	void *arg;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t go_cv, done_cv;
	unsigned long go, done;	/* jobs asked, jobs finished */
	bool stop;
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

struct fa_fj *fa_fj_start(void (*fn)(void *arg), void *arg)
{
	const char *env = getenv("FAIRLAB_THREADS");
	sigset_t all, old;
	struct fa_fj *f;
	int err;

	/* 0: no thread at all; 1: the reader's pipeline thread only */
	if (env && strtoul(env, NULL, 10) < 2)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->fn = fn;
	f->arg = arg;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->go_cv, NULL);
	pthread_cond_init(&f->done_cv, NULL);
	/* signals stay with the caller's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&f->th, NULL, helper, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
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
