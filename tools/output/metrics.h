/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scalar figures of a segment (or of a whole trace), each with a key
 * that carries its unit (JSON/CSV), a label and a unit for text, shared
 * by `report` (summary), `compare` (one line each) and `plot` (Pareto).
 */
#ifndef FL_METRICS_H
#define FL_METRICS_H

#include "fa_stats.h"

struct fl_metric {
	const char *key;	/* e.g. "writes_per_s" */
	const char *label;	/* e.g. "writes" */
	const char *unit;	/* e.g. "1/s" */
	int prec;		/* decimals in text; -1: an integer count */
	double (*get)(const struct fa_segment *s);	/* NaN: unknown */
};

extern const struct fl_metric fl_metrics[];
extern const int fl_nr_metrics;

/* Index of the metric with @key, or -1. */
int fl_metric_find(const char *key);

/*
 * The machine whose modeled cost is the headline one (coh_cost_ns_per_s,
 * labelled with its name), an index of fa_coh_machines[] (fa_coh.h):
 * FL_MACHINE_DEFAULT (2-socket Sapphire Rapids) unless --machine says
 * otherwise.
 */
#define FL_MACHINE_DEFAULT 0
#define FL_MACHINE_HELP \
"  --machine=M    the machine whose modeled cost (ns of transfer latency per\n" \
"                 second) is the headline coh_cost_ns_per_s: spr (2-socket\n" \
"                 Sapphire Rapids, 59/59/138 ns; the default) or milan\n" \
"                 (2-socket EPYC Milan, 23/107/197 ns) for a transfer within\n" \
"                 an LLC / a node / across nodes (tools/README.md: sources)\n"
#define FL_SHARED_MISS_HELP \
"  --shared-miss=M  what the coherence model charges for a read by a CPU\n" \
"                 without a copy of a line other CPUs hold Shared: free (the\n" \
"                 default, the generous choice: nothing, even across nodes)\n" \
"                 or nearest (a transfer from the nearest holder)\n"
/* --shared-miss=@arg: selects it, or prints why not (0, or -1: a usage error). */
int fl_shared_miss_option(const char *arg);
enum fa_coh_miss fl_shared_miss(void);
/* Index of the machine with key @key ("spr"), or -1. */
int fl_machine_find(const char *key);
/* --machine=@arg: selects it, or prints why not (0, or -1: a usage error). */
int fl_machine_option(const char *arg);
void fl_machine_set(int m);
const struct fa_coh_machine *fl_machine(void);
/* Modeled cost on the headline machine, ns per second of @s (0: no time). */
double fl_coh_cost(const struct fa_segment *s);

/*
 * The shares error of @e (analysis/fa_read.h) in %: the bounded headline
 * (of tg->shares) and the relative form (of the ideal); NaN without reads.
 */
double fl_shares_mean(const struct fa_err *e);
double fl_shares_p(const struct fa_err *e, double p);
double fl_shares_rel_mean(const struct fa_err *e);
double fl_shares_rel_p(const struct fa_err *e, double p);

/* Percent helpers shared with the tables: 0 when the base is 0. */
double fl_pct(u64 part, u64 whole);

#endif /* FL_METRICS_H */
