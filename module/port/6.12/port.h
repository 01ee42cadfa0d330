/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.12 port: the kernel it is written for, and the replacement
 * functions fairlab.ko installs with klp.  Every replacement re-expresses
 * the named function of Debian 6.12.117+deb12-amd64 (upstream 6.12.117,
 * kernel/sched/fair.c) and is headed by a comment saying so.
 *
 * port.c lists the replacements and the symbol tables; README in this
 * directory says what each file mirrors.
 */
#ifndef FAIRLAB_PORT_H
#define FAIRLAB_PORT_H

#include "compat.h"
#include "vmcalls.h"

/*
 * The exact build this port mirrors; the module refuses any other.  The
 * refusal test (tests/vm/scenarios/port-refusal) builds copies of the
 * module that claim another build with -DFL_PORT_RELEASE=... or
 * -DFL_PORT_SIZE_SKEW=N: the check itself is the same code.
 */
#ifndef FL_PORT_RELEASE
#define FL_PORT_RELEASE		"6.12.117+deb12-amd64"
#endif
#define FL_PORT_VERSION		"#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-14)"

/* A replaced function: its vmlinux name and size, and our version. */
struct fl_port_func {
	const char *name;
	unsigned long size;	/* from kallsyms on the ported build */
	void *new_func;
};

/* port.c: what the port replaces, and every symbol table it needs. */
extern const struct fl_port_func fl_port_funcs[];	/* NULL-name terminated */
/*
 * How many functions fl_port_funcs names (main.c sizes its klp_func array
 * by it; port.c fails to build when the list and this disagree).
 */
#define FL_PORT_NR_FUNCS	16
extern const struct fl_symreq *const fl_port_symtabs[];	/* NULL terminated */

/* Symbol tables of the port files (NULL-name terminated). */
extern const struct fl_symreq fl_syms_calls[];
extern const struct fl_symreq fl_syms_shared[];
extern const struct fl_symreq fl_syms_offline[];
extern const struct fl_symreq fl_syms_enqueue[];
extern const struct fl_symreq fl_syms_dequeue[];

/* idlest.c */
struct sched_group *fl_sched_balance_find_dst_group(struct sched_domain *sd,
						    struct task_struct *p,
						    int this_cpu);

/*
 * update_load_avg.h: fl_update_load_avg(), the module's one private copy of
 * update_load_avg(), inline in the replacements below.
 */

/* enqueue.c */
void fl_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void fl_enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags);
void fl_unthrottle_cfs_rq(struct cfs_rq *cfs_rq);
/* dequeue.c */
bool fl_dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
int fl_dequeue_entities(struct rq *rq, struct sched_entity *se, int flags);
/* attach.c */
void fl_propagate_entity_cfs_rq(struct sched_entity *se);
void fl_attach_entity_cfs_rq(struct sched_entity *se);
void fl_switched_from_fair(struct rq *rq, struct task_struct *p);
void fl_task_change_group_fair(struct task_struct *p);
/* blocked.c */
void fl_sched_balance_update_blocked_averages(int cpu);
/* tick.c */
void fl_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void fl_task_tick_fair(struct rq *rq, struct task_struct *curr, int queued);
/* shares.c */
int fl___sched_group_set_shares(struct task_group *tg, unsigned long shares);
/* reads.c: the reader of tg->load_avg, called directly by the files above */
void fl_update_cfs_group(struct sched_entity *se);
/* offline.c */
void fl_rq_offline_fair(struct rq *rq);

/* The hooks the shared tg_update core calls (before tg_update.h). */
#include "tg_hooks.h"

/*
 * tg_update.h (policy core, not version-specific in what it decides):
 * fl_tg_update(), update_tg_load_avg() with the publish decision
 * delegated to the active policy, traced, counted.
 */
#include "tg_update.h"

#endif /* FAIRLAB_PORT_H */
