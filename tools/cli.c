// SPDX-License-Identifier: GPL-2.0
/*
 * Shared CLI helpers (see cli.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "pardecode.h"
#include "reader.h"

/* --threads (reader.h); defined here, where every command parses it. */
int fl_threads;

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "fairlab: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void fl_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void fl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void fl_warn_cb(const char *msg, void *arg)
{
	(void)arg;
	fl_warn("%s", msg);
}

int fl_parse_long(const char *s, long min, long max, const char *what, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fl_error("%s: '%s' is not an integer from %ld to %ld", what, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int fl_parse_positive(const char *s, const char *what, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e12) {
		fl_error("%s: '%s' is not a positive number", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

int fl_set_format(enum fl_format *fmt, enum fl_format want)
{
	if (*fmt != FL_FMT_TEXT && *fmt != want) {
		fl_error("--json and --csv exclude each other");
		return -1;
	}
	*fmt = want;
	return 0;
}

int fl_common_option(int c, enum fl_format *fmt, void (*help)(FILE *f),
		     const char *cmd)
{
	long n;

	switch (c) {
	case 'j':
	case 'c':
		return fl_set_format(fmt, c == 'j' ? FL_FMT_JSON : FL_FMT_CSV) ?
		       FL_EXIT_USAGE : FL_OPT_NEXT;
	case FL_OPT_THREADS:
		if (fl_parse_long(optarg, 1, FL_PAR_MAX_THREADS, "--threads", &n))
			return FL_EXIT_USAGE;
		fl_threads = (int)n;
		return FL_OPT_NEXT;
	case 'h':
		help(stdout);
		return FL_EXIT_OK;
	}
	fl_error("see fairlab %s --help", cmd);
	return FL_EXIT_USAGE;
}
