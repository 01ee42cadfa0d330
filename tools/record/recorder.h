/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recording of the fairlab:* events on the running kernel, the way
 * `make demo` makes them: `trace-cmd record -C mono` (a global clock, the
 * one tg_audit's snap_ns is taken on) as a child process with per-CPU
 * buffers sized for the machine, a describe once tracing is on, the
 * workload (a command, or a duration, or until SIGINT), an audit, stop;
 * then the file is read back for its record and lost-event counts.
 * Shared by `fairlab record` and `fairlab experiment`.
 */
#ifndef FL_RECORDER_H
#define FL_RECORDER_H

#include <signal.h>
#include <stdbool.h>

#define FL_REC_MAX_EVENTS 16

struct fl_rec_opts {
	const char *out;		/* the trace.dat to write */
	const char *events[FL_REC_MAX_EVENTS];	/* trace-cmd -e; none: "fairlab" */
	int nevents;
	long buf_kb;			/* per CPU; 0: fl_rec_buf_kb() */
	double duration;		/* seconds; 0: until CMD exits or SIGINT */
	char *const *cmd;		/* NULL: no command */
	bool quiet;			/* no summary line */
};

struct fl_rec_result {
	unsigned long long records;	/* every record in the file */
	unsigned long long fairlab_records;
	unsigned long long lost;	/* events the ring buffer lost */
	long long size;			/* bytes */
	int cmd_status;			/* wait status of CMD; 0 without one */
	bool interrupted;		/* a signal (fl_rec_interrupted) ended the workload */
};

/*
 * The options record and experiment share: 'd' (--duration S), 'b'
 * (--buffer KB), 'e' (--event EVENT), as getopt_long() returned @c with
 * @arg.  0, or FL_EXIT_USAGE after an error naming @cmd.
 */
int fl_rec_option(int c, const char *arg, struct fl_rec_opts *o, const char *cmd);

/*
 * After getopt_long() with "+": the command after "--" into o->cmd (none:
 * NULL).  0, or FL_EXIT_USAGE when words follow without "--".
 */
int fl_rec_command(int argc, char **argv, struct fl_rec_opts *o, const char *cmd);

/*
 * The signal, SIGINT, SIGTERM, SIGHUP or SIGQUIT, that asked the recording
 * to stop once fl_rec_catch_signals() has run (0: none).  Each ends it as
 * Ctrl-C does: workload stopped, closing audit, trace-cmd stopped, policy
 * restored.  SIGPIPE is ignored from then on.
 */
extern volatile sig_atomic_t fl_rec_interrupted;
void fl_rec_catch_signals(void);

/*
 * Per-CPU buffer size in KB: 32 MB (what the demo needs at 4 vCPUs under
 * a fork/exec load), less when a quarter of MemAvailable shared among
 * the online CPUs is smaller, at least 1 MB.
 */
long fl_rec_buf_kb(void);

/*
 * Makes the recording; fills @res.  0 on success (the file is complete;
 * @res may still report lost events and CMD's status), -1 after printing
 * why (trace-cmd failed, the file cannot be read back).
 */
int fl_record(const struct fl_rec_opts *o, struct fl_rec_result *res);

/* "FILE: N records (M fairlab:*), L lost events, S KB" on stdout. */
void fl_rec_summary(const char *prefix, const char *path,
		    const struct fl_rec_result *res);

#endif /* FL_RECORDER_H */
