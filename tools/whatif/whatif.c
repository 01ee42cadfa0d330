// SPDX-License-Identifier: GPL-2.0
/*
 * A recording replayed under many policies, and its Pareto frontier
 * (see whatif.h).
 */
#include <math.h>
#include <stdlib.h>

#include "analyze.h"
#include "cli.h"
#include "metrics.h"
#include "whatif.h"

double fl_whatif_cost_of(const struct fa_segment *f, enum fl_whatif_cost cost)
{
	u64 n = 0;
	int d;

	switch (cost) {
	case FL_COST_SWITCHES:
		return (double)f->switches;
	case FL_COST_XNODE:
		/* unknown (a CPU no cpu_topology placed) as report's: NaN */
		return f->xnode_unknown ? NAN : (double)f->xnode;
	case FL_COST_TRANSFERS:
		for (d = 0; d < FA_COH_NR; d++)
			n += f->coh[d];
		return (double)n;
	case FL_COST_MODELED:
		return fl_coh_cost(f);
	case FL_COST_WRITES:
		break;
	}
	return (double)f->writes;
}

const char *fl_whatif_cost_name(enum fl_whatif_cost cost)
{
	switch (cost) {
	case FL_COST_SWITCHES:
		return "switches";
	case FL_COST_XNODE:
		return "xnode";
	case FL_COST_TRANSFERS:
		return "transfers";
	case FL_COST_MODELED:
		return "modeled";
	case FL_COST_WRITES:
		break;
	}
	return "writes";
}

const char *fl_whatif_cost_label(enum fl_whatif_cost cost)
{
	static char buf[128];

	switch (cost) {
	case FL_COST_SWITCHES:
		return "writer switches (n)";
	case FL_COST_XNODE:
		return "cross-node writer switches (n)";
	case FL_COST_TRANSFERS:
		return "modeled line transfers (n)";
	case FL_COST_MODELED:
		snprintf(buf, sizeof(buf), "modeled cost on %s (ns/s)", fl_machine()->name);
		return buf;
	case FL_COST_WRITES:
		break;
	}
	return "writes (n)";
}

double fl_whatif_error_of(const struct fa_segment *f, enum fl_whatif_error error)
{
	if (error == FL_ERROR_SHARES)
		return fl_shares_mean(&f->shares);
	return fa_err_mean_abs(&f->err);
}

const char *fl_whatif_error_name(enum fl_whatif_error error)
{
	return error == FL_ERROR_SHARES ? "shares" : "abs";
}

const char *fl_whatif_error_label(enum fl_whatif_error error)
{
	return error == FL_ERROR_SHARES ? "time-weighted mean shares error (% of tg->shares)" :
					  "time-weighted mean |E| (load)";
}

static bool is_recorded(const struct fa_replay_result *x)
{
	return x->policy.id == FA_REPLAY_RECORDED;
}

/*
 * No other replayed policy has both a lower or equal cost and error, one
 * lower; a policy without the error (NaN) is on no frontier.
 */
static void mark_frontier(struct fl_whatif *w, enum fl_whatif_cost cost)
{
	u32 n = fa_replay_count(w->r), i, j;

	for (i = 0; i < n; i++) {
		const struct fa_replay_result *a = fa_replay_result(w->r, i);
		double ca = fl_whatif_cost_of(&a->fig, cost);
		double ea = fl_whatif_error_of(&a->fig, w->error);

		w->front[i] = !is_recorded(a) && !isnan(ea) && !isnan(ca);
		for (j = 0; j < n && w->front[i]; j++) {
			const struct fa_replay_result *b = fa_replay_result(w->r, j);
			double cb = fl_whatif_cost_of(&b->fig, cost);
			double eb = fl_whatif_error_of(&b->fig, w->error);

			if (j != i && !is_recorded(b) && !isnan(eb) && !isnan(cb) &&
			    cb <= ca && eb <= ea &&
			    (cb < ca || eb < ea))
				w->front[i] = false;
		}
	}
}

int fl_whatif_run(struct fl_whatif *w, const char *path,
		  const struct fl_policy_list *l, enum fl_whatif_cost cost,
		  enum fl_whatif_error error, bool rel)
{
	struct fa_engine_cfg cfg = { 0 };
	u64 ew, rw;
	u32 i;

	w->e = NULL;
	w->rel = rel;
	w->error = error;
	w->front = calloc(l->n ? l->n : 1, sizeof(*w->front));
	w->layouts = false;
	for (i = 0; i < l->n; i++)
		w->layouts |= l->named[i];
	w->r = fa_replay_new_layouts(l->p, l->lay, l->n, rel ? FA_REPLAY_REL : 0);
	if (w->r && w->cont_window_ns)
		fa_replay_set_contention(w->r, w->cont_window_ns, fl_machine()->ns,
					 w->cont_cpus);
	cfg.replay = w->r;
	/* whatif prints the replay's figures only, not the recording's */
	cfg.replay_only = true;
	cfg.coh_miss = fl_shared_miss();
	if (w->r && w->front)
		w->e = fa_engine_new(&cfg);
	if (!w->e) {
		fl_error("out of memory");
		return -1;
	}
	if (getenv("FAIRLAB_PROFILE"))
		fprintf(stderr, "fairlab profile: the replay of %u policies on %d thread%s\n",
			l->n, fa_replay_threads(w->r),
			fa_replay_threads(w->r) > 1 ? "s" : "");
	if (fl_analyze(path, w->e))
		return -1;
	if (getenv("FAIRLAB_PROFILE") && fa_replay_ringed(w->r, &ew, &rw)) {
		fprintf(stderr, "fairlab profile: every policy on a replay thread fed through a ring: the engine's thread waited %.3f s for it, the replay thread %.3f s for records (wall)\n",
			ew / 1e9, rw / 1e9);
	} else if (getenv("FAIRLAB_PROFILE") && fa_replay_threads(w->r) > 1) {
		u64 one, two;
		int asked = fa_replay_batches(w->r, &one, &two);

		fprintf(stderr, "fairlab profile: full replay batches: %llu on both threads, %llu on one (%s)\n",
			(unsigned long long)two,
			(unsigned long long)one,
			asked ? "FAIRLAB_THREADS asked for both" : "the faster way, tried as it went");
	}
	mark_frontier(w, cost);
	return 0;
}

void fl_whatif_free(struct fl_whatif *w)
{
	fa_engine_free(w->e);
	fa_replay_free(w->r);
	free(w->front);
	w->e = NULL;
	w->r = NULL;
	w->front = NULL;
}

static const struct fl_whatif *sort_w;
static enum fl_whatif_cost sort_cost;

static int by_cost(const void *a, const void *b)
{
	const struct fa_replay_result *x = fa_replay_result(sort_w->r, *(const u32 *)a);
	const struct fa_replay_result *y = fa_replay_result(sort_w->r, *(const u32 *)b);
	double cx = fl_whatif_cost_of(&x->fig, sort_cost);
	double cy = fl_whatif_cost_of(&y->fig, sort_cost);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return *(const u32 *)a < *(const u32 *)b ? -1 : 1;
}

u32 fl_whatif_frontier_order(const struct fl_whatif *w, enum fl_whatif_cost cost,
			     u32 *idx)
{
	u32 n = fa_replay_count(w->r), i, k = 0;

	for (i = 0; i < n; i++)
		if (w->front[i])
			idx[k++] = i;
	sort_w = w;
	sort_cost = cost;
	qsort(idx, k, sizeof(*idx), by_cost);
	return k;
}
