// SPDX-License-Identifier: GPL-2.0
/*
 * Table output in text, CSV and JSON (see table.h).
 */
#include <math.h>
#include <string.h>

#include "table.h"

static int col_width(const struct fl_col *c)
{
	int w = (int)strlen(c->head);

	if (c->width > w)
		w = c->width;
	return w < 8 ? 8 : w;
}

void fl_csv_field(FILE *f, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

void fl_table_begin(struct fl_emit *e)
{
	const struct fl_table *t = e->t;
	int i;

	switch (e->fmt) {
	case FL_FMT_TEXT:
		fprintf(e->f, "\n  %s\n  ", t->title);
		for (i = 0; i < t->ncols; i++) {
			const struct fl_col *c = &t->cols[i];

			if (c->kind == FL_STR)
				fprintf(e->f, " %-*s", col_width(c), c->head);
			else
				fprintf(e->f, " %*s", col_width(c), c->head);
		}
		fputc('\n', e->f);
		break;
	case FL_FMT_CSV:
		if (!e->csv_header)
			break;
		for (i = 0; i < e->nlead; i++)
			fprintf(e->f, "%s%s", i ? "," : "", e->lead_keys[i]);
		for (i = 0; i < t->ncols; i++)
			fprintf(e->f, "%s%s", i || e->nlead ? "," : "", t->cols[i].key);
		fputc('\n', e->f);
		break;
	case FL_FMT_JSON:
		fl_json_arr(e->json, t->name);
		break;
	}
}

/* A double as text: fixed decimals, "-" for NaN (an undefined ratio). */
static void put_dbl(FILE *f, int width, int prec, double d)
{
	if (isnan(d))
		fprintf(f, "%*s", width, "-");
	else
		fprintf(f, "%*.*f", width, prec, d);
}

void fl_table_row(struct fl_emit *e, const struct fl_val *v)
{
	const struct fl_table *t = e->t;
	int i;

	switch (e->fmt) {
	case FL_FMT_TEXT:
		fputs("  ", e->f);
		for (i = 0; i < t->ncols; i++) {
			const struct fl_col *c = &t->cols[i];
			int w = col_width(c);

			fputc(' ', e->f);
			if (v[i].none) {
				fprintf(e->f, c->kind == FL_STR ? "%-*s" : "%*s", w, "-");
				continue;
			}
			switch (c->kind) {
			case FL_U64:
				fprintf(e->f, "%*llu", w, (unsigned long long)v[i].u);
				break;
			case FL_S64:
				fprintf(e->f, "%*lld", w, (long long)v[i].s);
				break;
			case FL_DBL:
				put_dbl(e->f, w, c->prec, v[i].d);
				break;
			case FL_STR:
				fprintf(e->f, "%-*s", w, v[i].str ? v[i].str : "-");
				break;
			}
		}
		fputc('\n', e->f);
		break;
	case FL_FMT_CSV:
		for (i = 0; i < e->nlead; i++) {
			if (i)
				fputc(',', e->f);
			fl_csv_field(e->f, e->lead_vals[i]);
		}
		for (i = 0; i < t->ncols; i++) {
			if (i || e->nlead)
				fputc(',', e->f);
			if (v[i].none)
				continue;
			switch (t->cols[i].kind) {
			case FL_U64:
				fprintf(e->f, "%llu", (unsigned long long)v[i].u);
				break;
			case FL_S64:
				fprintf(e->f, "%lld", (long long)v[i].s);
				break;
			case FL_DBL:
				if (!isnan(v[i].d))
					fprintf(e->f, "%.*f", t->cols[i].prec + 3, v[i].d);
				break;
			case FL_STR:
				fl_csv_field(e->f, v[i].str ? v[i].str : "");
				break;
			}
		}
		fputc('\n', e->f);
		break;
	case FL_FMT_JSON:
		fl_json_obj(e->json, NULL);
		for (i = 0; i < t->ncols; i++) {
			const char *k = t->cols[i].key;

			if (v[i].none) {
				fl_json_str(e->json, k, NULL);
				continue;
			}
			switch (t->cols[i].kind) {
			case FL_U64:
				fl_json_u64(e->json, k, v[i].u);
				break;
			case FL_S64:
				fl_json_s64(e->json, k, v[i].s);
				break;
			case FL_DBL:
				fl_json_dbl(e->json, k, v[i].d);
				break;
			case FL_STR:
				fl_json_str(e->json, k, v[i].str);
				break;
			}
		}
		fl_json_end(e->json, '}');
		break;
	}
}

void fl_table_end(struct fl_emit *e)
{
	if (e->fmt == FL_FMT_JSON)
		fl_json_end(e->json, ']');
}
