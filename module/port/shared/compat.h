/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Make kernel/sched/sched.h usable from a module, on every ported kernel
 * (Debian 6.1.0-57 and 6.12.117+deb12: the same redirections serve both).
 *
 * Include as the first thing in a port file:  #include "compat.h"
 *
 * sched.h's helpers reach globals that vmlinux does not export to modules
 * (runqueues, root_task_group, sched_feat_keys, static keys).  The module
 * resolves their addresses at init (symbols.c) into fl_vm; the macros below
 * redirect sched.h's accessors to them.  A port file that expands an
 * accessor not redirected here fails at modpost with an undefined symbol,
 * never silently.
 *
 * Static keys: module code cannot use static_branch_*() on a vmlinux key
 * it only reaches through a pointer (jump labels are fixed at module load),
 * so keys are read with fl_static_key_on().
 */
#ifndef FAIRLAB_PORT_COMPAT_H
#define FAIRLAB_PORT_COMPAT_H

#include <linux/sched/cputime.h>	/* sched.h needs it first */
#include <linux/static_call.h>
#include <linux/version.h>		/* LINUX_VERSION_CODE: the rt feature bit */
#include <linux/mmu_context.h>		/* 6.12's sched.h: switch_mm_cid() & co */

/*
 * Out-of-line, unexported vmlinux functions that sched.h's own inlines
 * call (rq_lock*() -> raw_spin_rq_lock_nested()): renamed before sched.h
 * declares them, and defined in symbols.c as static calls of the vmlinux
 * functions (vmcalls.h).
 */
#define raw_spin_rq_lock_nested	fl_raw_spin_rq_lock_nested
#define raw_spin_rq_unlock	fl_raw_spin_rq_unlock

/*
 * Unexported vmlinux data that sched.h's inlines name (rq_pin_lock()
 * compares against &balance_push_callback): becomes a dereference of a
 * pointer resolved in symbols.c.
 */
#define balance_push_callback	(*fl_balance_push_callback)

#include "sched.h"			/* -I$(FAIRLAB_SCHED_SRC)/kernel/sched */

/* Addresses of vmlinux data the port reads; filled by fl_resolve_symbols(). */
struct fl_vmlinux {
	struct rq __percpu *runqueues;
	struct task_group *root_task_group;
	unsigned int *sysctl_sched_features;
	struct static_key_false *cfs_bandwidth_used;	/* __cfs_bandwidth_used */
	struct static_key_false *sched_schedstats;
	struct static_key_false *sched_asym_cpucapacity;
	struct static_key_false *sched_energy_present;
	struct static_key_false *sched_numa_balancing;
	cpumask_var_t __percpu *select_rq_mask;		/* fair.c, static */
	struct list_head *task_groups;			/* core.c */
	int __percpu *sd_llc_id;			/* topology.c */
};
extern struct fl_vmlinux fl_vm;

#undef cpu_rq
#define cpu_rq(cpu)		per_cpu_ptr(fl_vm.runqueues, (cpu))
#undef this_rq
#define this_rq()		this_cpu_ptr(fl_vm.runqueues)
#undef task_rq
#define task_rq(p)		cpu_rq(task_cpu(p))
#undef cpu_curr
#define cpu_curr(cpu)		(cpu_rq(cpu)->curr)
#undef raw_rq
#define raw_rq()		raw_cpu_ptr(fl_vm.runqueues)

/*
 * 6.1 with Debian's rt featureset (rt-amd64, CONFIG_PREEMPT_LAZY): its
 * features.h has one bit linux-source's lacks, SCHED_FEAT(PREEMPT_LAZY,
 * true) right after TTWU_QUEUE, so every later bit is one higher in that
 * kernel (its vmlinux's DWARF).  The enumerator below records the insertion
 * in the module's DWARF; port-check's layout step applies it to the
 * module's bits and then compares every bit with the vmlinux's.
 */
#if defined(CONFIG_PREEMPT_LAZY) && LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
enum fl_sched_feat_insert {
	__FL_SCHED_FEAT_INSERT_PREEMPT_LAZY = __SCHED_FEAT_TTWU_QUEUE + 1,
};
#define fl_sched_feat_bit(b) \
	((b) + ((b) >= (int)__FL_SCHED_FEAT_INSERT_PREEMPT_LAZY))
#else
#define fl_sched_feat_bit(b)	(b)
#endif

/* The features bitmap is kept in step with sched_feat_keys by the kernel. */
#undef sched_feat
#define sched_feat(x) \
	(!!(READ_ONCE(*fl_vm.sysctl_sched_features) & \
	    (1UL << fl_sched_feat_bit(__SCHED_FEAT_##x))))

#define fl_root_task_group	(fl_vm.root_task_group)

/* kernel/sched/pelt.h (no include guard: here only), after sched_feat */
#include "pelt.h"

/*
 * static_key_enabled() of a vmlinux key: the key's count, read inline.
 * (With CONFIG_JUMP_LABEL, static_key_enabled() calls the out-of-line
 * static_key_count(): a call and return for each test, where vmlinux has
 * a patched jump.)  A key being enabled counts -1 until its jumps are
 * patched, hence "> 0", as static_key_enabled() has it.
 */
static __always_inline bool fl_static_key_on(struct static_key *key)
{
	return atomic_read(&key->enabled) > 0;
}

/* fair.c: static_key_false(&__cfs_bandwidth_used.key) */
static inline bool fl_cfs_bandwidth_used(void)
{
	return fl_static_key_on(&fl_vm.cfs_bandwidth_used->key);
}

static inline bool fl_schedstat_enabled(void)
{
	return fl_static_key_on(&fl_vm.sched_schedstats->key);
}

static inline bool fl_sched_asym_cpucap_active(void)
{
	return fl_static_key_on(&fl_vm.sched_asym_cpucapacity->key);
}

static inline bool fl_sched_energy_enabled(void)
{
	return fl_static_key_on(&fl_vm.sched_energy_present->key);
}

/*
 * One symbol a port file needs from vmlinux, resolved by name at init:
 * either its address is stored in a variable (FL_SYM: data, or a function
 * whose address the port passes or compares), or a static call is pointed
 * at it (FL_SYM_CALL: a function the port calls, vmcalls.h).
 */
struct fl_symreq {
	const char *name;
	void **addr;
	struct static_call_key *call;
	void *tramp;
};
#define FL_SYM(var, sym)	{ #sym, (void **)&(var) }
#define FL_SYM_CALL(call, name) \
	{ name, NULL, &STATIC_CALL_KEY(call), STATIC_CALL_TRAMP_ADDR(call) }

#endif /* FAIRLAB_PORT_COMPAT_H */
