// SPDX-License-Identifier: GPL-2.0
/*
 * Warnings about a recording that the analysis itself finds: records out
 * of time order, missed updates, decisions policy.c disputes.
 */
#include <stdio.h>

#include "warnings.h"

void fl_engine_warnings(const struct fa_segment *t,
			void (*emit)(const char *msg, void *arg), void *arg)
{
	u64 idlest_mismatch = 0;
	char msg[320];
	int i;

	for (i = 0; i < FA_IDLEST_POLICIES; i++)
		idlest_mismatch += t->idlest[i].mismatch;
	if (!t->records)
		emit("the recording holds no fairlab records", arg);
	if (t->late) {
		snprintf(msg, sizeof(msg), "%llu records were older than a record already read (clock not global, or corrupt timestamps); they were counted at the later time",
			 (unsigned long long)t->late);
		emit(msg, arg);
	}
	if (t->contrib_jumps) {
		snprintf(msg, sizeof(msg), "%llu attempts found a cfs_rq's contrib other than its previous record left: updates are missing from the recording (lost events, or a path fairlab does not trace)",
			 (unsigned long long)t->contrib_jumps);
		emit(msg, arg);
	}
	if (t->replay_mismatch) {
		snprintf(msg, sizeof(msg), "%llu tg_update decisions differ from what module/policy/policy.c decides on the recorded input",
			 (unsigned long long)t->replay_mismatch);
		emit(msg, arg);
	}
	if (idlest_mismatch) {
		snprintf(msg, sizeof(msg), "%llu pick_idlest verdicts differ from what module/policy/policy.c decides on the recorded statistics",
			 (unsigned long long)idlest_mismatch);
		emit(msg, arg);
	}
	if (t->bad_cpu) {
		snprintf(msg, sizeof(msg), "%llu records with a CPU number out of range were ignored",
			 (unsigned long long)t->bad_cpu);
		emit(msg, arg);
	}
	if (t->audit_violations) {
		snprintf(msg, sizeof(msg), "%llu tg_audit records show tg->load_avg != sum(tg_load_avg_contrib): the invariant is broken",
			 (unsigned long long)t->audit_violations);
		emit(msg, arg);
	}
}
