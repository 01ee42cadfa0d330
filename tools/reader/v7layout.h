/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a trace.dat version 7 file keeps its top instance's per-CPU ring
 * buffer data, read from the file's own headers (trace-cmd.dat.v7(5)):
 * the initial format, then the chain of OPTIONS sections and their
 * BUFFER option.  Only what the zstd reader (zpages.h) needs, and only
 * for the files it reads exactly as libtracecmd does: little endian,
 * no timestamp corrections (OFFSET, TIME_SHIFT, TSC2NSEC options make
 * libtracecmd change every timestamp).
 */
#ifndef FL_V7LAYOUT_H
#define FL_V7LAYOUT_H

#include <stdbool.h>

/* One CPU's data: its offset in the file and its size there (compressed). */
struct fl_v7cpu {
	unsigned long long offset, size;
};

struct fl_v7layout {
	char compression[32];		/* "zstd", "none", ... */
	unsigned int page_size;
	bool compressed;		/* the BUFFER FLYRECORD section is */
	int nr_cpus;			/* highest CPU id + 1, as libtracecmd counts */
	struct fl_v7cpu *cpu;		/* [nr_cpus], indexed by CPU id */
};

/*
 * Fills @l from the file open on @fd (read with pread: its offset does
 * not move).  0; 1 when the file is not one the zstd reader takes (not
 * version 7, big endian, timestamp corrections, ... a reason in @why);
 * -1 when its headers are inconsistent (a message in @why).
 */
int fl_v7layout_read(int fd, struct fl_v7layout *l, char *why, size_t whylen);
void fl_v7layout_free(struct fl_v7layout *l);

#endif /* FL_V7LAYOUT_H */
