/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shares error: what a tg->load_avg that is off does to the weight
 * calc_group_shares() gives a group entity.
 *
 * At each tg_read record (a read of tg->load_avg on one cfs_rq of a
 * group) two weights are compared:
 *   given  = the recorded shares, which the kernel computed from the value
 *            it read;
 *   ideal  = calc_group_shares() of the same fields with tg->load_avg
 *            replaced by the tracked sum of load of the group (sum over its
 *            cfs_rqs of avg.load_avg last recorded by tg_update, as for
 *            |E|): the weight had every cfs_rq's load been published.
 * The shares error is |given - ideal| (weight units, tg->shares scale)
 * and, relative, |given - ideal| / ideal (ideal >= FA_MIN_SHARES > 0).
 * A cfs_rq's group entity keeps its weight until the next read of that
 * cfs_rq, so each error holds, for time weighting, from its read until the
 * next read of the same cfs_rq (or the segment's end): the group's time
 * mean is over cfs_rq-time.  Kept in a struct fa_err (fa_err.h) whose
 * "load" is the ideal weight: max, time-weighted mean, p99 and log2
 * histogram come from there.
 */
#ifndef FA_READ_H
#define FA_READ_H

#include "fl_types.h"

/* MIN_SHARES of kernel/sched/sched.h: the unscaled floor of a weight. */
#define FA_MIN_SHARES 2

/*
 * calc_group_shares() of Linux 6.1.192 / 6.12.117 (kernel/sched/fair.c),
 * from its inputs: tg_weight = tg_load_avg - contrib + load; shares =
 * tg_shares * load / tg_weight (undivided when tg_weight is 0), clamped to
 * [FA_MIN_SHARES, tg_shares].  Arithmetic wraps as the kernel's long does
 * (a corrupt record gives a wrong figure, never undefined behaviour).
 */
s64 fa_calc_group_shares(s64 tg_load_avg, s64 contrib, s64 load,
			 s64 tg_shares);

#endif /* FA_READ_H */
