/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel builds fairlab's ports serve, compiled in from
 * module/port/SERIES/builds.tsv (or the port's kernel.conf) by
 * tools/record/gen-served.sh, so that an installed tool can tell a user on
 * another kernel which builds it would run on.
 */
#ifndef FL_SERVED_H
#define FL_SERVED_H

#include <stdbool.h>
#include <stdio.h>

struct fl_build {
	const char *series;	/* the port: "6.1", "6.12" */
	const char *krel;	/* uname -r */
	const char *pkgver;	/* the Debian package version */
	bool served;
	const char *reason;	/* why not, when refused */
};

/* The build of @release in the table, or NULL. */
const struct fl_build *fl_served_find(const char *release);

/*
 * Is @release served?  true, or false after printing (as an error) the
 * release, that it has no port or the port's reason to refuse it, and
 * the served builds of the nearest series.
 */
bool fl_served_check(const char *release);

/* "SERIES: KREL KREL ..." for every series, one line each, on @f. */
void fl_served_list(FILE *f, const char *indent);

/* The running release (uname -r; under FAIRLAB_SYSROOT, its
 * proc/sys/kernel/osrelease); "" when unknown. */
const char *fl_running_release(void);

#endif /* FL_SERVED_H */
