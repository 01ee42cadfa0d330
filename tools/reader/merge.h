/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merging per-CPU ring-buffer pages into one record stream, as
 * tracecmd_iterate_events() does: the earliest record first, the lowest
 * CPU index on ties (a heap of the CPUs: O(log CPUs) a record).  Where
 * the pages come from is the caller's (pages.c: libtracecmd's mapping of
 * the file; zpages.c: zstd chunks decompressed here); a kbuffer of
 * libtraceevent's walks each page.
 */
#ifndef FL_MERGE_H
#define FL_MERGE_H

#include <stdbool.h>

#include <event-parse.h>
#include <kbuffer.h>

/* One CPU's position: the page being walked and the event it is at. */
struct fl_cursor {
	struct kbuffer *kb;
	char *page;			/* the page being walked */
	void *data;			/* the current event, NULL: no more */
	unsigned long long ts;
	int cpu;			/* the CPU number its records carry */
	bool first;			/* data is the first event delivered of the page */
};

/* A stream in a merge heap: its next timestamp beside its index. */
struct fl_key {
	unsigned long long ts;
	int i;
};

struct fl_merge {
	int n;				/* cursors, one per CPU index */
	int page_size;
	struct fl_cursor *c;
	/*
	 * fl_merge_run()'s heap (n keys), kept here and freed by the owner
	 * with c: the reader's guard (guard.c) may jump out of a library call
	 * inside the run, which then never reaches its own end.
	 */
	struct fl_key *heap;
	/*
	 * Points cursor @i at the first event of the next page with one:
	 * 0, 1 when the CPU has no more (c[i].data NULL), -1 on an error
	 * (the callee keeps the message).
	 */
	int (*next_page)(struct fl_merge *m, int i);
};

/* A kbuffer for the pages of @tep's file (long size, endianness, format). */
struct kbuffer *fl_cursor_kbuffer(struct tep_handle *tep);

/*
 * Fills @rec with cursor @s's event (not a copy: it points into the
 * page) and marks it delivered (missed events are a page's first's).
 */
void fl_cursor_record(const struct fl_merge *m, struct fl_cursor *s,
		      struct tep_record *rec);

/*
 * Restores the order of the min-heap @h (@n keys by (ts, i), the earliest
 * at h[0]) below slot @i after the key there changed.  A stream that is
 * still first stays at the root after two comparisons: runs of records
 * of one CPU are the rule.
 */
void fl_heap_sift(struct fl_key *h, int n, int i);
/* Orders the @n keys of @h into a heap. */
void fl_heap_init(struct fl_key *h, int n);
/*
 * The stream at the root moved on: to a record at @ts when @more, else
 * it has no more and leaves the heap (*@n keys).
 */
void fl_heap_next(struct fl_key *h, int *n, bool more, unsigned long long ts);

/*
 * Calls @cb for every record in timestamp order until it returns < 0.
 * The cursors with data are positioned on their first event.  Returns 0
 * at the end, the callback's negative value, or -2 when next_page failed.
 */
int fl_merge_run(struct fl_merge *m, int (*cb)(struct tep_record *rec, void *arg),
		 void *arg);

#endif /* FL_MERGE_H */
