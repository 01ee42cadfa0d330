// SPDX-License-Identifier: GPL-2.0
/*
 * Segment metrics (see metrics.h).  Error figures are over all task
 * groups merged: the time-weighted mean is per group (sum over groups of
 * the integral of |E|, divided by the sum of their observed times) and
 * p99 is the value 99% of that group-time stays at or below.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "metrics.h"

double fl_pct(u64 part, u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

#define RATE(name, field) \
	static double name(const struct fa_segment *s) \
	{ return fa_segment_rate(s, s->field); }
#define COUNT(name, field) \
	static double name(const struct fa_segment *s) \
	{ return (double)s->field; }

static double duration(const struct fa_segment *s)
{
	return fa_segment_seconds(s);
}

COUNT(records, records)
COUNT(attempts, attempts)
COUNT(writes, writes)
RATE(attempts_rate, attempts)
RATE(writes_rate, writes)
COUNT(switches, switches)
RATE(switches_rate, switches)

/*
 * Cross-node switches are unknown (NaN) when a switch involved a CPU no
 * cpu_topology record placed: 0 would claim there were none.
 */
static double xnode(const struct fa_segment *s)
{
	return s->xnode_unknown ? NAN : (double)s->xnode;
}

static double xnode_rate(const struct fa_segment *s)
{
	return s->xnode_unknown ? NAN : fa_segment_rate(s, s->xnode);
}
COUNT(replay_mismatch, replay_mismatch)
COUNT(foreign, foreign_policy)
COUNT(contrib_jumps, contrib_jumps)
COUNT(unpatch_jumps, unpatch_jumps)
COUNT(late, late)
COUNT(audit_violations, audit_violations)

static double skip_pct(const struct fa_segment *s)
{
	return fl_pct(s->attempts - s->writes, s->attempts);
}

static double switch_pct(const struct fa_segment *s)
{
	return fl_pct(s->switches, s->writes);
}

static double err_max(const struct fa_segment *s)
{
	return (double)s->err.max_abs;
}

static double err_mean(const struct fa_segment *s)
{
	return fa_err_mean_abs(&s->err);
}

static double err_p99(const struct fa_segment *s)
{
	return (double)fa_err_p_abs(&s->err, 0.99);
}

static double rel_max(const struct fa_segment *s)
{
	return 100.0 * s->err.max_rel;
}

static double rel_mean(const struct fa_segment *s)
{
	return 100.0 * fa_err_mean_rel(&s->err);
}

static double rel_p99(const struct fa_segment *s)
{
	return 100.0 * fa_err_p_rel(&s->err, 0.99);
}

/*
 * The shares error (analysis/fa_read.h), from tg_read records: unknown
 * (NaN) in a recording without reads, where 0 would claim no error.
 */
static double reads_n(const struct fa_segment *s)
{
	return s->reads ? (double)s->reads : NAN;
}

static double reads_rate(const struct fa_segment *s)
{
	return s->reads ? fa_segment_rate(s, s->reads) : NAN;
}

/*
 * Reads with a tracked sum(load) to compare with, among those that add
 * up (fa_read.h).
 */
static bool tracked(const struct fa_segment *s)
{
	return s->reads > s->read_untracked + s->read_mismatch;
}

double fl_shares_mean(const struct fa_err *e)
{
	return e->time_ns ? 100.0 * fa_err_mean_bnd(e) : NAN;
}

double fl_shares_p(const struct fa_err *e, double p)
{
	return e->time_ns ? 100.0 * fa_err_p_bnd(e, p) : NAN;
}

double fl_shares_rel_mean(const struct fa_err *e)
{
	return e->rel_time_ns ? 100.0 * fa_err_mean_rel(e) : NAN;
}

double fl_shares_rel_p(const struct fa_err *e, double p)
{
	return e->rel_time_ns ? 100.0 * fa_err_p_rel(e, p) : NAN;
}

/* The headline, bounded: |given - ideal| / tg->shares (fa_read.h). */
static double shares_bnd_max(const struct fa_segment *s)
{
	return tracked(s) ? 100.0 * s->shares.max_bnd : NAN;
}

static double shares_bnd_mean(const struct fa_segment *s)
{
	return fl_shares_mean(&s->shares);
}

static double shares_bnd_p50(const struct fa_segment *s)
{
	return fl_shares_p(&s->shares, 0.50);
}

static double shares_bnd_p99(const struct fa_segment *s)
{
	return fl_shares_p(&s->shares, 0.99);
}

static double shares_rel_max(const struct fa_segment *s)
{
	return tracked(s) ? 100.0 * s->shares.max_rel : NAN;
}

static double shares_rel_mean(const struct fa_segment *s)
{
	return fl_shares_rel_mean(&s->shares);
}

static double shares_rel_p99(const struct fa_segment *s)
{
	return fl_shares_rel_p(&s->shares, 0.99);
}

static double shares_max(const struct fa_segment *s)
{
	return tracked(s) ? (double)s->shares.max_abs : NAN;
}

/*
 * The coherence model (analysis/fa_coh.h), a lower bound: transfers of
 * the groups' tg->load_avg lines by distance, and their modeled cost on
 * each machine of fa_coh_machines[] (ns of transfer latency per second).
 */
static u64 coh_total(const struct fa_segment *s)
{
	u64 n = 0;
	int d;

	for (d = 0; d < FA_COH_NR; d++)
		n += s->coh[d];
	return n;
}

static double coh_n(const struct fa_segment *s)
{
	return (double)coh_total(s);
}

static double coh_rate(const struct fa_segment *s)
{
	return fa_segment_rate(s, coh_total(s));
}

static double coh_read_pct(const struct fa_segment *s)
{
	return fl_pct(s->coh_by_read, coh_total(s));
}

#define COH_DIST(name, d) \
	static double name(const struct fa_segment *s) \
	{ return fa_segment_rate(s, s->coh[d]); }
COH_DIST(coh_llc_rate, FA_COH_LLC)
COH_DIST(coh_node_rate, FA_COH_NODE)
COH_DIST(coh_xnode_rate, FA_COH_XNODE)
COH_DIST(coh_unknown_rate, FA_COH_UNKNOWN)

static double coh_cost(const struct fa_segment *s, int m)
{
	double sec = fa_segment_seconds(s);

	return sec > 0 ? fa_coh_cost_ns(&fa_coh_machines[m], s->coh) / sec : 0.0;
}

/*
 * The headline machine (--machine): its cost is coh_cost_ns_per_s, and
 * its name is in that metric's label.
 */
static int headline = FL_MACHINE_DEFAULT;
static char headline_label[96] = "modeled cost (--machine), 2-socket Sapphire Rapids";

int fl_machine_find(const char *key)
{
	int m;

	for (m = 0; m < fa_coh_nr_machines; m++)
		if (!strcmp(fa_coh_machines[m].key, key))
			return m;
	return -1;
}

int fl_machine_option(const char *arg)
{
	int m = fl_machine_find(arg);

	if (m < 0) {
		char keys[256] = "";
		size_t k = 0;

		for (m = 0; m < fa_coh_nr_machines && k < sizeof(keys); m++)
			k += (size_t)snprintf(keys + k, sizeof(keys) - k, "%s%s (%s)",
					      m ? ", " : "", fa_coh_machines[m].key,
					      fa_coh_machines[m].name);
		fl_error("--machine: '%s' is not one of %s", arg, keys);
		return -1;
	}
	fl_machine_set(m);
	return 0;
}

void fl_machine_set(int m)
{
	headline = m;
	snprintf(headline_label, sizeof(headline_label), "modeled cost (--machine), %s",
		 fa_coh_machines[m].name);
}

const struct fa_coh_machine *fl_machine(void)
{
	return &fa_coh_machines[headline];
}

/* --shared-miss: the coherence model's charge for a Shared miss (fa_coh.h). */
static enum fa_coh_miss shared_miss = FA_COH_MISS_FREE;

int fl_shared_miss_option(const char *arg)
{
	int m = fa_coh_miss_parse(arg);

	if (m < 0) {
		fl_error("--shared-miss: '%s' is not free or nearest", arg);
		return -1;
	}
	shared_miss = (enum fa_coh_miss)m;
	return 0;
}

enum fa_coh_miss fl_shared_miss(void)
{
	return shared_miss;
}

double fl_coh_cost(const struct fa_segment *s)
{
	return coh_cost(s, headline);
}

static double coh_cost_spr(const struct fa_segment *s)
{
	return coh_cost(s, 0);
}

static double coh_cost_milan(const struct fa_segment *s)
{
	return coh_cost(s, 1);
}

COUNT(read_mismatch, read_mismatch)
COUNT(read_gaps, read_gaps)

static double idlest_decisions(const struct fa_segment *s)
{
	u64 n = 0;
	int i;

	for (i = 0; i < FA_IDLEST_POLICIES; i++)
		n += s->idlest[i].decisions;
	return (double)n;
}

static double idlest_picked_pct(const struct fa_segment *s)
{
	u64 n = 0, p = 0;
	int i;

	for (i = 0; i < FA_IDLEST_POLICIES; i++) {
		n += s->idlest[i].decisions;
		p += s->idlest[i].picked;
	}
	return fl_pct(p, n);
}

static double idlest_mismatch(const struct fa_segment *s)
{
	u64 n = 0;
	int i;

	for (i = 0; i < FA_IDLEST_POLICIES; i++)
		n += s->idlest[i].mismatch;
	return (double)n;
}

static double groups(const struct fa_segment *s)
{
	u32 i, n = 0;

	for (i = 0; i < s->nr_tgs; i++)
		n += fa_segment_tg_active(s, i);
	return n;
}

const struct fl_metric fl_metrics[] = {
	{ "duration_s", "trace time", "s", 3, duration },
	{ "records_n", "fairlab records", "n", -1, records },
	{ "groups_n", "task groups", "n", -1, groups },
	{ "attempts_n", "tg_update attempts", "n", -1, attempts },
	{ "writes_n", "tg->load_avg writes", "n", -1, writes },
	{ "skip_pct", "skipped attempts", "%", 2, skip_pct },
	{ "attempts_per_s", "attempts", "1/s", 1, attempts_rate },
	{ "writes_per_s", "writes", "1/s", 1, writes_rate },
	{ "switches_n", "writer switches", "n", -1, switches },
	{ "switches_per_s", "writer switches", "1/s", 1, switches_rate },
	{ "switch_pct", "writes that switched writer", "%", 2, switch_pct },
	{ "xnode_switches_n", "cross-node switches", "n", -1, xnode },
	{ "xnode_switches_per_s", "cross-node switches", "1/s", 1, xnode_rate },
	{ "reads_n", "tg->load_avg reads", "n", -1, reads_n },
	{ "reads_per_s", "tg->load_avg reads", "1/s", 1, reads_rate },
	{ "shares_err_max_pct", "shares error |given - ideal|/tg->shares max", "% of tg->shares", 4, shares_bnd_max },
	{ "shares_err_mean_pct", "shares error time-weighted mean", "% of tg->shares", 4, shares_bnd_mean },
	{ "shares_err_p50_pct", "shares error time-weighted p50", "% of tg->shares", 4, shares_bnd_p50 },
	{ "shares_err_p99_pct", "shares error time-weighted p99", "% of tg->shares", 4, shares_bnd_p99 },
	{ "shares_err_rel_max_pct", "relative shares error |given - ideal|/ideal max", "% of ideal", 3, shares_rel_max },
	{ "shares_err_rel_mean_pct", "relative shares error time-weighted mean", "% of ideal", 3, shares_rel_mean },
	{ "shares_err_rel_p99_pct", "relative shares error time-weighted p99", "% of ideal", 3, shares_rel_p99 },
	{ "shares_err_max_weight", "|shares given - ideal| max", "weight", 0, shares_max },
	{ "coh_transfers_n", "modeled line transfers (lower bound)", "n", -1, coh_n },
	{ "coh_transfers_per_s", "modeled line transfers", "1/s", 1, coh_rate },
	{ "coh_by_read_pct", "modeled transfers caused by reads", "%", 2, coh_read_pct },
	{ "coh_llc_per_s", "modeled transfers, same LLC", "1/s", 1, coh_llc_rate },
	{ "coh_node_per_s", "modeled transfers, same node, other LLC", "1/s", 1, coh_node_rate },
	{ "coh_xnode_per_s", "modeled transfers, cross-node", "1/s", 1, coh_xnode_rate },
	{ "coh_unknown_per_s", "modeled transfers, CPU not placed", "1/s", 1, coh_unknown_rate },
	{ "coh_cost_ns_per_s", headline_label, "ns/s", 1, fl_coh_cost },
	{ "coh_cost_spr_ns_per_s", "modeled cost, 2-socket Sapphire Rapids", "ns/s", 1, coh_cost_spr },
	{ "coh_cost_milan_ns_per_s", "modeled cost, 2-socket EPYC Milan", "ns/s", 1, coh_cost_milan },
	{ "err_max_load", "|E| max", "load", 0, err_max },
	{ "err_mean_load", "|E| time-weighted mean", "load", 2, err_mean },
	{ "err_p99_load", "|E| time-weighted p99", "load", 0, err_p99 },
	{ "err_rel_max_pct", "|E|/sum(load) max", "%", 3, rel_max },
	{ "err_rel_mean_pct", "|E|/sum(load) time-weighted mean", "%", 3, rel_mean },
	{ "err_rel_p99_pct", "|E|/sum(load) time-weighted p99", "%", 3, rel_p99 },
	{ "idlest_decisions_n", "pick_idlest decisions", "n", -1, idlest_decisions },
	{ "idlest_picked_pct", "pick_idlest candidate picked", "%", 2, idlest_picked_pct },
	{ "idlest_mismatch_n", "pick_idlest verdicts policy.c disputes", "n", -1, idlest_mismatch },
	{ "replay_mismatch_n", "tg_update decisions policy.c disputes", "n", -1, replay_mismatch },
	{ "foreign_policy_n", "attempts under another policy", "n", -1, foreign },
	{ "contrib_jumps_n", "cfs_rq records missed (contrib jumps)", "n", -1, contrib_jumps },
	{ "unpatch_jumps_n", "contrib jumps after an unpatch began (untraced by design)", "n", -1, unpatch_jumps },
	{ "late_n", "records out of time order", "n", -1, late },
	{ "audit_violations_n", "audits with tg->load_avg != sum(contrib)", "n", -1, audit_violations },
	{ "read_mismatch_n", "reads that do not add up, left out of the shares error", "n", -1, read_mismatch },
	{ "read_gaps_n", "reads not recorded (gaps in nr)", "n", -1, read_gaps },
};

const int fl_nr_metrics = (int)(sizeof(fl_metrics) / sizeof(fl_metrics[0]));

int fl_metric_find(const char *key)
{
	int i;

	for (i = 0; i < fl_nr_metrics; i++)
		if (!strcmp(fl_metrics[i].key, key))
			return i;
	return -1;
}
