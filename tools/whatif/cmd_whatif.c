// SPDX-License-Identifier: GPL-2.0
/*
 * `fairlab whatif FILE`: one recording replayed under every policy asked
 * (analysis/fa_replay.h), in one pass; the report's figures per policy,
 * the Pareto frontier, and optionally its plot.
 */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gnuplot.h"
#include "metrics.h"
#include "whatif.h"
#include "whatif_shards.h"

static void help(FILE *f)
{
	int i;

	fputs(
"usage: fairlab whatif [options] FILE\n"
"\n"
"Replays the recording FILE under other tg->load_avg policies: each cfs_rq's\n"
"recorded load sequence is decided again by module/policy/ (the code the\n"
"kernel runs) under every policy asked, all in one pass over the file, and\n"
"prints per policy the figures `fairlab report` gives, and the Pareto frontier.\n"
"\n"
"At every recorded update attempt the recorded load is the input; the policy\n"
"decides on load - its own replayed contrib; a write sets that contrib to load\n"
"and executes on the record's CPU.  Policy inputs: site and nr_cpus from the\n"
"record; tg->load_avg (budget) as recorded, corrected by the replayed contribs;\n"
"the time since the last publish (ratelimit) on the kernel's sched_clock,\n"
"rebuilt from the recorded since_ns.  Replayed under the policy it was recorded\n"
"with, a recording gives back its recorded decisions and figures exactly.\n"
"A replay cannot see feedback: under another policy, a different tg->load_avg\n"
"would change group weights, and so the recorded loads themselves.\n"
"At every recorded read of tg->load_avg (tg_read) the policy's own\n"
"tg->load_avg (the recorded one plus its E minus the recording's) and its\n"
"cfs_rq's contrib go through the kernel's calc_group_shares() (the code report\n"
"uses): the shares error against the same ideal as report's; the policy's\n"
"writes, its own reads of tg->load_avg (budget's, one per decision) and the\n"
"recorded reads go through report's coherence model.\n"
"\n"
"columns (units in parentheses; JSON/CSV keys end with the unit):\n"
"  attempts, writes       tg_update attempts, and those that would publish\n"
"  write%                 writes per attempt\n"
"  switches, xnode        writer switches (the raw, write-only contention\n"
"                         figure), and those across NUMA nodes ('-': unknown,\n"
"                         a CPU no cpu_topology record placed, as report)\n"
"  reads                  tg_read records (the same under every policy)\n"
"  transfers              modeled line transfers of tg->load_avg, reads and\n"
"                         writes (a MODEL, a lower bound: fairlab report --help)\n"
"  cost                   their modeled cost on --machine's latencies, ns/s\n"
"  sh.max, mean, p50, p99 shares error |given - ideal| / tg->shares (% of\n"
"                         tg->shares, bounded: the headline), time-weighted\n"
"                         over cfs_rq-time (as report); '-' without reads\n"
"  sh.rel.max, mean, p99  the same relative to the ideal weight (% of ideal,\n"
"                         unbounded: a secondary figure)\n"
"  |E| max, mean, p99     accumulated error tg->load_avg - sum(load), load units;\n"
"                         mean and p99 time-weighted per group (as report)\n"
"  rel.mean               |E| / sum(load), time-weighted (with --rel only)\n"
"  diverged               attempts decided otherwise than recorded\n"
"  front                  * on the Pareto frontier: no other policy has both a\n"
"                         lower or equal cost (--cost) and mean error (--error),\n"
"                         one lower\n"
"\n"
"options:\n"
"  --policy=LIST    comma-separated: stock, force, nonzero, relative[:N],\n"
"                   turner1, turner2, fixed[:T], log2[:B], ratelimit[:US],\n"
"                   budget[:E] (as the kernel's tg_policy parameter), recorded\n"
"                   (each record's own policy: the exactness check), all (every\n"
"                   policy at its default argument); stock is replayed with the\n"
"                   rate-limit gate the recording's stock records carry (its\n"
"                   kernel's: 1 ms on 6.7 and later, none on 6.1)\n"
"  --sweep=NAME:FROM..TO[*STEP|xFACTOR]\n"
"                   NAME's argument from FROM to TO, adding STEP or multiplying\n"
"                   by FACTOR (default x2); repeatable\n"
"                   Without --policy or --sweep: recorded, all, and the sweeps\n",
	      f);
	for (i = 0; fl_whatif_default_sweeps[i]; i++)
		fprintf(f, "                   %s\n", fl_whatif_default_sweeps[i]);
	fputs(
"                   (50 policies)\n"
"  --layout=LIST    every policy also under these layouts of tg->load_avg\n"
"                   (comma-separated; replaces the recording's own, global):\n"
"                   global (one counter, one line: the kernel's), node, llc (a\n"
"                   counter per NUMA node / last-level cache, each on its own\n"
"                   line: a publish writes its CPU's domain line, a read sums\n"
"                   every domain line), node:US, llc:US (and a per-domain read\n"
"                   cache: a read within US microseconds of its domain's last\n"
"                   sum reads only that cached sum, stale; under the\n"
"                   recording's own layout, a hit where the kernel recorded\n"
"                   one, with the value it read); a policy named\n"
"                   POLICY/LAYOUT (--policy=stock/node:1000) keeps its own.\n"
"                   budget decides on the writer's domain counter.  Adds the\n"
"                   columns layout, xfer.llc, xfer.node, xfer.xnode, xfer.unk\n"
"                   (transfers by distance), xfer.by_read, line.reads (counter\n"
"                   lines the recorded reads read), cache.hits (n each)\n"
"  --contention=US  also the contention term (a MODEL, off by default): each\n"
"                   line's transfers grouped in windows of US microseconds; a\n"
"                   window of n transfers of idle latencies summing to L costs\n"
"                   L + n * min(rho*S/(2(1-rho)), (n-1)*S/2), S = L/n, rho = L/W\n"
"                   ((n-1)*S/2 when rho >= 1): the M/D/1 mean wait of a line\n"
"                   serving one request at a time (David, Guerraoui,\n"
"                   Trigonakis, SOSP 2013: atomic latency on one line grows\n"
"                   with the cores contending); printed after the table (text,\n"
"                   JSON): idle, contended, and contended with the per-CPU\n"
"                   rates scaled to --scale-cpus CPUs per node (n and L times\n"
"                   the ratio), each split layout against global\n"
"  --scale-cpus=N   CPUs per node of that extrapolation (default 112: a\n"
"                   224-CPU 2-socket Sapphire Rapids)\n"
"  --rel            also the relative error |E|/sum(load) (rel.mean; a division\n"
"                   per change of E and policy: about 40% more time per policy)\n"
"  --cost=KIND      the frontier's cost: writes (default), switches (writer\n"
"                   switches), xnode (cross-node switches), transfers (modeled\n"
"                   line transfers), modeled (their cost on --machine, ns/s)\n"
"  --error=KIND     the frontier's error, a time-weighted mean: abs (|E|, load;\n"
"                   the default) or shares (the shares error, % of\n"
"                   tg->shares; needs reads)\n"
FL_MACHINE_HELP
FL_SHARED_MISS_HELP
"  -o, --output=DIR also plot: DIR/whatif.png/.svg, mean error against the cost,\n"
"                   every policy a point, the frontier a line (data whatif.tsv,\n"
"                   script whatif.gp stay in DIR)\n"
"  --gnuplot=PROG   the gnuplot program (default gnuplot)\n"
"  --json           one JSON document: file, recorded, policies[], frontier[]\n"
"  --csv            the policies table, one row each; with --contention, two\n"
"                   more columns: coh_cost_contended_ns_per_s and\n"
"                   coh_cost_contended_scaled_ns_per_s (at --scale-cpus)\n"
FL_THREADS_HELP
"  --procs=N        the policies dealt out to N processes (1-64, default 1),\n"
"                   each reading FILE and running the engine itself: a\n"
"                   wall-clock gain only where cores and memory are free\n"
"                   (N times the memory); the output is the same whatever N\n"
"  -h, --help       this text\n"
"  --idlest         the placement what-if instead: every recorded\n"
"                   find_idlest_group() call under every idlest policy\n"
"                   (fairlab whatif --idlest --help)\n"
"  --by-type        with --idlest --csv: its table by group type\n"
"\n"
"examples:\n"
"  fairlab whatif stock.dat\n"
"  fairlab whatif --policy=recorded,stock,budget:5 --sweep=relative:4..64x2 run.dat\n"
"  fairlab whatif --sweep=fixed:0..256*32 --cost=switches -o plots/ run.dat\n"
"  fairlab whatif --json stock.dat | jq '.frontier'\n"
"  fairlab whatif --cost=modeled --machine=milan --error=shares stock.dat\n"
"  fairlab whatif --policy=stock,budget:5 --layout=global,node,llc,node:1000 stock.dat\n"
"  fairlab whatif --policy=recorded --layout=global,node --contention=10 stock.dat\n"
"\n"
"Exit status: 0 success, 1 an unreadable file or a failed tool, 2 a bad command line.\n",
	      f);
}

/* The policies table but its name; with layouts, the layout columns after it. */
#define BASE_COLS \
	{ "attempts_n", "attempts(n)", FL_U64, 0, 0 }, \
	{ "writes_n", "writes(n)", FL_U64, 0, 0 }, \
	{ "write_pct", "write(%)", FL_DBL, 2, 0 }, \
	{ "writes_per_s", "writes(1/s)", FL_DBL, 1, 0 }, \
	{ "switches_n", "switches(n)", FL_U64, 0, 0 }, \
	{ "switches_per_s", "switches(1/s)", FL_DBL, 1, 0 }, \
	{ "xnode_switches_n", "xnode(n)", FL_DBL, 0, 0 }, \
	{ "reads_n", "reads(n)", FL_DBL, 0, 0 }, \
	{ "coh_transfers_n", "transfers(n)", FL_DBL, 0, 0 }, \
	{ "coh_cost_ns_per_s", "cost(ns/s)", FL_DBL, 1, 0 }, \
	{ "shares_err_max_pct", "sh.max(%tgs)", FL_DBL, 4, 0 }, \
	{ "shares_err_mean_pct", "sh.mean(%tgs)", FL_DBL, 4, 0 }, \
	{ "shares_err_p50_pct", "sh.p50(%tgs)", FL_DBL, 4, 0 }, \
	{ "shares_err_p99_pct", "sh.p99(%tgs)", FL_DBL, 4, 0 }, \
	{ "shares_err_rel_max_pct", "sh.rel.max(%ideal)", FL_DBL, 3, 0 }, \
	{ "shares_err_rel_mean_pct", "sh.rel.mean(%ideal)", FL_DBL, 3, 0 }, \
	{ "shares_err_rel_p99_pct", "sh.rel.p99(%ideal)", FL_DBL, 3, 0 }, \
	{ "err_max_load", "|E|max(load)", FL_U64, 0, 0 }, \
	{ "err_mean_load", "|E|mean(load)", FL_DBL, 2, 0 }, \
	{ "err_p99_load", "|E|p99(load)", FL_U64, 0, 0 }, \
	{ "err_rel_mean_pct", "rel.mean(%)", FL_DBL, 3, 0 }, \
	{ "diverged_n", "diverged(n)", FL_U64, 0, 0 }, \
	{ "frontier", "front", FL_STR, 0, 5 },

/*
 * With --contention, CSV rows end with the contention term's two figures
 * (text and JSON print them in a section of their own after the table).
 */
#define CONT_COLS \
	{ "coh_cost_contended_ns_per_s", "contended(ns/s)", FL_DBL, 1, 0 }, \
	{ "coh_cost_contended_scaled_ns_per_s", "contended@scale(ns/s)", FL_DBL, 1, 0 },
#define NCONT 2

static const struct fl_col cols[] = {
	{ "policy", "policy", FL_STR, 0, 16 },
	BASE_COLS
	CONT_COLS
};
/*
 * With layouts (--layout, or POLICY/LAYOUT): the layout, the modeled
 * transfers by distance, those caused by reads, the counter lines the
 * recorded reads read, and the read cache's hits.
 */
static const struct fl_col cols_lay[] = {
	{ "policy", "policy", FL_STR, 0, 28 },	/* "ratelimit:64000/node:100000" */
	BASE_COLS
	{ "layout", "layout", FL_STR, 0, 10 },
	{ "coh_llc_n", "xfer.llc(n)", FL_U64, 0, 0 },
	{ "coh_node_n", "xfer.node(n)", FL_U64, 0, 0 },
	{ "coh_xnode_n", "xfer.xnode(n)", FL_U64, 0, 0 },
	{ "coh_unknown_n", "xfer.unk(n)", FL_U64, 0, 0 },
	{ "coh_by_read_n", "xfer.by_read(n)", FL_U64, 0, 0 },
	{ "line_reads_n", "line.reads(n)", FL_U64, 0, 0 },
	{ "cache_hits_n", "cache.hits(n)", FL_U64, 0, 0 },
	CONT_COLS
};
#define TITLE "Replayed policies (figures as fairlab report's)"
#define TITLE_LAY "Replayed policies and layouts (figures as fairlab report's)"
static const struct fl_table table = { "policies", TITLE, FL_NCOLS(cols) - NCONT, cols };
static const struct fl_table table_cont = FL_TABLE("policies", TITLE, cols);
static const struct fl_table table_lay =
	{ "policies", TITLE_LAY, FL_NCOLS(cols_lay) - NCONT, cols_lay };
static const struct fl_table table_lay_cont = FL_TABLE("policies", TITLE_LAY, cols_lay);

/* The table for format @fmt: the contention columns in CSV only. */
static const struct fl_table *table_of(const struct fl_whatif *w, enum fl_format fmt)
{
	bool cont = w->cont_window_ns && fmt == FL_FMT_CSV;

	if (w->layouts)
		return cont ? &table_lay_cont : &table_lay;
	return cont ? &table_cont : &table;
}

static void cont_rates(const struct fl_whatif *w, u32 i, double v[3]);

/* The figure of report's metric @key (metrics.h): the same definition. */
static double metric(const char *key, const struct fa_segment *f)
{
	return fl_metrics[fl_metric_find(key)].get(f);
}

static void row(struct fl_emit *em, const struct fl_whatif *w, u32 i)
{
	const struct fa_replay_result *x = fl_whatif_result(w, i);
	const struct fa_segment *f = &x->fig;
	struct fl_val v[FL_NCOLS(cols_lay)];
	char lay[32];
	char name[48];
	int k = 0;

	v[k++] = fl_v_str(fl_whatif_label_lay(&x->policy, &x->layout, name, sizeof(name)));
	v[k++] = fl_v_u64(f->attempts);
	v[k++] = fl_v_u64(f->writes);
	v[k++] = fl_v_dbl(fl_pct(f->writes, f->attempts));
	v[k++] = fl_v_dbl(fa_segment_rate(f, f->writes));
	v[k++] = fl_v_u64(f->switches);
	v[k++] = fl_v_dbl(fa_segment_rate(f, f->switches));
	v[k++] = fl_v_dbl(metric("xnode_switches_n", f));
	v[k++] = fl_v_dbl(metric("reads_n", f));
	v[k++] = fl_v_dbl(metric("coh_transfers_n", f));
	v[k++] = fl_v_dbl(metric("coh_cost_ns_per_s", f));
	v[k++] = fl_v_dbl(metric("shares_err_max_pct", f));
	v[k++] = fl_v_dbl(metric("shares_err_mean_pct", f));
	v[k++] = fl_v_dbl(metric("shares_err_p50_pct", f));
	v[k++] = fl_v_dbl(metric("shares_err_p99_pct", f));
	v[k++] = fl_v_dbl(metric("shares_err_rel_max_pct", f));
	v[k++] = fl_v_dbl(metric("shares_err_rel_mean_pct", f));
	v[k++] = fl_v_dbl(metric("shares_err_rel_p99_pct", f));
	v[k++] = fl_v_u64(f->err.max_abs);
	v[k++] = fl_v_dbl(fa_err_mean_abs(&f->err));
	v[k++] = fl_v_u64(fa_err_p_abs(&f->err, 0.99));
	v[k++] = fl_v_dbl(w->rel ? 100.0 * fa_err_mean_rel(&f->err) : NAN);
	v[k++] = fl_v_u64(x->diverged);
	v[k++] = fl_v_str(w->front[i] ? "*" : (em->fmt == FL_FMT_TEXT ? "" : NULL));
	if (em->fmt == FL_FMT_JSON)	/* a boolean there, not a mark */
		v[k - 1] = fl_v_str(w->front[i] ? "yes" : "no");
	if (w->layouts) {
		v[k++] = fl_v_str(fa_layout_label(&x->layout, lay, sizeof(lay)));
		v[k++] = fl_v_u64(f->coh[FA_COH_LLC]);
		v[k++] = fl_v_u64(f->coh[FA_COH_NODE]);
		v[k++] = fl_v_u64(f->coh[FA_COH_XNODE]);
		v[k++] = fl_v_u64(f->coh[FA_COH_UNKNOWN]);
		v[k++] = fl_v_u64(f->coh_by_read);
		v[k++] = fl_v_u64(x->line_reads);
		v[k++] = fl_v_u64(x->cache_hits);
	}
	if (k < em->t->ncols) {		/* the contention columns (CSV) */
		double c[3];

		cont_rates(w, i, c);
		v[k++] = fl_v_dbl(c[1]);
		v[k++] = fl_v_dbl(c[2]);
	}
	fl_table_row(em, v);
}

/* Replayed policy @i's name: POLICY, or POLICY/LAYOUT under a split layout. */
static const char *res_label(const struct fl_whatif *w, u32 i, char *buf, size_t n)
{
	const struct fa_replay_result *x = fl_whatif_result(w, i);

	return fl_whatif_label_lay(&x->policy, &x->layout, buf, n);
}

/* The recording's own policy, as the engine labelled the whole trace. */
static const char *recorded_label(const struct fa_engine *e, char *buf, size_t n)
{
	const struct fa_segment *t = fa_engine_total(e);

	if (t->tg_policy_known)
		return fa_tg_policy_label(&t->tg_policy, buf, n);
	snprintf(buf, n, "%s", t->tg_policy_mixed ? "several policies" : "unknown");
	return buf;
}

/* The contention term's figures of policy @i, ns/s: idle, contended, scaled. */
static void cont_rates(const struct fl_whatif *w, u32 i, double v[3])
{
	const struct fa_replay_result *x = fl_whatif_result(w, i);
	double s = fa_segment_seconds(&x->fig);

	v[0] = fl_coh_cost(&x->fig);
	v[1] = s > 0 ? x->cont_ns / s : 0;
	v[2] = s > 0 ? x->cont_scaled_ns / s : 0;
}

/*
 * The policy under the global layout that policy @i (under a split one)
 * is the same policy of: its index, or -1.
 */
static int global_of(const struct fl_whatif *w, u32 i)
{
	const struct fa_replay_result *x = fl_whatif_result(w, i);
	u32 j;

	for (j = 0; j < fl_whatif_count(w); j++) {
		const struct fa_replay_result *y = fl_whatif_result(w, j);

		if (!fa_layout_split(&y->layout) && y->policy.id == x->policy.id &&
		    y->policy.arg == x->policy.arg)
			return (int)j;
	}
	return -1;
}

/* --contention's block: per policy, and each split layout against global at scale. */
static void print_cont_text(const struct fl_whatif *w)
{
	u32 n = fl_whatif_count(w), i;
	double k = n ? fl_whatif_result(w, 0)->cont_scale : 1;
	char name[48], gname[48];

	printf("\n   Contention term (a MODEL: M/D/1 queueing on each line per %.0f us window,\n"
	       "   after David, Guerraoui, Trigonakis, SOSP 2013; fairlab whatif --help), on %s;\n"
	       "   extrapolated to %u CPUs per node (the recording's per-CPU rates, x%.2f CPUs):\n",
	       (double)w->cont_window_ns / 1000, fl_machine()->name, w->cont_cpus, k);
	printf("   %-28s %14s %18s %22s\n", "policy", "idle(ns/s)", "contended(ns/s)",
	       "contended@scale(ns/s)");
	for (i = 0; i < n; i++) {
		double v[3];

		cont_rates(w, i, v);
		printf("   %-28s %14.1f %18.1f %22.1f\n", res_label(w, i, name, sizeof(name)),
		       v[0], v[1], v[2]);
	}
	for (i = 0; i < n; i++) {
		int g = global_of(w, i);
		double v[3], gv[3];

		if (!fa_layout_split(&fl_whatif_result(w, i)->layout) || g < 0)
			continue;
		cont_rates(w, i, v);
		cont_rates(w, (u32)g, gv);
		printf("   at %u CPUs/node: %s %.1f ns/s against %s %.1f (%.0f%%): the split is %s\n",
		       w->cont_cpus, res_label(w, i, name, sizeof(name)), v[2],
		       res_label(w, (u32)g, gname, sizeof(gname)), gv[2],
		       gv[2] > 0 ? 100 * v[2] / gv[2] : 0,
		       v[2] < gv[2] ? "cheaper (the direction of the 2023 per-node RFC)" :
				      "not cheaper (not the direction of the 2023 per-node RFC)");
	}
}

static void print_text(const struct fl_whatif *w, const char *path,
		       enum fl_whatif_cost cost, const u32 *fr, u32 nfr)
{
	const struct fa_segment *t = fa_engine_total(w->e);
	struct fl_emit em = { .fmt = FL_FMT_TEXT, .f = stdout, .t = table_of(w, FL_FMT_TEXT) };
	u32 n = fl_whatif_count(w), i;
	char name[48];

	printf("fairlab whatif: %s\n", path);
	printf("   recorded under %s: %llu tg_update attempts, %llu reads, %.3f s; %u policies replayed\n",
	       recorded_label(w->e, name, sizeof(name)), (unsigned long long)t->attempts,
	       (unsigned long long)t->reads, fa_segment_seconds(t), n);
	printf("   modeled cost (a lower bound) on %s\n", fl_machine()->name);
	if (fl_shared_miss() != FA_COH_MISS_FREE)
		printf("   a read miss on a Shared line: a transfer from the nearest holder (--shared-miss=%s)\n",
		       fa_coh_miss_names[fl_shared_miss()]);
	for (i = 0; i < n; i++) {
		const struct fa_replay_result *x = fl_whatif_result(w, i);

		if (x->policy.id == FA_REPLAY_RECORDED && fa_layout_split(&x->layout))
			printf("   replayed as recorded under layout %s: %llu of %llu decisions as recorded (budget decides on the writer's domain counter there)\n",
			       fa_layout_label(&x->layout, name, sizeof(name)),
			       (unsigned long long)(x->fig.attempts - x->diverged),
			       (unsigned long long)x->fig.attempts);
		else if (x->policy.id == FA_REPLAY_RECORDED)
			printf("   replayed as recorded: %llu of %llu decisions as recorded%s\n",
			       (unsigned long long)(x->fig.attempts - x->diverged),
			       (unsigned long long)x->fig.attempts,
			       !x->diverged ? " (exact)" :
			       t->unpatches ?
			       " (NOT exact: the patch began unpatching while recording, and the kernel's own publishes after that are not traced; or records missing, or policy.c differs)" :
			       " (NOT exact: records missing, or policy.c differs)");
	}
	fl_table_begin(&em);
	for (i = 0; i < n; i++)
		row(&em, w, i);
	fl_table_end(&em);
	printf("\n   Pareto frontier, %s against %s, by increasing %s:\n  ",
	       fl_whatif_cost_label(cost), fl_whatif_error_label(w->error),
	       fl_whatif_cost_name(cost));
	for (i = 0; i < nfr; i++)
		printf(" %s", res_label(w, fr[i], name, sizeof(name)));
	printf("\n");
	if (w->cont_window_ns)
		print_cont_text(w);
}

static void print_json(const struct fl_whatif *w, const char *path,
		       enum fl_whatif_cost cost, const u32 *fr, u32 nfr)
{
	const struct fa_segment *t = fa_engine_total(w->e);
	struct fl_json j;
	struct fl_emit em = { .fmt = FL_FMT_JSON, .f = stdout, .json = &j,
			      .t = table_of(w, FL_FMT_JSON) };
	u32 n = fl_whatif_count(w), i;
	char name[48];

	fl_json_init(&j, stdout);
	fl_json_obj(&j, NULL);
	fl_json_str(&j, "file", path);
	fl_json_obj(&j, "recorded");
	fl_json_str(&j, "tg_policy", recorded_label(w->e, name, sizeof(name)));
	fl_json_u64(&j, "attempts_n", t->attempts);
	fl_json_u64(&j, "writes_n", t->writes);
	fl_json_dbl(&j, "duration_s", fa_segment_seconds(t));
	fl_json_end(&j, '}');
	fl_json_str(&j, "cost", fl_whatif_cost_name(cost));
	fl_json_str(&j, "error", fl_whatif_error_name(w->error));
	fl_json_str(&j, "machine", fl_machine()->key);
	fl_table_begin(&em);
	for (i = 0; i < n; i++)
		row(&em, w, i);
	fl_table_end(&em);
	fl_json_arr(&j, "frontier");
	for (i = 0; i < nfr; i++)
		fl_json_str(&j, NULL, res_label(w, fr[i], name, sizeof(name)));
	fl_json_end(&j, ']');
	if (w->cont_window_ns) {
		fl_json_obj(&j, "contention");
		fl_json_dbl(&j, "window_us", (double)w->cont_window_ns / 1000);
		fl_json_u64(&j, "cpus_per_node_n", w->cont_cpus);
		fl_json_dbl(&j, "scale", n ? fl_whatif_result(w, 0)->cont_scale : 1);
		fl_json_arr(&j, "policies");
		for (i = 0; i < n; i++) {
			double v[3];
			int g = global_of(w, i);

			cont_rates(w, i, v);
			fl_json_obj(&j, NULL);
			fl_json_str(&j, "policy", res_label(w, i, name, sizeof(name)));
			fl_json_dbl(&j, "idle_ns_per_s", v[0]);
			fl_json_dbl(&j, "contended_ns_per_s", v[1]);
			fl_json_dbl(&j, "contended_scaled_ns_per_s", v[2]);
			if (fa_layout_split(&fl_whatif_result(w, i)->layout) && g >= 0) {
				double gv[3];

				cont_rates(w, (u32)g, gv);
				fl_json_str(&j, "split_cheaper_scaled", v[2] < gv[2] ? "yes" : "no");
			}
			fl_json_end(&j, '}');
		}
		fl_json_end(&j, ']');
		fl_json_end(&j, '}');
	}
	fl_json_end(&j, '}');
}

/* DIR/whatif.tsv and whatif.gp, then gnuplot. */
static int plot(const struct fl_whatif *w, const char *dir, const char *prog,
		enum fl_whatif_cost cost, const char *path)
{
	u32 n = fl_whatif_count(w), i;
	const char *cn = fl_whatif_cost_name(cost);
	char name[48];
	FILE *f;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fl_error("%s: %s", dir, strerror(errno));
		return -1;
	}
	f = fl_open_out(dir, "whatif", ".tsv");
	if (!f)
		return -1;
	/* counts as % of attempts, the modeled cost as it is (ns/s) */
	fprintf(f, "# fairlab whatif %s\n# policy\t%s%s\terr_mean_%s\tfrontier\n",
		path, cn, cost == FL_COST_MODELED ? "_ns_per_s" : "_pct_of_attempts",
		w->error == FL_ERROR_SHARES ? "shares_pct" : "load");
	for (i = 0; i < n; i++) {
		const struct fa_replay_result *x = fl_whatif_result(w, i);

		double c = fl_whatif_cost_of(&x->fig, cost);
		double er = fl_whatif_error_of(&x->fig, w->error);

		if (x->policy.id == FA_REPLAY_RECORDED || isnan(er) || isnan(c))
			continue;
		fprintf(f, "%s\t%.6g\t%.6g\t%d\n", res_label(w, i, name, sizeof(name)),
			cost == FL_COST_MODELED ? c : fl_pct((u64)c, x->fig.attempts),
			er, w->front[i]);
	}
	if (fclose(f)) {
		fl_error("%s/whatif.tsv: write failed", dir);
		return -1;
	}
	f = fl_open_out(dir, "whatif", ".gp");
	if (!f)
		return -1;
	fprintf(f, "# fairlab whatif: run in this directory\n"
		"set datafile separator \"\\t\"\nset grid\nset key top right\n");
	for (i = 0; i < 2; i++)
		fprintf(f, "set terminal %s\nset output 'whatif.%s'\n"
			"set title 'replayed policies of one recording: mean error against %s' noenhanced\n"
			"set xlabel '%s%s' noenhanced\n"
			"set ylabel '%s (0 drawn at 0.01)' noenhanced\n"
			"set logscale y\n"
			"plot 'whatif.tsv' using 2:($3 < 0.01 ? 0.01 : $3) with points pt 7 ps 0.8 title 'replayed policy', \\\n"
			"     '< awk -F\"\\t\" \"\\$4 == 1\" whatif.tsv | sort -k2,2g' using 2:($3 < 0.01 ? 0.01 : $3) with linespoints lw 2 pt 6 title 'Pareto frontier', \\\n"
			"     '' using 2:($3 < 0.01 ? 0.01 : $3):1 with labels offset char 1,0.6 left font ',8' noenhanced notitle\n",
			i ? "svg size 1000,700 noenhanced" : "pngcairo size 1000,700 noenhanced",
			i ? "svg" : "png", fl_whatif_cost_label(cost), fl_whatif_cost_label(cost),
			cost == FL_COST_MODELED ? "" : " per tg_update attempt (%)",
			fl_whatif_error_label(w->error));
	if (fclose(f)) {
		fl_error("%s/whatif.gp: write failed", dir);
		return -1;
	}
	return fl_run_gnuplot(prog, dir, "whatif.gp");
}

int cmd_whatif(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "sweep", required_argument, NULL, 's' },
		{ "cost", required_argument, NULL, 'C' },
		{ "error", required_argument, NULL, 'E' },
		{ "machine", required_argument, NULL, 'm' },
		{ "shared-miss", required_argument, NULL, 'S' },
		{ "layout", required_argument, NULL, 'L' },
		{ "contention", required_argument, NULL, 'T' },
		{ "scale-cpus", required_argument, NULL, 'K' },
		{ "rel", no_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "gnuplot", required_argument, NULL, 'g' },
		{ "procs", required_argument, NULL, 'P' },
		FL_COMMON_OPTIONS,
	};
	struct fl_policy_list l = { 0 };
	enum fl_format fmt = FL_FMT_TEXT;
	enum fl_whatif_cost cost = FL_COST_WRITES;
	enum fl_whatif_error error = FL_ERROR_ABS;
	const char *dir = NULL, *prog = "gnuplot", *path, *layouts = NULL;
	struct fl_whatif w = { 0 };
	int c, st, ret = FL_EXIT_USAGE;
	bool oom = false, rel = false;
	u32 *fr = NULL, nfr, i;

	for (i = 1; i < (u32)argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--idlest"))	/* the placement what-if */
			return cmd_whatif_idlest(argc, argv);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (fl_plist_parse(&l, optarg, &oom))
				goto out;
			break;
		case 's':
			if (fl_plist_sweep(&l, optarg, &oom))
				goto out;
			break;
		case 'C':
			if (!strcmp(optarg, "writes"))
				cost = FL_COST_WRITES;
			else if (!strcmp(optarg, "switches"))
				cost = FL_COST_SWITCHES;
			else if (!strcmp(optarg, "xnode"))
				cost = FL_COST_XNODE;
			else if (!strcmp(optarg, "transfers"))
				cost = FL_COST_TRANSFERS;
			else if (!strcmp(optarg, "modeled"))
				cost = FL_COST_MODELED;
			else {
				fl_error("--cost: '%s' is not writes, switches, xnode, transfers or modeled",
					 optarg);
				goto out;
			}
			break;
		case 'E':
			if (!strcmp(optarg, "abs")) {
				error = FL_ERROR_ABS;
			} else if (!strcmp(optarg, "shares")) {
				error = FL_ERROR_SHARES;
			} else {
				fl_error("--error: '%s' is not abs or shares", optarg);
				goto out;
			}
			break;
		case 'm':
			if (fl_machine_option(optarg))
				goto out;
			break;
		case 'S':
			if (fl_shared_miss_option(optarg))
				goto out;
			break;
		case 'L':
			layouts = optarg;
			break;
		case 'T':
		case 'K': {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || optarg[0] < '1' || optarg[0] > '9' ||
			    v > (c == 'T' ? 1000000UL : 65536UL)) {
				fl_error("--%s: '%s' is not an integer in 1..%s", c == 'T' ?
					 "contention" : "scale-cpus", optarg,
					 c == 'T' ? "1000000 (us)" : "65536");
				goto out;
			}
			if (c == 'T')
				w.cont_window_ns = (u64)v * 1000;
			else
				w.cont_cpus = (u32)v;
			break;
		}
		case 'P': {
			long n;

			if (fl_parse_long(optarg, 1, FL_SHARDS_MAX, "--procs", &n))
				goto out;
			w.procs = (u32)n;
			break;
		}
		case 'o':
			dir = optarg;
			break;
		case 'r':
			rel = true;
			break;
		case 'g':
			prog = optarg;
			break;
		default:
			st = fl_common_option(c, &fmt, help, "whatif");
			if (st != FL_OPT_NEXT) {
				ret = st;
				goto out;
			}
			break;
		}
	}
	if (optind != argc - 1) {
		fl_error(optind == argc ? "whatif: no FILE given (see fairlab whatif --help)" :
			 "whatif: one FILE at a time");
		goto out;
	}
	path = argv[optind];
	if (!l.n && fl_plist_default(&l, &oom))
		goto out;
	if (layouts && fl_plist_layouts(&l, layouts, &oom))
		goto out;
	if (w.cont_cpus && !w.cont_window_ns) {
		fl_error("--scale-cpus: only with --contention");
		ret = FL_EXIT_USAGE;
		goto out;
	}
	if (!w.cont_cpus)
		w.cont_cpus = 112;	/* a 224-CPU 2-socket Sapphire Rapids' node */
	ret = FL_EXIT_FAIL;
	fr = calloc(l.n, sizeof(*fr));
	if (!fr) {
		fl_error("out of memory");
		goto out;
	}
	if (fl_whatif_run(&w, path, &l, cost, error, rel))
		goto out;
	if (error == FL_ERROR_SHARES && !fa_engine_total(w.e)->reads)
		fl_warn("--error=shares: %s holds no tg_read records: no shares error, an empty frontier",
			path);
	nfr = fl_whatif_frontier_order(&w, cost, fr);
	if (fmt == FL_FMT_TEXT) {
		print_text(&w, path, cost, fr, nfr);
	} else if (fmt == FL_FMT_JSON) {
		print_json(&w, path, cost, fr, nfr);
	} else {
		struct fl_emit em = { .fmt = FL_FMT_CSV, .f = stdout, .t = table_of(&w, FL_FMT_CSV),
				      .nlead = 1, .csv_header = true,
				      .lead_keys = (const char *const[]){ "file" },
				      .lead_vals = (const char *const[]){ path } };

		fl_table_begin(&em);
		for (i = 0; i < fl_whatif_count(&w); i++)
			row(&em, &w, i);
		fl_table_end(&em);
	}
	if (dir && plot(&w, dir, prog, cost, path))
		goto out;
	if (dir && fmt == FL_FMT_TEXT)
		printf("wrote %s/whatif.png, %s/whatif.svg\n", dir, dir);
	ret = fflush(stdout) ? FL_EXIT_FAIL : FL_EXIT_OK;
	if (ret)
		fl_error("writing the output failed");
out:
	if (oom)
		ret = FL_EXIT_FAIL;
	fl_whatif_free(&w);
	fl_plist_free(&l);
	free(fr);
	return ret;
}
