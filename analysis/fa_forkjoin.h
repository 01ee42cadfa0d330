/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One helper thread that runs a job on request while its caller does
 * its own share, then joins (the what-if replay's second half of the
 * policies: fa_replay_batch.c).  The handoff (a mutex and two condition
 * variables) orders everything the caller wrote before fa_fj_run()
 * before the job, and everything the job wrote before fa_fj_wait()
 * returns.
 *
 *   f = fa_fj_start(fn, arg)	NULL: no thread (run fn(arg) yourself)
 *   fa_fj_run(f)		fn(arg) starts on the helper thread
 *   fa_fj_wait(f)		... and has returned
 *   fa_fj_stop(f)		joins the thread, frees
 *
 * Threads are a wall-clock gain on a machine with a free core, never a
 * CPU-time gain.  FAIRLAB_THREADS=0 (no thread besides the caller's:
 * the reader's pipeline neither) or 1 (the pipeline's only) in the
 * environment makes fa_fj_start() return NULL; 2 or more starts the
 * helper whatever the cores, asked for (fa_fj_asked()).  Unset, the
 * helper starts only when the process may run on FA_FJ_MIN_CPUS CPUs or
 * more (the reader's pipeline keeps two busy already), not asked for: its
 * caller then tries whether it pays.  "auto" starts it whatever the
 * cores, not asked for (to try it on two).
 */
#ifndef FA_FORKJOIN_H
#define FA_FORKJOIN_H

#define FA_FJ_MIN_CPUS	3

struct fa_fj;

struct fa_fj *fa_fj_start(void (*fn)(void *arg), void *arg);
void fa_fj_run(struct fa_fj *f);
void fa_fj_wait(struct fa_fj *f);
void fa_fj_stop(struct fa_fj *f);
/* Whether FAIRLAB_THREADS asked for the helper (not the CPU count). */
int fa_fj_asked(const struct fa_fj *f);

#endif /* FA_FORKJOIN_H */
