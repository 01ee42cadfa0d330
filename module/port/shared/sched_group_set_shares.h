/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's replacement of __sched_group_set_shares() of
 * kernel/sched/fair.c, shared by the ports: its body is the same in Linux
 * 6.1.192 (Debian 6.1.0-57-amd64) and 6.12.117 (Debian
 * 6.12.117+deb12-amd64), re-expressed with its update_load_avg() call going
 * to fl_update_load_avg().  A port whose kernel changed it keeps its own
 * copy in its directory, which the include path searches first.
 *
 * A definition, not an inline: include it from exactly one file of a port
 * (its shares.c), which port.c's replacement table names.
 */
#ifndef FAIRLAB_PORT_SCHED_GROUP_SET_SHARES_H
#define FAIRLAB_PORT_SCHED_GROUP_SET_SHARES_H

#include "update_load_avg.h"

/*
 * Mirrors __sched_group_set_shares() of Linux 6.1.192 (Debian
 * 6.1.0-57-amd64) and 6.12.117 (Debian 6.12.117+deb12-amd64),
 * kernel/sched/fair.c.
 *
 * Called by vmlinux's sched_group_set_shares() with shares_mutex held
 * (lockdep_assert_held() is empty without lockdep, so the mutex, static in
 * fair.c, is not named here).  update_rq_clock() and update_cfs_group()
 * are called out of line in vmlinux; rq_lock_irqsave() is sched.h's,
 * through compat.h (raw_spin_rq_lock_nested() resolved, the several vmlinux
 * copies of _raw_spin_rq_lock_irqsave() never named).
 */
int fl___sched_group_set_shares(struct task_group *tg, unsigned long shares)
{
	int i;

	/*
	 * We can't change the weight of the root cgroup.
	 */
	if (!tg->se[0])
		return -EINVAL;

	shares = clamp(shares, scale_load(MIN_SHARES), scale_load(MAX_SHARES));

	if (tg->shares == shares)
		return 0;

	tg->shares = shares;
	for_each_possible_cpu(i) {
		struct rq *rq = cpu_rq(i);
		struct sched_entity *se = tg->se[i];
		struct rq_flags rf;

		/* Propagate contribution to hierarchy */
		rq_lock_irqsave(rq, &rf);
		FL_VM(update_rq_clock)(rq);
		for_each_sched_entity(se) {
			fl_update_load_avg(cfs_rq_of(se), se, UPDATE_TG,
					   FL_SITE_SET_SHARES);
			fl_update_cfs_group(se);
		}
		rq_unlock_irqrestore(rq, &rf);
	}

	return 0;
}

#endif /* FAIRLAB_PORT_SCHED_GROUP_SET_SHARES_H */
