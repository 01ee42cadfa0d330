// SPDX-License-Identifier: GPL-2.0
/*
 * A recording replayed under many policies, and its Pareto frontier
 * (see whatif.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "analyze.h"
#include "cli.h"
#include "metrics.h"
#include "fa_forkjoin.h"
#include "whatif.h"
#include "whatif_shards.h"

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
	u32 n = fl_whatif_count(w), i, j;

	for (i = 0; i < n; i++) {
		const struct fa_replay_result *a = fl_whatif_result(w, i);
		double ca = fl_whatif_cost_of(&a->fig, cost);
		double ea = fl_whatif_error_of(&a->fig, w->error);

		w->front[i] = !is_recorded(a) && !isnan(ea) && !isnan(ca);
		for (j = 0; j < n && w->front[i]; j++) {
			const struct fa_replay_result *b = fl_whatif_result(w, j);
			double cb = fl_whatif_cost_of(&b->fig, cost);
			double eb = fl_whatif_error_of(&b->fig, w->error);

			if (j != i && !is_recorded(b) && !isnan(eb) && !isnan(cb) &&
			    cb <= ca && eb <= ea &&
			    (cb < ca || eb < ea))
				w->front[i] = false;
		}
	}
}

/* Shard @k of @nsh's policies (list indices k, k + nsh, ...) replayed from @path. */
static int replay(struct fl_whatif *w, const char *path,
		  const struct fl_policy_list *l, u32 k, u32 nsh)
{
	struct fa_engine_cfg cfg = { 0 };
	u32 m = fl_shard_size(l->n, k, nsh), i;
	struct fl_tg_policy *p = calloc(m ? m : 1, sizeof(*p));
	struct fa_layout *lay = calloc(m ? m : 1, sizeof(*lay));

	if (p && lay) {
		for (i = 0; i < m; i++) {
			p[i] = l->p[k + i * nsh];
			lay[i] = l->lay[k + i * nsh];
		}
		w->r = fa_replay_new_layouts(p, lay, m, w->rel ? FA_REPLAY_REL : 0);
	}
	free(p);
	free(lay);
	if (w->r && w->cont_window_ns)
		fa_replay_set_contention(w->r, w->cont_window_ns, fl_machine()->ns,
					 w->cont_cpus);
	cfg.replay = w->r;
	/* whatif prints the replay's figures only, not the recording's */
	cfg.replay_only = true;
	cfg.coh_miss = fl_shared_miss();
	if (w->r)
		w->e = fa_engine_new(&cfg);
	if (!w->e) {
		fl_error("out of memory");
		return -1;
	}
	if (getenv("FAIRLAB_PROFILE"))
		fprintf(stderr, "fairlab profile: the replay of %u policies on %d thread%s\n",
			m, fa_replay_threads(w->r),
			fa_replay_threads(w->r) > 1 ? "s" : "");
	return fl_analyze(path, w->e);
}

struct shard_job {
	struct fl_whatif *w;
	const char *path;
	const struct fl_policy_list *l;
};

/* In shard @k's process: its policies' results into @area, in their order. */
static int shard(u32 k, void *area, void *arg)
{
	const struct shard_job *j = arg;
	struct fa_replay_result *out = area;
	u32 i;

	if (replay(j->w, j->path, j->l, k, j->w->nshards))
		return -1;
	for (i = 0; i < fa_replay_count(j->w->r); i++) {
		out[i] = *fa_replay_result(j->w->r, i);
		/* a replay keeps no per-group or per-CPU figures (fa_replay.h) */
		out[i].fig.tgs = NULL;
		out[i].fig.cpus = NULL;
	}
	return 0;
}

static void profile_threads(const struct fl_whatif *w)
{
	u64 ew, rw;

	if (fa_replay_ringed(w->r, &ew, &rw)) {
		fprintf(stderr, "fairlab profile: every policy on a replay thread fed through a ring: the engine's thread waited %.3f s for it, the replay thread %.3f s for records (wall)\n",
			ew / 1e9, rw / 1e9);
	} else if (fa_replay_threads(w->r) > 1) {
		u64 one, two;
		int asked = fa_replay_batches(w->r, &one, &two);

		fprintf(stderr, "fairlab profile: full replay batches: %llu on both threads, %llu on one (%s)\n",
			(unsigned long long)two,
			(unsigned long long)one,
			asked ? "FAIRLAB_THREADS asked for both" : "the faster way, tried as it went");
	}
}

int fl_whatif_run(struct fl_whatif *w, const char *path,
		  const struct fl_policy_list *l, enum fl_whatif_cost cost,
		  enum fl_whatif_error error, bool rel)
{
	size_t bytes[FL_SHARDS_MAX] = { 0 };
	struct shard_job job = { w, path, l };
	u32 i, k;

	w->e = NULL;
	w->r = NULL;
	w->sh = NULL;
	w->rel = rel;
	w->error = error;
	w->n = l->n;
	w->front = calloc(l->n ? l->n : 1, sizeof(*w->front));
	w->res = calloc(l->n ? l->n : 1, sizeof(*w->res));
	w->layouts = false;
	for (i = 0; i < l->n; i++)
		w->layouts |= l->named[i];
	if (!w->front || !w->res) {
		fl_error("out of memory");
		return -1;
	}
	w->nshards = w->procs > l->n ? l->n : w->procs;
	if (!w->nshards)
		w->nshards = 1;
	if (w->nshards > 1) {
		for (k = 1; k < w->nshards; k++)
			bytes[k] = fl_shard_size(l->n, k, w->nshards) *
				   sizeof(struct fa_replay_result);
		/* each process counts on its share of the CPUs (fa_forkjoin.h) */
		fa_set_cpu_share(w->nshards);
		w->sh = fl_shards_start(w->nshards, bytes, shard, &job);
		if (!w->sh) {
			fl_warn("--procs=%u: the other processes could not start (%s): every policy in this one",
				w->nshards, strerror(errno));
			fa_set_cpu_share(1);
			w->nshards = 1;
		}
	}
	if (getenv("FAIRLAB_PROFILE") && w->nshards > 1)
		fprintf(stderr, "fairlab profile: the %u policies in %u processes, each reading the file: policies 1, %u, ... here\n",
			l->n, w->nshards, w->nshards + 1);
	if (replay(w, path, l, 0, w->nshards))
		return -1;	/* fl_whatif_free() stops the others */
	if (getenv("FAIRLAB_PROFILE"))
		profile_threads(w);
	if (w->sh && fl_shards_wait(w->sh))
		return -1;
	if (getenv("FAIRLAB_PROFILE") && w->sh) {
		struct rusage ru;

		if (!getrusage(RUSAGE_SELF, &ru))
			fprintf(stderr, "fairlab profile: peak RSS %.1f MB in this process, %.1f MB in all %u processes\n",
				ru.ru_maxrss / 1024.0,
				(ru.ru_maxrss + fl_shards_rss_kb(w->sh)) / 1024.0,
				w->nshards);
	}
	for (i = 0; i < l->n; i++) {
		k = i % w->nshards;
		w->res[i] = k ? (const struct fa_replay_result *)fl_shards_area(w->sh, k) +
				i / w->nshards :
				fa_replay_result(w->r, i / w->nshards);
	}
	mark_frontier(w, cost);
	return 0;
}

void fl_whatif_free(struct fl_whatif *w)
{
	fl_shards_free(w->sh);
	fa_engine_free(w->e);
	fa_replay_free(w->r);
	free(w->front);
	free(w->res);
	w->sh = NULL;
	w->e = NULL;
	w->r = NULL;
	w->front = NULL;
	w->res = NULL;
}

static const struct fl_whatif *sort_w;
static enum fl_whatif_cost sort_cost;

static int by_cost(const void *a, const void *b)
{
	const struct fa_replay_result *x = fl_whatif_result(sort_w, *(const u32 *)a);
	const struct fa_replay_result *y = fl_whatif_result(sort_w, *(const u32 *)b);
	double cx = fl_whatif_cost_of(&x->fig, sort_cost);
	double cy = fl_whatif_cost_of(&y->fig, sort_cost);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return *(const u32 *)a < *(const u32 *)b ? -1 : 1;
}

u32 fl_whatif_frontier_order(const struct fl_whatif *w, enum fl_whatif_cost cost,
			     u32 *idx)
{
	u32 n = fl_whatif_count(w), i, k = 0;

	for (i = 0; i < n; i++)
		if (w->front[i])
			idx[k++] = i;
	sort_w = w;
	sort_cost = cost;
	qsort(idx, k, sizeof(*idx), by_cost);
	return k;
}
