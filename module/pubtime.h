/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FAIRLAB_PUBTIME_H
#define FAIRLAB_PUBTIME_H

#include <linux/types.h>

/*
 * The last-publish time slot of @key (a cfs_rq) in CPU @cpu's table, or
 * NULL when absent and !@create.  A new slot holds 0 (never published).
 * Caller holds @cpu's rq lock.
 */
u64 *fl_pubtime_find(const void *key, int cpu, bool create);

#endif /* FAIRLAB_PUBTIME_H */
