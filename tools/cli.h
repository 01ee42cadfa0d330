/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the subcommands of the fairlab CLI share: messages, exit codes,
 * number parsing, the output format options.
 */
#ifndef FL_CLI_H
#define FL_CLI_H

#include "table.h"

/* The end of every command's option table: --json, --csv, --help. */
#define FL_COMMON_OPTIONS \
	{ "json", no_argument, NULL, 'j' }, \
	{ "csv", no_argument, NULL, 'c' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "threads", required_argument, NULL, FL_OPT_THREADS }, \
	{ NULL, 0, NULL, 0 }
/* getopt_long()'s value for --threads (no short option) */
#define FL_OPT_THREADS 0x100

/* The help text of --threads, in every command that reads recordings. */
#define FL_THREADS_HELP \
"  --threads=N    threads decoding a v7 zstd recording's CPUs, merged in time\n" \
"                 order (default: the online CPUs, at most 8; 1 = none besides\n" \
"                 the reader's): the output is the same whatever N\n"

/*
 * The options of FL_COMMON_OPTIONS, and an unknown option, as getopt_long()
 * returned @c for command @cmd: FL_OPT_NEXT when parsing goes on, else the
 * exit status to return (after --help, or after an error message).
 */
#define FL_OPT_NEXT (-1)
int fl_common_option(int c, enum fl_format *fmt, void (*help)(FILE *f),
		     const char *cmd);

/* Exit statuses. */
#define FL_EXIT_OK	0
#define FL_EXIT_FAIL	1	/* a file could not be read, a tool failed */
#define FL_EXIT_USAGE	2	/* bad command line */

__attribute__((format(printf, 1, 2)))
void fl_error(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void fl_warn(const char *fmt, ...);

/* Decimal integer in [min, max]; 0 or -1 (with an error printed for @what). */
int fl_parse_long(const char *s, long min, long max, const char *what, long *out);
/* Positive decimal number; 0 or -1 (with an error printed for @what). */
int fl_parse_positive(const char *s, const char *what, double *out);

/* --json / --csv seen twice or together. */
int fl_set_format(enum fl_format *fmt, enum fl_format want);

/* Writes a warning to stderr (the reader's and engine's warning hook). */
void fl_warn_cb(const char *msg, void *arg);

int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_whatif_idlest(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_reset(int argc, char **argv);

#endif /* FL_CLI_H */
