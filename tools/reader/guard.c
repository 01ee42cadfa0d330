// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding guard (see guard.h).  The watchdog is a POSIX timer on
 * CLOCK_MONOTONIC with its own real-time signal, so that it does not
 * disturb SIGALRM users (libFuzzer's -timeout).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "guard.h"

#define TICK_MS 250

volatile sig_atomic_t fl_guard_progress, fl_guard_ours;
sigjmp_buf fl_guard_env;
_Thread_local sigjmp_buf *volatile fl_guard_local_env;
_Thread_local volatile sig_atomic_t fl_guard_local_ours;

static timer_t timer;
static bool ready;
static volatile sig_atomic_t armed, idle_ticks, limit_ticks, last_seen;
/* Set in the thread that armed the guard, the only one it jumps in. */
static _Thread_local volatile sig_atomic_t guarded_thread;
static struct sigaction old_segv, old_bus;

unsigned int fl_guard_stall_secs(void)
{
	const char *s = getenv("FAIRLAB_STALL_SECS");
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 && v < 100000 ? (unsigned int)v : 10;
}

static void on_tick(int sig)
{
	(void)sig;
	if (!armed)
		return;
	if (fl_guard_progress != last_seen) {
		last_seen = fl_guard_progress;
		idle_ticks = 0;
		return;
	}
	if (++idle_ticks < limit_ticks)
		return;
	/*
	 * Not out of our own code (the record callback may be waiting for
	 * the engine's thread, holding a lock): the jump waits until the
	 * library runs again.
	 */
	if (fl_guard_ours || !guarded_thread)
		return;
	armed = 0;
	siglongjmp(fl_guard_env, FL_GUARD_STALL);
}

static void on_fault(int sig, siginfo_t *info, void *ctx)
{
	struct sigaction *old = sig == SIGBUS ? &old_bus : &old_segv;

	if (armed && !fl_guard_ours && guarded_thread) {
		armed = 0;
		siglongjmp(fl_guard_env, FL_GUARD_FAULT);
	}
	if (armed && fl_guard_local_env && !fl_guard_local_ours)
		siglongjmp(*fl_guard_local_env, FL_GUARD_FAULT);
	/* Not the libraries': whoever handled it before does, or the default. */
	if (old->sa_flags & SA_SIGINFO && old->sa_sigaction) {
		old->sa_sigaction(sig, info, ctx);
		return;
	}
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN && old->sa_handler) {
		old->sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);	/* returning re-executes the fault: it kills */
}

static int setup(void)
{
	struct sigaction sa;
	struct sigevent sev;
	int sig = SIGRTMIN + 2;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		return -1;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = sig;
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer))
		return -1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv) || sigaction(SIGBUS, &sa, &old_bus))
		return -1;
	ready = true;
	return 0;
}

static void set_timer(long ms)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = ms / 1000;
	its.it_value.tv_nsec = (ms % 1000) * 1000000L;
	its.it_interval = its.it_value;
	timer_settime(timer, 0, &its, NULL);
}

int fl_guard_arm(unsigned int secs)
{
	if (!ready && setup())
		return -1;
	guarded_thread = 1;
	last_seen = fl_guard_progress;
	idle_ticks = 0;
	limit_ticks = (sig_atomic_t)(secs * (1000 / TICK_MS));
	armed = 1;
	set_timer(TICK_MS);
	return 0;
}

void fl_guard_disarm(void)
{
	armed = 0;
	if (ready)
		set_timer(0);
}
