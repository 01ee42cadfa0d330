/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding the per-CPU streams on several threads, merged in timestamp
 * order on the calling thread.  Each stream (a CPU index) belongs to one
 * decoding thread (index modulo the thread count), which walks it
 * (decompression, kbuffer, the decoder) into slots of decoded records,
 * FL_PAR_SLOTS slots ahead at most: memory is bounded by the stream
 * count, whatever the recording's length.  A slot holds
 * FL_PAR_ITEMS_MIN to FL_PAR_ITEMS_MAX records, as many as keep all
 * streams' slots within FL_PAR_BYTES: every slot handed over costs a
 * lock round trip each way, and often a thread woken from sleep, so few
 * streams take large slots (pardecode.c: slot_items()).  The calling
 * thread merges the slots' records as merge.h merges cursors (earliest
 * first, the lowest stream index on ties): the same records in the same
 * order as one thread decoding them in that order, so the same output.
 *
 * The decoding threads take no asynchronous signal; a fault in the
 * libraries while one of them walks ends the run with an error (guard.h:
 * fl_guard_local_env), as one in the reader's thread does, and so does a
 * stall of FAIRLAB_STALL_SECS (their state is then left alone, never
 * freed but kept reachable, fl_par_keep(): the caller abandons the
 * recording).
 */
#ifndef FL_PARDECODE_H
#define FL_PARDECODE_H

#include <stddef.h>

#include "fa_events.h"

#define FL_PAR_ITEMS_MIN	256
#define FL_PAR_ITEMS_MAX	2048
#define FL_PAR_SLOTS	3
#define FL_PAR_BYTES	(8u << 20)
/* Decoding threads at most (--threads). */
#define FL_PAR_MAX_THREADS	64

/* One record, decoded. */
struct fl_par_item {
	unsigned long long ts;
	int missed;			/* tep_record's missed_events */
	int got;			/* fl_decode()'s: 1 ev holds a fairlab event */
	struct fa_event ev;
};

struct fl_par_src {
	int streams;
	void *src;
	/* Per decoding thread; NULL when out of memory. */
	void *(*work_new)(void *src);
	void (*work_free)(void *src, void *work);
	/*
	 * Decodes the next records of stream @i into @it (at most @cap), their
	 * count in *@n: 0 when more follow, 1 when the stream ends after
	 * them, -1 on an error (its message copied into @err).
	 */
	int (*fill)(void *src, void *work, int i, struct fl_par_item *it, int cap,
		    int *n, char *err, size_t errlen);
};

/*
 * Every record of every stream to @deliver in timestamp order, until it
 * returns < 0, on @threads (>= 2) decoding threads.  Returns 0 at the
 * end, @deliver's negative value, -2 with a message in @err (corrupt
 * data, out of memory), -3 with a message when a decoding thread faulted
 * (its work is left, fl_par_keep()), or -4 with a message when one
 * stalled: the threads are left running, and the caller must leave
 * (fl_par_keep()) whatever @s->src lets them reach.
 */
int fl_par_run(const struct fl_par_src *s, int threads,
	       int (*deliver)(const struct fl_par_item *it, void *arg), void *arg,
	       char *err, size_t errlen);

/*
 * Keeps @ptr, an object left on purpose after a fault or a stall (never
 * freed: a thread may still use it, or its state is inconsistent),
 * reachable, so that a leak checker does not report it (the fuzz test
 * runs LeakSanitizer at exit); the first 1,024 of a process.
 */
void fl_par_keep(void *ptr);

/* CPU time of the last run, for FAIRLAB_PROFILE: decoding threads, merge. */
struct fl_par_stats {
	int threads;
	int items;			/* records per slot */
	double decode_cpu_secs;		/* all decoding threads */
	double merge_cpu_secs;		/* the calling thread, in fl_par_run() */
	double merge_wait_secs;		/* wall clock it waited for a decoding thread */
};
const struct fl_par_stats *fl_par_last_stats(void);

#endif /* FL_PARDECODE_H */
