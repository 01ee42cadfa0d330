/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output of the statistics engine: the figures of one policy segment
 * (the records between two policy_switch events), or of the whole trace.
 *
 * Definitions (tools/README.md, "What is measured", says the same):
 *  - attempt: a tg_update record; write: one with written set.
 *  - writer switch: a write to group T executed on CPU c whose previous
 *    write to T (in time order, over the whole trace) executed on c' != c;
 *    cross-node when the nodes of c and c' (cpu_topology) differ.
 *  - error: see fa_err.h.
 *  - shares error: see fa_read.h.
 * Rates are per second of the segment's trace time (t_end - t_start).
 */
#ifndef FA_STATS_H
#define FA_STATS_H

#include "fa_coh.h"
#include "fa_layout.h"
#include "fa_err.h"
#include "fa_events.h"

/* Slots for out-of-range ids: the last index of each per-id array. */
#define FA_SITES		(FL_NR_SITES + 1)
#define FA_TG_POLICIES		(FL_TG_NR_POLICIES + 1)
#define FA_IDLEST_POLICIES	(FL_IDLEST_NR_POLICIES + 1)

/* One task group within a segment. */
struct fa_tg_seg {
	u64 attempts, writes;
	u64 switches;		/* writer switches */
	u64 xnode;		/* ... of which across NUMA nodes */
	u64 xnode_unknown;	/* ... of which a CPU had no known node */
	u64 contrib_jumps;	/* contrib before != our contrib after: records missed */
	s64 gap;		/* tg_load_avg - sum(contrib) at the last record naming no domain */
	struct fa_err err;
	u64 reads;		/* tg_read records */
	u64 reads_tracked;	/* ... with a tracked sum(load): errors */
	struct fa_err shares;
	u64 coh_transfers;	/* modeled line transfers (fa_coh.h) */	/* shares error at reads (fa_read.c) */
};

/* One executing CPU within a segment. */
struct fa_cpu_seg {
	u64 attempts, writes;
	u64 switches_in;	/* writes that took the line from another CPU */
	u64 xnode_in;
	u64 xnode_unknown_in;	/* ... of which a CPU had no known node */
	u64 remote;		/* attempts on another CPU's cfs_rq */
	u64 idlest;		/* pick_idlest decisions */
};

struct fa_site_seg {
	u64 attempts, writes;
};

struct fa_idlest_seg {
	u64 decisions, picked;
	u64 mismatch;		/* verdict != fl_idlest_decide() on the same stats */
};

struct fa_segment {
	int index;		/* 0, 1, ...; -1 for the whole trace */
	u64 t_start, t_end;	/* trace clock, ns */

	bool tg_policy_known, idlest_policy_known;
	bool tg_policy_mixed, idlest_policy_mixed;	/* whole trace: several */
	struct fl_tg_policy tg_policy;
	struct fa_layout layout;	/* tg->load_avg's (policy_switch FL_KIND_LAYOUT): global unless told */
	u32 idlest_policy;

	u64 records;		/* fairlab records in this segment */
	u64 attempts, writes, switches, xnode, xnode_unknown, contrib_jumps;
	/*
	 * The patch began unpatching (policy_switch kind unpatch): from
	 * there the kernel's own, untraced update_tg_load_avg() publishes
	 * for tasks already switched back, so a contrib jump or an audit
	 * window mismatch is expected, not a record lost (fa_engine.h).
	 */
	u64 unpatches;		/* unpatch records */
	u64 unpatch_jumps;	/* contrib jumps after one (not in contrib_jumps) */
	u64 replay_mismatch;	/* written != fl_tg_decide() on the same input */
	u64 foreign_policy;	/* attempts under another policy than the segment's */
	u64 bad_cpu;		/* records with a CPU outside 0..FA_MAX_CPUS-1 */
	u64 late;		/* records older than one already processed */

	struct fa_err err;	/* all groups merged (time-weighted per group) */

	/*
	 * Reads of tg->load_avg (tg_read records) and the shares error they
	 * caused (fa_read.c): all groups merged.
	 */
	u64 reads;
	u64 read_mismatch;	/* recorded shares != calc_group_shares() of its fields */
	u64 read_untracked;	/* reads of a group no tg_update had named yet */
	u64 read_gaps;		/* reads missing between a CPU's consecutive nr */
	struct fa_err shares;

	/* The coherence model (fa_coh.h): transfers of the groups' lines. */
	u64 coh[FA_COH_NR];	/* per distance */
	u64 coh_by_read;	/* ... caused by a read (the rest: by a write) */
	/*
	 * Under a split tg_layout (fa_split.c), as recorded: writes to a
	 * domain counter, reads of the sum, of which cache hits, and the
	 * counter lines those reads read; records naming a domain while no
	 * split layout was known (a lost layout record: their accesses are
	 * modeled on the global line).
	 */
	u64 split_writes, split_reads, split_hits, split_lines;
	u64 split_unlabelled;

	u32 nr_tgs;		/* indexed like the engine's group table */
	struct fa_tg_seg *tgs;
	u32 nr_cpus;
	struct fa_cpu_seg *cpus;
	struct fa_site_seg sites[FA_SITES];
	u64 policy_attempts[FA_TG_POLICIES];
	struct fa_idlest_seg idlest[FA_IDLEST_POLICIES];

	u64 audits;		/* tg_audit records (checked ones) */
	u64 audit_unchecked;	/* tg_audit records flagged unchecked: skipped */
	u64 audit_violations;	/* tg->load_avg != sum(contrib) */
	u64 audit_max_abs_err;	/* max |tg->load_avg - sum(load)| */
	u64 audit_max_track;	/* max |tracked E - audited E| */
	u64 audit_untracked;	/* audited groups no tg_update had named */
	/* Audit windows: consecutive audits of a group (fa_engine.h). */
	u64 audit_windows;
	u64 audit_window_mismatch;	/* delta tg->load_avg != sum of written deltas */
	u64 audit_window_unpatch;	/* ... ending after an unpatch began (not above) */
	u64 audit_at_record;	/* audits without snap_ns: placed at their record */
	u64 audit_unplaced;	/* with snap_ns, but not placeable exactly */
};

/* Seconds of trace time covered. */
double fa_segment_seconds(const struct fa_segment *s);
/* @count per second of the segment; 0 for a segment of no duration. */
double fa_segment_rate(const struct fa_segment *s, u64 count);
/* True when group @i did anything or held error in the segment. */
bool fa_segment_tg_active(const struct fa_segment *s, u32 i);

#endif /* FA_STATS_H */
