/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engine internals shared by the analysis/ sources; not for callers.
 */
#ifndef FA_ENGINE_INT_H
#define FA_ENGINE_INT_H

#include "fa_engine.h"

/*
 * Records with one timestamp held back to be ordered by CPU, in a ring
 * that the reader decodes into directly (fa_engine_slot()).  More than
 * this many at one timestamp are processed in chunks (ordered per chunk).
 */
#define FA_BATCH_MAX 256

/* Time bins: the running sums the plot series are made of. */
struct fa_series {
	struct fa_bin bin;	/* the open bin */
	u64 last_t;		/* integrated up to here */
	double err_time;	/* integral of err_abs_sum over the bin */
	double rel_time;	/* integral of err_abs_sum / load_sum */
	u64 rel_ns;
	s64 err_abs_sum;	/* sum over groups of |E| now */
	s64 load_sum;		/* sum over groups of sum(load) now */
	u32 groups;		/* groups with a tg_update so far */
	/* the shares error (struct fa_bin): held now, and integrated */
	double sh_now;		/* sum over cfs_rqs holding a read of its error */
	u32 sh_n;		/* cfs_rqs holding a read */
	double sh_time;		/* integral of sh_now dt over the bin */
	double sh_ns;		/* integral of sh_n dt over the bin */
};

/*
 * The latest writes, oldest first: an audit's snapshot lies before its
 * record, and the writes in between are taken back out of the running
 * sums.  Snapshots are placed exactly as long as the writes after them
 * are still here (FA_WLOG_N writes of any group after the snapshot).
 */
#define FA_WLOG_N FA_AUDIT_REACH

struct fa_wlog_ent {
	u64 ts;
	s64 delta;
	u32 tg;			/* dense group index */
};

struct fa_wlog {
	struct fa_wlog_ent *ent;	/* FA_WLOG_N, allocated at the first write */
	u32 head, n;			/* oldest entry, number held */
	bool dropped;			/* older entries were overwritten ... */
	u64 dropped_ts;			/* ... the newest of them at this time */
};

/*
 * Figures counted unknown because a CPU had no cpu_topology record yet
 * (records of idle CPUs land between the start of a recording and its
 * describe), kept to be classified once their CPUs are placed, all by
 * one mechanism (fa_pending_resolve()): writer switches (cross-node or
 * not) and modeled line transfers (their distance, fa_coh.h), the
 * engine's (@id a group index) and each what-if replay policy's (@id
 * the policy).  A transfer from several holders takes 1 + @more
 * entries, the holders after the first in FA_PEND_FROM entries.
 */
enum { FA_PEND_SWITCH, FA_PEND_TRANSFER, FA_PEND_FROM };
struct fa_pending_ent {
	u32 id;
	u32 slot;		/* whose allowance it counts in (fa_pending_add()) */
	s32 from, to, seg;
	u8 kind;		/* FA_PEND_* */
	u8 known;		/* a transfer: its placed holders' farthest (fa_coh_src) */
	u8 nearest;		/* ... or nearest: a Shared miss */
	u8 more;		/* FA_PEND_FROM entries after this one */
};
struct fa_pending {
	struct fa_pending_ent *v;
	u32 n, cap;
	/* entries held per slot, each at most FA_PENDING_MAX; [1] for the engine */
	u32 *held;
};

struct fa_engine {
	struct fa_engine_cfg cfg;
	struct fa_tgtab tgtab;
	s32 *node;		/* cpu -> NUMA node, -1 unknown */
	s32 *llc;		/* cpu -> last-level cache id, -1 unknown */
	u32 nr_node;		/* entries of both */
	u32 topo_gen;		/* changes of either (the replay's domains: fa_layout.h) */
	/*
	 * Writer switches and transfers of the open segment counted unknown
	 * (struct fa_pending), classified when the CPUs are placed
	 * (fa_update.c: fa_switch_resolve()).
	 */
	struct fa_pending pend;
	u32 pend_held;
	/* The domains a split layout's sum reads (fa_split.c), and for what. */
	s32 *split_doms;
	u32 split_ndom, split_doms_cap;
	u32 split_doms_gen;	/* topo_gen + 1 they were made for, 0 none */
	u32 split_doms_kind;

	struct fa_segment seg;	/* open segment */
	struct fa_segment total;
	u32 nsegments;		/* reported so far */
	bool seg_has_records;

	bool started, finished, failed;
	/* since an unpatch record, until the patch is live again (fa_stats.h) */
	bool unpatching;
	u64 now;		/* timestamp of the last processed record */

	u32 head, count;	/* held records: batch[head .. head+count) mod MAX */
	struct fa_event batch[FA_BATCH_MAX];

	struct fa_series series;
	struct fa_wlog wlog;

	u64 *read_nr;		/* executing CPU -> last tg_read nr, 0 none */
	u32 nr_read_nr;
};

/*
 * Arithmetic on recorded values wraps (u64) instead of overflowing: a
 * corrupt record must give wrong figures, never undefined behaviour.
 */
static inline s64 add_w(s64 a, s64 b)
{
	return (s64)((u64)a + (u64)b);
}

static inline s64 sub_w(s64 a, s64 b)
{
	return (s64)((u64)a - (u64)b);
}

static inline u64 abs_w(s64 v)
{
	return v < 0 ? -(u64)v : (u64)v;
}

/* fa_segment.c */
void fa_seg_init(struct fa_segment *s);
void fa_seg_free(struct fa_segment *s);
int fa_seg_reserve(struct fa_segment *s, u32 nr_tgs, u32 nr_cpus);
void fa_seg_reset(struct fa_segment *s);
/* @times: of the errors, their times only (fa_engine_cfg.replay_only) */
int fa_seg_merge(struct fa_segment *dst, const struct fa_segment *src,
		 bool times);

/* fa_update.c: one record each, at e->now. */
int fa_on_tg_update(struct fa_engine *e, const struct fa_event *ev);
int fa_on_pick_idlest(struct fa_engine *e, const struct fa_event *ev);

/*
 * Whether the record's own policy reads tg->load_avg at its decision
 * (module/tg_update.c: fl_tg_update_slow() reads it when the rule needs
 * it, fl_tg_rule_needs_tg_load(): budget), before the write: a read of
 * the line the coherence model counts.  Sites without a decision
 * (FL_SITE_NO_DECISION) read nothing for the policy.
 */
bool fa_policy_reads_line(const struct fa_tg_update *u);

/* The coherence model: @cpu reads or writes group @i's line (fa_coh.h). */
int fa_coh_note(struct fa_engine *e, u32 i, s32 cpu, bool write);

/*
 * fa_split.c: group @i's line(s) accessed by @cpu as a record says,
 * @split_dom its domain (fa_events.h): under a split layout its domain
 * lines, else (or a record naming no domain) fa_coh_note().
 */
int fa_split_write(struct fa_engine *e, u32 i, s32 cpu, u16 split_dom);
int fa_split_read_own(struct fa_engine *e, u32 i, s32 cpu, u16 split_dom);
int fa_split_read(struct fa_engine *e, u32 i, s32 cpu, u16 split_dom, bool hit);
/* A layout switch: every group's domain lines forgotten. */
void fa_split_reset(struct fa_engine *e);
/* A CPU placed: every group's unplaced counter's parts moved (fa_lay_place()). */
int fa_split_place(struct fa_engine *e);

/* fa_read.c: a tg_read record; group @i's read errors held up to @t. */
int fa_on_tg_read(struct fa_engine *e, const struct fa_event *ev);
void fa_read_advance(struct fa_engine *e, u32 i, u64 t);
/* At a segment's end: group @i's read errors stop holding (fa_read.h). */
void fa_read_end(struct fa_engine *e, u32 i);

/* fa_audit.c */
int fa_on_tg_audit(struct fa_engine *e, const struct fa_event *ev);
/* A written tg_update of group @i: its delta, for audit windows. */
int fa_audit_note_write(struct fa_engine *e, u32 i, s64 delta);
void fa_audit_free(struct fa_engine *e);
/* Integrates group @i's error in the open segment up to @t. */
void fa_tg_advance(struct fa_engine *e, u32 i, u64 t);

/* What a write executed on @cpu is to the group's line (see fa_stats.h). */
enum fa_switch {
	FA_SWITCH_NONE,		/* first write, or same CPU as the last */
	FA_SWITCH_NODE,		/* another CPU of the same node */
	FA_SWITCH_XNODE,	/* a CPU of another node */
	FA_SWITCH_UNKNOWN,	/* another CPU, a node not known */
};
/*
 * Entries each slot (the engine; a replayed policy) may keep pending;
 * past it, what is unknown stays unknown, and is reported so.
 */
#define FA_PENDING_MAX	16384
/*
 * Keeps an unknown writer switch from CPU @from to @to of @id in segment
 * @seg (the engine's nsegments when its record came: the what-if replay
 * may model a record after the engine moved on), in @slot's allowance
 * (when there is room: else it stays unknown, and is reported so).
 */
void fa_pending_add(struct fa_pending *p, s32 seg, u32 id, u32 slot, s32 from,
		    s32 to);
/* The same for a transfer to CPU @to of unknown distance, from @src. */
void fa_pending_add_transfer(struct fa_pending *p, s32 seg, u32 id, u32 slot,
			     s32 to, const struct fa_coh_src *src);
/*
 * Each of @p's entries of the open segment whose CPUs are placed now:
 * @fn(@arg, entry, its class), then forgotten; those of closed segments
 * are forgotten (they stay unknown in their reported segment).  The
 * class: a switch's FA_COH_XNODE or FA_COH_NODE (nodes only), a
 * transfer's distance (fa_coh_src_dist()).
 */
void fa_pending_resolve(struct fa_pending *p, const struct fa_engine *e,
			void (*fn)(void *arg, const struct fa_pending_ent *pe,
				   enum fa_coh_dist d),
			void *arg);
/* Classifies the open segment's pending figures whose CPUs are placed now. */
void fa_switch_resolve(struct fa_engine *e);
/* The what-if replay's: the same, for each policy (fa_replay_close.c). */
void fa_replay_switch_resolve(struct fa_replay *r, const struct fa_engine *e);
/* A CPU placed: the unplaced counters' parts moved (fa_lay_place(), fa_replay_layout.c). */
void fa_replay_place(struct fa_replay *r, const struct fa_engine *e);
/* Classifies a write on @cpu after *@last_writer's, then sets *@last_writer. */
enum fa_switch fa_writer_switch(const struct fa_engine *e, s32 *last_writer,
				s32 cpu);

/* Engine @e's CPU topology as the coherence model takes it (fa_coh.h). */
static inline struct fa_coh_topo fa_engine_topo(const struct fa_engine *e)
{
	return (struct fa_coh_topo){ e->node, e->llc, e->nr_node, e->cfg.coh_miss };
}

/* fa_engine_cpu_node(), inline for the replay's loop over policies. */
static inline int fa_cpu_node(const struct fa_engine *e, s32 cpu)
{
	return fa_coh_at(e->node, e->nr_node, cpu);
}

/*
 * A write on another CPU than the last writer's @from (>= 0), on node
 * @n_to: what fa_writer_switch() tells apart, for a caller that looks
 * up @cpu's node once for many last writers (the replay).
 */
static inline enum fa_switch fa_switch_from_topo(const struct fa_coh_topo *t,
						 s32 from, int n_to)
{
	int n_from = fa_coh_at(t->node, t->n, from);

	if (n_from < 0 || n_to < 0)
		return FA_SWITCH_UNKNOWN;
	return n_from != n_to ? FA_SWITCH_XNODE : FA_SWITCH_NODE;
}

/* fa_switch_from_topo() on engine @e's topology. */
static inline enum fa_switch fa_switch_from(const struct fa_engine *e,
					    s32 from, int n_to)
{
	const struct fa_coh_topo t = fa_engine_topo(e);

	return fa_switch_from_topo(&t, from, n_to);
}

/*
 * fa_replay_rec.c, called with the engine's state as it was before: a
 * tg_update record of group @i on cfs_rq slot @c; the spans of group @i
 * up to @t when a segment closes; the closed segment @s.  -1: no memory.
 */
int fa_replay_tg_update(struct fa_replay *r, const struct fa_engine *e,
			u32 i, const struct fa_cfs *c, const struct fa_event *ev);
/*
 * A tg_read record of group @i on cfs_rq slot @c, after the engine's own
 * accounting of it (reads change nothing the replay takes from it but the
 * slot's rd_ideal); @good: it adds up (fa_read_adds_up(); else only its
 * access to the line counts).  -1: no memory.
 */
int fa_replay_tg_read(struct fa_replay *r, const struct fa_engine *e, u32 i,
		      const struct fa_cfs *c, const struct fa_event *ev,
		      bool good);
void fa_replay_advance(struct fa_replay *r, const struct fa_engine *e, u32 i,
		       u64 t);
int fa_replay_close(struct fa_replay *r, const struct fa_segment *s);
/*
 * Replays the records batched for the replay's helper thread (fa_replay_batch.c)
 * before anything they read changes: the nodes of CPUs.
 */
void fa_replay_flush(struct fa_replay *r);
/*
 * The end of the records (fa_engine_finish()): every record and close
 * replayed; -1 when the replay ran out of memory.
 */
int fa_replay_finish(struct fa_replay *r);

/* tg->load_avg before the attempt (a record holds it after). */
static inline s64 fa_tg_load_before(const struct fa_tg_update *u)
{
	return u->written ? (s64)((u64)u->tg_load_avg - (u64)u->delta) :
			    u->tg_load_avg;
}

/* fa_series.c */
void fa_series_start(struct fa_engine *e, u64 t);
void fa_series_advance(struct fa_engine *e, u64 t);
void fa_series_finish(struct fa_engine *e);
void fa_series_shares(struct fa_engine *e, double old_err, bool old_held,
		      double new_err, bool new_held);

#endif /* FA_ENGINE_INT_H */
