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

/* Percent helpers shared with the tables: 0 when the base is 0. */
double fl_pct(u64 part, u64 whole);

#endif /* FL_METRICS_H */
