/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `fairlab report`: the figures of one recording, segment by segment.
 * report_tables.c writes a segment's tables; cmd_report.c drives it.
 */
#ifndef FL_REPORT_H
#define FL_REPORT_H

#include "reader.h"
#include "table.h"

struct fl_report {
	enum fl_format fmt;
	FILE *f;
	struct fl_json json;
	const char *path;
	const struct fa_engine *e;
	int top;			/* text: groups shown per segment, 0 = all */
	const char *csv_table;		/* CSV: the one table written */
	bool csv_header_done;
	/* Audit windows as the engine closes them, written after the segments. */
	struct fa_audit_window *wins;
	size_t nwins, capwins;
	bool wins_oom;
};

/* CSV table names --table accepts. */
extern const char *const fl_report_tables[];

/* A segment (or, index -1, the whole trace) in the report's format. */
void fl_report_segment(struct fl_report *r, const struct fa_segment *s);

/* Keeps an audit window for fl_report_audit_windows(). */
void fl_report_keep_window(struct fl_report *r, const struct fa_audit_window *w);
/* The audit windows kept, one row per window and group. */
void fl_report_audit_windows(struct fl_report *r);

#endif /* FL_REPORT_H */
