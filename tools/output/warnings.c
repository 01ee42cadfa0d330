// SPDX-License-Identifier: GPL-2.0
/*
 * Warnings about a recording that the analysis itself finds: records out
 * of time order, missed updates, decisions policy.c disputes.
 */
#include <stdio.h>

#include "warnings.h"

void fl_warn_count(void (*emit)(const char *msg, void *arg), void *arg,
		   unsigned long long n, const char *fmt)
{
	char msg[320];

	if (!n)
		return;
	/* fmt is one of the literals of the callers, with one %llu */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(msg, sizeof(msg), fmt, n);
#pragma GCC diagnostic pop
	emit(msg, arg);
}

void fl_engine_warnings(const struct fa_segment *t,
			void (*emit)(const char *msg, void *arg), void *arg)
{
	u64 idlest_mismatch = 0;
	int i;

	for (i = 0; i < FA_IDLEST_POLICIES; i++)
		idlest_mismatch += t->idlest[i].mismatch;
	if (!t->records)
		emit("the recording holds no fairlab records", arg);
	fl_warn_count(emit, arg, t->late,
		      "%llu records were older than a record already read (clock not global, or corrupt timestamps); they were counted at the later time");
	fl_warn_count(emit, arg, t->contrib_jumps,
		      "%llu attempts found a cfs_rq's contrib other than its previous record left: updates are missing from the recording (lost events, or a path fairlab does not trace)");
	fl_warn_count(emit, arg, t->unpatch_jumps,
		      "%llu attempts after the patch began unpatching (policy_switch kind=unpatch) found a cfs_rq's contrib other than its previous record left: the kernel's own update_tg_load_avg(), which fairlab does not trace, published for tasks already switched back (expected, not lost records)");
	fl_warn_count(emit, arg, t->replay_mismatch,
		      "%llu tg_update decisions differ from what module/policy/policy.c decides on the recorded input");
	fl_warn_count(emit, arg, idlest_mismatch,
		      "%llu pick_idlest verdicts differ from what module/policy/policy.c decides on the recorded statistics");
	fl_warn_count(emit, arg, t->xnode_unknown,
		      "%llu writer switches involve a CPU that no cpu_topology record places on a NUMA node (a recording cut after them, e.g. by trace-cmd split?): cross-node figures are unknown; echo 1 > /sys/kernel/fairlab/describe while recording emits them");
	fl_warn_count(emit, arg, t->read_mismatch,
		      "%llu tg_read records do not add up (their shares are not calc_group_shares() of their own fields, or tg->shares is below MIN_SHARES): left out of the shares error (read_mismatch_n), as if absent");
	fl_warn_count(emit, arg, t->bad_cpu,
		      "%llu records with a CPU number out of range were ignored");
	fl_warn_count(emit, arg, t->audit_window_mismatch,
		      "%llu audit windows where tg->load_avg moved by other than the sum of the traced written deltas: writes are missing from the recording (lost events, or a path fairlab does not trace)");
	fl_warn_count(emit, arg, t->audit_window_unpatch,
		      "%llu audit windows ending after the patch began unpatching where tg->load_avg moved by other than the traced written deltas: the kernel's own, untraced publishes (expected, not lost records)");
	fl_warn_count(emit, arg, t->audit_unplaced,
		      "%llu audit snapshots could not be placed by their snap_ns (too many writes before their records, or a snapshot after its own record): their audit windows are approximate");
	fl_warn_count(emit, arg, t->audit_violations,
		      "%llu tg_audit records show tg->load_avg != sum(tg_load_avg_contrib): the invariant is broken");
}
