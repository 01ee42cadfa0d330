/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recording replayed under a list of policies (analysis/fa_replay.h)
 * and the Pareto frontier of the results: shared by `fairlab whatif` and
 * `fairlab plot --whatif`.
 */
#ifndef FL_WHATIF_H
#define FL_WHATIF_H

#include "fa_engine.h"
#include "fa_replay.h"
#include "whatif_policies.h"

/* What the frontier minimises besides the time-weighted mean |E|. */
enum fl_whatif_cost {
	FL_COST_WRITES,		/* tg->load_avg writes */
	FL_COST_SWITCHES,	/* writer switches: modeled cacheline transfers */
	FL_COST_XNODE,		/* cross-node writer switches */
};

struct fl_whatif {
	struct fa_engine *e;	/* the recording as recorded (report's figures) */
	struct fa_replay *r;
	bool *front;		/* per policy: on the Pareto frontier */
	bool rel;		/* relative errors replayed */
};

/*
 * Reads @path once; 0, or -1 after printing why.  Warnings to stderr.
 * @rel: relative errors too (fa_replay_new()).
 */
int fl_whatif_run(struct fl_whatif *w, const char *path,
		  const struct fl_policy_list *l, enum fl_whatif_cost cost, bool rel);
void fl_whatif_free(struct fl_whatif *w);

double fl_whatif_cost_of(const struct fa_segment *f, enum fl_whatif_cost cost);
/* Column key and text unit of a cost. */
const char *fl_whatif_cost_name(enum fl_whatif_cost cost);

/*
 * Indices of the frontier's policies by increasing cost into @idx (room
 * for fa_replay_count()); returns how many.  "recorded" is never on it
 * (it repeats the recording's own policy).
 */
u32 fl_whatif_frontier_order(const struct fl_whatif *w, enum fl_whatif_cost cost,
			     u32 *idx);

#endif /* FL_WHATIF_H */
