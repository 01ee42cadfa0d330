/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.12 port's hooks into the shared tg_update core (tg_update.h,
 * tg_update.c): what update_tg_load_avg() of Linux 6.12.117 (Debian
 * 6.12.117+deb12-amd64, kernel/sched/fair.c) does besides the publish
 * decision.  Every port defines the same five; see "Adding a port" in
 * README.md.
 *
 * 6.12.117 returns early for a CPU that is not active (6.8, with
 * clear_tg_load_avg()), and rate-limits each cfs_rq to one publish per ms
 * (6.7) by sched_clock_cpu() against cfs_rq->last_update_tg_load_avg.
 * The hooks read and write that same field: a publish by fairlab stamps
 * it as the kernel's own would, so that after an unpatch vmlinux's rate
 * limit continues from fairlab's last publish; the module's own table of
 * publish times (pubtime.c), which 6.1 needs, is not read on this kernel.
 */
#ifndef FAIRLAB_PORT612_TG_HOOKS_H
#define FAIRLAB_PORT612_TG_HOOKS_H

#include <linux/sched/clock.h>
#include "policy/fairlab_abi.h"	/* FL_SINCE_NEVER */

/* stock's rate limit in us (the tg_update.policy_arg of stock): NSEC_PER_MSEC */
#define FL_PORT_STOCK_GATE_US	1000

/*
 * True when update_tg_load_avg() returns before deciding: "rq has been
 * offline and doesn't contribute to the share anymore".
 */
static __always_inline bool fl_port_tg_skip(struct cfs_rq *cfs_rq)
{
	return !cpu_active(cpu_of(rq_of(cfs_rq)));
}

/* The clock update_tg_load_avg() rate-limits by (ns). */
static __always_inline u64 fl_port_tg_clock(struct cfs_rq *cfs_rq, int cpu)
{
	return sched_clock_cpu(cpu);
}

/*
 * ns since @cfs_rq last published, by the kernel's own stamp.  0 is the
 * stamp of a cfs_rq that never published (kzalloc'ed): FL_SINCE_NEVER
 * then (update_tg_load_avg() reads now - 0 = now there, past the gate
 * too).  Otherwise the kernel's own unsigned difference, so that stock
 * decides as update_tg_load_avg() does even when the clock reads behind
 * the stamp (a wrapped, huge interval: the gate is open).
 */
static __always_inline u64 fl_port_tg_since(struct cfs_rq *cfs_rq, int cpu,
					    u64 now)
{
	u64 last = cfs_rq->last_update_tg_load_avg;

	if (!last)
		return FL_SINCE_NEVER;
	return now - last;
}

/*
 * @cfs_rq published at @now: update_tg_load_avg()'s own stamp.  Every
 * publish stamps, whatever rule decided it and whether traced or not
 * (tg_update.h: fl_tg_stamp_now()), with this port's clock, so that after
 * a switch to stock or ratelimit, or an unpatch, each cfs_rq's next
 * publish waits the full 1 ms from its last one.
 */
static __always_inline void fl_port_tg_stamp(struct cfs_rq *cfs_rq, int cpu,
					     u64 now)
{
	cfs_rq->last_update_tg_load_avg = now;
}

#endif /* FAIRLAB_PORT612_TG_HOOKS_H */
