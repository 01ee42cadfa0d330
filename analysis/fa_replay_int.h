/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if replay (fa_replay.h), its state shared by the files that do its
 * jobs:
 *  - fa_replay.c: the per-policy state's layout (slots per group, cfs_rq
 *    and policy), made on demand; creation and results;
 *  - fa_replay_rec.c: what a record's decision shares under every policy
 *    (struct rp_rec), worked out once on the engine's thread;
 *  - fa_replay_decide.c: the per-policy loops over one record (the
 *    decision, the write, E, the shares error of a read);
 *  - fa_replay_batch.c: records batched; the policies split over two
 *    threads, the helper's half replayed on its own;
 *  - fa_replay_ring.c: or every policy on a replay thread fed through a
 *    ring of batches, a segment's close queued behind its records;
 *  - fa_replay_close.c: spans held to a segment's end, and the results
 *    (per policy) at its close.
 *
 * One pass: each record goes through every policy in a tight loop over
 * that cfs_rq's per-policy slots; nothing is kept per record.
 * Arithmetic on recorded values wraps (u64), as in fa_update.c.
 */
#ifndef FA_REPLAY_INT_H
#define FA_REPLAY_INT_H

#include <time.h>

#include "fa_engine_int.h"
#include "fa_forkjoin.h"
#include "fa_read.h"
#include "fa_replay.h"

/* A cache line's bytes, for what the replay's two threads must not share. */
#define RP_LINE 64

/*
 * One cfs_rq: the kernel's clock as rebuilt from since_ns, and its last
 * read (common to every policy: its time and whether a shares error
 * holds since, as in the engine's struct fa_cfs).
 */
struct rp_cfs {
	u64 kpub;		/* sched_clock of the kernel's last publish, or never */
	s64 off;		/* that clock minus the trace clock, at the last record */
	u64 rd_ts;		/* the last read */
	bool seen;
	bool rd_seen;		/* a shares error holds since rd_ts */
};

/*
 * One cfs_rq under one policy: the shares error of its last read (held
 * until its next read), worked out at the read (fa_err_val()).
 */
struct rp_rd {
	double a, rel, b;	/* |given - ideal|, / ideal, / tg_shares */
	u32 ia, ir, ib;		/* their histogram buckets */
};

/*
 * One task group under one policy: the shares error's integrals in the
 * open segment (per group, summed as the engine does).
 */
struct rp_gs {
	double sh_abs_time, sh_rel_time, sh_bnd_time;
};

/* One cfs_rq under one policy. */
struct rp_cp {
	s64 contrib;		/* replayed tg_load_avg_contrib */
	u64 pub;		/* rebuilt sched_clock of the last publish, or never */
};

/*
 * One task group under one policy: what every record touches (40 bytes),
 * and what only the relative error and tg->load_avg (budget) need.
 *
 * The integral of |E| is summed per record, as the engine sums it (the
 * same roundings: the recorded policy's figures are the report's, bit
 * for bit), but the time E is held goes to its histogram buckets only
 * when E changes (the group's clock - since): sums of durations are exact, so
 * the buckets are the same as with a bucket add per record, and most
 * records leave most policies' E unchanged.
 */
struct rp_gp {
	s64 err;		/* sum over seen cfs_rqs of (contrib - load) */
	double abs_time;	/* integral of |E| in the open segment (fa_err) */
	double a;		/* |E| (fa_err_val()) */
	u64 since;		/* fa_replay.clock[group] when E (a, ia, rel, ir) took its value */
	u32 ia;			/* its histogram bucket */
	s32 last_writer;
	struct fa_coh_line line;	/* the modeled line (fa_coh.h): 64 bytes in all */
};

struct rp_gpc {
	s64 sum_contrib;	/* sum over seen cfs_rqs of contrib */
	double rel_time;	/* integral of |E|/sum(load) in the open segment */
	double rel;		/* |E|/sum(load) (fa_err_val()), when has_rel */
	u32 ir;			/* its histogram bucket */
	bool has_rel;
};

/*
 * One task group: what both parts read at every record of it (the
 * engine's thread writes none of it then; its time is fa_replay.clock).
 */
struct rp_tg {
	u32 nr_cfs;
	struct rp_cfs *cfs;	/* [nr_cfs] */
	struct rp_cp *cp;	/* [nr_cfs][npol] */
	struct rp_gp *gp;	/* [npol] */
	struct rp_gpc *gc;	/* [npol] */
	struct rp_gs *gs;	/* [npol] */
	struct rp_rd *rd;	/* [nr_cfs][npol], from the group's first read */
	u32 nr_rd;		/* cfs_rqs rd has room for */
	struct fa_lay_group *lay;	/* [npol] with a split layout (fa_replay.split) */
	struct fa_cont_line *cont;	/* [npol] global lines' windows (fa_replay.cont_on) */
};

/*
 * One policy's integrals over every group, summed at a segment's close
 * (fa_replay_close()): the groups' slots are visited group by group, each
 * group's policies in a row, the sums of each policy still taken in group
 * order (the same roundings).
 */
struct rp_sums {
	double abs_time, rel_time, sh_abs_time, sh_rel_time, sh_bnd_time;
};

/* The counters of one policy, kept together (the results are large). */
struct rp_pol {
	struct fl_tg_rule rule;
	u64 writes, switches, xnode, xnode_unknown;
	u64 both;		/* writes where the kernel wrote too */
	struct fa_err *err;	/* its result's error statistics */
	struct fa_err *sh;	/* ... and shares error statistics */
	u64 coh[FA_COH_NR];	/* modeled transfers per distance */
	u64 coh_by_read;
	struct fa_layout lay;	/* its layout (fa_layout.h) */
	bool split;		/* not global: rp_tg.lay[] models its lines */
	u64 line_reads, cache_hits;	/* fa_replay_result's */
	struct fa_cont_sum cont;	/* the contention term's costs */
};

/*
 * Policies are replayed in the order of their rule's shape, each shape in
 * a loop of its own (replay_range()), "recorded" ones (any shape) last:
 * the shapes' branches then fold away.  Internal index k is result
 * order[k]; the per-policy arrays (pol, per-cfs_rq and per-group slots)
 * are in internal order.
 */
enum { RP_SCALED, RP_ABOVE, RP_GATED, RP_BUDGET, RP_ANY, RP_NR };

/* The rule shape of each RP_* but RP_ANY. */
static const u32 rp_range_shape[RP_ANY] = {
	[RP_SCALED] = FL_RULE_SCALED, [RP_ABOVE] = FL_RULE_ABOVE,
	[RP_GATED] = FL_RULE_GATED, [RP_BUDGET] = FL_RULE_BUDGET,
};

/*
 * The policies one thread replays: internal indices [lo, hi), with their
 * rules (each part makes its own, so that the parts share nothing they
 * write).
 */
struct rp_part {
	u32 lo, hi;
	u32 range[RP_NR + 1];	/* internal indices of each RP_*, within [lo, hi) */
	u32 rule_nr_cpus;	/* the rules are made for */
	bool rules_made;
	bool shapes_ok;		/* each rule has its range's shape */
	/* FA_REPLAY_RECORDED: the rule of the last record's own policy */
	struct fl_tg_policy rec_pol;
	u32 rec_nr_cpus;
	struct fl_tg_rule rec_rule;
	bool rec_made;
	u32 stock_gate;	/* the rules are made for (rp_rec.gate) */
	bool nomem;	/* a modeled line's sharers could not grow */
	/* its policies' switches of unknown distance (id: internal index) */
	struct fa_pending pend;
} __attribute__((aligned(RP_LINE)));	/* each thread's part on lines of its own */

/* What every policy's decision on one record shares (set by the engine's thread). */
struct rp_rec {
	u32 tg, cfs;		/* group index, cfs_rq's CPU */
	s32 cpu;		/* executing CPU */
	/*
	 * The engine's segment (fa_pending_add()): with the ring the replay
	 * thread may replay the record after the engine closed it.
	 */
	s32 seg;
	bool is_read;		/* a tg_read (the rd_* half below), or a tg_update */
	bool cseen;		/* the cfs_rq was seen before */
	/*
	 * The histograms' adds must saturate from this record on
	 * (fa_replay.hist_budget): replayed by the loops' general copy
	 * (rp_plain()), whose adds do.
	 */
	bool sat;
	s64 contrib;		/* recorded contrib before (a read: the engine's) */
	double dtd;		/* the span of E (a read: of its shares error) before */
	u64 ts;			/* split layouts only (fa_replay.split): the time */
	/*
	 * A record's own half only: the helper thread reads every batched
	 * record the engine thread wrote, so each line less is one less to
	 * move between their caches (fa_replay_batch.c).
	 */
	union {
		struct {	/* a tg_update */
			u32 policy, arg;	/* the record's own (FA_REPLAY_RECORDED) */
			u32 site, nr_cpus;	/* struct fl_tg_input's */
			s64 load;
			/*
			 * What E's term of the cfs_rq, (contrib - lold),
			 * is replaced with adds up to E + lold_w -
			 * (written ? contrib before : load): with lold_w =
			 * lold, the load last observed, or, at the
			 * cfs_rq's first record (no term yet), the
			 * recorded contrib, every policy's then.
			 */
			s64 lold_w;
			s64 sum_load;	/* the group's sum(load) after the record */
			s64 tg_ksum;	/* recorded tg->load_avg - the kernel's sum(contrib), before */
			u64 ksc;	/* rebuilt sched_clock */
			u64 before;	/* the kernel's last publish before, at a first record */
			u64 clock;	/* the group's clock after E's span before the record */
			/* where CPUs 0-63 are from cpu (a tg_update on a CPU below 64) */
			struct fa_coh_near near;
			int node;	/* cpu's node, -1 unknown */
			/*
			 * stock's argument is its kernel's rate-limit gate
			 * (us; 0 before 6.7, 1000 from 6.7): a listed
			 * "stock" is replayed with the gate the recording's
			 * own stock records carry, from the first of them on
			 * (without a gate before it, or in a recording
			 * without one): fa_replay.stock_gate at this record.
			 * In the record, so that a part's rules do not
			 * depend on its having seen the records before.
			 */
			u32 gate;
			/* resync: a site that makes no decision (FL_SITE_NO_DECISION) */
			bool evicted, resync, written, sum_changed, spans;
		};
		/*
		 * A tg_read: what every policy's shares error and line read
		 * share (replay_read()).  The policy's own tg->load_avg is
		 * the recorded one plus its E minus the kernel's (the
		 * cfs_rqs' contribs are all the two sums differ by); its
		 * cfs_rq's contrib the recorded one plus its own minus the
		 * kernel's (contrib, above, when cseen).
		 */
		struct {
			s64 rd_tla;		/* the value read */
			/*
			 * The sum that read would have computed: rd_tla,
			 * but for a read the kernel served from a split
			 * layout's cache (rd_hit) the sum of the seen
			 * cfs_rqs' contribs then (what every policy not
			 * replaying that hit reads, with its own E for the
			 * kernel's).
			 */
			s64 rd_tla_sum;
			s64 rd_contrib, rd_load, rd_tg_shares, rd_shares;	/* as recorded */
			s64 rd_ideal;		/* shares with tg->load_avg = sum(load) */
			s64 rd_kerr;		/* the kernel's E */
			u64 rd_dt;		/* the span of the cfs_rq's last read error (0: none) */
			/*
			 * A tg_read made under a split layout (it names a
			 * domain): that layout, and whether the kernel
			 * served it from the cache; a policy replayed
			 * under the same layout takes that outcome
			 * (rp_lay_read()).
			 */
			struct fa_layout rd_lay;
			bool rd_timed;		/* the group has a tracked sum(load) */
			bool rd_split, rd_hit;
		};
	};
};

/*
 * Records gathered, then replayed a batch at a time (fa_replay_flush()),
 * in record order under each part: on one thread too, where the engine's
 * loop over a batch and then the replay's took 7-10% less CPU than the
 * two interleaved per record (docs/history/2026-12-05-analyzer-speed.md,
 * "Speed of fairlab whatif").
 */
#define RP_BATCH 2048

struct fa_replay {
	u32 npol;
	bool rel;		/* relative error too (FA_REPLAY_REL) */
	bool sh_abs;		/* absolute shares error too (FA_REPLAY_SHARES_ABS) */
	bool split;		/* a policy's layout is split (rp_tg.lay) */
	/*
	 * The domains of each layout kind (fa_layout_doms()), as of engine
	 * topology topo_gen: set by push() while no part is replayed (a
	 * topology change flushes the replay first).
	 */
	u32 topo_gen;
	bool doms_set;
	/* the contention term (fa_replay_set_contention()) */
	bool cont_on;
	u64 cont_w;
	double cont_lat[FA_COH_NR];
	u32 cont_target;
	double cont_k;		/* cont_target / CPUs per node, as of topo_gen */
	s32 *doms[FA_LAYOUT_NR];
	u32 ndoms[FA_LAYOUT_NR], doms_cap[FA_LAYOUT_NR];
	struct rp_pol *pol;	/* internal order */
	u32 *order;		/* internal index -> result index */
	u32 range[RP_NR + 1];	/* internal indices of each RP_* */
	struct fa_replay_result *res;
	const struct fa_engine *e;	/* the engine records come from */
	/*
	 * Its CPUs' nodes and LLCs as of engine topology topo_seen: the
	 * parts' only view of them (sync_topo(), fa_replay_rec.c).  The engine's own
	 * struct shares cache lines with what its thread writes at every
	 * record, and the helper thread reading them there at every record
	 * cost both threads a line transfer each time.
	 */
	struct fa_coh_topo topo;
	u32 topo_seen;
	bool topo_set;
	u32 *pend_held;		/* [npol]: both parts' pending entries per policy */
	struct rp_sums *sums;	/* [npol], fa_replay_close()'s */
	/*
	 * part[0] on the engine's thread, the records batched: the engine
	 * fills batch[0 .. nbatch) and replays it when full.  With a helper
	 * thread (fj), part[1] on it: the helper replays the previous batch
	 * (hb[0 .. hn)) while the engine fills the next, two buffers in turn
	 * (rp_handoff()).  While the helper runs (busy), the
	 * engine's thread touches no state of part[1] and moves no array the
	 * helper reads (rp_quiesce() first).  With the ring instead, part[1]
	 * holds every policy and the engine fills batch, a slot of the ring
	 * (fa_replay_ring.c); the same rule holds while any slot is queued.
	 */
	struct rp_part part[2];
	u32 mid;		/* part[1]'s first policy, unless solo (set_solo()) */
	u32 stock_gate;		/* the engine thread's (rp_rec.gate) */
	struct fa_fj *fj;
	/* or every policy on a replay thread fed through a ring (part[1]) */
	struct rp_ring *ring;
	struct rp_rec *buf;	/* [2 * RP_BATCH]; none with the ring (its slots) */
	struct rp_rec *batch, *hb;
	u32 hn;
	bool busy;
	bool nomem1;		/* part[1].nomem, read when the helper was idle */
	u64 mark;		/* the engine thread's CPU time at the last handoff */
	/*
	 * The split between the parts follows their work (rebalance()):
	 * policies differ in cost (a shape's loop, writes, "recorded" on the
	 * generic loop), so an even split by count is not an even split of
	 * the work.  CPU times, ns.
	 */
	u64 helper_ns;		/* the helper's part of the last batch */
	u64 own_avg, other_avg;	/* per batch, averaged (rebalance()) */
	/*
	 * Whether the helper pays, tried by the wall clock (choose(),
	 * fa_replay_batch.c) unless FAIRLAB_THREADS asked for it (forced):
	 * solo, every policy in part[0] on the engine's thread.
	 */
	bool forced, solo;
	u8 phase;
	u32 left;		/* full batches left in the phase */
	u64 phase_t0;		/* its start, CLOCK_MONOTONIC ns; 0 before the first */
	u64 tried[2];		/* the last trial's wall ns, on one thread and on two */
	u64 batches[2];		/* full batches replayed on one thread and on two */

	/*
	 * fa_coh_near of each CPU below 64 (bit set in near_ok), as of
	 * engine topology near_gen: worked out at a CPU's first write, not
	 * per record (push()'s thread only).
	 */
	struct fa_coh_near near[64];
	u64 near_ok;
	u32 near_gen;

	bool started;
	u32 ntg;
	struct rp_tg *tg;	/* indexed like the engine's group table */
	/*
	 * [ntg]: each group's time observed, the sum of its spans; the
	 * engine's thread's alone (the parts take it from rp_rec.clock), so
	 * apart from rp_tg, which the helper reads at every record.
	 */
	u64 *clock;

	/*
	 * Written by the engine's thread at every record: on a cache line of
	 * their own, away from what the helper reads at every record (the
	 * line would move between the threads' CPUs at each record).
	 */
	u32 nbatch __attribute__((aligned(RP_LINE)));
	u64 attempts;
	u64 rec_writes;		/* attempts the kernel wrote (resyncs too) */
	/*
	 * The spans handed to the replay so far, summed (saturating): a
	 * group's E held (its clock's steps), a cfs_rq's read error held
	 * (rd_dt), each also at a segment's close.  A policy's histogram
	 * bucket only ever receives a part of that sum (E's holds of a
	 * group add up to its clock's steps; a read's span goes once to
	 * each policy), so while the sum is below 2^64 - 1 no bucket can
	 * saturate, and the hot loops add plainly
	 * (fa_hist_add_bucket_exact()); from the record where it reaches
	 * 2^64 - 1 (rp_rec.sat), corrupt timestamps, they saturate as the
	 * engine's own do.
	 */
	u64 hist_budget;
	u64 reads, read_untracked;	/* as the engine counts them */
};

/*
 * The time policy @e's E, (@q, @qc), has held its value, up to @clock,
 * into its histogram buckets (rp_gp); what fa_err_span() does but the
 * integral and the total.
 */
static __attribute__((always_inline)) inline void
hold(struct fa_err *e, struct rp_gp *q, const struct rp_gpc *qc, u64 clock,
     const bool rel, const bool sat)
{
	u64 held = clock - q->since;

	if (held) {
		/*
		 * The policies' histograms are marked all in use (fa_replay.c);
		 * @sat: unless fa_replay.hist_budget says no bucket can pass
		 * 2^64 - 1.
		 */
		fa_hist_add_bucket_as(&e->abs, q->ia, held, true, sat);
		if (rel && qc->has_rel)
			fa_hist_add_bucket_as(&e->rel, qc->ir, held, true, sat);
		q->since = clock;
	}
}

/* The spans handed to the replay: @dt more (fa_replay.hist_budget). */
static inline void rp_budget(struct fa_replay *r, u64 dt)
{
	r->hist_budget = fa_hist_sat_add(r->hist_budget, dt);
}

/* CLOCK_MONOTONIC, ns (0 where the clock is missing). */
static inline u64 rp_wall_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

/*
 * What a segment's close leaves to the replay (fa_replay_close.c), worked
 * out on the engine's thread: a cfs_rq's read errors held @dt more
 * (RP_CAP_READS), a group's E held @dt more up to its @clock
 * (RP_CAP_ADV), the segment's own figures (RP_CAP_CLOSE).  Applied at
 * once on one thread, or queued behind the records in the ring.
 */
enum { RP_CAP_READS, RP_CAP_ADV, RP_CAP_CLOSE };
struct rp_closecap {
	u64 sh_time_ns, sh_rel_time_ns, err_time_ns, err_rel_time_ns;
	u64 sh_abs_total, sh_rel_total, sh_bnd_total;
	u64 t_start, t_end;
	/* the engine thread's counters at the close */
	u64 reads, read_untracked, attempts, rec_writes;
};
struct rp_cap {
	u32 kind, i, k;		/* RP_CAP_*, group index, cfs_rq slot */
	u64 dt, clock;
	struct rp_closecap cl;	/* RP_CAP_CLOSE */
};
/* fa_replay_close.c: @c applied (on the thread that replays). */
void rp_cap_apply(struct fa_replay *r, const struct rp_cap *c);

/*
 * fa_replay_ring.c: every policy on a replay thread of its own, fed
 * through a ring of RP_RING_SLOTS batches (32 x 2,048 records of 160
 * bytes: 10 MB, whatever the length).
 */
#define RP_RING_SLOTS 32
struct rp_slot {
	struct rp_rec *recs;	/* [RP_BATCH] */
	u32 n;			/* records */
	u32 ncap, capn;		/* cap[0 .. ncap), room for capn */
	struct rp_cap *cap;	/* queued behind the records */
};
/* 0: the thread started, r->batch its first slot; -1: not (one thread). */
int rp_ring_start(struct fa_replay *r);
/* The engine's slot to the replay thread (@sync: and wait until all are replayed). */
void rp_ring_handoff(struct fa_replay *r, bool sync);
/* Wait until every slot handed over is replayed (the engine's own stays). */
void rp_ring_drain(struct fa_replay *r);
/* Room for one more capture behind the engine's slot's records; NULL: no memory. */
struct rp_cap *rp_ring_cap(struct fa_replay *r);
/* How long each side waited for the other, wall ns. */
void rp_ring_waits(const struct fa_replay *r, u64 *engine_ns, u64 *replay_ns);
void rp_ring_stop(struct fa_replay *r);

/* fa_replay.c */
void rp_set_part(struct fa_replay *r, struct rp_part *pt, u32 lo, u32 hi);
/* Group @i's state, its cfs_rq slot @cpu created (zeroed) on demand. */
struct rp_tg *rp_get_tg(struct fa_replay *r, u32 i, u32 cpu);
/* Group @t's read slots, for every cfs_rq slot it has (zeroed: no error yet). */
int rp_get_rd(struct fa_replay *r, struct rp_tg *t);

/* fa_replay_layout.c: a split layout's lines and counters (fa_layout.h) */
/* Policy @p's contention windows of group @t's domain lines closed. */
void rp_lay_cont_close(struct fa_replay *r, struct rp_tg *t, u32 p);
/* Policy @p's first sight of cfs_rq @x->cfs: its contrib in its CPU's domain. */
void rp_lay_seed(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		 u32 p, const struct rp_rec *x);
/* The writer's domain counter, read by policy @p before it decides. */
s64 rp_lay_decide_read(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		       u32 p, const struct rp_rec *x, bool touch);
/* Policy @p's publish of @delta. */
void rp_lay_write(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		  u32 p, const struct rp_rec *x, s64 delta);
/*
 * A recorded read under policy @p, whose sum is @sum: true for a cache
 * hit, the stale sum used in *@used.
 */
bool rp_lay_read(struct fa_replay *r, struct rp_part *pt, struct rp_tg *t,
		 u32 p, const struct rp_rec *x, s64 sum, s64 *used);

/* fa_replay_decide.c */
/* One record under the policies of part @pt. */
void rp_replay_rec(struct fa_replay *r, struct rp_part *pt, const struct rp_rec *x);
/* Records @b[0 .. @n) under part @pt's policies. */
void rp_replay_batch(struct fa_replay *r, struct rp_part *pt,
		     const struct rp_rec *b, u32 n);

/* fa_replay_batch.c */
/* The helper thread's job: its part of the handed-off batch. */
void rp_helper_job(void *arg);
/* The helper's batch done: its state is the engine thread's to touch. */
void rp_quiesce(struct fa_replay *r);
/* The filled batch to both parts (@sync: and wait for the helper). */
void rp_handoff(struct fa_replay *r, bool sync);

#endif /* FA_REPLAY_INT_H */
