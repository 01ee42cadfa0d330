// SPDX-License-Identifier: GPL-2.0
/*
 * `fairlab compare BASE... -- NEW...`: the figures of several runs per
 * side, LKP-style: base mean +- %stddev, %change, new mean +- %stddev.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cli.h"
#include "group_path.h"
#include "metrics.h"

static void help(FILE *f)
{
	fputs(
"usage: fairlab compare [options] BASE.dat [BASE2.dat ...] -- NEW.dat [NEW2.dat ...]\n"
"       fairlab compare [options] BASE.dat NEW.dat\n"
"\n"
"Compares the figures of recordings in the manner of LKP (the 0-day kernel\n"
"test robot): for each figure, the mean over the BASE runs +- their standard\n"
"deviation in % of the mean, the change of the NEW mean in % of the BASE mean,\n"
"and the NEW mean +- its standard deviation.  Several runs per side give the\n"
"spread; one run per side shows no stddev.\n"
"\n"
"Figures (see fairlab report --help for their definitions) are those of the\n"
"whole recording, or of one policy segment with --segment.  Task group lines\n"
"(group:PATH.figure) follow for the groups present in every run, the busiest\n"
"(by BASE writes/s) first.  The unit is the end of each figure's name: _n count,\n"
"_s seconds, _per_s per second of trace time, _pct percent, _load load units.\n"
"The headline error is the shares error (shares_err_*_pct, % of tg->shares,\n"
"from tg_read records: see fairlab report --help), its relative form\n"
"(shares_err_rel_*_pct, % of the ideal weight) and |E| (err_*_load) beside it.\n"
"\n"
"options:\n"
"  --segment=N    compare segment N (0 = first) of every recording instead of\n"
"                 the whole recording; a recording without it is an error\n"
"  --groups=N     task groups compared (default 5, 0 = none)\n"
FL_MACHINE_HELP
FL_SHARED_MISS_HELP
"  --json         {base: [files], new: [files], rows: [{metric, base_mean, ...}]}\n"
"  --csv          metric,base_mean,base_stddev_pct,change_pct,new_mean,new_stddev_pct,base_runs_n,new_runs_n\n"
FL_THREADS_HELP
"  -h, --help     this text\n"
"Options go before the first file; '--' separates the sides.\n"
"\n"
"examples:\n"
"  fairlab compare stock.dat budget5.dat\n"
"  fairlab compare stock-1.dat stock-2.dat stock-3.dat -- budget-1.dat budget-2.dat budget-3.dat\n"
"  fairlab compare --segment=1 --csv switch-1.dat -- switch-2.dat\n"
"  fairlab compare --machine=milan stock.dat budget5.dat\n",
	      f);
}

/* Figures of one task group compared across runs. */
static const char *const group_keys[] = {
	"writes_per_s", "switches_per_s", "err_mean_load", "err_p99_load",
	"shares_err_mean_pct", "shares_err_p99_pct",
	"shares_err_rel_mean_pct", "shares_err_rel_p99_pct",
};
#define NR_GROUP_KEYS 8
#define PATH_MAX_LEN 192

struct group_fig {
	char path[PATH_MAX_LEN];
	double v[NR_GROUP_KEYS];
};

/* One recording's figures at the chosen scope. */
struct run_fig {
	const char *path;
	struct fa_engine *e;
	int want_segment;		/* -1: the whole recording */
	bool found;
	double *m;			/* fl_nr_metrics values */
	u32 ngroups;
	struct group_fig *groups;
};

static void take(struct run_fig *r, const struct fa_segment *s)
{
	u32 i;
	int k;

	r->found = true;
	for (k = 0; k < fl_nr_metrics; k++)
		r->m[k] = fl_metrics[k].get(s);
	r->groups = calloc(s->nr_tgs + 1, sizeof(*r->groups));
	if (!r->groups)
		return;
	for (i = 0; i < s->nr_tgs; i++) {
		const struct fa_tg_seg *t = &s->tgs[i];
		const struct fa_tg *g = fa_engine_tg(r->e, i);
		struct group_fig *gf = &r->groups[r->ngroups];

		if (!g || !fa_segment_tg_active(s, i))
			continue;
		fl_group_path(r->e, g, gf->path, sizeof(gf->path));
		gf->v[0] = fa_segment_rate(s, t->writes);
		gf->v[1] = fa_segment_rate(s, t->switches);
		gf->v[2] = fa_err_mean_abs(&t->err);
		gf->v[3] = (double)fa_err_p_abs(&t->err, 0.99);
		/* the shares error (fa_read.h): unknown without reads */
		gf->v[4] = fl_shares_mean(&t->shares);
		gf->v[5] = fl_shares_p(&t->shares, 0.99);
		gf->v[6] = fl_shares_rel_mean(&t->shares);
		gf->v[7] = fl_shares_rel_p(&t->shares, 0.99);
		r->ngroups++;
	}
}

static void on_segment(const struct fa_segment *s, void *arg)
{
	struct run_fig *r = arg;

	if (s->index == r->want_segment)
		take(r, s);
}

static int collect(struct run_fig *r)
{
	struct fa_engine_cfg cfg = { .on_segment = on_segment, .arg = r };
	int ret = -1;

	r->m = calloc((size_t)fl_nr_metrics, sizeof(*r->m));
	cfg.coh_miss = fl_shared_miss();
	r->e = fa_engine_new(&cfg);
	if (!r->m || !r->e) {
		fl_error("out of memory");
		goto out;
	}
	if (fl_analyze(r->path, r->e))
		goto out;
	if (r->want_segment < 0)
		take(r, fa_engine_total(r->e));
	if (!r->found) {
		fl_error("%s: no segment %d (it has %u)", r->path, r->want_segment,
			 fa_engine_segments(r->e));
		goto out;
	}
	ret = 0;
out:
	fa_engine_free(r->e);
	r->e = NULL;
	return ret;
}

static const struct group_fig *find_group(const struct run_fig *r, const char *path)
{
	u32 i;

	for (i = 0; i < r->ngroups; i++)
		if (!strcmp(r->groups[i].path, path))
			return &r->groups[i];
	return NULL;
}

/* Mean and sample standard deviation (in % of the mean) of n values. */
struct side_stat {
	double mean, sd_pct;
	int n;
};

static struct side_stat stat_of(const double *x, int n)
{
	struct side_stat s = { 0, 0, n };
	double ss = 0;
	int i;

	for (i = 0; i < n; i++)
		s.mean += x[i];
	s.mean /= n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s.mean) * (x[i] - s.mean);
	if (n > 1 && s.mean != 0)
		s.sd_pct = 100.0 * sqrt(ss / (n - 1)) / fabs(s.mean);
	return s;
}

struct cmp_out {
	enum fl_format fmt;
	struct fl_json json;
};

/*
 * %change of the new mean against the base mean; NaN when base is 0
 * ("new") or when a side's figure is unknown (a NaN mean: "unknown").
 */
static double change_pct(struct side_stat b, struct side_stat n)
{
	if (isnan(b.mean) || isnan(n.mean))
		return NAN;
	if (b.mean == 0)
		return n.mean == 0 ? 0.0 : NAN;
	return 100.0 * (n.mean - b.mean) / fabs(b.mean);
}

/* ",VALUE" in CSV, or "," alone for an unknown (NaN) value. */
static void csv_num(const char *fmt, double v)
{
	if (isnan(v))
		putchar(',');
	else
		printf(fmt, v);
}

static void row(struct cmp_out *o, const char *metric, struct side_stat b,
		struct side_stat n)
{
	double ch = change_pct(b, n);
	bool unknown = isnan(b.mean) || isnan(n.mean);
	char sb[16] = "", sn[16] = "", sc[16], vb[24], vn[24];

	switch (o->fmt) {
	case FL_FMT_TEXT:
		if (b.sd_pct >= 0.5)
			snprintf(sb, sizeof(sb), "+-%3.0f%%", b.sd_pct);
		if (n.sd_pct >= 0.5)
			snprintf(sn, sizeof(sn), "+-%3.0f%%", n.sd_pct);
		if (unknown)
			snprintf(sc, sizeof(sc), "unknown");
		else if (isnan(ch))
			snprintf(sc, sizeof(sc), "new");
		else
			snprintf(sc, sizeof(sc), "%+.1f%%", ch);
		snprintf(vb, sizeof(vb), isnan(b.mean) ? "unknown" : "%.6g", b.mean);
		snprintf(vn, sizeof(vn), isnan(n.mean) ? "unknown" : "%.6g", n.mean);
		printf("%16s %7s %10s %16s %7s  %s\n", vb, sb, sc, vn, sn, metric);
		break;
	case FL_FMT_CSV:
		/* unknown figures and changes are empty fields */
		fl_csv_field(stdout, metric);
		csv_num(",%.9g", b.mean);
		csv_num(",%.3f", b.sd_pct);
		csv_num(",%.3f", ch);
		csv_num(",%.9g", n.mean);
		csv_num(",%.3f", n.sd_pct);
		printf(",%d,%d\n", b.n, n.n);
		break;
	case FL_FMT_JSON:
		fl_json_obj(&o->json, NULL);
		fl_json_str(&o->json, "metric", metric);
		fl_json_dbl(&o->json, "base_mean", b.mean);
		fl_json_dbl(&o->json, "base_stddev_pct", b.sd_pct);
		fl_json_dbl(&o->json, "change_pct", ch);
		fl_json_dbl(&o->json, "new_mean", n.mean);
		fl_json_dbl(&o->json, "new_stddev_pct", n.sd_pct);
		fl_json_end(&o->json, '}');
		break;
	}
}

/* The busiest groups of the first base run that every run has. */
static void group_rows(struct cmp_out *o, struct run_fig *base, int nb,
		       struct run_fig *new, int nn, int max_groups)
{
	double *x = calloc((size_t)(nb + nn), sizeof(double));
	bool *done = calloc(base[0].ngroups + 1, sizeof(bool));
	char metric[PATH_MAX_LEN + 32];
	int shown = 0, i, k;
	u32 g, best;

	if (!x || !done)
		goto out;
	while (shown < max_groups) {
		/* Next busiest group (base writes/s) present in every run. */
		best = base[0].ngroups;
		for (g = 0; g < base[0].ngroups; g++) {
			bool everywhere = !done[g];

			for (i = 0; everywhere && i < nb + nn; i++)
				everywhere = find_group(i < nb ? &base[i] : &new[i - nb],
							base[0].groups[g].path) != NULL;
			if (!everywhere) {
				done[g] = true;
				continue;
			}
			if (best == base[0].ngroups ||
			    base[0].groups[g].v[0] > base[0].groups[best].v[0])
				best = g;
		}
		if (best == base[0].ngroups)
			break;
		done[best] = true;
		for (k = 0; k < NR_GROUP_KEYS; k++) {
			/* x: the base runs, then the new runs */
			for (i = 0; i < nb + nn; i++)
				x[i] = find_group(i < nb ? &base[i] : &new[i - nb],
						  base[0].groups[best].path)->v[k];
			snprintf(metric, sizeof(metric), "group:%s.%s",
				 base[0].groups[best].path, group_keys[k]);
			row(o, metric, stat_of(x, nb), stat_of(x + nb, nn));
		}
		shown++;
	}
out:
	free(x);
	free(done);
}

static void side_header(struct cmp_out *o, const char *name, struct run_fig *r, int n)
{
	int i;

	if (o->fmt == FL_FMT_JSON) {
		fl_json_arr(&o->json, name);
		for (i = 0; i < n; i++)
			fl_json_str(&o->json, NULL, r[i].path);
		fl_json_end(&o->json, ']');
	} else if (o->fmt == FL_FMT_TEXT) {
		printf("%s:", name);
		for (i = 0; i < n; i++)
			printf(" %s", r[i].path);
		putchar('\n');
	}
}

static void output(struct cmp_out *o, struct run_fig *base, int nb,
		   struct run_fig *new, int nn, int segment, int max_groups)
{
	double *xb = calloc((size_t)(nb + nn), sizeof(double)), *xn;
	char metric[64];
	int k, i;

	if (!xb)
		return;
	xn = xb + nb;
	if (o->fmt == FL_FMT_JSON) {
		fl_json_init(&o->json, stdout);
		fl_json_obj(&o->json, NULL);
		if (segment < 0)
			fl_json_str(&o->json, "scope", "whole recording");
		else
			fl_json_u64(&o->json, "segment", (u64)segment);
	}
	side_header(o, "base", base, nb);
	side_header(o, "new", new, nn);
	switch (o->fmt) {
	case FL_FMT_TEXT:
		if (segment >= 0)
			printf("scope: segment %d\n", segment);
		else
			printf("scope: whole recordings\n");
		printf("\n%16s %7s %10s %16s %7s  %s\n", "base", "+-stddev", "%change",
		       "new", "+-stddev", "metric (unit: name suffix)");
		break;
	case FL_FMT_CSV:
		printf("metric,base_mean,base_stddev_pct,change_pct,new_mean,new_stddev_pct,base_runs_n,new_runs_n\n");
		break;
	case FL_FMT_JSON:
		fl_json_arr(&o->json, "rows");
		break;
	}
	for (k = 0; k < fl_nr_metrics; k++) {
		for (i = 0; i < nb; i++)
			xb[i] = base[i].m[k];
		for (i = 0; i < nn; i++)
			xn[i] = new[i].m[k];
		snprintf(metric, sizeof(metric), "%s", fl_metrics[k].key);
		row(o, metric, stat_of(xb, nb), stat_of(xn, nn));
	}
	if (max_groups > 0)
		group_rows(o, base, nb, new, nn, max_groups);
	if (o->fmt == FL_FMT_JSON) {
		fl_json_end(&o->json, ']');
		fl_json_end(&o->json, '}');
	}
	free(xb);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "segment", required_argument, NULL, 's' },
		{ "groups", required_argument, NULL, 'g' },
		{ "machine", required_argument, NULL, 'm' },
		{ "shared-miss", required_argument, NULL, 'S' },
		FL_COMMON_OPTIONS,
	};
	struct cmp_out out = { .fmt = FL_FMT_TEXT };
	struct run_fig *runs;
	int split = argc, c, st, i, nb, nn, ret = FL_EXIT_OK, nfiles;
	long segment = -1, groups = 5;

	/* getopt would eat "--": split the sides first, options come before. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
	}
	optind = 1;
	while ((c = getopt_long(split, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (fl_parse_long(optarg, 0, 1000000, "--segment", &segment))
				return FL_EXIT_USAGE;
			break;
		case 'g':
			if (fl_parse_long(optarg, 0, 1000, "--groups", &groups))
				return FL_EXIT_USAGE;
			break;
		case 'm':
			if (fl_machine_option(optarg))
				return FL_EXIT_USAGE;
			break;
		case 'S':
			if (fl_shared_miss_option(optarg))
				return FL_EXIT_USAGE;
			break;
		default:
			st = fl_common_option(c, &out.fmt, help, "compare");
			if (st != FL_OPT_NEXT)
				return st;
			break;
		}
	}
	/*
	 * After '--' every argument is a NEW file: a second '--' or an
	 * option there is a mistake, never a file name.
	 */
	for (i = split + 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			fl_error("compare: '--' given twice: there are two sides, BASE... -- NEW...");
			return FL_EXIT_USAGE;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fl_error("compare: '%s' after '--': options go before the first file (see fairlab compare --help)",
				 argv[i]);
			return FL_EXIT_USAGE;
		}
	}
	nb = split - optind;
	nn = split < argc ? argc - split - 1 : 0;
	if (split == argc && nb == 2) {
		nb = nn = 1;		/* BASE NEW */
	} else if (split == argc || nb < 1 || nn < 1) {
		fl_error("compare: give BASE and NEW recordings: BASE.dat NEW.dat, or BASE... -- NEW... (see fairlab compare --help)");
		return FL_EXIT_USAGE;
	}
	nfiles = nb + nn;
	runs = calloc((size_t)nfiles, sizeof(*runs));
	if (!runs) {
		fl_error("out of memory");
		return FL_EXIT_FAIL;
	}
	for (i = 0; i < nfiles; i++) {
		runs[i].path = i < nb ? argv[optind + i] :
			       split < argc ? argv[split + 1 + (i - nb)] : argv[optind + i];
		runs[i].want_segment = (int)segment;
		if (collect(&runs[i])) {
			ret = FL_EXIT_FAIL;
			break;
		}
	}
	if (ret == FL_EXIT_OK)
		output(&out, runs, nb, runs + nb, nn, (int)segment, (int)groups);
	for (i = 0; i < nfiles; i++) {
		free(runs[i].m);
		free(runs[i].groups);
	}
	free(runs);
	if (fflush(stdout))
		ret = FL_EXIT_FAIL;
	return ret;
}
