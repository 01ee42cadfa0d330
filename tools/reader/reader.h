/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a trace-cmd recording (trace.dat v6 or v7, compressed or not)
 * with libtracecmd and feeding its fairlab:* records to the engine.
 *
 *   r = fl_reader_open(path, err, n);	 headers, formats, checks
 *   fl_reader_info(r)			 what the file says about itself
 *   fl_reader_run(r, engine, err, n)	 every record, in timestamp order
 *   fl_reader_close(r)
 */
#ifndef FL_READER_H
#define FL_READER_H

#include <stdio.h>

#include "fa_engine.h"

struct fl_reader;

/*
 * Threads decoding a v7 zstd recording's per-CPU streams (--threads;
 * tools/reader/pardecode.h): 0, the default, is the number of online
 * CPUs up to FL_DEFAULT_THREADS; never more than the recording's CPUs;
 * 1 decodes on the reading thread.  The output is the same whatever it is.
 */
#define FL_DEFAULT_THREADS 8
extern int fl_threads;

struct fl_read_info {
	char clock[32];			/* trace clock, "" when not recorded */
	char compression[32];		/* "" when not compressed */
	unsigned long file_version;
	int nr_cpus;
	int parse_failures;		/* event formats libtraceevent could not parse */
	bool has_event[FA_EV_NR_TYPES];
	bool copy_failed;		/* compressed, read in place (slowly) */
	bool audit_snap_ns;		/* tg_audit carries snap_ns */

	/* Filled by fl_reader_run(). */
	u64 records;			/* every record in the file */
	u64 fairlab_records;
	u64 short_records;		/* fairlab records shorter than their format */
	u64 lost_events;		/* counted by the ring buffer (missed_events) */
	u64 lost_unknown;		/* records after a loss of unknown size */
	u64 overruns;			/* "overrun"/"dropped events" in the saved stats */
	u64 audits;			/* tg_audit records */
	u64 first_ts, last_ts;
};

/* NULL with a message in @err (no trailing newline) when unreadable. */
struct fl_reader *fl_reader_open(const char *path, char *err, size_t errlen);
/* The same on an open descriptor (taken over: closed by fl_reader_close). */
struct fl_reader *fl_reader_open_fd(int fd, const char *name, char *err,
				    size_t errlen);
const struct fl_read_info *fl_reader_info(const struct fl_reader *r);
/* 0, or -1 with a message in @err.  Ends with fa_engine_finish(). */
int fl_reader_run(struct fl_reader *r, struct fa_engine *e, char *err,
		  size_t errlen);
void fl_reader_close(struct fl_reader *r);

/* Calls @emit once per warning the recording deserves (lost events, clock). */
void fl_read_warnings(const struct fl_read_info *in,
		      void (*emit)(const char *msg, void *arg), void *arg);

/* True for trace clocks that order records across CPUs. */
bool fl_clock_is_global(const char *clock);

#endif /* FL_READER_H */
