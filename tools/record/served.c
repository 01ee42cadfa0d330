// SPDX-License-Identifier: GPL-2.0
/*
 * The served kernel builds (see served.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "live.h"
#include "served.h"

static const struct fl_build builds[] = {
#include "fl_served.h"
};
#define NBUILDS (sizeof(builds) / sizeof(builds[0]))

const struct fl_build *fl_served_find(const char *release)
{
	size_t i;

	for (i = 0; i < NBUILDS; i++)
		if (!strcmp(builds[i].krel, release))
			return &builds[i];
	return NULL;
}

/* major * 1000 + minor of "6.12.117+deb12-amd64" or "6.12"; -1 if none. */
static long series_key(const char *s)
{
	char *end;
	long major = strtol(s, &end, 10), minor;

	if (end == s || *end != '.')
		return -1;
	s = end + 1;
	minor = strtol(s, &end, 10);
	if (end == s)
		return -1;
	return major * 1000 + minor;
}

/* The series whose version is closest to @release's (ties: the newer). */
static const char *nearest_series(const char *release)
{
	long want = series_key(release), best = -1;
	const char *series = NULL;
	size_t i;

	for (i = 0; i < NBUILDS; i++) {
		long k = series_key(builds[i].series), d = labs(k - want);

		if (!series || d < best || (d == best && k > series_key(series))) {
			best = d;
			series = builds[i].series;
		}
	}
	return series;
}

/* The flavours a Debian 12 release can have, in the order they are listed. */
static const char *const flavours[] = { "amd64", "cloud-amd64", "rt-amd64" };
#define NFLAVOURS (sizeof(flavours) / sizeof(flavours[0]))

/*
 * @krel's version (its length) and flavour (an index of flavours[]), or
 * -1 for a release of no known flavour.
 */
static int split_release(const char *krel, size_t *vlen)
{
	size_t n = strlen(krel), i, best = 0;
	int which = -1;

	for (i = 0; i < NFLAVOURS; i++) {
		size_t f = strlen(flavours[i]);

		/* the longest match: "-cloud-amd64" is also "...-amd64" */
		if (n > f + 1 && f > best && krel[n - f - 1] == '-' &&
		    !strcmp(krel + n - f, flavours[i])) {
			best = f;
			which = (int)i;
		}
	}
	*vlen = which < 0 ? n : n - best - 1;
	return which;
}

/* A served version of a series, and the flavours it is served in. */
struct version {
	const char *name;	/* its first build's release; the version is its first len bytes */
	size_t len;
	unsigned set;		/* bit i: flavours[i]; bit NFLAVOURS: a release of no known flavour */
};

/* The served versions of @series into @v, in the table's order; how many. */
static size_t versions_of(const char *series, struct version *v)
{
	size_t i, j, n = 0, len;
	int k;

	for (i = 0; i < NBUILDS; i++) {
		if (strcmp(builds[i].series, series) || !builds[i].served)
			continue;
		k = split_release(builds[i].krel, &len);
		for (j = 0; j < n; j++)
			if (v[j].len == len && !strncmp(v[j].name, builds[i].krel, len))
				break;
		if (j == n)
			v[n++] = (struct version){ builds[i].krel, len, 0 };
		v[j].set |= k < 0 ? 1u << NFLAVOURS : 1u << k;
	}
	return n;
}

/*
 * Words written on @f, wrapped before column 80, continued lines
 * indented by @cont spaces; @col: the column the first is written at.
 */
struct wrap {
	FILE *f;
	size_t col, cont;
	bool first;
};

static void wrap_word(struct wrap *w, const char *word, size_t len)
{
	if (!w->first && w->col + 1 + len > 79) {
		fprintf(w->f, "\n%*s", (int)w->cont, "");
		w->col = w->cont;
	} else if (!w->first) {
		fputc(' ', w->f);
		w->col++;
	}
	fwrite(word, 1, len, w->f);
	w->col += len;
	w->first = false;
}

/* Whether no version before @v[i] is served in the flavours it is. */
static bool first_of_set(const struct version *v, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (v[j].set == v[i].set)
			return false;
	return true;
}

/*
 * The served builds of @series, their versions grouped by the flavours
 * each is served in: "6.1.0-47, 6.1.0-50 (amd64, cloud-amd64, rt-amd64);
 * 6.1.0-53 (amd64)", in the table's order; "(none)" if none.  The same
 * grouping as scripts/ports.sh's fl_supported, so that the tool and the
 * build's messages name the builds alike.
 */
static void list_series(struct wrap *w, const char *series)
{
	struct version v[NBUILDS];
	char word[128];
	size_t n = versions_of(series, v), i, j, left, sets = 0;
	unsigned k;

	for (i = 0; i < n; i++)
		sets += first_of_set(v, i);
	for (i = 0; i < n; i++) {
		if (!first_of_set(v, i))
			continue;
		sets--;
		for (j = i, left = 0; j < n; j++)
			left += v[j].set == v[i].set;
		/* the set's versions, the last one followed by its flavours */
		for (j = i; j < n; j++) {
			if (v[j].set != v[i].set)
				continue;
			snprintf(word, sizeof(word), "%.*s%s", (int)v[j].len, v[j].name,
				 --left ? "," : "");
			wrap_word(w, word, strlen(word));
		}
		for (k = 0; k <= NFLAVOURS; k++) {
			if (!((v[i].set >> k) & 1))
				continue;
			snprintf(word, sizeof(word), "%s%s%s",
				 v[i].set & ((1u << k) - 1) ? "" : "(",
				 k < NFLAVOURS ? flavours[k] : "no flavour",
				 v[i].set >> (k + 1) ? "," : sets ? ");" : ")");
			wrap_word(w, word, strlen(word));
		}
	}
	if (!n)
		wrap_word(w, "(none)", 6);
	fputc('\n', w->f);
}

void fl_served_list(FILE *f, const char *indent)
{
	size_t i, j;

	for (i = 0; i < NBUILDS; i++) {
		struct wrap w = { f, 0, strlen(indent) + 4, true };

		for (j = 0; j < i; j++)
			if (!strcmp(builds[j].series, builds[i].series))
				break;
		if (j < i)
			continue;
		w.col = (size_t)fprintf(f, "%s%s:", indent, builds[i].series);
		w.first = false;
		list_series(&w, builds[i].series);
	}
}

bool fl_served_check(const char *release)
{
	const struct fl_build *b = fl_served_find(release);
	const char *near;

	if (b && b->served)
		return true;
	if (b)
		fl_error("this kernel, %s, is refused by fairlab's %s port: %s",
			 release, b->series, *b->reason ? b->reason : "(no reason given)");
	else
		fl_error("this kernel, %s, has no fairlab port: fairlab runs on the Debian 12 builds its ports serve (a build of its own kernel packages, uname -r)",
			 release);
	near = nearest_series(release);
	if (near) {
		struct wrap w = { stderr, 0, 6, false };

		w.col = (size_t)fprintf(stderr, "  served builds of the nearest series (%s):", near);
		list_series(&w, near);
	}
	return false;
}

const char *fl_running_release(void)
{
	static char rel[256];
	static struct utsname u;
	char path[4096];

	if (fl_sysroot()[0]) {
		fl_sys_path(path, sizeof(path), "/proc/sys/kernel/osrelease");
		if (fl_read_line(path, rel, sizeof(rel)))
			rel[0] = '\0';
		return rel;
	}
	if (uname(&u))
		return "";
	return u.release;
}
