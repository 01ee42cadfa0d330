/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if replay: every cfs_rq's recorded load sequence decided again by
 * module/policy/ under other policies, all of them in the engine's one
 * pass over the records.
 *
 * Per cfs_rq and policy the replay keeps its own tg_load_avg_contrib and
 * last publish time; per group and policy its own E.  At each tg_update
 * record the recorded load is the input: the policy decides on
 * delta = load - replayed contrib (fl_tg_rule_decide(), the code the
 * kernel runs), a write sets the replayed contrib to load, and E, writer
 * switches (a write executes on the record's CPU) and the histograms are
 * kept by the engine's own code (fa_err, fa_writer_switch()).
 *
 * Inputs besides delta and contrib, per record:
 *  - site, nr_cpus: the record's.
 *  - tg_load_avg (budget): the recorded tg->load_avg before the attempt
 *    plus the replayed minus the recorded sum of contribs of the group.
 *  - since_ns (ratelimit): the kernel measures it on sched_clock_cpu() of
 *    the cfs_rq's CPU, not on the trace clock.  The replay rebuilds that
 *    clock per cfs_rq from the recorded since_ns: the kernel's last
 *    publish of a cfs_rq is one of its recorded writes, so the clock at a
 *    record is that write's clock plus its since_ns, exactly.  Where the
 *    chain breaks (a cfs_rq's first record, a resync or
 *    clear_tg_load_avg publish, whose since_ns is not recorded) the clock is carried on from the trace
 *    clock at the offset it last had.
 *  - the state before a cfs_rq's first record: the kernel's (recorded
 *    contrib, publish time from since_ns).
 * A resync record (a policy switch publishing what the previous policy
 * held back) publishes under every replayed policy, and so does a
 * clear_tg_load_avg record (a CPU going offline withdraws its
 * contribution: recorded as load 0, every policy's contrib becomes 0);
 * neither is a decision, both stamp the publish time; a record whose
 * since_ns says the kernel lost the cfs_rq's publish time (its table
 * evicted it) makes every policy forget it too.
 *
 * Consequence: replayed under the policy a recording was made with, the
 * replay takes the recorded decision at every record, and its figures
 * are the report's, bit for bit (tests/unit/whatif.t).  Under another
 * policy it cannot see feedback: a different tg->load_avg changes group
 * weights and so the recorded loads themselves.
 *
 * Memory: per task group and CPU one slot per policy, and two batches of
 * 2048 records when the policies are split over two threads (the second
 * part on a helper thread, fa_forkjoin.h, replaying one batch while the
 * engine fills the other: same figures, a wall-clock gain where a core
 * is free); nothing that grows with the trace.
 */
#ifndef FA_REPLAY_H
#define FA_REPLAY_H

#include "fa_layout.h"
#include "fa_stats.h"

/* fl_tg_policy.id of "each record's own policy and argument". */
#define FA_REPLAY_RECORDED	0xffffffffu

struct fa_replay;

struct fa_replay_result {
	struct fl_tg_policy policy;	/* as asked */
	/*
	 * Whole trace under this policy: t_start, t_end, attempts, writes,
	 * switches, xnode, xnode_unknown, err; no per-group, per-CPU or
	 * per-site arrays.  The metrics of metrics.h apply.
	 */
	struct fa_segment fig;
	u64 diverged;		/* attempts decided otherwise than recorded */
	/*
	 * The layout of tg->load_avg replayed (fa_layout.h; global: the
	 * kernel's one line, every figure as without layouts), and under a
	 * split one: the counter lines the recorded reads (tg_read) read
	 * (every domain's at a miss, none at a cache hit), and the hits.
	 */
	struct fa_layout layout;
	u64 line_reads, cache_hits;
	/*
	 * With fa_replay_set_contention(): the transfers' cost with the
	 * contention term (fa_cont.h), ns, as recorded and with k times the
	 * CPUs per node (cont_scale, from the recording's topology).
	 */
	double cont_ns, cont_scaled_ns, cont_scale;
};

/* What fa_replay_new() replays besides |E| and the relative shares error. */
enum {
	/*
	 * The relative error |E|/sum(load) (a division per change of E per
	 * policy: 40% more instructions per policy and record); without it,
	 * fig.err's relative figures stay 0.
	 */
	FA_REPLAY_REL = 1 << 0,
	/*
	 * The absolute shares error |given - ideal| (its integral,
	 * histogram and maximum: fig.shares' abs figures); without it they
	 * stay 0 (whatif prints the relative shares error only).
	 */
	FA_REPLAY_SHARES_ABS = 1 << 1,
};

/* @n policies (copied), @flags FA_REPLAY_*; NULL when out of memory. */
struct fa_replay *fa_replay_new(const struct fl_tg_policy *pol, u32 n,
				unsigned int flags);
/* The same, policy i under layout @lay[i] (NULL: all global). */
struct fa_replay *fa_replay_new_layouts(const struct fl_tg_policy *pol,
					const struct fa_layout *lay, u32 n,
					unsigned int flags);
void fa_replay_free(struct fa_replay *r);

/*
 * Before the replay: the contention term (fa_cont.h), windows of
 * @window_ns, transfers priced at @ns (same LLC, node, cross-node; an
 * unknown distance as the cheapest), and scaled to @cpus_per_node CPUs
 * per node (k = @cpus_per_node / the recording's CPUs per node).
 */
void fa_replay_set_contention(struct fa_replay *r, u64 window_ns,
			      const double ns[3], u32 cpus_per_node);

/*
 * The threads it replays on: 2 with a helper (fa_forkjoin.h) or a replay
 * thread fed through a ring, else 1.
 */
int fa_replay_threads(const struct fa_replay *r);
/*
 * Whether every policy is replayed on a thread of its own, fed through a
 * ring of batches (FAIRLAB_THREADS, fa_forkjoin.h); and how long, wall
 * clock, the engine's thread waited for a free slot or the replay at a
 * drain (@engine_wait_ns) and the replay thread for records.
 */
bool fa_replay_ringed(const struct fa_replay *r, u64 *engine_wait_ns,
		      u64 *replay_wait_ns);

/*
 * With a helper: the full batches of records replayed on the engine's
 * thread alone (@one) and on both (@two), and whether FAIRLAB_THREADS
 * asked for both (else the faster way is tried as it goes:
 * fa_replay_batch.c).  0 on one thread.
 */
int fa_replay_batches(const struct fa_replay *r, u64 *one, u64 *two);

/* After fa_engine_finish() of the engine it was given to (fa_engine_cfg). */
u32 fa_replay_count(const struct fa_replay *r);
const struct fa_replay_result *fa_replay_result(const struct fa_replay *r, u32 i);

#endif /* FA_REPLAY_H */
