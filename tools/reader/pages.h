/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the records page by page: tracecmd_iterate_events() without
 * its cost per record.
 *
 * libtracecmd 1.3 allocates, fills, references and frees a tep_record for
 * every record, and scans every CPU for the next one: about two thirds of
 * the analyzer's time on a large file.  Here libtracecmd still finds,
 * maps and checks every ring-buffer page (tracecmd_read_data() and
 * tracecmd_read_at() give a record of the page, which keeps it mapped),
 * and a kbuffer of libtraceevent's walks the events of that page; the
 * CPUs are merged by timestamp exactly as tracecmd_iterate_events() does
 * (earliest first, the lowest CPU index on ties).  Each record passed to
 * the callback is the one libtracecmd would have passed (data, size,
 * timestamp, CPU, missed_events), in the same order.
 *
 * libtracecmd may transform timestamps (--ts-offset, tsc2nsec, guest
 * clock sync); kbuffer gives the raw ones.  They are compared on the
 * first record of every page: when they differ before any record was
 * delivered, fl_pages_iterate() returns FL_PAGES_UNSUPPORTED (nothing
 * consumed: use tracecmd_iterate_events()); later, it fails.
 */
#ifndef FL_PAGES_H
#define FL_PAGES_H

#include <event-parse.h>
#include <trace-cmd.h>

#define FL_PAGES_UNSUPPORTED	1

struct fl_pages;

/*
 * Calls @cb for every record in timestamp order until it returns < 0.
 * Returns 0 at the end, the callback's negative value, -2 with a message
 * in @err when libtracecmd and kbuffer disagree, or FL_PAGES_UNSUPPORTED.
 * *@state is set before any library call, so that fl_pages_free() can
 * release what is ours after a jump out of the libraries (guard.h).
 */
int fl_pages_iterate(struct tracecmd_input *h, struct fl_pages **state,
		     int (*cb)(struct tep_record *rec, void *arg), void *arg,
		     char *err, size_t errlen);
/* Frees the kbuffers and bookkeeping (the handle's records are its own). */
void fl_pages_free(struct fl_pages *p);

#endif /* FL_PAGES_H */
