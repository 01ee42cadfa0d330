// SPDX-License-Identifier: GPL-2.0
/*
 * The policy core: update_tg_load_avg() with its publish decision taken
 * by the active tg policy, every attempt traced (fairlab:tg_update) and
 * counted; the resync that publishes what a lax policy held back; and
 * the CPU-offline withdrawal of a contribution (clear_tg_load_avg()).
 *
 * Invariant kept under every policy: a publish moves tg->load_avg and the
 * cfs_rq's tg_load_avg_contrib together, so tg->load_avg == Σ contrib;
 * under a split tg_layout (layout.h) the publish moves the CPU's domain
 * counter instead, and tg->load_avg + Σ domain counters == Σ contrib.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include "port.h"
#include "fairlab.h"
#include "lockhold.h"
#include "fairlab_trace_events.h"

/*
 * fl_tg_update() (tg_update.h) when tracing is on or the rule needs the
 * clock or tg->load_avg: the same update, with every attempt traced.  A
 * publish is stamped with the clock the decision read, else read now.
 */
void fl_tg_update_slow(struct cfs_rq *cfs_rq, unsigned int site,
		       const struct fl_tg_state *st)
{
	struct task_group *tg = cfs_rq->tg;
	struct fl_tg_input in;
	unsigned long load, contrib;
	bool traced, timed, written;
	atomic_long_t *ctr;
	u64 now = 0;
	s16 dom;
	int cpu;

	load = cfs_rq->avg.load_avg;
	contrib = cfs_rq->tg_load_avg_contrib;
	traced = trace_tg_update_enabled();
	/* The clock before deciding only when a policy or the trace needs it. */
	timed = traced || fl_tg_rule_needs_clock(&st->rule);
	cpu = cpu_of(rq_of(cfs_rq));

	in.delta = (long)(load - contrib);
	in.contrib = contrib;
	in.site = site;
	in.nr_cpus = fl_nr_cpus;
	in.since_ns = FL_SINCE_NEVER;
	in.tg_load_avg = 0;
	/*
	 * Under a split layout the counter written is the CPU's domain's,
	 * and it is also what the rule decides on (budget: its own domain's
	 * share), as the analyzer's replay does (fa_replay_layout.c).
	 */
	ctr = fl_lay_target(tg, cpu, &dom);
	if (traced || fl_tg_rule_needs_tg_load(&st->rule))
		in.tg_load_avg = atomic_long_read(ctr);
	if (timed) {
		/* the clock and publish stamp the port's kernel rate-limits by */
		now = fl_port_tg_clock(cfs_rq, cpu);
		in.since_ns = fl_port_tg_since(cfs_rq, cpu, now);
	}

	written = fl_tg_rule_decide(&st->rule, &in);
	if (written) {
		fl_gen_bump(tg, cpu);	/* for the audit (audit.c) */
		atomic_long_add(in.delta, ctr);
		cfs_rq->tg_load_avg_contrib = load;
		if (timed)
			fl_port_tg_stamp(cfs_rq, cpu, now);
		else
			fl_tg_stamp_now(cfs_rq, cpu);
	}
	fl_stats_tg(site, st->pol.id, written);

	if (traced)
		trace_tg_update(fl_tg_id(tg), cpu, load, contrib, in.delta,
				written,
				in.tg_load_avg + (written ? in.delta : 0),
				in.since_ns, site, st->pol.id, st->pol.arg,
				fl_trace_cpus_dom(in.nr_cpus, dom));
}

/*
 * A write at a site that makes no publish decision (FL_SITE_NO_DECISION):
 * @load becomes @cfs_rq's contribution, stamped now (a publish like any
 * other: ratelimit and the kernel's rate limit count from it), counted
 * and traced as written.  Under the cfs_rq's rq lock.
 *
 * The clock is read here, for this cfs_rq, as clear_tg_load_avg() of
 * Linux 6.12.117 reads it for each cfs_rq of the CPU going offline: a
 * clock read once per batch of publishes (resync's hold) would stamp the
 * later ones early by the time the batch took, and the rate limit that
 * follows would let their next publish through that much too soon.
 */
static void fl_tg_publish_always(struct cfs_rq *cfs_rq, int cpu,
				 unsigned long load, unsigned int site,
				 const struct fl_tg_policy *pol)
{
	struct task_group *tg = cfs_rq->tg;
	unsigned long contrib = cfs_rq->tg_load_avg_contrib;
	long delta = (long)(load - contrib);
	atomic_long_t *ctr;
	s16 dom;

	fl_gen_bump(tg, cpu);	/* for the audit (audit.c) */
	ctr = fl_lay_target(tg, cpu, &dom);	/* layout_hot.h */
	atomic_long_add(delta, ctr);
	cfs_rq->tg_load_avg_contrib = load;
	fl_tg_stamp_now(cfs_rq, cpu);
	fl_stats_tg(site, pol->id, true);
	if (trace_tg_update_enabled())
		trace_tg_update(fl_tg_id(tg), cpu, load, contrib, delta, true,
				atomic_long_read(ctr), FL_SINCE_NEVER, site,
				pol->id, pol->arg,
				fl_trace_cpus_dom(fl_nr_cpus, dom));
}

/*
 * Mirrors clear_tg_load_avg() of Linux 6.12.117 (6.8+), kernel/sched/fair.c,
 * for the ports whose rq_offline_fair() inlines it: a CPU going offline
 * withdraws @cfs_rq's whole contribution, unconditionally, and stamps its
 * publish time.  No policy decides; the write is traced (site
 * clear_tg_load_avg, load 0, delta = -contrib) and counted like every
 * other.  Caller holds the cfs_rq's rq lock.
 */
void fl_tg_clear(struct cfs_rq *cfs_rq)
{
	int cpu = cpu_of(rq_of(cfs_rq));

	/* No need to update load_avg for root_task_group, as it is not used. */
	if (cfs_rq->tg == fl_root_task_group)
		return;
	fl_tg_publish_always(cfs_rq, cpu, 0, FL_SITE_CLEAR_TG_LOAD_AVG,
			     &fl_tg_state_get()->pol);
}

/*
 * Publish @tg's held-back delta on @cpu (@arg: the policy in force);
 * fl_rq_walk_all()'s step, under that CPU's rq lock.
 */
static void fl_resync_one(struct task_group *tg, int cpu, void *arg)
{
	const struct fl_tg_policy *pol = arg;
	struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];
	unsigned long load;

	/* a CPU the kernel does not publish for (tg_hooks.h) */
	if (fl_port_tg_skip(cfs_rq))
		return;
	load = cfs_rq->avg.load_avg;
	if (load == cfs_rq->tg_load_avg_contrib)
		return;
	fl_tg_publish_always(cfs_rq, cpu, load, FL_SITE_RESYNC, pol);
}

/*
 * Publish, on every CPU and for every task group, what the previous policy
 * held back, so that a switch or an unpatch leaves tg->load_avg exact
 * (== Σ load), at least as accurate as stock would.  Process context; the
 * walk holds each CPU's rq lock for at most FL_RESYNC_GROUPS_PER_HOLD
 * groups at a time (fl_rq_walk_all(), lockhold.c).
 */
void fl_resync_all(void)
{
	struct fl_tg_policy pol = fl_tg_policy_get();

	fl_rq_walk_all(fl_resync_one, &pol, FL_HOLD_RESYNC);
}
