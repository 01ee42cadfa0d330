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
 * helper whatever the cores, asked for (fa_fj_asked()).  "auto" starts
 * it whatever the cores, not asked for: its caller then tries whether it
 * pays.
 *
 * Unset, the what-if replay does not split its policies: it runs them all
 * on a thread of its own fed through a ring (fa_replay_ring.c) when the
 * process may run on FA_FJ_MIN_CPUS CPUs or more (the reader's pipeline
 * keeps two busy already), else on the caller's thread; "ring" asks for
 * the ring whatever the cores (fa_fj_ring_wanted()).
 */
#ifndef FA_FORKJOIN_H
#define FA_FORKJOIN_H

#include <pthread.h>
#include <stdbool.h>

#define FA_FJ_MIN_CPUS	3

struct fa_fj;

struct fa_fj *fa_fj_start(void (*fn)(void *arg), void *arg);
void fa_fj_run(struct fa_fj *f);
void fa_fj_wait(struct fa_fj *f);
void fa_fj_stop(struct fa_fj *f);
/* Whether FAIRLAB_THREADS asked for the helper (not the CPU count). */
int fa_fj_asked(const struct fa_fj *f);
/* A thread that takes no signal (they stay with the caller's); 0 or an errno. */
int fa_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);
/* Whether the what-if replay goes to a thread of its own through a ring. */
bool fa_fj_ring_wanted(void);
/*
 * @procs processes share the CPUs this process may run on from now on
 * (whatif's shards, tools/whatif/whatif_shards.h): the helper and the
 * ring count on 1/@procs of them each.
 */
void fa_set_cpu_share(unsigned int procs);

#endif /* FA_FORKJOIN_H */
