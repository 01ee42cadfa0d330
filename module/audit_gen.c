// SPDX-License-Identifier: GPL-2.0
/*
 * The write generations the audit's snapshot checks (fairlab.h, audit.c):
 * one array of FL_GEN_HASHES x (1 << FL_GEN_BITS) counters per possible
 * CPU (16 KB each), allocated once at module init, before the patch can
 * run a writer, and freed at exit, after klp guarantees that no task runs
 * one.  Never allocated on a hot path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include "fairlab.h"

struct fl_gens __percpu *fl_gens __read_mostly;

int fl_gens_init(void)
{
	fl_gens = alloc_percpu(struct fl_gens);
	return fl_gens ? 0 : -ENOMEM;
}

void fl_gens_exit(void)
{
	free_percpu(fl_gens);
	fl_gens = NULL;
}
