/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unexported vmlinux functions the 6.1 port calls, as static calls.
 *
 * A call through a resolved pointer costs a retpoline thunk on this
 * kernel (CONFIG_RETPOLINE), and the replaced functions make a dozen such
 * calls per context switch.  A static call is patched at init, once its
 * symbol is resolved (vmcalls.c, fl_syms_calls), into a direct call to the
 * vmlinux function: the same instruction vmlinux itself executes.
 *
 * Call one as FL_VM(update_curr)(cfs_rq).  Its type is that of the vmlinux
 * function: typeof() of its declaration where a kernel header has one, the
 * 6.1.192 prototype where it is static in fair.c.  Each has exactly one
 * kallsyms entry on the ported build and no .isra/.constprop/.part suffix,
 * so its ABI is that of its C prototype.
 */
#ifndef FAIRLAB_PORT61_VMCALLS_H
#define FAIRLAB_PORT61_VMCALLS_H

#include <linux/static_call.h>
#include "vmcalls_config.h"	/* FL_VM_CALLS_NUMA, FL_VM_CALLS_LAZY */

#define FL_VM_CALLS(X)							\
	/* fair.c statics, out of line (t) in vmlinux */		\
	X(update_curr, void (struct cfs_rq *))				\
	X(reweight_entity, void (struct cfs_rq *, struct sched_entity *,	\
			   unsigned long))			\
	X(clear_buddies, void (struct cfs_rq *, struct sched_entity *))	\
	X(place_entity, void (struct cfs_rq *, struct sched_entity *, int)) \
	X(attach_entity_load_avg, void (struct cfs_rq *, struct sched_entity *)) \
	X(detach_entity_load_avg, void (struct cfs_rq *, struct sched_entity *)) \
	X(hrtick_update, void (struct rq *))				\
	X(update_min_vruntime, void (struct cfs_rq *))			\
	X(set_next_buddy, void (struct sched_entity *))			\
	X(__account_cfs_rq_runtime, void (struct cfs_rq *, u64))	\
	X(throttle_cfs_rq, bool (struct cfs_rq *))			\
	X(sched_slice, u64 (struct cfs_rq *, struct sched_entity *))	\
	X(task_h_load, unsigned long (struct task_struct *))		\
	FL_VM_CALLS_NUMA(X)						\
	X(cpu_util_next, unsigned long (int, struct task_struct *, int)) \
	/* pelt.c, core.c, stats.c, printk: global (T), not exported */	\
	X(__update_load_avg_se, typeof(__update_load_avg_se))		\
	X(__update_load_avg_cfs_rq, typeof(__update_load_avg_cfs_rq))	\
	X(update_rt_rq_load_avg, typeof(update_rt_rq_load_avg))	\
	X(update_dl_rq_load_avg, typeof(update_dl_rq_load_avg))	\
	X(update_rq_clock, typeof(update_rq_clock))			\
	X(resched_curr, typeof(resched_curr))				\
	FL_VM_CALLS_LAZY(X)						\
	X(sched_can_stop_tick, typeof(sched_can_stop_tick))		\
	X(call_trace_sched_update_nr_running,				\
	  typeof(call_trace_sched_update_nr_running))			\
	X(__update_stats_wait_start, typeof(__update_stats_wait_start))	\
	X(__update_stats_wait_end, typeof(__update_stats_wait_end))	\
	X(__update_stats_enqueue_sleeper,				\
	  typeof(__update_stats_enqueue_sleeper))			\
	X(walk_tg_tree_from, typeof(walk_tg_tree_from))			\
	X(_printk_deferred, typeof(_printk_deferred))			\
	/* what sched.h's rq_lock*() call (compat.h renames the names) */ \
	X(raw_spin_rq_lock_nested, void (struct rq *, int))		\
	X(raw_spin_rq_unlock, void (struct rq *))

#define FL_VM_DECLARE(sym, type)	DECLARE_STATIC_CALL(fl_vm_##sym, type);
FL_VM_CALLS(FL_VM_DECLARE)
#undef FL_VM_DECLARE

/* Call the vmlinux function @sym directly (once fl_syms_calls is resolved). */
#define FL_VM(sym)	static_call(fl_vm_##sym)

#endif /* FAIRLAB_PORT61_VMCALLS_H */
