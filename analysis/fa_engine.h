/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fairlab statistics engine: fed decoded records one at a time, it
 * reports each policy segment as it closes and the whole trace at the end.
 *
 * Ordering: records should arrive in timestamp order (as libtracecmd
 * merges the per-CPU buffers).  Records with equal timestamps are
 * processed in order of executing CPU, then of arrival, whatever order
 * they came in, so results do not depend on how ties were merged.  A
 * record older than one already processed is counted as late and
 * processed at the current time (time never runs backwards).
 *
 * Segments: a policy_switch that changes a policy closes the current
 * segment and opens the next; a switch to the policy already in force
 * (fairlab.ko emits one at load) only labels the segment.  Segments
 * without a tg_update, tg_read or pick_idlest record are not reported.
 * Per-cfs_rq state, names and the last writer carry over segments.
 *
 * Unpatching: fairlab.ko records a policy_switch of kind unpatch before
 * its unpatching transition starts (klp's pre_unpatch).  From there,
 * tasks already switched back run the kernel's own update_tg_load_avg(),
 * whose publishes no record shows: contrib jumps and audit windows that
 * do not add up are counted apart (unpatch_jumps, audit_window_unpatch),
 * not as records lost, until the patch is live again (a tg policy_switch
 * record, which fairlab.ko emits at load).  It closes no segment.
 *
 * Memory is bounded by the number of task groups and CPUs, not by the
 * number of records: nothing per record is kept, but for the latest
 * FA_AUDIT_REACH writes (384 KB, to place audits; fa_audit.c).
 */
#ifndef FA_ENGINE_H
#define FA_ENGINE_H

#include "fa_stats.h"
#include "fa_tgtab.h"

struct fa_engine;
struct fa_replay;
struct fa_idlest_replay;

/* One time bin of the whole trace (for plots). */
struct fa_bin {
	u64 t_start, t_end;	/* trace clock, ns */
	int segment;		/* segment in force at t_start */
	u64 attempts, writes, switches;
	double err_sum;		/* time-weighted mean of sum over groups of |E|, load units */
	double err_rel;		/* same divided by sum over groups of sum(load), fraction */
	u32 groups;		/* groups with error state at t_end */
	/*
	 * Shares error, as report's headline (|shares given - ideal| /
	 * tg->shares, each cfs_rq's last good tg_read held until its next or
	 * the segment's end): its mean over the cfs_rq-time within the bin,
	 * a fraction; shares_ns the cfs_rq-ns it is over, 0: no read held.
	 */
	double shares_mean;
	double shares_ns;
};

/*
 * An audit window: two consecutive tg_audit snapshots of one group, and
 * the written tg_update records of that group between them.  Every write
 * adds its delta to tg->load_avg, so when every write is traced,
 * tla_to - tla_from == written.
 *
 * Each snapshot is placed at its snap_ns when the recording has it in its
 * own clock: a tg_update between the snapshot and the audit record
 * (written after it) belongs to the next window.  Otherwise at the audit
 * record's time, which puts such updates in the wrong window (exact false).
 */
/*
 * Writes (of any group) a snapshot may lie behind its audit record and
 * still be placed exactly; further back, the audit counts as unplaced.
 */
#define FA_AUDIT_REACH 16384

struct fa_audit_window {
	u64 tg;
	u64 seq_from, seq_to;
	u64 t_from, t_to;	/* where the snapshots were placed, trace clock ns */
	s64 tla_from, tla_to;	/* tg->load_avg audited */
	s64 written;		/* sum of the written deltas in (t_from, t_to] */
	u64 writes;		/* their number */
	bool exact;		/* both snapshots placed by snap_ns */
	bool unpatch;		/* ends after an unpatch began (above) */
};

struct fa_engine_cfg {
	/* Called when a segment closes; @seg is valid during the call only. */
	void (*on_segment)(const struct fa_segment *seg, void *arg);
	/* Called at each audit window's second audit (may be NULL). */
	void (*on_audit_window)(const struct fa_audit_window *w, void *arg);
	/* Called for each time bin of bin_ns (0: no bins) from the first record. */
	void (*on_bin)(const struct fa_bin *bin, void *arg);
	/*
	 * Called for each writer switch, a write on CPU @to whose group's
	 * previous write was on CPU @from != @to (may be NULL): the per-pair
	 * transfers of the tg->load_avg line (plot's heat map).
	 */
	void (*on_switch)(s32 from, s32 to, void *arg);
	u64 bin_ns;
	void *arg;
	/* What a read miss on a Shared line costs in the coherence model. */
	enum fa_coh_miss coh_miss;
	/* What-if replay fed with every tg_update (fa_replay.h), or NULL. */
	struct fa_replay *replay;
	/*
	 * Of the recording's own errors, only the time they were held (the
	 * replay's figures are over it), and no model of its lines: for a
	 * caller that prints only the replay's figures (fairlab whatif).
	 * The segments' and the total's error statistics and coherence
	 * counts are then zero but for those times; every count and the
	 * state the replay reads are as without it.
	 */
	bool replay_only;
	/* Placement what-if fed with every pick_idlest (fa_idlest.h), or NULL. */
	struct fa_idlest_replay *idlest;
};

struct fa_engine *fa_engine_new(const struct fa_engine_cfg *cfg);
void fa_engine_free(struct fa_engine *e);

/* Returns 0, or -1 when out of memory (the engine is then unusable). */
int fa_engine_feed(struct fa_engine *e, const struct fa_event *ev);

/*
 * The same without a copy: fill the event fa_engine_slot() returns (NULL:
 * out of memory), then fa_engine_push() it.  Fields not filled keep
 * whatever an earlier record left there.
 */
struct fa_event *fa_engine_slot(struct fa_engine *e);
int fa_engine_push(struct fa_engine *e);

/*
 * Ends the trace at the last record: closes the open segment (calling
 * on_segment) and the last bin.  Returns 0 or -1 (out of memory).
 */
int fa_engine_finish(struct fa_engine *e);

/* After fa_engine_finish(): the whole trace, all segments merged. */
const struct fa_segment *fa_engine_total(const struct fa_engine *e);
/* Number of segments reported so far. */
u32 fa_engine_segments(const struct fa_engine *e);

/* Group @i of the segment arrays (0 <= i < seg->nr_tgs), NULL past the end. */
const struct fa_tg *fa_engine_tg(const struct fa_engine *e, u32 i);
/* The group with this id, NULL when never seen. */
const struct fa_tg *fa_engine_tg_by_id(const struct fa_engine *e, u64 id);
/* NUMA node of @cpu from cpu_topology, -1 when unknown. */
int fa_engine_cpu_node(const struct fa_engine *e, s32 cpu);
/* "name" from tg_info, else "autogroup-N" or "cgroup-N". */
const char *fa_tg_label(const struct fa_tg *g, char *buf, size_t n);

/* Canonical policy names ("relative:8", "stock"); "policy#N" when unknown. */
const char *fa_tg_policy_label(const struct fl_tg_policy *p, char *buf, size_t n);
const char *fa_idlest_policy_label(u32 id, char *buf, size_t n);
const char *fa_site_label(u32 site, char *buf, size_t n);

#endif /* FA_ENGINE_H */
