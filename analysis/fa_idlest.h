/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The placement what-if: every recorded find_idlest_group() call
 * replayed under every idlest policy (fl_idlest_decide(), the code the
 * kernel runs).
 *
 * Calls.  The pick_idlest records of one CPU, in order, are grouped into
 * calls: a record with idlest_cpu = -1 (the kernel's sentinel idlest_sgs,
 * {group_type overloaded, avg_load UINT_MAX}) starts a new call when the
 * CPU's current call already picked a group; every other record belongs
 * to the CPU's current call.  Each record's group_* side is one candidate
 * of its call, in the order recorded.  (A -1 record after a call whose
 * every candidate lost to the sentinel continues that call: the two
 * cannot be told apart, and it makes no difference to any policy's pick,
 * since a candidate loses to the sentinel only as an overloaded group
 * with avg_load >= UINT_MAX, which every policy decides alike.)
 *
 * Replay.  For each policy P and call: idlest = the sentinel; for each
 * candidate c in order, if fl_idlest_decide(P, idlest, c) then idlest =
 * c.  P's pick is the last candidate so taken (its group_cpu), or none.
 * The recorded pick is the candidate of the call's last record with
 * picked = 1, or none.  A call disagrees under P when P's pick differs
 * from the recorded pick (by group_cpu, none counting as a value).
 *
 * Consistency.  A call is consistent when every record's idlest side is
 * what the replay of the record's own policy holds at that record: the
 * sentinel for idlest_cpu = -1, else the candidate (group_cpu and every
 * statistic) the call last picked.  Records lost, or a recording that
 * starts inside a call, make a call inconsistent; such calls are counted
 * and left out of every other figure.
 *
 * Self-check.  Every record's picked flag must equal
 * fl_idlest_decide(record's policy, idlest side, group side): records
 * where it does not are counted as mismatches (0 when policy.c is the
 * kernel's).  In a consistent call that is also the replay of the
 * recorded policy, whose pick is therefore the recorded pick.
 *
 * Limit: only what find_idlest_group() returns at the level recorded is
 * compared.  The kernel then compares the idlest group with the local
 * group (not recorded, so not here) and descends into the chosen group's
 * child domain; a call at a lower level follows the recorded choice, so
 * a policy's different pick at one level would have led to calls that
 * were never recorded.  Figures for calls below the first level are the
 * policy's decision on the recorded descent, not on its own.
 */
#ifndef FA_IDLEST_H
#define FA_IDLEST_H

#include "fa_events.h"

/* Group types as pair indices: enum fl_group_type, then "none". */
#define FA_IDLEST_NONE		6
#define FA_IDLEST_NTYPES	7

struct fa_idlest_result {
	u64 calls;		/* consistent calls */
	u64 choice_calls;	/* of them, with >= 2 candidates */
	u64 differ;		/* calls whose pick under this policy differs */
	u64 decisions;		/* candidates (records) of consistent calls */
	u64 dec_differ;		/* records this policy decides otherwise, same stats */
	/* differ by (recorded pick's type, this policy's pick's type) */
	u64 by_type[FA_IDLEST_NTYPES][FA_IDLEST_NTYPES];
};

struct fa_idlest_replay;

/* NULL when out of memory. */
struct fa_idlest_replay *fa_idlest_new(void);
void fa_idlest_free(struct fa_idlest_replay *r);

/* One record, in the order of its CPU (@ev->type FA_EV_PICK_IDLEST). */
int fa_idlest_feed(struct fa_idlest_replay *r, const struct fa_event *ev);

/* Ends every open call (at the end of the trace). */
void fa_idlest_finish(struct fa_idlest_replay *r);

/* The figures under policy @p (enum fl_idlest_policy_id). */
const struct fa_idlest_result *fa_idlest_result(const struct fa_idlest_replay *r,
						u32 p);

struct fa_idlest_totals {
	u64 records;		/* pick_idlest records fed */
	u64 calls;		/* consistent calls */
	u64 inconsistent;	/* calls left out (above) */
	u64 inconsistent_records;
	u64 mismatches;		/* records whose picked flag policy.c disagrees with */
	u64 mixed_calls;	/* consistent calls whose records name several policies */
	u32 policies_seen;	/* bit per recorded policy (enum fl_idlest_policy_id) */
};
const struct fa_idlest_totals *fa_idlest_totals(const struct fa_idlest_replay *r);

#endif /* FA_IDLEST_H */
