/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shares error: what a tg->load_avg that is off does to the weight
 * calc_group_shares() gives a group entity.
 *
 * At each tg_read record (a read of tg->load_avg on cfs_rq i of a group)
 * two weights are compared:
 *   given  = the recorded shares, which the kernel computed from the value
 *            it read: calc_group_shares() with tg_weight = tg->load_avg -
 *            contrib_i + load_i;
 *   ideal  = the weight had every cfs_rq's load been published: the same
 *            with tg->load_avg - contrib_i replaced by the sum of the
 *            OTHER cfs_rqs' loads (sum over j != i of avg.load_avg last
 *            recorded by tg_update, as for |E|), i.e.
 *            clamp(tg_shares * load_i / (sum_{j!=i} L_j + load_i),
 *                  MIN_SHARES, tg_shares).
 *            cfs_rq i's own term is its current load_i, never its stale
 *            contrib_i nor its last tracked L_i: the staleness compared is
 *            the others' alone.
 * The headline is the bounded form |given - ideal| / tg_shares: the part
 * of the group's whole weight (tg->shares) misplaced on this cfs_rq, in
 * [0, 1) since both weights lie in [MIN_SHARES, tg_shares].  It is
 * linear in the error, with a scale that does not depend on either
 * weight, so a read whose ideal is the MIN_SHARES floor cannot blow a
 * mean up.  (|given - ideal| / max(given, ideal) is bounded too, but
 * still reads a misplacement of 2 weight units on an idle cfs_rq as
 * 50%.)  Also kept: |given - ideal| (weight units, tg->shares scale) and
 * the relative form |given - ideal| / ideal (ideal >= FA_MIN_SHARES > 0),
 * unbounded, as secondary figures.
 * A cfs_rq's group entity keeps its weight until the next read of that
 * cfs_rq, so each error holds, for time weighting, from its read until the
 * next read of the same cfs_rq or the end of the segment, whichever comes
 * first (never into the next segment: a segment's figures are its own
 * reads'): the group's time mean is over cfs_rq-time.  Kept in a struct
 * fa_err (fa_err.h) whose "load" is the ideal weight and whose bounded
 * scale is tg_shares: max, time-weighted mean, p50, p99 and log2
 * histogram come from there.
 *
 * A record that does not add up (its shares are not calc_group_shares()
 * of its own fields, which rules out a negative shares too, or its
 * tg_shares is below MIN_SHARES) is left out of the shares error as if
 * it were absent, and counted (read_mismatch).
 */
#ifndef FA_READ_H
#define FA_READ_H

#include "fa_err.h"
#include "fa_events.h"

/* MIN_SHARES of kernel/sched/sched.h: the unscaled floor of a weight. */
#define FA_MIN_SHARES 2

/*
 * calc_group_shares() of Linux 6.1.192 / 6.12.117 (kernel/sched/fair.c,
 * the same in both), from its inputs:
 *	tg_weight = tg_load_avg - contrib + load;
 *	shares = tg_shares * load;
 *	if (tg_weight)
 *		shares /= tg_weight;
 *	return clamp_t(long, shares, MIN_SHARES, tg_shares);
 * clamp_t() is include/linux/minmax.h's __clamp(): val >= hi ? hi :
 * (val <= lo ? lo : val), tg_shares tested first.  The kernel takes no
 * max() of tg_weight: "tg_weight >= load" holds because tg->load_avg
 * includes contrib.  Arithmetic wraps as the kernel's long does (a
 * corrupt record gives a wrong figure, never undefined behaviour).
 */
s64 fa_calc_group_shares(s64 tg_load_avg, s64 contrib, s64 load,
			 s64 tg_shares);

/*
 * The ideal weight (above): calc_group_shares() with tg_weight =
 * @others_load (sum of the other cfs_rqs' tracked loads) + @load.
 */
s64 fa_ideal_shares(s64 others_load, s64 load, s64 tg_shares);

/* The record's shares follow from its own fields (above). */
bool fa_read_adds_up(const struct fa_tg_read *r);

/*
 * One read's shares error @diff = given - ideal as the statistics take
 * it: |diff|, relative to @ideal, bounded by @tg_shares (> 0).  Inline:
 * the what-if replay takes one per read per policy.
 */
static inline void fa_shares_val(struct fa_err_val *v, s64 diff, s64 ideal,
				 s64 tg_shares)
{
	fa_err_val(v, diff, ideal);
	fa_err_val_bnd(v, v->a, tg_shares);
}

#endif /* FA_READ_H */
