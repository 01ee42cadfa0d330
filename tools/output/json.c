// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming JSON writer (see json.h).
 */
#include <math.h>

#include "json.h"

void fl_json_init(struct fl_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

/* Writes a string literal; bytes that are not valid UTF-8 become '?'. */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n, i;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p++, f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, f);
		} else {
			n = (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 :
			    (*p & 0xf8) == 0xf0 ? 4 : 0;
			for (i = 1; i < n; i++)
				if ((p[i] & 0xc0) != 0x80)
					n = 0;
			if (!n) {
				fputc('?', f);
				p++;
				continue;
			}
			fwrite(p, 1, (size_t)n, f);
			p += n;
		}
	}
	fputc('"', f);
}

/* The comma, newline/indent and key before a value at the current depth. */
static void prefix(struct fl_json *j, const char *key)
{
	int i;

	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct fl_json *j, const char *key, char c)
{
	prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < FL_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void fl_json_obj(struct fl_json *j, const char *key)
{
	open_(j, key, '{');
}

void fl_json_arr(struct fl_json *j, const char *key)
{
	open_(j, key, '[');
}

void fl_json_end(struct fl_json *j, char close)
{
	int i, empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(close, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void fl_json_str(struct fl_json *j, const char *key, const char *v)
{
	prefix(j, key);
	if (v)
		put_string(j->f, v);
	else
		fputs("null", j->f);
}

void fl_json_u64(struct fl_json *j, const char *key, u64 v)
{
	prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void fl_json_s64(struct fl_json *j, const char *key, s64 v)
{
	prefix(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

void fl_json_dbl(struct fl_json *j, const char *key, double v)
{
	prefix(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.12g", v);
	else
		fputs("null", j->f);
}

void fl_json_bool(struct fl_json *j, const char *key, bool v)
{
	prefix(j, key);
	fputs(v ? "true" : "false", j->f);
}
