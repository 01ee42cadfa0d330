// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of what the parallel decoder (tools/reader/pardecode.c) leaves
 * behind when a decoding thread faults inside libtraceevent or stalls
 * there: the run ends with its error (-3, -4), and what is left on purpose
 * stays reachable (fl_par_keep()), so that LeakSanitizer, which this ASan
 * build runs at exit, reports no leak.  A stalled thread that comes back
 * after the run has returned finds only memory that is still there: the
 * caller's fl_par_src was on a stack frame that is gone by then.
 *
 * Each case runs in a child process (a stalled thread is left running);
 * the child exits 0 when its checks held and LeakSanitizer found nothing.
 */
#include <kbuffer.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "pardecode.h"
#include "../../analysis/test/tap.h"

enum { CASE_CLEAN, CASE_FAULT, CASE_STALL };

static int which;
static atomic_int works, freed, delivered;

/* The kbuffer of the fault below: kept here, not a leak of this test's. */
static struct kbuffer *volatile fault_kb;

/* Reads address 16 inside libtraceevent (a page pointer it trusts). */
static void library_fault(void)
{
	fault_kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	kbuffer_load_subbuffer(fault_kb, (void *)16);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *work_new(void *src)
{
	(void)src;
	atomic_fetch_add(&works, 1);
	return malloc(64);
}

static void work_free(void *src, void *work)
{
	(void)src;
	atomic_fetch_add(&freed, 1);
	free(work);
}

/*
 * Stream 0: three records.  Stream 1: the same, or a fault inside the
 * library, or 2.5 s there without a record (a stall of FAIRLAB_STALL_SECS
 * 1) before it ends.
 */
static int fill(void *src, void *work, int i, struct fl_par_item *it, int cap,
		int *n, char *err, size_t errlen)
{
	int k;

	(void)src;
	(void)work;
	(void)err;
	(void)errlen;
	if (i == 1 && which == CASE_FAULT)
		library_fault();
	if (i == 1 && which == CASE_STALL) {
		double end = now() + 2.5;

		while (now() < end)
			;
		*n = 0;
		return 1;
	}
	for (k = 0; k < 3 && k < cap; k++) {
		memset(&it[k], 0, sizeof(it[k]));
		it[k].ts = (unsigned long long)(10 * k + i);
	}
	*n = k;
	return 1;
}

static int deliver(const struct fl_par_item *it, void *arg)
{
	(void)it;
	(void)arg;
	atomic_fetch_add(&delivered, 1);
	return 0;
}

/* The run, its source on this frame only (gone when it returns). */
static __attribute__((noinline)) int run_par(char *err, size_t errlen)
{
	struct fl_par_src src = {
		.streams = 2, .src = NULL, .work_new = work_new,
		.work_free = work_free, .fill = fill,
	};
	int ret;

	fl_guard_ours = 1;	/* as the reader runs it: pardecode.c watches */
	ret = fl_par_run(&src, 2, deliver, NULL, err, errlen);
	fl_guard_ours = 0;
	return ret;
}

/* Overwrites the stack below the caller's frame, where run_par()'s was. */
static __attribute__((noinline)) void scrub_stack(void)
{
	volatile char junk[4096];

	memset((char *)junk, 0xa5, sizeof(junk));
}

/* Child: exit 0 when case @c went as it must, 10 + the check that failed. */
static void child(int c)
{
	char err[256] = "";
	int ret;

	which = c;
	if (sigsetjmp(fl_guard_env, 1))
		exit(9);	/* the guard jumped in this thread: it must not */
	if (fl_guard_arm(1))
		exit(8);
	ret = run_par(err, sizeof(err));
	fl_guard_disarm();
	switch (c) {
	case CASE_CLEAN:
		if (ret != 0 || delivered != 6 || freed != works)
			exit(10);
		break;
	case CASE_FAULT:
		if (ret != -3 || !strstr(err, "faulted"))
			exit(11);
		/* the faulted thread's work is left, kept; the other's freed */
		if (freed != works - 1)
			exit(12);
		break;
	case CASE_STALL:
		if (ret != -4 || !strstr(err, "no progress"))
			exit(13);
		/* the stalled thread comes back 2.5 s in, and quits */
		scrub_stack();
		sleep(3);
		if (freed != works)
			exit(14);
		break;
	}
	exit(0);	/* exit(), not _exit(): LeakSanitizer runs at exit */
}

/* Case @c in a child: its exit status, or 200 + signal. */
static int run(int c)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid)
		child(c);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + WTERMSIG(status);
}

int main(void)
{
	setenv("FAIRLAB_STALL_SECS", "1", 1);
	is_u64(run(CASE_CLEAN), 0,
	       "pardecode: two streams on two threads, every record, every work freed");
	is_u64(run(CASE_FAULT), 0,
	       "pardecode: a fault inside libtraceevent is -3, the thread's work kept (no leak at exit)");
	is_u64(run(CASE_STALL), 0,
	       "pardecode: a stall is -4; the thread, back later, quits on memory still there (no leak at exit)");
	return tap_done();
}
