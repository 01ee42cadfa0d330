// SPDX-License-Identifier: GPL-2.0
/*
 * `fairlab plot FILE... -o DIR`: time series of each recording (error,
 * writes/s) and a Pareto plot of mean |E| against writes/s over all
 * policy segments, drawn by gnuplot as PNG and SVG.  The data files and
 * the gnuplot script stay in DIR, so a plot can be redrawn or restyled.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "cli.h"
#include "gnuplot.h"
#include "metrics.h"

static void help(FILE *f)
{
	fputs(
"usage: fairlab plot [options] -o DIR FILE...\n"
"\n"
"Draws with gnuplot, for each recording FILE (named by its file name STEM):\n"
"  STEM-error.png/.svg   sum over task groups of |E| (load units) and that sum\n"
"                        relative to the groups' sum(load) (%), per time bin\n"
"  STEM-writes.png/.svg  tg_update attempts, tg->load_avg writes and writer\n"
"                        switches per second, per time bin\n"
"  STEM-shares.png/.svg  the shares error, |given - ideal| / tg->shares (%) as\n"
"                        report's shares_err_mean_pct, per time bin: its mean\n"
"                        over the cfs_rqs holding a tg_read, each read held\n"
"                        until that cfs_rq's next or its segment's end\n"
"  STEM-hist.png/.svg    time-weighted log2 histograms of |E| (load) and of the\n"
"                        shares error (% of tg->shares), a line per segment\n"
"  STEM-switches.png/.svg  heat map of the writer switches from CPU (row, the\n"
"                        previous writer) to CPU (column, the new one), n: the\n"
"                        tg->load_avg line's transfers, as perf c2c shows them\n"
"and over all recordings:\n"
"  pareto.png/.svg       one point per policy segment, one colour and marker\n"
"                        per tg policy (the legend): time-weighted mean |E| per\n"
"                        group (load), and beside it the shares error (time-\n"
"                        weighted mean, % of tg->shares, report's\n"
"                        shares_err_mean_pct; when the recordings have tg_read\n"
"                        records), against writes/s; the Pareto frontier (no\n"
"                        segment has fewer writes and less error) joined,\n"
"                        numbered by increasing writes and named under each\n"
"                        panel; errors on log axes, 0 drawn at the floor the\n"
"                        axis names\n"
"Policy switches are marked on the time series.  The data (STEM.series.tsv,\n"
"STEM.segments.tsv, STEM.switches.tsv, STEM.hist-err.tsv, STEM.hist-shares.tsv, pareto.tsv, pareto-front-e.tsv, pareto-front-s.tsv) and\n"
"the script (plots.gp) stay in DIR.\n"
"Time is in seconds since the first fairlab record of each recording.\n"
"\n"
"options:\n"
"  -o, --output=DIR  where the plots go (created if missing)\n"
"  --bin=MS          width of a time bin in milliseconds (default 100; at least\n"
"                    0.001, and at most a million bins per recording)\n"
"  --gnuplot=PROG    the gnuplot program (default gnuplot)\n"
"  --json            list what was written, and the Pareto points\n"
"  --csv             the Pareto points: file,segment,tg_policy,idlest_policy,\n"
"                    writes_per_s,err_mean_load,err_p99_load,switches_per_s\n"
FL_THREADS_HELP
"  -h, --help        this text\n"
"\n"
"examples:\n"
"  fairlab plot -o plots/ trace.dat\n"
"  fairlab plot --bin=10 -o plots/ stock.dat relative8.dat budget5.dat\n",
	      f);
}

/*
 * Time bins: at least 1 us wide (finer than any plot can show; a width
 * that rounds to 0 ns would mean no bins at all), and at most a million
 * per recording (a 1100-pixel plot shows about a thousand; a million
 * lines of series are about 50 MB, where 1 ns bins made 3.4 GB).
 */
#define MIN_BIN_NS	1000ull
#define MAX_BINS	1000000ull
/* CPUs of the switch heat map: 1024 x 1024 counts are 8 MB */
#define MAX_MAP_CPUS	1024

struct pareto_pt {
	char stem[64];
	int segment;
	char tg_policy[48], idlest_policy[48];
	double writes_per_s, err_mean, err_p99, switches_per_s;
	double shares_mean;	/* shares_err_mean_pct (% of tg->shares); NAN: no reads */
	bool front_e, front_s;	/* on the Pareto frontier of writes and |E| / shares */
	int lab_e, lab_s;	/* its number on the frontier by increasing writes, the
				 * label (odd above, even below the point); 0 off it */
};

struct plot_file {
	const char *path;
	char stem[64];
	FILE *series, *segments;
	FILE *hist_e, *hist_s;	/* the histograms, a block per segment */
	int nseg;		/* segments, = blocks in the histogram files */
	bool hist_has[2];	/* some segment has an |E| / shares histogram */
	struct fa_engine *e;	/* its whole-trace t_start is the first record */
	char last_tg[48];	/* tg policy of the previous segment */
	struct pareto_pt *pts;	/* shared list */
	int *npts, *cappts;
	u64 nbins;		/* bins written to series */
	u64 *map;		/* writer switches, map[from * map_n + to] */
	int map_n;		/* CPUs in map (highest CPU seen + 1) */
	u64 map_beyond;		/* switches of CPUs >= MAX_MAP_CPUS, left out */
	bool oom, too_many_bins;
};

/* File name without directory and .dat, reduced to [A-Za-z0-9._-]. */
static void make_stem(const char *path, char *out, size_t n)
{
	const char *b = strrchr(path, '/');
	size_t len, i;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 4 && !strcmp(b + len - 4, ".dat"))
		len -= 4;
	if (len >= n)
		len = n - 1;
	for (i = 0; i < len; i++) {
		char c = b[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '-' ? c : '_';
	}
	out[len] = '\0';
	if (!len)
		snprintf(out, n, "trace");
}

static void on_bin(const struct fa_bin *b, void *arg)
{
	struct plot_file *pf = arg;
	double len = (double)(b->t_end - b->t_start) / 1e9;
	u64 t0 = fa_engine_total(pf->e)->t_start;

	if (len <= 0 || pf->too_many_bins)
		return;
	if (++pf->nbins > MAX_BINS) {
		pf->too_many_bins = true;	/* plot_one() says so */
		return;
	}
	fprintf(pf->series, "%.6f\t%.3f\t%.3f\t%.3f\t%.3f\t%.5f\t%d\t",
		(double)(b->t_start - t0) / 1e9 + len / 2,
		(double)b->attempts / len, (double)b->writes / len,
		(double)b->switches / len, b->err_sum, 100.0 * b->err_rel,
		b->segment);
	/* no read held in the bin: no shares error (a gap in the line) */
	if (b->shares_ns > 0)
		fprintf(pf->series, "%.6f\n", 100.0 * b->shares_mean);
	else
		fprintf(pf->series, "NaN\n");
}

/* One writer switch into the CPU x CPU heat map (grown as CPUs appear). */
static void on_switch(s32 from, s32 to, void *arg)
{
	struct plot_file *pf = arg;
	int need = (from > to ? from : to) + 1, i;
	u64 *m;

	if (from < 0 || to < 0 || need > MAX_MAP_CPUS) {
		pf->map_beyond++;
		return;
	}
	if (need > pf->map_n) {
		need = need < 2 * pf->map_n ? 2 * pf->map_n : need;
		if (need > MAX_MAP_CPUS)
			need = MAX_MAP_CPUS;
		m = calloc((size_t)need * (size_t)need, sizeof(*m));
		if (!m) {
			pf->oom = true;
			return;
		}
		for (i = 0; i < pf->map_n; i++)
			memcpy(m + (size_t)i * need, pf->map + (size_t)i * pf->map_n,
			       (size_t)pf->map_n * sizeof(*m));
		free(pf->map);
		pf->map = m;
		pf->map_n = need;
	}
	pf->map[(size_t)from * pf->map_n + to]++;
}

/* STEM.switches.tsv: the heat map as a gnuplot matrix, rows from, columns to. */
static int write_map(struct plot_file *pf, const char *dir, int *ncpus)
{
	FILE *f = fl_open_out(dir, pf->stem, ".switches.tsv");
	int n = 0, i, j;

	if (!f)
		return -1;
	/* up to the highest CPU that switched: the doubling added others */
	for (i = 0; i < pf->map_n; i++)
		for (j = 0; j < pf->map_n; j++)
			if (pf->map[(size_t)i * pf->map_n + j])
				n = (i > j ? i : j) + 1;
	if (!n)
		n = 1;
	fprintf(f, "# %s: writer switches from CPU (row) to CPU (column), n\n", pf->path);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			fprintf(f, "%llu%c", i < pf->map_n && j < pf->map_n ?
				(unsigned long long)pf->map[(size_t)i * pf->map_n + j] : 0ull,
				j == n - 1 ? '\n' : '\t');
	if (pf->map_beyond)
		fl_warn("%s: %llu writer switches of CPUs above %d (or unplaced) are not in its heat map",
			pf->path, (unsigned long long)pf->map_beyond, MAX_MAP_CPUS - 1);
	*ncpus = n;
	return fclose(f) ? -1 : 0;
}

/*
 * One segment's time-weighted log2 histogram as a gnuplot data block:
 * a header row naming it, then the upper edge of each octave (in the
 * histogram's unit times @scale) and the share of the time (%).  An
 * empty histogram is one row of NaN, so that blocks stay one per segment.
 */
static void hist_block(FILE *f, const struct fa_hist *h, double scale,
		       const char *unit, const struct pareto_pt *p)
{
	u64 oct[FA_HIST_OCTAVES];
	int k, lo = -1, hi = -1;

	fa_hist_octaves(h, oct);
	for (k = 0; k < FA_HIST_OCTAVES; k++)
		if (oct[k]) {
			lo = lo < 0 ? k : lo;
			hi = k;
		}
	fprintf(f, "upper_edge_%s\t%s #%d\n", unit, p->tg_policy, p->segment);
	if (lo < 0 || !h->total)
		fprintf(f, "NaN\tNaN\n");
	/* octave 0 holds 0 only: drawn at half the first edge (log axis) */
	for (k = lo; lo >= 0 && k <= hi; k++)
		fprintf(f, "%.6g\t%.4f\n", (k ? (double)(1ull << (k < 64 ? k : 63)) : 0.5) * scale,
			100.0 * (double)oct[k] / (double)h->total);
	fprintf(f, "\n\n");
}

static void on_segment(const struct fa_segment *s, void *arg)
{
	struct plot_file *pf = arg;
	struct pareto_pt *p;

	if (*pf->npts == *pf->cappts) {
		int cap = *pf->cappts ? *pf->cappts * 2 : 16;

		p = realloc(pf->pts, (size_t)cap * sizeof(*p));
		if (!p) {
			pf->oom = true;
			return;
		}
		pf->pts = p;
		*pf->cappts = cap;
	}
	p = &pf->pts[(*pf->npts)++];
	memset(p, 0, sizeof(*p));
	snprintf(p->stem, sizeof(p->stem), "%s", pf->stem);
	p->segment = s->index;
	if (s->tg_policy_known)
		fa_tg_policy_label(&s->tg_policy, p->tg_policy, sizeof(p->tg_policy));
	else
		snprintf(p->tg_policy, sizeof(p->tg_policy), "unknown");
	fa_layout_suffix(&s->layout, p->tg_policy, sizeof(p->tg_policy));
	if (s->idlest_policy_known)
		fa_idlest_policy_label(s->idlest_policy, p->idlest_policy,
				       sizeof(p->idlest_policy));
	else
		snprintf(p->idlest_policy, sizeof(p->idlest_policy), "unknown");
	p->writes_per_s = fa_segment_rate(s, s->writes);
	p->switches_per_s = fa_segment_rate(s, s->switches);
	p->err_mean = fa_err_mean_abs(&s->err);
	p->err_p99 = (double)fa_err_p_abs(&s->err, 0.99);
	p->shares_mean = fl_shares_mean(&s->shares);	/* as report's shares_err_mean_pct */
	/* A mark names the tg policy, or the idlest one when only that changed. */
	fprintf(pf->segments, "%.6f\t%s%s\n",
		(double)(s->t_start - fa_engine_total(pf->e)->t_start) / 1e9,
		!strcmp(pf->last_tg, p->tg_policy) ? "idlest " : "",
		!strcmp(pf->last_tg, p->tg_policy) ? p->idlest_policy : p->tg_policy);
	snprintf(pf->last_tg, sizeof(pf->last_tg), "%s", p->tg_policy);
	hist_block(pf->hist_e, &s->err.abs, 1.0, "load", p);
	hist_block(pf->hist_s, &s->shares.bnd, 100.0 / FA_REL_SCALE, "pct", p);
	pf->hist_has[0] |= s->err.abs.total > 0;
	pf->hist_has[1] |= s->shares.rel.total > 0;
	pf->nseg++;
}

static void remove_out(const char *dir, const char *stem, const char *suffix)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s%s", dir, stem, suffix);
	unlink(path);
}

/*
 * The heat map of one recording's writer switches, CPU x CPU, in the
 * manner of perf c2c: which CPUs hand the tg->load_avg line to which.
 */
static void script_map(FILE *gp, const char *stem, int n)
{
	int t;

	for (t = 0; t < 2; t++) {
		fprintf(gp,
			"set terminal %s\n"
			"unset arrow; unset label\n"
			"set output '%s-switches.%s'\n"
			"set title 'writer switches (tg->load_avg line transfers) between CPUs, %s'\n"
			"set xlabel 'to CPU (the new writer)'\n"
			"set ylabel 'from CPU (the previous writer)'\n"
			"set cblabel 'writer switches (n)'\n"
			"set palette defined (0 '#ffffff', 1 '#fee8c8', 2 '#fdbb84', 3 '#e34a33', 4 '#7f0000')\n"
			"set xrange [-0.5:%d.5]; set yrange [%d.5:-0.5]\n"
			"set xtics 1 out; set ytics 1 out; set size square; unset grid\n"
			"plot '%s.switches.tsv' matrix with image notitle%s\n"
			"set autoscale xy; unset xrange; unset yrange; set xtics autofreq; set ytics autofreq\n"
			"set size nosquare; set grid; unset cblabel\n",
			t ? "svg size 800,760 noenhanced" : "pngcairo size 800,760 noenhanced",
			stem, t ? "svg" : "png", stem, n - 1, n - 1, stem,
			/* counts written in the cells while they are legible */
			n <= 16 ? ", \\\n     '' matrix using 1:2:($3 > 0 ? sprintf('%d', $3) : '') with labels font ',8' notitle" : "");
		if (n > 32)
			fprintf(gp, "set xtics %d; set ytics %d\n", n / 16, n / 16);
	}
}

/* One histogram panel; a recording without its data says so instead. */
static void script_hist_panel(FILE *gp, const char *stem, const char *kind, int nseg,
			      bool has, const char *what)
{
	if (has)
		fprintf(gp, "plot for [i=0:%d] '%s.hist-%s.tsv' index i using 1:2 with linespoints lw 1.5 title columnheader(2)\n",
			nseg - 1, stem, kind);
	else
		fprintf(gp, "set label 2 '%s' at graph 0.5, graph 0.5 center\n"
			"plot [1:2] [0:1] NaN notitle\nunset label 2\n", what);
}

/* Histograms of |E| and of the shares error, a line per segment. */
static void script_hist(FILE *gp, const char *stem, int nseg, const bool has[2])
{
	int t;

	for (t = 0; t < 2; t++) {
		fprintf(gp,
			"set terminal %s\n"
			"unset arrow; unset label\n"
			"set output '%s-hist.%s'\n"
			"set multiplot layout 1,2 title 'error histograms, time-weighted, one line per policy segment, %s'\n"
			"set logscale x 2; set format x '%%g'\n"
			"set ylabel 'share of the time (%%)'\n"
			"set key outside bottom center horizontal font ',9'\n"
			"set title 'accumulated error |E| (load), octaves'\n"
			"set xlabel '|E| below (load)'\n",
			t ? "svg size 1400,560 noenhanced" : "pngcairo size 1400,560 noenhanced",
			stem, t ? "svg" : "png", stem);
		script_hist_panel(gp, stem, "err", nseg, has[0], "no tg_update records: no |E|");
		fprintf(gp, "set title 'shares error |given - ideal| / tg->shares (%%), octaves'\n"
			"set xlabel 'shares error below (%%)'\n");
		script_hist_panel(gp, stem, "shares", nseg, has[1],
				  "no tg_read records: no shares error in this recording");
		fprintf(gp, "unset multiplot; unset logscale x; set format x; set key default; unset title\n");
	}
}

/* One recording's shares error over time, or a note that it has none. */
static void script_shares(FILE *gp, const char *stem, const char *ext, bool has)
{
	fprintf(gp, "set output '%s-shares.%s'\n"
		"set title 'shares error (the weight calc_group_shares() gave), %s'\n"
		"set ylabel '|given - ideal| / tg->shares (%%)'\n",
		stem, ext, stem);
	if (has)
		/* the key below: the policy marks take the top of the plot */
		fprintf(gp, "set key below\n"
			"plot '%s.series.tsv' using 1:8 with lines lw 1.5 title 'mean over the cfs_rqs holding a read (%%)'\n"
			"set key default; set key top right\n",
			stem);
	else
		fprintf(gp, "set label 2 'no tg_read records: no shares error in this recording' at graph 0.5, graph 0.5 center\n"
			"plot [0:1] [0:1] NaN notitle\nunset label 2\n");
}

/* The gnuplot commands drawing one recording's three time series. */
static void script_series(FILE *gp, const char *stem, bool has_shares)
{
	static const char *const term[2][2] = {
		{ "pngcairo size 1100,500 noenhanced", "png" },
		{ "svg size 1100,500 noenhanced", "svg" },
	};
	int t;

	for (t = 0; t < 2; t++) {
		fprintf(gp,
			"set terminal %s\n"
			"set output '%s-error.%s'\n"
			"set title 'accumulated error, %s'\n"
			"set xlabel 'time since first record (s)'\n"
			"set ylabel 'sum over groups of |E| (load)'\n"
			"set y2label '|E| / sum(load) (%%)'\n"
			"set ytics nomirror; set y2tics\n"
			"plot '%s.series.tsv' using 1:5 with lines lw 1.5 title 'sum |E| (load)', \\\n"
			"     '' using 1:6 axes x1y2 with lines lw 1 title 'relative (%%)'\n"
			"unset y2tics; unset y2label\n"
			"set output '%s-writes.%s'\n"
			"set title 'tg->load_avg traffic, %s'\n"
			"set ylabel 'per second (1/s)'\n"
			"plot '%s.series.tsv' using 1:2 with lines title 'attempts (1/s)', \\\n"
			"     '' using 1:3 with lines lw 1.5 title 'writes (1/s)', \\\n"
			"     '' using 1:4 with lines title 'writer switches (1/s)'\n",
			term[t][0], stem, term[t][1], stem, stem, stem,
			term[t][1], stem, stem);
		script_shares(gp, stem, term[t][1], has_shares);
	}
}

/*
 * The frontier point (of |E|, or of the shares error) with the fewest
 * writes above @last, or -1: the frontier by increasing writes, one
 * selection per point (frontiers are short).
 */
static int next_front(const struct pareto_pt *pts, int n, bool shares, double last)
{
	int i, best = -1;

	for (i = 0; i < n; i++)
		if ((shares ? pts[i].front_s : pts[i].front_e) && pts[i].writes_per_s > last &&
		    (best < 0 || pts[i].writes_per_s < pts[best].writes_per_s))
			best = i;
	return best;
}

/*
 * Frontier points are numbered by increasing writes, and the numbers are
 * their labels (the note under the panel names each): along a frontier the
 * error falls as writes grow, so neighbours sit close on both axes and
 * names would overprint.  Odd numbers go above their points, even below.
 */
static void frontier_labels(struct pareto_pt *pts, int n, bool shares)
{
	double last = -1;
	int i, best, rank = 0;

	while ((best = next_front(pts, n, shares, last)) >= 0) {
		last = pts[best].writes_per_s;
		/* points of equal writes: one label each, on alternate sides too */
		for (i = 0; i < n; i++)
			if ((shares ? pts[i].front_s : pts[i].front_e) && pts[i].writes_per_s == last)
				*(shares ? &pts[i].lab_s : &pts[i].lab_e) = ++rank;
	}
}

/* Is @b dominated by @a: no more writes and no more error, less of one? */
static bool dominates(double wa, double ea, double wb, double eb)
{
	return wa <= wb && ea <= eb && (wa < wb || ea < eb);
}

/* Marks the points no other point dominates, for |E| and for shares. */
static void frontier(struct pareto_pt *pts, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		/* a segment with no write measured no policy (it is too short,
		 * or nothing ran): it is drawn, but frontiers are of policies */
		pts[i].front_e = pts[i].writes_per_s > 0;
		pts[i].front_s = pts[i].front_e && !isnan(pts[i].shares_mean);
		for (j = 0; j < n; j++) {
			if (!(pts[j].writes_per_s > 0))
				continue;
			if (dominates(pts[j].writes_per_s, pts[j].err_mean,
				      pts[i].writes_per_s, pts[i].err_mean))
				pts[i].front_e = false;
			if (!isnan(pts[j].shares_mean) &&
			    dominates(pts[j].writes_per_s, pts[j].shares_mean,
				      pts[i].writes_per_s, pts[i].shares_mean))
				pts[i].front_s = false;
		}
	}
}

/* The distinct tg policies, space-separated, in order of appearance. */
static void policy_words(const struct pareto_pt *pts, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(pts[j].tg_policy, pts[i].tg_policy); j++)
			;
		if (j == i && used + strlen(pts[i].tg_policy) + 2 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 pts[i].tg_policy);
	}
}

/* "1 a, 2 b": the points on one frontier by their numbers (increasing writes). */
static void frontier_names(const struct pareto_pt *pts, int n, bool shares,
			   char *buf, size_t len)
{
	size_t used = 0;
	int i, r;

	buf[0] = '\0';
	for (r = 1; r <= n; r++)
		for (i = 0; i < n; i++)
			if ((shares ? pts[i].lab_s : pts[i].lab_e) == r && used + 80 < len)
				/* four a line: the note must fit under its panel */
				used += (size_t)snprintf(buf + used, len - used, "%s%d %s",
							 r == 1 ? "" : r % 4 == 1 ? ",\\n" : ", ",
							 r, pts[i].tg_policy);
}

/*
 * One panel: error column @ecol of pareto.tsv against writes/s, one
 * colour and marker per policy (the legend), the frontier (flag column
 * @fcol, its number) joined and numbered, the others named by the legend.  The
 * error on a log axis, so that small errors do not crowd the bottom: an
 * error below @floor (0 included: force's |E|) is drawn at @floor, which
 * the axis label names.
 */
static void script_panel(FILE *gp, int ecol, int fcol, const char *ylabel,
			 const char *front, const char *frontfile, double floor)
{
	fprintf(gp,
		"set ylabel '%s; 0 drawn at %g)'\nset logscale y\nF = %g\n"
		"set label 1 \"Pareto frontier (no segment has fewer writes and less error),\\nnumbered by increasing writes: %s\" at graph 0, graph -0.24 font ',9'\n"
		"plot for [i=1:words(pols)] 'pareto.tsv' using (strcol(3) eq word(pols, i) ? $5 : NaN):($%d < F ? F : $%d) "
		"with points lc rgb word(cols, (i - 1) %% words(cols) + 1) pt (i - 1) %% 13 + 4 ps 1.6 title word(pols, i), \\\n"
		"     '%s' using 1:($2 < F ? F : $2) with lines dt 2 lw 1.5 lc rgb '#555555' title 'Pareto frontier', \\\n"
		"     'pareto.tsv' using ($%d > 0 && int($%d) %% 2 == 1 ? $5 : NaN):($%d < F ? F : $%d):(sprintf('%%d', int($%d))) with labels offset char 0.8,0.8 left font ',10' notitle, \\\n"
		"     'pareto.tsv' using ($%d > 0 && int($%d) %% 2 == 0 ? $5 : NaN):($%d < F ? F : $%d):(sprintf('%%d', int($%d))) with labels offset char 0.8,-0.9 left font ',10' notitle\n"
		"unset label 1\n",
		ylabel, floor, floor, front, ecol, ecol, frontfile,
		fcol, fcol, ecol, ecol, fcol, fcol, fcol, ecol, ecol, fcol);
}

static void script_pareto(FILE *gp, const struct pareto_pt *pts, int n)
{
	char pols[2048], front_e[2048], front_s[2048];
	bool logx = n > 0, shares = false;
	int i, t;

	for (i = 0; i < n; i++) {
		logx = logx && pts[i].writes_per_s > 0;
		shares = shares || !isnan(pts[i].shares_mean);
	}
	policy_words(pts, n, pols, sizeof(pols));
	frontier_names(pts, n, false, front_e, sizeof(front_e));
	frontier_names(pts, n, true, front_s, sizeof(front_s));
	for (t = 0; t < 2; t++) {
		fprintf(gp,
			"set terminal %s\n"
			"unset arrow; unset label\n"
			"set output 'pareto.%s'\n"
			"pols = '%s'\n"
			/* twelve colours apart; with 13 markers, no two policies alike */
			"cols = '#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #bcbd22 #000000 #7f7f7f #aec7e8'\n"
			"set key outside right top box title 'tg policy' noenhanced\n"
			"set xlabel 'writes (1/s)'\n"
			"set bmargin 10\n"
			"set offsets 0, graph 0.15, graph 0.05, 0\n"
			"%s\n",
			t ? (shares ? "svg size 1500,620 noenhanced" : "svg size 1000,620 noenhanced") :
			    (shares ? "pngcairo size 1500,620 noenhanced" :
				      "pngcairo size 1000,620 noenhanced"),
			t ? "svg" : "png", pols,
			logx ? "set logscale x" : "unset logscale x");
		if (shares)
			fprintf(gp, "set multiplot layout 1,2 title 'error against tg->load_avg writes, one point per policy segment'\n"
				"set title 'accumulated error |E|, time-weighted mean'\n");
		else
			fprintf(gp, "set title 'error against tg->load_avg writes, one point per policy segment'\n");
		script_panel(gp, 6, 13, "|E| per group (load", front_e,
			     "pareto-front-e.tsv", 0.1);
		if (shares) {
			fprintf(gp, "set title 'shares error (the weight calc_group_shares() gave), time-weighted mean'\n");
			script_panel(gp, 10, 14, "shares error (% of tg->shares", front_s,
				     "pareto-front-s.tsv", 0.001);
			fprintf(gp, "unset multiplot\n");
		}
		fprintf(gp, "unset logscale; unset title; set offsets 0, 0, 0, 0; set bmargin; set key default\n");
	}
}

/* A gnuplot function-free way to mark segments: arrows and labels. */
static void script_marks(FILE *gp, const char *dir, const char *stem)
{
	char path[4096], label[128];
	double t;
	FILE *f;
	int i = 0;

	snprintf(path, sizeof(path), "%s/%s.segments.tsv", dir, stem);
	f = fopen(path, "r");
	fprintf(gp, "unset arrow; unset label\n");
	while (f && fscanf(f, "%lf\t%127[^\n]\n", &t, label) == 2) {
		if (i++)
			fprintf(gp, "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead dt 2\n",
				t, t);
		/* staggered: switches close in time would overprint */
		fprintf(gp, "set label '%s' at %.6f, graph %.2f offset char 0.5,0 font ',9'\n",
			label, t, 0.97 - 0.05 * ((i - 1) % 3));
	}
	if (f)
		fclose(f);
}

/* The frontier's points by writes, for the line that joins them. */
static int write_front(const char *dir, const char *name, const struct pareto_pt *pts,
		       int n, bool shares)
{
	FILE *f = fl_open_out(dir, name, ".tsv");
	double last = -1;
	int best;

	if (!f)
		return -1;
	fprintf(f, "# writes_per_s\t%s\n", shares ? "shares_err_mean_pct" : "err_mean_load");
	while ((best = next_front(pts, n, shares, last)) >= 0) {
		last = pts[best].writes_per_s;
		fprintf(f, "%.6g\t%.6g\n", last, shares ? pts[best].shares_mean : pts[best].err_mean);
	}
	return fclose(f) ? -1 : 0;
}

static int write_pareto(const char *dir, struct pareto_pt *pts, int n)
{
	FILE *f = fl_open_out(dir, "pareto", ".tsv");
	int i;

	if (!f)
		return -1;
	frontier(pts, n);
	frontier_labels(pts, n, false);
	frontier_labels(pts, n, true);
	fprintf(f, "# file\tsegment\ttg_policy\tidlest_policy\twrites_per_s\terr_mean_load\terr_p99_load\tswitches_per_s\tlabel\tshares_err_mean_pct\tfrontier_err\tfrontier_shares\tlabel_pos_err\tlabel_pos_shares\n");
	for (i = 0; i < n; i++)
		fprintf(f, "%s\t%d\t%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%s (%s #%d)\t%.6g\t%d\t%d\t%d\t%d\n", pts[i].stem,
			pts[i].segment, pts[i].tg_policy, pts[i].idlest_policy,
			pts[i].writes_per_s, pts[i].err_mean, pts[i].err_p99,
			pts[i].switches_per_s, pts[i].tg_policy, pts[i].stem,
			pts[i].segment, pts[i].shares_mean, pts[i].front_e, pts[i].front_s,
			pts[i].lab_e, pts[i].lab_s);
	if (fclose(f))
		return -1;
	return write_front(dir, "pareto-front-e", pts, n, false) ||
	       write_front(dir, "pareto-front-s", pts, n, true) ? -1 : 0;
}

/* The images a run draws: @fn(path, arg) for each, in report order. */
static void each_image(const char *dir, char (*stems)[64], int nfiles,
		       void (*fn)(const char *path, void *arg), void *arg)
{
	static const char *const kinds[] = { "-error", "-writes", "-shares", "-switches", "-hist" };
	char path[4200];
	int i, k, e;

	for (i = 0; i <= nfiles; i++) {
		for (k = 0; k < 5 && (i < nfiles || !k); k++) {
			for (e = 0; e < 2; e++) {
				if (i < nfiles)
					snprintf(path, sizeof(path), "%s/%s%s.%s", dir, stems[i],
						 kinds[k], e ? "svg" : "png");
				else
					snprintf(path, sizeof(path), "%s/pareto.%s", dir,
						 e ? "svg" : "png");
				fn(path, arg);
			}
		}
	}
}

static void unlink_image(const char *path, void *arg)
{
	(void)arg;
	unlink(path);
}

/* Counts the images that are missing or empty. */
static void count_empty(const char *path, void *arg)
{
	struct stat st;

	if (stat(path, &st) || st.st_size == 0) {
		fl_error("%s: not drawn (missing or empty)", path);
		++*(int *)arg;
	}
}

static void list_image(const char *path, void *arg)
{
	if (arg)
		fl_json_str(arg, NULL, path);
	else
		printf("wrote %s\n", path);
}

static void report(enum fl_format fmt, const char *dir, char (*stems)[64], int nfiles,
		   const struct pareto_pt *pts, int n)
{
	struct fl_json j;
	int i;

	if (fmt == FL_FMT_CSV) {
		printf("file,segment,tg_policy,idlest_policy,writes_per_s,err_mean_load,err_p99_load,switches_per_s\n");
		for (i = 0; i < n; i++) {
			fl_csv_field(stdout, pts[i].stem);
			printf(",%d,%s,%s,%.6f,%.6f,%.0f,%.6f\n", pts[i].segment,
			       pts[i].tg_policy, pts[i].idlest_policy, pts[i].writes_per_s,
			       pts[i].err_mean, pts[i].err_p99, pts[i].switches_per_s);
		}
		return;
	}
	if (fmt == FL_FMT_JSON) {
		fl_json_init(&j, stdout);
		fl_json_obj(&j, NULL);
		fl_json_arr(&j, "outputs");
	}
	each_image(dir, stems, nfiles, list_image, fmt == FL_FMT_JSON ? &j : NULL);
	if (fmt != FL_FMT_JSON)
		return;
	fl_json_end(&j, ']');
	fl_json_arr(&j, "pareto");
	for (i = 0; i < n; i++) {
		fl_json_obj(&j, NULL);
		fl_json_str(&j, "file", pts[i].stem);
		fl_json_u64(&j, "segment", (u64)pts[i].segment);
		fl_json_str(&j, "tg_policy", pts[i].tg_policy);
		fl_json_str(&j, "idlest_policy", pts[i].idlest_policy);
		fl_json_dbl(&j, "writes_per_s", pts[i].writes_per_s);
		fl_json_dbl(&j, "err_mean_load", pts[i].err_mean);
		fl_json_dbl(&j, "err_p99_load", pts[i].err_p99);
		fl_json_dbl(&j, "switches_per_s", pts[i].switches_per_s);
		fl_json_end(&j, '}');
	}
	fl_json_end(&j, ']');
	fl_json_end(&j, '}');
}

/* Reads one recording into its series and segment files. */
static int plot_one(struct plot_file *pf, const char *dir, u64 bin_ns, int *ncpus,
		    int *nseg, bool *has)
{
	struct fa_engine_cfg cfg = {
		.on_segment = on_segment, .on_bin = on_bin, .on_switch = on_switch,
		.bin_ns = bin_ns, .arg = pf,
	};
	struct fa_engine *e;
	int ret = -1;

	pf->series = fl_open_out(dir, pf->stem, ".series.tsv");
	pf->segments = fl_open_out(dir, pf->stem, ".segments.tsv");
	pf->hist_e = fl_open_out(dir, pf->stem, ".hist-err.tsv");
	pf->hist_s = fl_open_out(dir, pf->stem, ".hist-shares.tsv");
	e = fa_engine_new(&cfg);
	pf->e = e;
	if (!pf->series || !pf->segments || !pf->hist_e || !pf->hist_s || !e)
		goto out;
	fprintf(pf->series, "# %s\n# time_s\tattempts_per_s\twrites_per_s\tswitches_per_s\terr_sum_load\terr_rel_pct\tsegment\tshares_err_mean_pct\n",
		pf->path);
	if (fl_analyze(pf->path, e))
		goto out;
	if (pf->oom) {
		fl_error("out of memory");
		goto out;
	}
	if (pf->too_many_bins) {
		double secs = fa_segment_seconds(fa_engine_total(e));

		fl_error("%s: --bin=%g ms makes more than %llu time bins over its %.3f s: give --bin=%g or more",
			 pf->path, (double)bin_ns / 1e6, MAX_BINS, secs,
			 ceil(secs * 1e3 / (double)MAX_BINS * 1e3) / 1e3);
		goto out;
	}
	ret = write_map(pf, dir, ncpus);
	*nseg = pf->nseg;
	has[0] = pf->hist_has[0];
	has[1] = pf->hist_has[1];
out:
	free(pf->map);
	fa_engine_free(e);
	if (pf->series && fclose(pf->series))
		ret = -1;
	if (pf->segments && fclose(pf->segments))
		ret = -1;
	if (pf->hist_e && fclose(pf->hist_e))
		ret = -1;
	if (pf->hist_s && fclose(pf->hist_s))
		ret = -1;
	if (ret) {		/* no half-written data left behind */
		remove_out(dir, pf->stem, ".series.tsv");
		remove_out(dir, pf->stem, ".segments.tsv");
		remove_out(dir, pf->stem, ".switches.tsv");
		remove_out(dir, pf->stem, ".hist-err.tsv");
		remove_out(dir, pf->stem, ".hist-shares.tsv");
	}
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "bin", required_argument, NULL, 'b' },
		{ "gnuplot", required_argument, NULL, 'g' },
		FL_COMMON_OPTIONS,
	};
	enum fl_format fmt = FL_FMT_TEXT;
	const char *dir = NULL, *prog = "gnuplot";
	struct pareto_pt *pts = NULL;
	int npts = 0, cappts = 0, nfiles, i, j, c, st, empty, ret = FL_EXIT_FAIL;
	char (*stems)[64] = NULL;
	int *ncpus = NULL, *nseg = NULL;
	bool (*has)[2] = NULL;
	double bin_ms = 100;
	char path[4096];
	FILE *gp = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'b':
			if (fl_parse_positive(optarg, "--bin", &bin_ms))
				return FL_EXIT_USAGE;
			if (bin_ms * 1e6 < (double)MIN_BIN_NS) {
				fl_error("--bin: %s ms is narrower than the %g ms (%llu ns) minimum",
					 optarg, (double)MIN_BIN_NS / 1e6, MIN_BIN_NS);
				return FL_EXIT_USAGE;
			}
			break;
		case 'g':
			prog = optarg;
			break;
		default:
			st = fl_common_option(c, &fmt, help, "plot");
			if (st != FL_OPT_NEXT)
				return st;
			break;
		}
	}
	nfiles = argc - optind;
	if (!dir || nfiles < 1) {
		fl_error(!dir ? "plot: no output directory (-o DIR)" : "plot: no FILE given");
		return FL_EXIT_USAGE;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fl_error("%s: %s", dir, strerror(errno));
		return FL_EXIT_FAIL;
	}
	stems = calloc((size_t)nfiles, sizeof(*stems));
	ncpus = calloc((size_t)nfiles, sizeof(*ncpus));
	nseg = calloc((size_t)nfiles, sizeof(*nseg));
	has = calloc((size_t)nfiles, sizeof(*has));
	if (!stems || !ncpus || !nseg || !has)
		goto out;
	for (i = 0; i < nfiles; i++) {
		struct plot_file pf = { .path = argv[optind + i], .npts = &npts,
					.cappts = &cappts };

		make_stem(pf.path, stems[i], sizeof(stems[i]) - 8);
		for (j = 0; j < i; j++) {	/* same name twice: number it */
			if (!strcmp(stems[i], stems[j])) {
				char num[12];

				snprintf(num, sizeof(num), "-%d", i);
				strncat(stems[i], num, sizeof(stems[i]) - strlen(stems[i]) - 1);
			}
		}
		memcpy(pf.stem, stems[i], sizeof(pf.stem));
		pf.pts = pts;
		if (plot_one(&pf, dir, (u64)(bin_ms * 1e6), &ncpus[i], &nseg[i], has[i])) {
			pts = pf.pts;
			goto out;
		}
		pts = pf.pts;
	}
	if (write_pareto(dir, pts, npts))
		goto out;
	snprintf(path, sizeof(path), "%s/plots.gp", dir);
	gp = fopen(path, "w");
	if (!gp) {
		fl_error("%s: %s", path, strerror(errno));
		goto out;
	}
	fprintf(gp, "# fairlab plot: %d recordings; run in this directory\n"
		"set datafile separator \"\\t\"\nset grid\nset key top right\n", nfiles);
	for (i = 0; i < nfiles; i++) {
		script_marks(gp, dir, stems[i]);
		script_series(gp, stems[i], has[i][1]);
		script_map(gp, stems[i], ncpus[i]);
		script_hist(gp, stems[i], nseg[i], has[i]);
	}
	script_pareto(gp, pts, npts);
	if (fclose(gp)) {
		gp = NULL;
		fl_error("%s: write failed", path);
		goto out;
	}
	gp = NULL;
	/*
	 * gnuplot opens each image before it draws into it: a failure
	 * leaves empty or partial images.  Old ones of the same names go
	 * first, so that none survives to be taken for this run's.
	 */
	each_image(dir, stems, nfiles, unlink_image, NULL);
	if (fl_run_gnuplot(prog, dir, "plots.gp")) {
		each_image(dir, stems, nfiles, unlink_image, NULL);
		goto out;
	}
	empty = 0;
	each_image(dir, stems, nfiles, count_empty, &empty);
	if (empty) {
		each_image(dir, stems, nfiles, unlink_image, NULL);
		goto out;
	}
	report(fmt, dir, stems, nfiles, pts, npts);
	ret = FL_EXIT_OK;
out:
	if (gp)
		fclose(gp);
	free(stems);
	free(ncpus);
	free(nseg);
	free(has);
	free(pts);
	return ret;
}
