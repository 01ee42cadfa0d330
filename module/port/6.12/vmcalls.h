/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unexported vmlinux functions the 6.12 port calls, as static calls.
 *
 * As in the 6.1 port: a static call is patched at init, once its symbol
 * is resolved (vmcalls.c, fl_syms_calls), into a direct call to the
 * vmlinux function, where a call through a pointer would cost a retpoline
 * thunk.  Call one as fl_update_cfs_group(se).  Its type is that of
 * the vmlinux function: typeof() of its declaration where a kernel header
 * has one, the 6.12.117 prototype where it is static in fair.c.  Each has
 * exactly one symbol in the debug vmlinux of 6.12.117+deb12-amd64 (nm) and
 * no .isra/.constprop/.part suffix, so its ABI is that of its C prototype.
 *
 * Only what the port files written so far call is listed (see README in
 * this directory); a replacement added later adds its own.
 */
#ifndef FAIRLAB_PORT612_VMCALLS_H
#define FAIRLAB_PORT612_VMCALLS_H

#include <linux/static_call.h>
#include "vmcalls_config.h"	/* FL_VM_CALLS_NUMA, FL_VM_CALLS_LAZY */

#define FL_VM_CALLS(X)							\
	/* fair.c statics, out of line (t) in vmlinux */		\
	X(update_curr, void (struct cfs_rq *))				\
	X(reweight_entity, void (struct cfs_rq *, struct sched_entity *,	\
			   unsigned long))			\
	X(__dequeue_entity, void (struct cfs_rq *, struct sched_entity *)) \
	X(task_h_load, unsigned long (struct task_struct *))		\
	X(cpu_util, unsigned long (int, struct task_struct *, int, int)) \
	FL_VM_CALLS_NUMA(X)						\
	X(place_entity, void (struct cfs_rq *, struct sched_entity *, int)) \
	X(__enqueue_entity, void (struct cfs_rq *, struct sched_entity *)) \
	X(__account_cfs_rq_runtime, void (struct cfs_rq *, u64))	\
	X(throttle_cfs_rq, bool (struct cfs_rq *))			\
	X(requeue_delayed_entity, void (struct sched_entity *))	\
	X(min_vruntime_cb_propagate, void (struct rb_node *, struct rb_node *)) \
	X(hrtick_update, void (struct rq *))				\
	X(update_entity_lag, void (struct cfs_rq *, struct sched_entity *)) \
	X(set_next_buddy, void (struct sched_entity *))		\
	X(attach_entity_load_avg, void (struct cfs_rq *, struct sched_entity *)) \
	X(detach_entity_load_avg, void (struct cfs_rq *, struct sched_entity *)) \
	/* global (T) in pelt.c, core.c, fair.c, stats.c, deadline.c,	\
	   delayacct.c, printk.c; not exported */			\
	X(__update_load_avg_se, typeof(__update_load_avg_se))		\
	X(__update_load_avg_cfs_rq, typeof(__update_load_avg_cfs_rq))	\
	X(update_rq_clock, typeof(update_rq_clock))			\
	X(set_task_rq_fair, typeof(set_task_rq_fair))			\
	X(update_other_load_avgs, typeof(update_other_load_avgs))	\
	X(resched_curr, typeof(resched_curr))				\
	FL_VM_CALLS_LAZY(X)						\
	X(cpu_util_cfs, typeof(cpu_util_cfs))				\
	X(__update_stats_wait_end, typeof(__update_stats_wait_end))	\
	X(__update_stats_wait_start, typeof(__update_stats_wait_start))	\
	X(__update_stats_enqueue_sleeper,				\
	  typeof(__update_stats_enqueue_sleeper))			\
	X(dl_server_update_idle_time, typeof(dl_server_update_idle_time)) \
	X(dl_server_start, typeof(dl_server_start))			\
	X(call_trace_sched_update_nr_running,				\
	  typeof(call_trace_sched_update_nr_running))			\
	X(sched_can_stop_tick, typeof(sched_can_stop_tick))		\
	X(_printk_deferred, typeof(_printk_deferred))			\
	X(walk_tg_tree_from, typeof(walk_tg_tree_from))			\
	X(entity_eligible, typeof(entity_eligible))			\
	X(__delayacct_blkio_start, typeof(__delayacct_blkio_start))	\
	/* what sched.h's rq_lock*() call (compat.h renames the names) */ \
	X(raw_spin_rq_lock_nested, void (struct rq *, int))		\
	X(raw_spin_rq_unlock, void (struct rq *))

#define FL_VM_DECLARE(sym, type)	DECLARE_STATIC_CALL(fl_vm_##sym, type);
FL_VM_CALLS(FL_VM_DECLARE)
#undef FL_VM_DECLARE

/* Call the vmlinux function @sym directly (once fl_syms_calls is resolved). */
#define FL_VM(sym)	static_call(fl_vm_##sym)

#endif /* FAIRLAB_PORT612_VMCALLS_H */
