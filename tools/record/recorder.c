// SPDX-License-Identifier: GPL-2.0
/*
 * One recording on the running kernel (see recorder.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fa_engine.h"
#include "live.h"
#include "reader.h"
#include "recorder.h"
#include "state.h"

volatile sig_atomic_t fl_rec_interrupted;

static void on_signal(int sig)
{
	fl_rec_interrupted = sig;
}

void fl_rec_catch_signals(void)
{
	/* no SA_RESTART: a signal ends the sleeps below early */
	struct sigaction sa = { .sa_handler = on_signal };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* after a hang-up, a write to the gone terminal must fail, not kill
	 * the process before it restores the policy */
	signal(SIGPIPE, SIG_IGN);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap_ms(long ms)
{
	nanosleep(&(struct timespec){ .tv_sec = ms / 1000,
				      .tv_nsec = ms % 1000 * 1000000 }, NULL);
}

int fl_rec_option(int c, const char *arg, struct fl_rec_opts *o, const char *cmd)
{
	switch (c) {
	case 'd':
		return fl_parse_positive(arg, "--duration", &o->duration) ? FL_EXIT_USAGE : 0;
	case 'b':
		return fl_parse_long(arg, 64, 4L << 20, "--buffer (KB)", &o->buf_kb) ?
		       FL_EXIT_USAGE : 0;
	case 'e':
		if (o->nevents == FL_REC_MAX_EVENTS) {
			fl_error("%s: at most %d -e options", cmd, FL_REC_MAX_EVENTS);
			return FL_EXIT_USAGE;
		}
		o->events[o->nevents++] = arg;
		return 0;
	}
	fl_error("see fairlab %s --help", cmd);
	return FL_EXIT_USAGE;
}

int fl_rec_command(int argc, char **argv, struct fl_rec_opts *o, const char *cmd)
{
	o->cmd = NULL;
	if (optind >= argc)
		return 0;
	if (strcmp(argv[optind - 1], "--")) {
		fl_error("%s: '%s': the command to run goes after -- (fairlab %s [options] -- CMD ...)",
			 cmd, argv[optind], cmd);
		return FL_EXIT_USAGE;
	}
	o->cmd = argv + optind;
	return 0;
}

long fl_rec_buf_kb(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), avail = 0, kb = 32768;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &avail) == 1)
			break;
	if (f)
		fclose(f);
	if (cpus < 1)
		cpus = 1;
	if (avail > 0 && avail / 4 / cpus < kb)
		kb = avail / 4 / cpus;
	return kb < 1024 ? 1024 : kb;
}

/* Waits for @pid up to @secs; its status, or -1 if still running. */
static int wait_bounded(pid_t pid, double secs)
{
	double end = now_s() + secs;
	int st;

	do {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
		nap_ms(20);
	} while (now_s() < end);
	return -1;
}

static void log_tail(const char *log)
{
	char line[512];
	FILE *f = fopen(log, "r");
	long n = 0;

	if (!f)
		return;
	/* the last lines say why trace-cmd failed */
	while (fgets(line, sizeof(line), f))
		n++;
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (n-- <= 4)
			fprintf(stderr, "  trace-cmd: %s", line);
	fclose(f);
}

/*
 * trace-cmd record in its own process group: a Ctrl-C at the terminal
 * must not stop it before the closing audit is in the buffer.  It gets
 * SIGINT when this process dies (kill -9, a crash), which ends it as a
 * normal stop does: no orphan filling the disk.
 */
static pid_t start_trace_cmd(const struct fl_rec_opts *o, const char *log)
{
	char bufarg[32];
	const char *argv[64];
	int n = 0, i, fd;
	pid_t pid, parent = getpid();

	snprintf(bufarg, sizeof(bufarg), "%ld", o->buf_kb ? o->buf_kb : fl_rec_buf_kb());
	argv[n++] = "trace-cmd";
	argv[n++] = "record";
	argv[n++] = "-C";
	argv[n++] = "mono";
	argv[n++] = "-b";
	argv[n++] = bufarg;
	argv[n++] = "-o";
	argv[n++] = o->out;
	for (i = 0; i < o->nevents && n < 60; i++) {
		argv[n++] = "-e";
		argv[n++] = o->events[i];
	}
	if (!o->nevents) {
		argv[n++] = "-e";
		argv[n++] = "fairlab";
	}
	argv[n] = NULL;

	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fl_error("cannot create %s: %s", log, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fl_error("fork: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!pid) {
		setpgid(0, 0);
		/* the parent may have died before the death signal was set */
		if (prctl(PR_SET_PDEATHSIG, SIGINT) || getppid() != parent)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		execvp("trace-cmd", (char *const *)argv);
		fprintf(stderr, "cannot run trace-cmd: %s (install trace-cmd)\n", strerror(errno));
		_exit(127);
	}
	close(fd);
	fl_state_recorder(pid, o->out);
	return pid;
}

/* Recording has begun once trace-cmd's per-CPU files exist and it has
 * turned tracing on (it clears tracing_on at start and sets it last). */
static int wait_started(pid_t tc, const char *out)
{
	char cpu0[4096], on[256], v[8] = "";
	double end = now_s() + 20;
	const char *tfs = fl_tracefs();

	snprintf(cpu0, sizeof(cpu0), "%s.cpu0", out);
	snprintf(on, sizeof(on), "%s/tracing_on", tfs ? tfs : "/sys/kernel/tracing");
	while (now_s() < end) {
		FILE *f;

		if (waitpid(tc, NULL, WNOHANG) == tc)
			return -1;
		f = access(cpu0, F_OK) ? NULL : fopen(on, "r");
		if (f) {
			if (!fgets(v, sizeof(v), f))
				v[0] = '\0';
			fclose(f);
			if (v[0] == '1')
				return 0;
		}
		nap_ms(20);
	}
	return -1;
}

/* Runs CMD (in this process group: a Ctrl-C at the terminal reaches it
 * as with perf record) until it exits, the duration ends or a signal. */
static int run_workload(const struct fl_rec_opts *o, struct fl_rec_result *res)
{
	double end = o->duration > 0 ? now_s() + o->duration : 0;
	pid_t pid = 0;
	int st;

	if (o->cmd) {
		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			fl_error("fork: %s", strerror(errno));
			return -1;
		}
		if (!pid) {
			execvp(o->cmd[0], o->cmd);
			fprintf(stderr, "fairlab: error: cannot run %s: %s\n", o->cmd[0], strerror(errno));
			_exit(127);
		}
	}
	for (;;) {
		if (pid && waitpid(pid, &st, WNOHANG) == pid) {
			res->cmd_status = st;
			return 0;
		}
		if (fl_rec_interrupted || (end && now_s() >= end))
			break;
		nap_ms(20);
	}
	res->interrupted = fl_rec_interrupted != 0;
	if (!pid)
		return 0;
	/* SIGINT first (a signal sent to fairlab alone does not reach CMD),
	 * then SIGTERM, then SIGKILL */
	kill(pid, SIGINT);
	st = wait_bounded(pid, 5);
	if (st == -1) {
		kill(pid, SIGTERM);
		st = wait_bounded(pid, 5);
	}
	if (st == -1) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	res->cmd_status = st;
	return 0;
}

static int stop_trace_cmd(pid_t tc, const char *log)
{
	int st;

	kill(tc, SIGINT);
	st = wait_bounded(tc, 120);
	if (st == -1) {
		kill(tc, SIGKILL);
		waitpid(tc, &st, 0);
		fl_error("trace-cmd did not stop within 120 s of SIGINT: killed (log: %s)", log);
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fl_error("trace-cmd record failed (log: %s):", log);
		log_tail(log);
		return -1;
	}
	return 0;
}

/* Reads the file back: its records and what the ring buffer lost. */
static int count(const char *path, struct fl_rec_result *res)
{
	struct fa_engine_cfg cfg = { 0 };
	const struct fl_read_info *in;
	struct fl_reader *rd;
	struct fa_engine *e;
	struct stat sb;
	char err[512];
	int ret = 0;

	rd = fl_reader_open(path, err, sizeof(err));
	if (!rd) {
		fl_error("reading back %s: %s", path, err);
		return -1;
	}
	e = fa_engine_new(&cfg);
	if (!e || fl_reader_run(rd, e, err, sizeof(err))) {
		fl_error("reading back %s: %s", path, e ? err : "out of memory");
		ret = -1;
	} else {
		in = fl_reader_info(rd);
		res->records = in->records;
		res->fairlab_records = in->fairlab_records;
		/* the buffer statistics count every loss; missed_events only
		 * those the reader saw, and none when their size is unknown */
		res->lost = in->overruns > in->lost_events ? in->overruns : in->lost_events;
		if (!res->lost && in->lost_unknown)
			res->lost = in->lost_unknown;
	}
	if (e)
		fa_engine_free(e);
	fl_reader_close(rd);
	res->size = stat(path, &sb) ? 0 : (long long)sb.st_size;
	return ret;
}

int fl_record(const struct fl_rec_opts *o, struct fl_rec_result *res)
{
	char log[4096];
	pid_t tc;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (snprintf(log, sizeof(log), "%s.record.log", o->out) >= (int)sizeof(log)) {
		fl_error("output path too long: %s", o->out);
		return -1;
	}
	tc = start_trace_cmd(o, log);
	if (tc < 0)
		return -1;
	if (wait_started(tc, o->out)) {
		if (waitpid(tc, NULL, WNOHANG) == 0) {
			kill(tc, SIGKILL);
			waitpid(tc, NULL, 0);
			fl_error("trace-cmd record did not start tracing within 20 s (log: %s):", log);
		} else {
			fl_error("trace-cmd record exited before tracing (log: %s):", log);
		}
		log_tail(log);
		fl_state_recorder(0, o->out);
		return -1;
	}
	/*
	 * names every group and CPU in this recording (tg_info, cpu_topology),
	 * then the opening snapshot, so that report's audit_windows checks
	 * the whole recording against the closing one
	 */
	if (fl_live_describe() || fl_live_audit())
		ret = -1;
	if (!ret && run_workload(o, res))
		ret = -1;
	/* the closing snapshot: exact tg->load_avg against the sums */
	if (fl_live_audit())
		ret = -1;
	ret |= stop_trace_cmd(tc, log);
	fl_state_recorder(0, o->out);
	if (ret)
		return -1;
	if (count(o->out, res))
		return -1;
	unlink(log);
	if (!o->quiet)
		fl_rec_summary("fairlab record", o->out, res);
	return 0;
}

void fl_rec_summary(const char *prefix, const char *path,
		    const struct fl_rec_result *res)
{
	printf("%s: %s: %llu records (%llu fairlab), %llu lost events, %lld KB\n",
	       prefix, path, res->records, res->fairlab_records, res->lost,
	       (res->size + 1023) / 1024);
	fflush(stdout);
}
