// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab experiment: the `make demo` experiment on this machine.  Each
 * round records the workload once under each policy (recorder.h), in an
 * order that rotates from round to round; then the analysis of `make
 * demo` (tools/experiment/analyze.sh: the table, plots and verdict) runs
 * on the recordings.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fa_layout.h"
#include "live.h"
#include "recorder.h"
#include "state.h"

#ifndef FL_EXPERIMENT_LIB
#define FL_EXPERIMENT_LIB "/usr/local/share/fairlab"
#endif

#define MAX_POLICIES	64
#define TSV_HEADER	"kind\tpolicy\tround\tfile\thackbench_msgs_per_s\tstressng_ops_per_s\tlost_events\tsize_kb\n"

static void help(FILE *f)
{
	fputs(
"usage: fairlab experiment --policies LIST [--rounds N] [--duration S] [-o DIR]\n"
"                          [--idlest] [--allow-lost] [-b KB] [-e EVENT]...\n"
"                          [--resume] [--no-report] -- CMD [ARG]...\n"
"       fairlab experiment --report-only [-o DIR]\n"
"\n"
"The experiment of `make demo` on this machine: for each round, for each\n"
"policy in LIST (the order rotates from round to round, so that drift does\n"
"not favour one policy), switch tg_policy, record CMD (or S seconds) as\n"
"`fairlab record` does, keep the recording; then write the comparison table,\n"
"plots and verdict of `make demo` (needs bash, awk and gnuplot). It checks\n"
"what `fairlab record` checks, in the same order (root, livepatch, a port\n"
"for this kernel, the modules, the patch), and every policy in LIST, before\n"
"recording anything. trace-cmd runs as a child process. The policy active\n"
"before it started is restored at the end, also after SIGINT (Ctrl-C),\n"
"SIGTERM, SIGHUP or SIGQUIT, which keep the finished recordings and say how\n"
"to resume; after kill -9, `fairlab reset` restores it.\n"
"\n"
"options:\n"
"  -P, --policies LIST  comma-separated policies, e.g. stock,relative:8,budget:5;\n"
"                       a tg policy may name a tg_layout too, POLICY/LAYOUT\n"
"                       (LAYOUT: global, node, llc, node:US, llc:US: where\n"
"                       each group's sum lives, US a read cache in µs), e.g.\n"
"                       stock,stock/node,stock/node:1000; then every run sets\n"
"                       tg_layout (global when its entry names none), and the\n"
"                       tg_layout active before is restored at the end\n"
"  -r, --rounds N       rounds (default 3; 2 or more for a verdict)\n"
"  -d, --duration S     seconds per recording (with CMD: CMD is stopped then)\n"
"  -o, --output DIR     where it all goes (default experiment)\n"
"      --idlest         LIST holds idlest_policy values instead\n"
"      --allow-lost     keep going when a recording lost events (counted in\n"
"                       the table); default: stop, keeping what was recorded\n"
"  -b, --buffer KB      trace buffer per CPU (see fairlab record --help)\n"
"  -e, --event EVENT    record EVENT instead of fairlab (repeatable)\n"
"      --resume         continue DIR: record only the runs it lacks\n"
"      --no-report      record only (make demo analyses on the host)\n"
"      --report-only    write DIR/results from DIR/recordings, record nothing\n"
"  -h, --help           this text\n"
"\n"
"CMD sees FAIRLAB_POLICY, FAIRLAB_ROUND and FAIRLAB_METRICS: a file it may\n"
"write one line \"A B\" to, two throughputs of its own that the table shows in\n"
"its workload columns (make demo's workload: hackbench messages/s and\n"
"stress-ng fork+exec ops/s); \"nan\" when it writes none.\n"
"\n"
"Leaves behind DIR/recordings/ (KIND-POLICY-rN.dat, ':' in POLICY as '-' and\n"
"'/' as '_', throughput.tsv: one row\n"
"per run) and DIR/results/ (table.txt, table.tsv, verdict.txt, plots/).\n"
"\n"
"examples:\n"
"  sudo fairlab experiment --policies stock,force,relative:8 --rounds 5 \\\n"
"       -o exp1 -- hackbench -g 8 -l 2000\n"
"  sudo fairlab experiment --policies stock,budget:5 --rounds 3 --duration 10\n"
"  sudo fairlab experiment --policies stock,stock/node,stock/llc:1000 -d 10\n"
"  fairlab experiment --report-only -o exp1\n"
"\n"
"Exit status: 0 done; 1 a failure (recordings kept); 2 a bad command line;\n"
"128+N stopped by signal N, e.g. 130 SIGINT (recordings kept).\n",
	      f);
}

struct exp {
	enum fl_knob knob;
	char *policies[MAX_POLICIES];	/* pointing into policy_buf */
	char *policy_buf;
	int npol;
	/*
	 * Each policy's tg_layout ("global" when it names none; canonical,
	 * fa_layout_label()), and whether any entry names one: then every
	 * run sets tg_layout.
	 */
	char layouts[MAX_POLICIES][32];
	bool with_layouts;
	char canon[MAX_POLICIES][100];	/* POLICY[/LAYOUT], /global dropped */
	long rounds;
	const char *dir;
	char recdir[4096];
	char tsv[4200];
	bool allow_lost, resume;
	struct fl_rec_opts rec;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * POLICY/LAYOUT: cuts @p at its '/', the layout checked and put in
 * canonical form into @lay ("global" when none); 0 or -1 (usage error).
 */
static int split_layout(struct exp *e, char *p, char *lay)
{
	char *slash = strchr(p, '/');
	struct fa_layout l = { FA_LAYOUT_GLOBAL, 0 };

	if (slash) {
		*slash = '\0';
		if (e->knob != FL_KNOB_TG) {
			fl_error("experiment: --policies: '%s/%s': a tg_layout goes with tg policies only",
				 p, slash + 1);
			return -1;
		}
		if (fa_layout_parse(slash + 1, &l)) {
			fl_error("experiment: --policies: '%s/%s': '%s' is not a tg_layout (global, node, llc, node:US, llc:US; US from 0 to %u)",
				 p, slash + 1, slash + 1, FA_LAYOUT_MAX_REFRESH_US);
			return -1;
		}
		e->with_layouts = true;
	}
	fa_layout_label(&l, lay, 32);
	return 0;
}

/*
 * Splits a copy of @list at commas into e->policies (argv stays as it
 * was: the resume line prints it); 0 or -1 (usage error).
 */
static int split_policies(struct exp *e, const char *arg)
{
	char *p, *save = NULL, *list = strdup(arg);
	int i;

	e->policy_buf = list;
	if (!list) {
		fl_error("out of memory");
		return -1;
	}
	for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (e->npol == MAX_POLICIES) {
			fl_error("experiment: at most %d policies", MAX_POLICIES);
			return -1;
		}
		if (strlen(p) > 64 || strpbrk(p, " \t")) {
			fl_error("experiment: '%s' is not a policy name", p);
			return -1;
		}
		if (split_layout(e, p, e->layouts[e->npol]))
			return -1;
		if (fl_policy_check(e->knob, p, "experiment: --policies"))
			return -1;
		snprintf(e->canon[e->npol], sizeof(e->canon[0]), "%s%s%s", p,
			 strcmp(e->layouts[e->npol], "global") ? "/" : "",
			 strcmp(e->layouts[e->npol], "global") ? e->layouts[e->npol] : "");
		for (i = 0; i < e->npol; i++)
			if (!strcmp(e->policies[i], e->canon[e->npol])) {
				fl_error("experiment: policy '%s' listed twice", e->canon[e->npol]);
				return -1;
			}
		e->policies[e->npol] = e->canon[e->npol];
		e->npol++;
	}
	if (!e->npol) {
		fl_error("experiment: --policies names no policy");
		return -1;
	}
	return 0;
}

/* The file name stem of a run: KIND-POLICY-rN, ':' in POLICY as '-'. */
static void stem(const struct exp *e, const char *pol, long round, char *buf, size_t len)
{
	char *c;

	snprintf(buf, len, "%s-%s-r%ld", fl_knob_kind(e->knob), pol, round);
	for (c = buf; *c; c++)
		if (*c == ':')
			*c = '-';
		else if (*c == '/')
			*c = '_';
}

/* Is the run already in throughput.tsv (--resume)? */
static bool done_before(const struct exp *e, const char *pol, long round)
{
	char line[1024], want[256];
	bool found = false;
	FILE *f = fopen(e->tsv, "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "%s\t%s\t%ld\t", fl_knob_kind(e->knob), pol, round);
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, want, strlen(want));
	fclose(f);
	return found;
}

/* The two throughputs CMD wrote to FAIRLAB_METRICS, or "nan". */
static void read_metrics(const char *path, char *a, char *b)
{
	FILE *f = fopen(path, "r");

	strcpy(a, "nan");
	strcpy(b, "nan");
	if (!f)
		return;
	if (fscanf(f, "%31s %31s", a, b) < 2) {
		fl_warn("%s: expected two numbers \"A B\"; the run's workload columns stay empty", path);
		strcpy(a, "nan");
		strcpy(b, "nan");
	}
	fclose(f);
	unlink(path);
}

static void clock_str(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* The command line that resumes this experiment. */
static void print_resume(int argc, char **argv)
{
	int i;

	fprintf(stderr, "  resume:  fairlab experiment --resume");
	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "--resume"))
			fprintf(stderr, strpbrk(argv[i], " \t'\"$") ? " '%s'" : " %s", argv[i]);
	fputc('\n', stderr);
}

/* Runs the analysis of make demo on DIR; its exit status. */
static int report(const char *dir)
{
	const char *lib = getenv("FAIRLAB_EXPERIMENT_LIB");
	char script[4096], rec[4096], res[4096], self[4096];
	ssize_t n;
	pid_t pid;
	int st;

	if (!lib)
		lib = FL_EXPERIMENT_LIB;
	snprintf(script, sizeof(script), "%s/analyze.sh", lib);
#ifdef FL_EXPERIMENT_SRC
	/* an uninstalled build: the scripts in its source tree */
	if (!getenv("FAIRLAB_EXPERIMENT_LIB") && access(script, R_OK))
		snprintf(script, sizeof(script), "%s/analyze.sh", FL_EXPERIMENT_SRC);
#endif
	snprintf(rec, sizeof(rec), "%s/recordings", dir);
	snprintf(res, sizeof(res), "%s/results", dir);
	if (access(script, R_OK)) {
		fl_error("%s: %s (set FAIRLAB_EXPERIMENT_LIB to the fairlab source's tools/experiment)",
			 script, strerror(errno));
		return FL_EXIT_FAIL;
	}
	/* the script runs this very binary for compare and plot */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		setenv("FAIRLAB", self, 1);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fl_error("fork: %s", strerror(errno));
		return FL_EXIT_FAIL;
	}
	if (!pid) {
		execlp("bash", "bash", script, rec, res, (char *)NULL);
		fprintf(stderr, "fairlab: error: cannot run bash: %s\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return FL_EXIT_FAIL;
	return FL_EXIT_OK;
}

/* One run: switch, record, keep; 0, 1 (failed) or 128+N (stopped by signal N). */
static int one_run(struct exp *e, int j, long round)
{
	const char *pol = e->policies[j];
	char knob_pol[100], *slash;
	char st[256], out[4400], metrics[4400], a[32], b[32], kept[4500];
	struct fl_rec_result res;
	char rnd[32];
	FILE *f;

	stem(e, pol, round, st, sizeof(st));
	snprintf(out, sizeof(out), "%s/%s.dat", e->recdir, st);
	snprintf(metrics, sizeof(metrics), "%s/%s.metrics", e->recdir, st);
	snprintf(rnd, sizeof(rnd), "%ld", round);
	unlink(metrics);
	setenv("FAIRLAB_POLICY", pol, 1);
	setenv("FAIRLAB_ROUND", rnd, 1);
	setenv("FAIRLAB_METRICS", metrics, 1);
	/* the layout first: a policy that decides on a counter gets its own at once */
	if (e->with_layouts && fl_layout_set(e->layouts[j]))
		return FL_EXIT_FAIL;
	snprintf(knob_pol, sizeof(knob_pol), "%s", pol);
	slash = strchr(knob_pol, '/');
	if (slash)
		*slash = '\0';
	if (fl_policy_set(e->knob, knob_pol))
		return FL_EXIT_FAIL;
	e->rec.out = out;
	if (fl_record(&e->rec, &res))
		return FL_EXIT_FAIL;
	read_metrics(metrics, a, b);
	if (res.interrupted || (res.lost && !e->allow_lost)) {
		/* not a run of the experiment: kept aside, redone by --resume */
		snprintf(kept, sizeof(kept), "%s/%s.%s.dat", e->recdir, st,
			 res.interrupted ? "interrupted" : "lost");
		rename(out, kept);
		if (res.interrupted)
			return 128 + fl_rec_interrupted;
		fl_error("%s: %llu events lost (kept as %s): raise --buffer (per CPU), record less (-e), or accept it with --allow-lost",
			 st, res.lost, kept);
		return FL_EXIT_FAIL;
	}
	if (res.cmd_status && WIFEXITED(res.cmd_status))
		fl_warn("%s: CMD exited with status %d", st, WEXITSTATUS(res.cmd_status));
	f = fopen(e->tsv, "a");
	if (!f || fprintf(f, "%s\t%s\t%ld\t%s.dat\t%s\t%s\t%llu\t%lld\n", fl_knob_kind(e->knob),
			  pol, round, st, a, b, res.lost, (res.size + 1023) / 1024) < 0 ||
	    fclose(f)) {
		fl_error("cannot append to %s: %s", e->tsv, strerror(errno));
		return FL_EXIT_FAIL;
	}
	fl_rec_summary("experiment", st, &res);
	return FL_EXIT_OK;
}

static int run_all(struct exp *e)
{
	long total = e->rounds * e->npol, done = 0, ran = 0, r;
	double t0 = now_s();
	char el[32], eta[32];
	int j, ret;

	for (r = 1; r <= e->rounds; r++) {
		for (j = 0; j < e->npol; j++) {
			/* rotate: round r starts with policy r-1 */
			int k = (j + r - 1) % e->npol;
			const char *pol = e->policies[k];

			if (e->resume && done_before(e, pol, r)) {
				done++;
				continue;
			}
			clock_str(now_s() - t0, el, sizeof(el));
			if (ran)
				clock_str((now_s() - t0) / ran * (total - done), eta, sizeof(eta));
			else
				strcpy(eta, "?");
			printf("experiment: [%s] round %ld/%ld, policy %d/%d %s (run %ld/%ld, ETA %s)\n",
			       el, r, e->rounds, j + 1, e->npol, pol, done + 1, total, eta);
			fflush(stdout);
			ret = one_run(e, k, r);
			if (ret)
				return ret;
			done++;
			ran++;
			if (fl_rec_interrupted)
				return 128 + fl_rec_interrupted;
		}
	}
	clock_str(now_s() - t0, el, sizeof(el));
	printf("experiment: [%s] %ld runs recorded in %s\n", el, total, e->recdir);
	return FL_EXIT_OK;
}

static int make_dirs(struct exp *e)
{
	FILE *f;

	if (mkdir(e->dir, 0755) && errno != EEXIST) {
		fl_error("cannot create %s: %s", e->dir, strerror(errno));
		return -1;
	}
	if (mkdir(e->recdir, 0755) && errno != EEXIST) {
		fl_error("cannot create %s: %s", e->recdir, strerror(errno));
		return -1;
	}
	if (!access(e->tsv, F_OK)) {
		if (e->resume)
			return 0;
		fl_error("%s already holds an experiment: --resume continues it, -o another DIR starts a new one",
			 e->dir);
		return -1;
	}
	f = fopen(e->tsv, "w");
	if (!f || fputs(TSV_HEADER, f) == EOF || fclose(f)) {
		fl_error("cannot write %s: %s", e->tsv, strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_experiment(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policies", required_argument, NULL, 'P' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "idlest", no_argument, NULL, 'I' },
		{ "allow-lost", no_argument, NULL, 'L' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "event", required_argument, NULL, 'e' },
		{ "resume", no_argument, NULL, 'R' },
		{ "no-report", no_argument, NULL, 'N' },
		{ "report-only", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct exp e = { .rounds = 3, .dir = "experiment", .rec.quiet = true };
	bool no_report = false, report_only = false;
	char prev[128], prev_layout[64] = "";
	char *list = NULL;
	int c, ret, rret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+P:r:d:o:b:e:h", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			list = optarg;
			break;
		case 'r':
			if (fl_parse_long(optarg, 1, 10000, "--rounds", &e.rounds))
				return FL_EXIT_USAGE;
			break;
		case 'o':
			e.dir = optarg;
			break;
		case 'I':
			e.knob = FL_KNOB_IDLEST;
			break;
		case 'L':
			e.allow_lost = true;
			break;
		case 'R':
			e.resume = true;
			break;
		case 'N':
			no_report = true;
			break;
		case 'O':
			report_only = true;
			break;
		case 'h':
			help(stdout);
			return FL_EXIT_OK;
		default:
			ret = fl_rec_option(c, optarg, &e.rec, "experiment");
			if (ret)
				return ret;
		}
	}
	if (fl_rec_command(argc, argv, &e.rec, "experiment"))
		return FL_EXIT_USAGE;
	snprintf(e.recdir, sizeof(e.recdir), "%s/recordings", e.dir);
	snprintf(e.tsv, sizeof(e.tsv), "%s/throughput.tsv", e.recdir);
	if (report_only) {
		if (list || e.rec.cmd || no_report || e.resume) {
			fl_error("experiment: --report-only takes -o DIR only");
			return FL_EXIT_USAGE;
		}
		if (access(e.tsv, R_OK)) {
			fl_error("%s: %s: DIR holds no experiment's recordings", e.tsv, strerror(errno));
			return FL_EXIT_FAIL;
		}
		return report(e.dir);
	}
	if (!list) {
		fl_error("experiment: --policies LIST is required (see fairlab experiment --help)");
		return FL_EXIT_USAGE;
	}
	if (split_policies(&e, list))
		return FL_EXIT_USAGE;
	if (!e.rec.cmd && !e.rec.duration) {
		fl_error("experiment: give a command (-- CMD ...) or --duration S for each recording");
		return FL_EXIT_USAGE;
	}

	if (fl_live_check())
		return FL_EXIT_FAIL;
	fl_rec_catch_signals();
	if (fl_reset(stderr, true) || fl_policy_get(e.knob, prev, sizeof(prev)) ||
	    (e.with_layouts && fl_layout_get(prev_layout, sizeof(prev_layout))) ||
	    make_dirs(&e) || fl_state_begin(e.knob, prev) ||
	    (e.with_layouts && fl_state_layout(prev_layout)))
		return FL_EXIT_FAIL;
	printf("experiment: %d %s policies x %ld round(s)%s into %s; %s_policy was %s\n",
	       e.npol, fl_knob_kind(e.knob), e.rounds, e.rec.cmd ? "" : " of a fixed duration",
	       e.dir, fl_knob_kind(e.knob), prev);
	fflush(stdout);
	ret = run_all(&e);
	rret = fl_policy_set(e.knob, prev);
	if (!rret)
		printf("experiment: %s_policy restored to %s\n", fl_knob_kind(e.knob), prev);
	if (e.with_layouts) {
		if (fl_layout_set(prev_layout))
			rret = -1;
		else
			printf("experiment: tg_layout restored to %s\n", prev_layout);
	}
	if (!rret)
		fl_state_end();
	fflush(stdout);
	if (ret) {
		fprintf(stderr, "experiment: %s; the finished runs are in %s\n",
			ret > 128 ? "interrupted" : "stopped by the failure above", e.tsv);
		print_resume(argc - 1, argv + 1);
		fprintf(stderr, "  report what was recorded:  fairlab experiment --report-only -o %s\n", e.dir);
		return ret;
	}
	if (rret)
		return FL_EXIT_FAIL;
	return no_report ? FL_EXIT_OK : report(e.dir);
}
