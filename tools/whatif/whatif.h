/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recording replayed under a list of policies (analysis/fa_replay.h),
 * in one process or dealt out to several (whatif_shards.h), and the
 * Pareto frontier of the results: what `fairlab whatif` prints and plots
 * (cmd_whatif.c).
 */
#ifndef FL_WHATIF_H
#define FL_WHATIF_H

#include "fa_engine.h"
#include "fa_replay.h"
#include "whatif_policies.h"

/* The frontier's cost axis. */
enum fl_whatif_cost {
	FL_COST_WRITES,		/* tg->load_avg writes */
	FL_COST_SWITCHES,	/* writer switches (write-only, raw) */
	FL_COST_XNODE,		/* cross-node writer switches */
	FL_COST_TRANSFERS,	/* modeled line transfers, reads and writes (fa_coh.h) */
	FL_COST_MODELED,	/* their modeled cost on the headline machine (ns/s) */
};

/* The frontier's error axis: a time-weighted mean. */
enum fl_whatif_error {
	FL_ERROR_ABS,		/* |E| (load) */
	FL_ERROR_SHARES,	/* the shares error (%): needs tg_read records */
};

struct fl_shards;

struct fl_whatif {
	struct fa_engine *e;	/* the recording as recorded (report's figures) */
	struct fa_replay *r;	/* this process's share of the policies */
	/*
	 * Every policy's result, in the list's order: r's, or another
	 * process's (shards, whatif_shards.h) in sh's mapping.
	 */
	u32 n;
	const struct fa_replay_result **res;
	struct fl_shards *sh;
	u32 nshards;
	/* the processes asked for (--procs; 0 as 1); set before fl_whatif_run() */
	u32 procs;
	bool *front;		/* per policy: on the Pareto frontier */
	bool rel;		/* relative errors replayed */
	bool layouts;		/* layouts named (--layout, POLICY/LAYOUT): their columns */
	/* the contention term (--contention, fa_cont.h): 0 off; set before fl_whatif_run() */
	u64 cont_window_ns;
	u32 cont_cpus;		/* CPUs per node it extrapolates to */
	enum fl_whatif_error error;	/* the frontier's error axis */
};

/*
 * Reads @path once; 0, or -1 after printing why.  Warnings to stderr.
 * @rel: relative errors too (fa_replay_new()).
 */
int fl_whatif_run(struct fl_whatif *w, const char *path,
		  const struct fl_policy_list *l, enum fl_whatif_cost cost,
		  enum fl_whatif_error error, bool rel);
void fl_whatif_free(struct fl_whatif *w);

/* The policies replayed, and policy @i's result (the list's order). */
static inline u32 fl_whatif_count(const struct fl_whatif *w)
{
	return w->n;
}

static inline const struct fa_replay_result *
fl_whatif_result(const struct fl_whatif *w, u32 i)
{
	return w->res[i];
}

double fl_whatif_cost_of(const struct fa_segment *f, enum fl_whatif_cost cost);
/* --cost's word for a cost, and its axis label with the unit. */
const char *fl_whatif_cost_name(enum fl_whatif_cost cost);
const char *fl_whatif_cost_label(enum fl_whatif_cost cost);
/* The frontier's error of @f (NaN: unknown, e.g. no reads recorded). */
double fl_whatif_error_of(const struct fa_segment *f, enum fl_whatif_error error);
const char *fl_whatif_error_name(enum fl_whatif_error error);
const char *fl_whatif_error_label(enum fl_whatif_error error);

/*
 * Indices of the frontier's policies by increasing cost into @idx (room
 * for fa_replay_count()); returns how many.  "recorded" is never on it
 * (it repeats the recording's own policy).
 */
u32 fl_whatif_frontier_order(const struct fl_whatif *w, enum fl_whatif_cost cost,
			     u32 *idx);

#endif /* FL_WHATIF_H */
