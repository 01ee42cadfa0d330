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

static void list_series(FILE *f, const char *series)
{
	size_t i;
	int n = 0;

	for (i = 0; i < NBUILDS; i++)
		if (!strcmp(builds[i].series, series) && builds[i].served)
			fprintf(f, "%s%s", n++ ? " " : "", builds[i].krel);
	if (!n)
		fputs("(none)", f);
}

void fl_served_list(FILE *f, const char *indent)
{
	size_t i, j;

	for (i = 0; i < NBUILDS; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(builds[j].series, builds[i].series))
				break;
		if (j < i)
			continue;
		fprintf(f, "%s%s: ", indent, builds[i].series);
		list_series(f, builds[i].series);
		fputc('\n', f);
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
		fprintf(stderr, "  served builds of the nearest series (%s): ", near);
		list_series(stderr, near);
		fputc('\n', stderr);
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
