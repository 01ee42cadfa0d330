/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FAIRLAB_PUBTIME_H
#define FAIRLAB_PUBTIME_H

#include <linux/types.h>

/*
 * The last-publish time slot of the cfs_rq of group @tg_id (fl_tg_id(),
 * never 0) on CPU @cpu, or NULL when absent and !@create.  A new slot
 * holds 0 (never published).  Caller holds @cpu's rq lock.
 */
u64 *fl_pubtime_find(u64 tg_id, int cpu, bool create);

#endif /* FAIRLAB_PUBTIME_H */
