// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the decoding guard (tools/reader/guard.c): a fault inside
 * libtraceevent and a stall become jumps back, while a fault in our own
 * code, or with the guard disarmed, still kills the process.  Each case
 * runs in a child process so that the expected deaths are observable.
 */
#include <kbuffer.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "../../analysis/test/tap.h"

/* Reads address 16 inside libtraceevent (a page pointer it trusts). */
static void library_fault(void)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);

	kbuffer_load_subbuffer(kb, (void *)16);
}

static void own_fault(void)
{
	volatile int *p = NULL;

	(void)*p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Spins for @secs, counting progress when @progress. */
static void spin(double secs, int progress)
{
	double end = now() + secs;

	while (now() < end)
		if (progress)
			fl_guard_progress++;
}

enum { CASE_LIB_FAULT, CASE_OWN_FAULT, CASE_DISARMED_FAULT, CASE_STALL,
       CASE_PROGRESS };

/* Child: exits with 10 + the guard's jump value, 100 when nothing jumped. */
static void child(int c)
{
	int jumped = sigsetjmp(fl_guard_env, 1);

	if (jumped)
		_exit(10 + jumped);
	if (c != CASE_DISARMED_FAULT && fl_guard_arm(1))
		_exit(90);
	switch (c) {
	case CASE_LIB_FAULT:
		library_fault();
		break;
	case CASE_OWN_FAULT:
		fl_guard_ours = 1;	/* as in the reader's record callback */
		own_fault();
		break;
	case CASE_DISARMED_FAULT:
		fl_guard_arm(1);
		fl_guard_disarm();
		library_fault();
		break;
	case CASE_STALL:
		spin(3, 0);
		break;
	case CASE_PROGRESS:
		spin(2.5, 1);
		break;
	}
	fl_guard_disarm();
	_exit(100);
}

/*
 * Runs case @c in a child: its exit status, or 200 + signal.  A crash is
 * a status other than 10 + a jump and 100: ASan or UBSan reporting it
 * exit with 1, the default action is death by SIGSEGV.
 */
static int run(int c)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		child(c);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + WTERMSIG(status);
}

int main(void)
{
	int s;

	is_u64(run(CASE_LIB_FAULT), 10 + FL_GUARD_FAULT,
	       "guard: a fault inside libtraceevent jumps back");
	s = run(CASE_OWN_FAULT);
	ok(s != 10 + FL_GUARD_FAULT && s != 10 + FL_GUARD_STALL && s != 100,
	   "guard: a fault in our code still crashes (status %d)", s);
	s = run(CASE_DISARMED_FAULT);
	ok(s != 10 + FL_GUARD_FAULT && s != 10 + FL_GUARD_STALL && s != 100,
	   "guard: disarmed, a library fault crashes (status %d)", s);
	is_u64(run(CASE_STALL), 10 + FL_GUARD_STALL,
	       "guard: 1 s without progress is a stall");
	is_u64(run(CASE_PROGRESS), 100,
	       "guard: progress keeps the watchdog quiet for 2.5 s");
	return tap_done();
}
