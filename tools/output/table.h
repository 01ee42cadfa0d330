/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables written as aligned text, CSV or JSON from one description, so
 * that every output format carries the same columns and units.
 *
 * A column has a key that names its unit (JSON member, CSV header:
 * "writes_per_s") and a text header with the unit in parentheses
 * ("writes(1/s)").  Rows stream: nothing is buffered.
 */
#ifndef FL_TABLE_H
#define FL_TABLE_H

#include <stdio.h>

#include "json.h"

enum fl_format { FL_FMT_TEXT, FL_FMT_JSON, FL_FMT_CSV };

enum fl_kind { FL_U64, FL_S64, FL_DBL, FL_STR };

struct fl_col {
	const char *key;	/* JSON/CSV name, with its unit: "writes_per_s" */
	const char *head;	/* text header, with its unit: "writes(1/s)" */
	enum fl_kind kind;
	int prec;		/* decimals of FL_DBL in text and CSV */
	int width;		/* text width; 0: the header's, at least 8 */
};

struct fl_val {
	enum fl_kind kind;	/* filled by the fl_v_* helpers */
	bool none;		/* unknown: "-" in text, empty in CSV, null in JSON */
	union {
		u64 u;
		s64 s;
		double d;
		const char *str;
	};
};

static inline struct fl_val fl_v_u64(u64 v) { return (struct fl_val){ .kind = FL_U64, .u = v }; }
static inline struct fl_val fl_v_s64(s64 v) { return (struct fl_val){ .kind = FL_S64, .s = v }; }
static inline struct fl_val fl_v_dbl(double v) { return (struct fl_val){ .kind = FL_DBL, .d = v }; }
static inline struct fl_val fl_v_str(const char *v) { return (struct fl_val){ .kind = FL_STR, .str = v }; }
static inline struct fl_val fl_v_none(void) { return (struct fl_val){ .kind = FL_STR, .none = true }; }

struct fl_table {
	const char *name;	/* JSON member / CSV table name: "groups" */
	const char *title;	/* text title */
	int ncols;
	const struct fl_col *cols;
};

/* Columns in the array @cols, and a table of all of them. */
#define FL_NCOLS(cols) ((int)(sizeof(cols) / sizeof((cols)[0])))
#define FL_TABLE(name, title, cols) { (name), (title), FL_NCOLS(cols), (cols) }

/*
 * One table being written.  @lead: columns that CSV rows start with
 * (file, segment) to keep rows of several tables or files apart; text
 * and JSON carry them in their enclosing context instead.
 */
struct fl_emit {
	enum fl_format fmt;
	FILE *f;
	struct fl_json *json;
	const struct fl_table *t;
	int nlead;
	const char *const *lead_keys;
	const char *const *lead_vals;
	bool csv_header;		/* CSV: write the header line */
};

void fl_table_begin(struct fl_emit *e);
void fl_table_row(struct fl_emit *e, const struct fl_val *v);
void fl_table_end(struct fl_emit *e);

/* CSV field, quoted when it needs to be. */
void fl_csv_field(FILE *f, const char *s);

#endif /* FL_TABLE_H */
