/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A two-stage pipeline between the reader and the engine: the reader's
 * thread (libtracecmd's iteration and the decoding, under the guard)
 * decodes records into batches of a bounded ring; a second thread feeds
 * them, in order, to the engine.  The two halves of the work then run on
 * two cores.  Batches, not records, are handed over (one lock round trip
 * per FL_PIPE_BATCH records), and the ring holds FL_PIPE_BATCHES of them:
 * memory stays bounded whatever the trace length, and the engine sees
 * exactly the records, in exactly the order, it would see fed inline.
 *
 *   p = fl_pipe_start(engine)	 NULL: no thread (feed the engine inline)
 *   ev = fl_pipe_slot(p)	 decode into *ev (NULL: the engine failed)
 *   fl_pipe_commit(p)		 *ev is a record for the engine
 *   fl_pipe_finish(p)		 the rest to the engine, waits, frees
 *   fl_pipe_abort(p)		 stops the thread, drops the rest, frees
 *
 * Everything but the engine's callbacks (on_segment, on_bin: they run on
 * the engine thread) stays on the caller's thread.  FAIRLAB_THREADS=0 in
 * the environment makes fl_pipe_start() return NULL.
 */
#ifndef FL_PIPE_H
#define FL_PIPE_H

#include <pthread.h>

#include "fa_engine.h"

#define FL_PIPE_BATCH	512
#define FL_PIPE_BATCHES	16

struct fl_pipe;

struct fl_pipe *fl_pipe_start(struct fa_engine *e);
struct fa_event *fl_pipe_slot(struct fl_pipe *p);
void fl_pipe_commit(struct fl_pipe *p);
/* 0, or -1 when the engine failed (out of memory). */
int fl_pipe_finish(struct fl_pipe *p);
void fl_pipe_abort(struct fl_pipe *p);

/* CPU seconds of the last engine thread that ended, for FAIRLAB_PROFILE. */
double fl_pipe_engine_cpu_secs(void);

/*
 * pthread_create() of a thread that blocks every asynchronous signal
 * (they go to the reader's thread, guard.h); 0 or an errno value.
 */
int fl_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif /* FL_PIPE_H */
