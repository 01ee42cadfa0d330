/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer: values are written as they come, so output of
 * any size needs no memory.  Commas and nesting are tracked here; a key
 * is given inside objects and NULL inside arrays.
 */
#ifndef FL_JSON_H
#define FL_JSON_H

#include <stdio.h>

#include "fl_types.h"

#define FL_JSON_DEPTH 16

struct fl_json {
	FILE *f;
	int depth;
	bool first[FL_JSON_DEPTH];
};

void fl_json_init(struct fl_json *j, FILE *f);
void fl_json_obj(struct fl_json *j, const char *key);	/* { */
void fl_json_arr(struct fl_json *j, const char *key);	/* [ */
void fl_json_end(struct fl_json *j, char close);	/* } or ] */
void fl_json_str(struct fl_json *j, const char *key, const char *v);	/* NULL: null */
void fl_json_u64(struct fl_json *j, const char *key, u64 v);
void fl_json_s64(struct fl_json *j, const char *key, s64 v);
void fl_json_dbl(struct fl_json *j, const char *key, double v);	/* NaN, inf: null */
void fl_json_bool(struct fl_json *j, const char *key, bool v);

#endif /* FL_JSON_H */
