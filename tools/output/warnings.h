/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Warnings derived from the whole-trace figures (see warnings.c); the
 * reader's own are fl_read_warnings() in reader.h.
 */
#ifndef FL_WARNINGS_H
#define FL_WARNINGS_H

#include "fa_stats.h"

void fl_engine_warnings(const struct fa_segment *total,
			void (*emit)(const char *msg, void *arg), void *arg);

/*
 * Calls @emit with @fmt, whose one conversion is a %llu for @n, when @n
 * is not zero: the shape of most warnings (these and the reader's).
 */
void fl_warn_count(void (*emit)(const char *msg, void *arg), void *arg,
		   unsigned long long n, const char *fmt);

#endif /* FL_WARNINGS_H */
