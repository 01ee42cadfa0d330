/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A guard around the decoding done inside libtracecmd/libtraceevent, so
 * that a corrupt trace.dat ends in an error message, never a hang or a
 * crash.  On corrupt ring-buffer pages, libtraceevent 1.7's kbuffer
 *  - loops forever when an event's length makes the next event start
 *    where the current one does (stall: the watchdog below), and
 *  - reads past the page it was given (SIGSEGV/SIGBUS in the library).
 * Both happen inside the library (or in libc functions it calls, like
 * strcmp on a corrupt format), so the only way out is a signal: while the
 * guard is armed,
 *  - a timer checks that the reader makes progress (a record delivered)
 *    and after @secs without any jumps back with FL_GUARD_STALL;
 *  - a fault while the libraries run jumps back with FL_GUARD_FAULT.
 *    Our own code runs only in the record callback, which sets
 *    fl_guard_ours meanwhile: a fault there is left to the previous
 *    handler (ASan's, or the default) and still crashes, loudly.
 * A stall while fl_guard_ours is set (the callback waiting for the
 * engine's thread, see pipe.h) jumps only once the library runs again,
 * never out of our own code.  Only the thread that armed the guard is
 * guarded: a fault in another thread is left to the previous handler.
 * The jump goes to the armed code's sigsetjmp(fl_guard_env, 1), which
 * abandons the libtracecmd handle (its state is inconsistent) and fails
 * with a message.  Leaving a library by a jump from a signal handler is
 * acceptable only because the handle is never touched again and, for a
 * stall, the library has been spinning in plain computation for seconds.
 */
#ifndef FL_GUARD_H
#define FL_GUARD_H

#include <setjmp.h>
#include <signal.h>

#define FL_GUARD_STALL	1
#define FL_GUARD_FAULT	2

/* Incremented by the reader for every record it gets. */
extern volatile sig_atomic_t fl_guard_progress;
/* Set by the reader while its own code runs inside the libraries' call. */
extern volatile sig_atomic_t fl_guard_ours;
/* Where the guard returns to (sigsetjmp(fl_guard_env, 1) != 0). */
extern sigjmp_buf fl_guard_env;

/*
 * A decoding thread's own way back (pardecode.h): while the guard is
 * armed, a fault in the thread that set fl_guard_local_env jumps there,
 * unless fl_guard_local_ours (its own code runs) is set.
 */
extern _Thread_local sigjmp_buf *volatile fl_guard_local_env;
extern _Thread_local volatile sig_atomic_t fl_guard_local_ours;

/*
 * Seconds without progress that count as a stall: FAIRLAB_STALL_SECS
 * from the environment (tests shorten it), else 10.
 */
unsigned int fl_guard_stall_secs(void);

/* Arms the guard for @secs; 0, or -1 when it cannot be set up. */
int fl_guard_arm(unsigned int secs);
void fl_guard_disarm(void);

#endif /* FL_GUARD_H */
