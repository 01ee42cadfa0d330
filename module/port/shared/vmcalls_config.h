/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unexported vmlinux functions a port calls that exist only in some
 * configurations of its series, as X-macro lists its vmcalls.h puts into
 * FL_VM_CALLS (each X(sym, type) a static call, resolved at init):
 *
 *   task_scan_start()     fair.c, CONFIG_NUMA_BALANCING (not in rt-amd64)
 *   resched_curr_lazy()   core.c, CONFIG_PREEMPT_LAZY: the lazy preemption
 *                         of Debian's rt featureset (rt-amd64), which its
 *                         entity_tick() (6.1: and check_preempt_tick())
 *                         call where the others call resched_curr()
 *                         (tick.c; module/port/<series>/rt.txt)
 */
#ifndef FAIRLAB_PORT_VMCALLS_CONFIG_H
#define FAIRLAB_PORT_VMCALLS_CONFIG_H

#ifdef CONFIG_NUMA_BALANCING
#define FL_VM_CALLS_NUMA(X)						\
	X(task_scan_start, unsigned int (struct task_struct *))
#else
#define FL_VM_CALLS_NUMA(X)
#endif

#ifdef CONFIG_PREEMPT_LAZY
#define FL_VM_CALLS_LAZY(X)						\
	X(resched_curr_lazy, void (struct rq *))
#else
#define FL_VM_CALLS_LAZY(X)
#endif

#endif /* FAIRLAB_PORT_VMCALLS_CONFIG_H */
