// SPDX-License-Identifier: GPL-2.0
/*
 * The tables of one report segment, in the style of perf c2c: a summary,
 * then task groups ranked by writer switches (the cacheline transfers),
 * per-CPU, per-site and per-policy breakdowns and the error histograms
 * (|E|, and the shares error when the recording has tg_read records).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "group_path.h"
#include "metrics.h"
#include "report.h"

const char *const fl_report_tables[] = {
	"summary", "groups", "cpus", "sites", "tg_policies", "idlest", "hist",
	"shares_hist", "audit_windows", NULL,
};

/* ---- task groups ---------------------------------------------------- */

static const struct fl_col group_cols[] = {
	{ "group", "group", FL_STR, 0, 20 },
	{ "id", "id", FL_U64, 0, 0 },
	{ "attempts_n", "attempts(n)", FL_U64, 0, 0 },
	{ "writes_n", "writes(n)", FL_U64, 0, 0 },
	{ "skip_pct", "skip(%)", FL_DBL, 1, 0 },
	{ "writes_per_s", "writes(1/s)", FL_DBL, 1, 0 },
	{ "switches_n", "switches(n)", FL_U64, 0, 0 },
	{ "xnode_switches_n", "xnode(n)", FL_U64, 0, 0 },
	{ "reads_n", "reads(n)", FL_U64, 0, 0 },
	{ "shares_err_max_pct", "sh.max(%tgs)", FL_DBL, 3, 0 },
	{ "shares_err_mean_pct", "sh.mean(%tgs)", FL_DBL, 3, 0 },
	{ "shares_err_p50_pct", "sh.p50(%tgs)", FL_DBL, 3, 0 },
	{ "shares_err_p99_pct", "sh.p99(%tgs)", FL_DBL, 3, 0 },
	{ "shares_err_rel_max_pct", "sh.rel.max(%ideal)", FL_DBL, 2, 0 },
	{ "shares_err_rel_mean_pct", "sh.rel.mean(%ideal)", FL_DBL, 2, 0 },
	{ "shares_err_rel_p99_pct", "sh.rel.p99(%ideal)", FL_DBL, 2, 0 },
	{ "err_max_load", "|E|max(load)", FL_U64, 0, 0 },
	{ "err_mean_load", "|E|mean(load)", FL_DBL, 1, 0 },
	{ "err_p99_load", "|E|p99(load)", FL_U64, 0, 0 },
	{ "err_rel_mean_pct", "rel.mean(%)", FL_DBL, 2, 0 },
	{ "err_rel_p99_pct", "rel.p99(%)", FL_DBL, 2, 0 },
	{ "gap_load", "gap(load)", FL_S64, 0, 0 },
	{ "contrib_jumps_n", "missed(n)", FL_U64, 0, 0 },
};
static const struct fl_table group_table =
	FL_TABLE("groups", "Task groups, ranked by writer switches (cacheline transfers of tg->load_avg)",
		 group_cols);

static const struct fa_segment *sort_seg;

/* Most writer switches first, then most writes, then first seen. */
static int by_contention(const void *a, const void *b)
{
	const struct fa_tg_seg *x = &sort_seg->tgs[*(const u32 *)a];
	const struct fa_tg_seg *y = &sort_seg->tgs[*(const u32 *)b];

	if (x->switches != y->switches)
		return x->switches > y->switches ? -1 : 1;
	if (x->writes != y->writes)
		return x->writes > y->writes ? -1 : 1;
	return *(const u32 *)a < *(const u32 *)b ? -1 : 1;
}

static void emit_groups(struct fl_report *r, struct fl_emit *em,
			const struct fa_segment *s)
{
	struct fl_val v[FL_NCOLS(group_cols)];
	u32 *order = malloc((s->nr_tgs + 1) * sizeof(*order));
	u32 n = 0, i, shown;
	char name[256];

	if (!order)
		return;
	for (i = 0; i < s->nr_tgs; i++)
		if (fa_segment_tg_active(s, i) && fa_engine_tg(r->e, i))
			order[n++] = i;
	sort_seg = s;
	qsort(order, n, sizeof(*order), by_contention);
	shown = r->fmt == FL_FMT_TEXT && r->top > 0 && (u32)r->top < n ? (u32)r->top : n;
	em->t = &group_table;
	fl_table_begin(em);
	for (i = 0; i < shown; i++) {
		const struct fa_tg_seg *t = &s->tgs[order[i]];
		const struct fa_tg *g = fa_engine_tg(r->e, order[i]);
		int k = 0;

		v[k++] = fl_v_str(fl_group_path(r->e, g, name, sizeof(name)));
		v[k++] = fl_v_u64(g->id);
		v[k++] = fl_v_u64(t->attempts);
		v[k++] = fl_v_u64(t->writes);
		v[k++] = fl_v_dbl(fl_pct(t->attempts - t->writes, t->attempts));
		v[k++] = fl_v_dbl(fa_segment_rate(s, t->writes));
		v[k++] = fl_v_u64(t->switches);
		v[k++] = t->xnode_unknown ? fl_v_none() : fl_v_u64(t->xnode);
		v[k++] = fl_v_u64(t->reads);
		v[k++] = fl_v_dbl(t->reads_tracked ? 100.0 * t->shares.max_bnd : NAN);
		v[k++] = fl_v_dbl(fl_shares_mean(&t->shares));
		v[k++] = fl_v_dbl(fl_shares_p(&t->shares, 0.50));
		v[k++] = fl_v_dbl(fl_shares_p(&t->shares, 0.99));
		v[k++] = fl_v_dbl(t->reads_tracked ? 100.0 * t->shares.max_rel : NAN);
		v[k++] = fl_v_dbl(fl_shares_rel_mean(&t->shares));
		v[k++] = fl_v_dbl(fl_shares_rel_p(&t->shares, 0.99));
		v[k++] = fl_v_u64(t->err.max_abs);
		v[k++] = fl_v_dbl(fa_err_mean_abs(&t->err));
		v[k++] = fl_v_u64(fa_err_p_abs(&t->err, 0.99));
		v[k++] = fl_v_dbl(t->err.rel_time_ns ? 100.0 * fa_err_mean_rel(&t->err) : NAN);
		v[k++] = fl_v_dbl(t->err.rel_time_ns ? 100.0 * fa_err_p_rel(&t->err, 0.99) : NAN);
		v[k++] = fl_v_s64(t->gap);
		v[k++] = fl_v_u64(t->contrib_jumps);
		fl_table_row(em, v);
	}
	fl_table_end(em);
	if (shown < n)
		fprintf(r->f, "   ... %u more groups (--top=0 shows all)\n", n - shown);
	free(order);
}

/* ---- CPUs ------------------------------------------------------------ */

static const struct fl_col cpu_cols[] = {
	{ "cpu", "cpu", FL_U64, 0, 4 },
	{ "node", "node", FL_S64, 0, 4 },
	{ "attempts_n", "attempts(n)", FL_U64, 0, 0 },
	{ "writes_n", "writes(n)", FL_U64, 0, 0 },
	{ "writes_per_s", "writes(1/s)", FL_DBL, 1, 0 },
	{ "switches_in_n", "switch_in(n)", FL_U64, 0, 0 },
	{ "xnode_in_n", "xnode_in(n)", FL_U64, 0, 0 },
	{ "remote_n", "remote(n)", FL_U64, 0, 0 },
	{ "idlest_n", "idlest(n)", FL_U64, 0, 0 },
};
static const struct fl_table cpu_table =
	FL_TABLE("cpus", "CPUs (executing): switch_in = writes that pulled the line from another CPU, remote = attempts on another CPU's cfs_rq",
		 cpu_cols);

static void emit_cpus(struct fl_report *r, struct fl_emit *em,
		      const struct fa_segment *s)
{
	struct fl_val v[FL_NCOLS(cpu_cols)];
	int node;
	u32 i;

	em->t = &cpu_table;
	fl_table_begin(em);
	for (i = 0; i < s->nr_cpus; i++) {
		const struct fa_cpu_seg *c = &s->cpus[i];
		int k = 0;

		if (!c->attempts && !c->idlest)
			continue;
		v[k++] = fl_v_u64(i);
		node = fa_engine_cpu_node(r->e, (s32)i);
		v[k++] = node < 0 ? fl_v_none() : fl_v_s64(node);
		v[k++] = fl_v_u64(c->attempts);
		v[k++] = fl_v_u64(c->writes);
		v[k++] = fl_v_dbl(fa_segment_rate(s, c->writes));
		v[k++] = fl_v_u64(c->switches_in);
		v[k++] = c->xnode_unknown_in ? fl_v_none() : fl_v_u64(c->xnode_in);
		v[k++] = fl_v_u64(c->remote);
		v[k++] = fl_v_u64(c->idlest);
		fl_table_row(em, v);
	}
	fl_table_end(em);
}

/* ---- sites ----------------------------------------------------------- */

static const struct fl_col site_cols[] = {
	{ "site", "site", FL_STR, 0, 24 },
	{ "attempts_n", "attempts(n)", FL_U64, 0, 0 },
	{ "attempts_pct", "share(%)", FL_DBL, 1, 0 },
	{ "writes_n", "writes(n)", FL_U64, 0, 0 },
	{ "skip_pct", "skip(%)", FL_DBL, 1, 0 },
	{ "writes_per_s", "writes(1/s)", FL_DBL, 1, 0 },
};
static const struct fl_table site_table =
	FL_TABLE("sites", "Call sites (the replaced kernel path of each attempt)",
		 site_cols);

static void emit_sites(struct fl_emit *em, const struct fa_segment *s)
{
	struct fl_val v[FL_NCOLS(site_cols)];
	char name[32];
	u32 i;

	em->t = &site_table;
	fl_table_begin(em);
	for (i = 0; i < FA_SITES; i++) {
		const struct fa_site_seg *c = &s->sites[i];
		int k = 0;

		if (!c->attempts)
			continue;
		v[k++] = fl_v_str(i < FL_NR_SITES ? fa_site_label(i, name, sizeof(name)) : "other");
		v[k++] = fl_v_u64(c->attempts);
		v[k++] = fl_v_dbl(fl_pct(c->attempts, s->attempts));
		v[k++] = fl_v_u64(c->writes);
		v[k++] = fl_v_dbl(fl_pct(c->attempts - c->writes, c->attempts));
		v[k++] = fl_v_dbl(fa_segment_rate(s, c->writes));
		fl_table_row(em, v);
	}
	fl_table_end(em);
}

/* ---- policies -------------------------------------------------------- */

static const struct fl_col tgpol_cols[] = {
	{ "policy", "policy", FL_STR, 0, 12 },
	{ "attempts_n", "attempts(n)", FL_U64, 0, 0 },
	{ "attempts_pct", "share(%)", FL_DBL, 1, 0 },
};
static const struct fl_table tgpol_table =
	FL_TABLE("tg_policies", "tg_update records per policy id in the records",
		 tgpol_cols);

static void emit_tg_policies(struct fl_emit *em, const struct fa_segment *s)
{
	struct fl_val v[3];
	u32 i;

	em->t = &tgpol_table;
	fl_table_begin(em);
	for (i = 0; i < FA_TG_POLICIES; i++) {
		if (!s->policy_attempts[i])
			continue;
		v[0] = fl_v_str(i < FL_TG_NR_POLICIES ? fl_tg_policy_names[i] : "other");
		v[1] = fl_v_u64(s->policy_attempts[i]);
		v[2] = fl_v_dbl(fl_pct(s->policy_attempts[i], s->attempts));
		fl_table_row(em, v);
	}
	fl_table_end(em);
}

static const struct fl_col idlest_cols[] = {
	{ "policy", "policy", FL_STR, 0, 12 },
	{ "decisions_n", "decisions(n)", FL_U64, 0, 0 },
	{ "picked_n", "picked(n)", FL_U64, 0, 0 },
	{ "kept_n", "kept(n)", FL_U64, 0, 0 },
	{ "picked_pct", "picked(%)", FL_DBL, 1, 0 },
	{ "decisions_per_s", "decisions(1/s)", FL_DBL, 1, 0 },
	{ "mismatch_n", "mismatch(n)", FL_U64, 0, 0 },
};
static const struct fl_table idlest_table =
	FL_TABLE("idlest", "update_pick_idlest decisions per policy and verdict (mismatch: policy.c decides otherwise)",
		 idlest_cols);

static void emit_idlest(struct fl_emit *em, const struct fa_segment *s)
{
	struct fl_val v[FL_NCOLS(idlest_cols)];
	char name[32];
	u32 i;

	em->t = &idlest_table;
	fl_table_begin(em);
	for (i = 0; i < FA_IDLEST_POLICIES; i++) {
		const struct fa_idlest_seg *d = &s->idlest[i];
		int k = 0;

		if (!d->decisions)
			continue;
		v[k++] = fl_v_str(i < FL_IDLEST_NR_POLICIES ?
				  fa_idlest_policy_label(i, name, sizeof(name)) : "other");
		v[k++] = fl_v_u64(d->decisions);
		v[k++] = fl_v_u64(d->picked);
		v[k++] = fl_v_u64(d->decisions - d->picked);
		v[k++] = fl_v_dbl(fl_pct(d->picked, d->decisions));
		v[k++] = fl_v_dbl(fa_segment_rate(s, d->decisions));
		v[k++] = fl_v_u64(d->mismatch);
		fl_table_row(em, v);
	}
	fl_table_end(em);
}

/* ---- error histogram -------------------------------------------------- */

static const struct fl_col hist_cols[] = {
	{ "from_load", "|E|>=(load)", FL_U64, 0, 0 },
	{ "to_load", "|E|<(load)", FL_U64, 0, 0 },
	{ "time_s", "time(s)", FL_DBL, 6, 12 },
	{ "time_pct", "time(%)", FL_DBL, 2, 0 },
	{ "cum_pct", "cum(%)", FL_DBL, 2, 0 },
	{ "bar", "", FL_STR, 0, 40 },
};
static const struct fl_table hist_table =
	FL_TABLE("hist", "|E| log2 histogram, time-weighted over all groups (group-seconds)",
		 hist_cols);
/* CSV and JSON carry no bar column. */
static const struct fl_table hist_table_data = {
	"hist", "", FL_NCOLS(hist_cols) - 1, hist_cols,
};

/*
 * The octave rows of @h (from the first to the last non-empty octave):
 * @edges fills the two edge columns of octave k, the rest is shared.
 */
static void emit_octave_rows(struct fl_emit *em, const struct fa_hist *h,
			     void (*edges)(int k, struct fl_val *v))
{
	struct fl_val v[6];
	u64 oct[FA_HIST_OCTAVES], cum = 0, total = h->total;
	char bar[41];
	int lo = -1, hi = -1, k, n;

	fa_hist_octaves(h, oct);
	for (k = 0; k < FA_HIST_OCTAVES; k++) {
		if (oct[k] && lo < 0)
			lo = k;
		if (oct[k])
			hi = k;
	}
	fl_table_begin(em);
	for (k = lo; lo >= 0 && k <= hi; k++) {
		cum += oct[k];
		n = (int)lround(40.0 * (double)oct[k] / (double)total);
		n = n < 0 ? 0 : n > 40 ? 40 : n;	/* saturated weights */
		memset(bar, '#', (size_t)n);
		bar[n] = '\0';
		edges(k, v);
		v[2] = fl_v_dbl((double)oct[k] / 1e9);
		v[3] = fl_v_dbl(fl_pct(oct[k], total));
		v[4] = fl_v_dbl(fl_pct(cum, total));
		v[5] = fl_v_str(bar);
		fl_table_row(em, v);
	}
	fl_table_end(em);
}

/* Octave k holds [2^(k-1), 2^k) (k = 0: the value 0), in load units. */
static void load_edges(int k, struct fl_val *v)
{
	v[0] = fl_v_u64(k ? 1ull << (k - 1) : 0);
	v[1] = fl_v_u64(k < 64 ? 1ull << k : UINT64_MAX);
}

static void emit_hist(struct fl_report *r, struct fl_emit *em,
		      const struct fa_segment *s)
{
	em->t = r->fmt == FL_FMT_TEXT ? &hist_table : &hist_table_data;
	emit_octave_rows(em, &s->err.abs, load_edges);
}

/* ---- shares error histogram ------------------------------------------- */

static const struct fl_col shist_cols[] = {
	{ "from_pct", "err>=(%tgs)", FL_DBL, 4, 0 },
	{ "to_pct", "err<(%tgs)", FL_DBL, 4, 0 },
	{ "time_s", "time(s)", FL_DBL, 6, 12 },
	{ "time_pct", "time(%)", FL_DBL, 2, 0 },
	{ "cum_pct", "cum(%)", FL_DBL, 2, 0 },
	{ "bar", "", FL_STR, 0, 40 },
};
static const struct fl_table shist_table =
	FL_TABLE("shares_hist", "Shares error |given - ideal|/tg->shares (%tgs) log2 histogram, time-weighted over all cfs_rqs of all groups (cfs_rq-seconds)",
		 shist_cols);
static const struct fl_table shist_table_data = {
	"shares_hist", "", FL_NCOLS(shist_cols) - 1, shist_cols,
};

/* The bounded histogram counts parts per million: edges in percent. */
static void pct_edges(int k, struct fl_val *v)
{
	double ppm_hi = k < 64 ? (double)(1ull << k) : 18446744073709551616.0;

	v[0] = fl_v_dbl(k ? (double)(1ull << (k - 1)) / FA_REL_SCALE * 100.0 : 0.0);
	v[1] = fl_v_dbl(ppm_hi / FA_REL_SCALE * 100.0);
}

static void emit_shares_hist(struct fl_report *r, struct fl_emit *em,
			     const struct fa_segment *s)
{
	if (r->fmt == FL_FMT_TEXT && !s->reads)
		return;
	em->t = r->fmt == FL_FMT_TEXT ? &shist_table : &shist_table_data;
	emit_octave_rows(em, &s->shares.bnd, pct_edges);
}

/* ---- audit windows ----------------------------------------------------- */

static const struct fl_col win_cols[] = {
	{ "group", "group", FL_STR, 0, 20 },
	{ "id", "id", FL_U64, 0, 0 },
	{ "from_seq", "from_seq", FL_U64, 0, 0 },
	{ "to_seq", "to_seq", FL_U64, 0, 0 },
	{ "from_s", "from(s)", FL_DBL, 6, 12 },
	{ "to_s", "to(s)", FL_DBL, 6, 12 },
	{ "tla_delta_load", "d_tla(load)", FL_S64, 0, 0 },
	{ "written_load", "written(load)", FL_S64, 0, 0 },
	{ "writes_n", "writes(n)", FL_U64, 0, 0 },
	{ "diff_load", "diff(load)", FL_S64, 0, 0 },
	{ "verdict", "verdict", FL_STR, 0, 8 },
	{ "placed_by", "placed_by", FL_STR, 0, 9 },
};
static const struct fl_table win_table =
	FL_TABLE("audit_windows", "Audit windows: tg->load_avg moved (d_tla) between consecutive audits of a group, against the sum of the traced written deltas between their snapshots",
		 win_cols);

void fl_report_keep_window(struct fl_report *r, const struct fa_audit_window *w)
{
	struct fa_audit_window *p;

	if (r->nwins == r->capwins) {
		size_t cap = r->capwins ? r->capwins * 2 : 64;

		p = realloc(r->wins, cap * sizeof(*p));
		if (!p) {
			r->wins_oom = true;
			return;
		}
		r->wins = p;
		r->capwins = cap;
	}
	r->wins[r->nwins++] = *w;
}

void fl_report_audit_windows(struct fl_report *r)
{
	static const char *const lead_keys[] = { "file" };
	const char *lead_vals[1] = { r->path };
	struct fl_val v[FL_NCOLS(win_cols)];
	struct fl_emit em = {
		.fmt = r->fmt, .f = r->f, .json = &r->json, .t = &win_table,
		.nlead = 1, .lead_keys = lead_keys, .lead_vals = lead_vals,
		.csv_header = true,
	};
	char name[256];
	size_t i;

	if (r->fmt == FL_FMT_CSV && strcmp(r->csv_table, "audit_windows"))
		return;
	if (r->fmt == FL_FMT_TEXT && !r->nwins)
		return;
	fl_table_begin(&em);
	for (i = 0; i < r->nwins; i++) {
		const struct fa_audit_window *w = &r->wins[i];
		const struct fa_tg *g = fa_engine_tg_by_id(r->e, w->tg);
		s64 d = (s64)((u64)w->tla_to - (u64)w->tla_from);
		int k = 0;

		v[k++] = fl_v_str(g ? fl_group_path(r->e, g, name, sizeof(name)) : "?");
		v[k++] = fl_v_u64(w->tg);
		v[k++] = fl_v_u64(w->seq_from);
		v[k++] = fl_v_u64(w->seq_to);
		v[k++] = fl_v_dbl((double)w->t_from / 1e9);
		v[k++] = fl_v_dbl((double)w->t_to / 1e9);
		v[k++] = fl_v_s64(d);
		v[k++] = fl_v_s64(w->written);
		v[k++] = fl_v_u64(w->writes);
		v[k++] = fl_v_s64((s64)((u64)d - (u64)w->written));
		v[k++] = fl_v_str(d == w->written ? "equal" :
				  w->unpatch ? "unpatch" : "MISMATCH");
		v[k++] = fl_v_str(w->exact ? "snap_ns" : "record");
		fl_table_row(&em, v);
	}
	fl_table_end(&em);
}

/* ---- summary ----------------------------------------------------------- */

/* Records of a split tg_layout (fa_split.c): only then the layout's figures. */
static bool split_seen(const struct fa_segment *s)
{
	return s->split_writes || s->split_reads || s->split_unlabelled;
}

/* One "label  count" line of the text summary's counts. */
static void count_row(struct fl_report *r, const char *label, u64 v)
{
	fprintf(r->f, "    %-48s %16llu\n", label, (unsigned long long)v);
}

static void emit_summary_text(struct fl_report *r, const struct fa_segment *s)
{
	int i;

	fprintf(r->f, "\n  Summary\n");
	for (i = 0; i < fl_nr_metrics; i++) {
		const struct fl_metric *m = &fl_metrics[i];
		char label[96];
		double x = m->get(s);

		snprintf(label, sizeof(label), "%s (%s)", m->label, m->unit);
		if (isnan(x))
			fprintf(r->f, "    %-48s %16s\n", label, "unknown");
		else if (m->prec < 0)
			fprintf(r->f, "    %-48s %16.0f\n", label, x);
		else
			fprintf(r->f, "    %-48s %16.*f\n", label, m->prec, x);
	}
	if (s->audits || s->audit_unchecked) {
		count_row(r, "tg_audit records (n)", s->audits);
		count_row(r, "... unchecked rows, skipped (n)", s->audit_unchecked);
		count_row(r, "audited |tg->load_avg - sum(load)| max (load)", s->audit_max_abs_err);
		count_row(r, "|tracked E - audited E| max (load)", s->audit_max_track);
		count_row(r, "audit windows (n)", s->audit_windows);
		count_row(r, "... where delta tg->load_avg != sum written (n)", s->audit_window_mismatch);
		count_row(r, "... the same, after an unpatch began (n)", s->audit_window_unpatch);
	}
	if (split_seen(s)) {
		count_row(r, "split layout: writes to a domain counter (n)", s->split_writes);
		count_row(r, "... reads of the sum of the domains (n)", s->split_reads);
		count_row(r, "... of which read cache hits (n)", s->split_hits);
		count_row(r, "... domain counter lines read (n)", s->split_lines);
		count_row(r, "domain records with no split layout known (n)", s->split_unlabelled);
	}
}

static void emit_summary_json(struct fl_report *r, const struct fa_segment *s)
{
	int i;

	fl_json_obj(&r->json, "metrics");
	for (i = 0; i < fl_nr_metrics; i++)
		fl_json_dbl(&r->json, fl_metrics[i].key, fl_metrics[i].get(s));
	fl_json_end(&r->json, '}');
	fl_json_obj(&r->json, "audit");
	fl_json_u64(&r->json, "records_n", s->audits);
	fl_json_u64(&r->json, "unchecked_n", s->audit_unchecked);
	fl_json_u64(&r->json, "violations_n", s->audit_violations);
	fl_json_u64(&r->json, "err_max_load", s->audit_max_abs_err);
	fl_json_u64(&r->json, "tracking_diff_max_load", s->audit_max_track);
	fl_json_u64(&r->json, "untracked_n", s->audit_untracked);
	fl_json_u64(&r->json, "windows_n", s->audit_windows);
	fl_json_u64(&r->json, "window_mismatch_n", s->audit_window_mismatch);
	fl_json_u64(&r->json, "window_unpatch_n", s->audit_window_unpatch);
	fl_json_u64(&r->json, "placed_at_record_n", s->audit_at_record);
	fl_json_u64(&r->json, "unplaced_n", s->audit_unplaced);
	fl_json_end(&r->json, '}');
	if (!split_seen(s))
		return;
	fl_json_obj(&r->json, "split_layout");
	fl_json_u64(&r->json, "writes_n", s->split_writes);
	fl_json_u64(&r->json, "reads_n", s->split_reads);
	fl_json_u64(&r->json, "cache_hits_n", s->split_hits);
	fl_json_u64(&r->json, "lines_read_n", s->split_lines);
	fl_json_u64(&r->json, "unlabelled_n", s->split_unlabelled);
	fl_json_end(&r->json, '}');
}

static void emit_summary_csv(struct fl_report *r, struct fl_emit *em,
			     const struct fa_segment *s)
{
	int i;

	if (em->csv_header) {
		for (i = 0; i < em->nlead; i++)
			fprintf(r->f, "%s,", em->lead_keys[i]);
		for (i = 0; i < fl_nr_metrics; i++)
			fprintf(r->f, "%s%s", i ? "," : "", fl_metrics[i].key);
		fputc('\n', r->f);
	}
	for (i = 0; i < em->nlead; i++) {
		fl_csv_field(r->f, em->lead_vals[i]);
		fputc(',', r->f);
	}
	for (i = 0; i < fl_nr_metrics; i++)
		fprintf(r->f, "%s%.*f", i ? "," : "",
			fl_metrics[i].prec <= 0 ? 0 : fl_metrics[i].prec + 3,
			fl_metrics[i].get(s));
	fputc('\n', r->f);
}

/* ---- a segment --------------------------------------------------------- */

static void policy_labels(const struct fa_segment *s, char *tg, char *id, size_t n)
{
	if (s->tg_policy_known)
		fa_tg_policy_label(&s->tg_policy, tg, n);
	else
		snprintf(tg, n, "%s", s->tg_policy_mixed ? "mixed" : "unknown");
	fa_layout_suffix(&s->layout, tg, n);
	if (s->idlest_policy_known)
		fa_idlest_policy_label(s->idlest_policy, id, n);
	else
		snprintf(id, n, "%s", s->idlest_policy_mixed ? "mixed" : "unknown");
}

static const char *const lead_keys[] = { "file", "segment", "tg_policy", "idlest_policy" };

void fl_report_segment(struct fl_report *r, const struct fa_segment *s)
{
	char tgp[48], idp[48], idx[16];
	const char *lead_vals[4];
	struct fl_emit em = {
		.fmt = r->fmt, .f = r->f, .json = &r->json,
		.nlead = 4, .lead_keys = lead_keys, .lead_vals = lead_vals,
	};
	const char *t = r->csv_table;

	policy_labels(s, tgp, idp, sizeof(tgp));
	snprintf(idx, sizeof(idx), s->index < 0 ? "all" : "%d", s->index);
	lead_vals[0] = r->path;
	lead_vals[1] = idx;
	lead_vals[2] = tgp;
	lead_vals[3] = idp;

	switch (r->fmt) {
	case FL_FMT_TEXT:
		if (s->index < 0)
			fprintf(r->f, "\n== Whole trace: tg policy %s, idlest policy %s ==\n",
				tgp, idp);
		else
			fprintf(r->f, "\n== Segment %d: tg policy %s, idlest policy %s ==\n",
				s->index, tgp, idp);
		fprintf(r->f, "   trace clock %.6f s to %.6f s (%.6f s)\n",
			(double)s->t_start / 1e9, (double)s->t_end / 1e9,
			fa_segment_seconds(s));
		emit_summary_text(r, s);
		break;
	case FL_FMT_JSON:
		fl_json_obj(&r->json, s->index < 0 ? "total" : NULL);
		if (s->index >= 0)
			fl_json_u64(&r->json, "index", (u64)s->index);
		fl_json_dbl(&r->json, "t_start_s", (double)s->t_start / 1e9);
		fl_json_dbl(&r->json, "t_end_s", (double)s->t_end / 1e9);
		fl_json_str(&r->json, "tg_policy", tgp);
		fl_json_str(&r->json, "idlest_policy", idp);
		emit_summary_json(r, s);
		break;
	case FL_FMT_CSV:
		if (!strcmp(t, "audit_windows"))
			return;		/* not per segment: fl_report_audit_windows() */
		em.csv_header = !r->csv_header_done;
		r->csv_header_done = true;
		if (!strcmp(t, "summary"))
			emit_summary_csv(r, &em, s);
		else if (!strcmp(t, "groups"))
			emit_groups(r, &em, s);
		else if (!strcmp(t, "cpus"))
			emit_cpus(r, &em, s);
		else if (!strcmp(t, "sites"))
			emit_sites(&em, s);
		else if (!strcmp(t, "tg_policies"))
			emit_tg_policies(&em, s);
		else if (!strcmp(t, "idlest"))
			emit_idlest(&em, s);
		else if (!strcmp(t, "hist"))
			emit_hist(r, &em, s);
		else if (!strcmp(t, "shares_hist"))
			emit_shares_hist(r, &em, s);
		return;
	}
	emit_groups(r, &em, s);
	emit_cpus(r, &em, s);
	emit_sites(&em, s);
	emit_tg_policies(&em, s);
	emit_idlest(&em, s);
	emit_hist(r, &em, s);
	emit_shares_hist(r, &em, s);
	if (r->fmt == FL_FMT_JSON)
		fl_json_end(&r->json, '}');
}
