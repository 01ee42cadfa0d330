/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recording through a new engine, for the commands that need the
 * figures rather than a report of the file (compare, plot).
 */
#ifndef FL_ANALYZE_H
#define FL_ANALYZE_H

#include "fa_engine.h"

/*
 * Reads @path into the new engine @e and finishes it; 0, or -1 after
 * printing why.  Warnings about the recording go to stderr, prefixed
 * with @path.  The engine's callbacks may use @e (through their arg).
 */
int fl_analyze(const char *path, struct fa_engine *e);

/* Says that @path holds no record to analyze (fl_analyze() fails so). */
struct fl_read_info;
void fl_no_records(const struct fl_read_info *in, const char *path);

#endif /* FL_ANALYZE_H */
