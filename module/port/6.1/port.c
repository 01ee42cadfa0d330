// SPDX-License-Identifier: GPL-2.0
/*
 * What the 6.1 port replaces, and the vmlinux symbols it needs.
 *
 * Sizes are those kallsyms reports on the build compiled for (port_build.h,
 * from its line of builds.tsv); fl_check_port()
 * refuses to load when any differs (a different build inlines differently,
 * and a replacement written for one build is wrong for another).
 */
#include "port.h"

#ifndef FL_PORT_SIZE_SKEW
#define FL_PORT_SIZE_SKEW 0
#endif

const u32 fl_port_stock_gate_us = FL_PORT_STOCK_GATE_US;

const struct fl_port_func fl_port_funcs[] = {
	/* update_pick_idlest() is inlined here (idlest.c) */
	{ "find_idlest_group", FL_SIZE_find_idlest_group + FL_PORT_SIZE_SKEW,
	  fl_find_idlest_group },
	/* tg surface: every copy of update_tg_load_avg() (update_load_avg.h et al.) */
	{ "enqueue_entity", FL_SIZE_enqueue_entity, fl_enqueue_entity },
	{ "enqueue_task_fair", FL_SIZE_enqueue_task_fair, fl_enqueue_task_fair },
	{ "unthrottle_cfs_rq", FL_SIZE_unthrottle_cfs_rq, fl_unthrottle_cfs_rq },
	{ "dequeue_entity", FL_SIZE_dequeue_entity, fl_dequeue_entity },
	{ "dequeue_task_fair", FL_SIZE_dequeue_task_fair, fl_dequeue_task_fair },
	{ "set_next_entity", FL_SIZE_set_next_entity, fl_set_next_entity },
	{ "task_tick_fair", FL_SIZE_task_tick_fair, fl_task_tick_fair },
	{ "propagate_entity_cfs_rq", FL_SIZE_propagate_entity_cfs_rq,
	  fl_propagate_entity_cfs_rq },
	{ "attach_entity_cfs_rq", FL_SIZE_attach_entity_cfs_rq,
	  fl_attach_entity_cfs_rq },
	{ "detach_task_cfs_rq", FL_SIZE_detach_task_cfs_rq, fl_detach_task_cfs_rq },
	{ "update_blocked_averages", FL_SIZE_update_blocked_averages,
	  fl_update_blocked_averages },
	{ "__sched_group_set_shares", FL_SIZE___sched_group_set_shares,
	  fl___sched_group_set_shares },
	/* the reader of tg->load_avg: calc_group_shares() inlined (reads.c) */
	{ "update_cfs_group", FL_SIZE_update_cfs_group, fl_update_cfs_group },
	{ }
};
static_assert(ARRAY_SIZE(fl_port_funcs) == FL_PORT_NR_FUNCS + 1,
	      "FL_PORT_NR_FUNCS (port.h) must count fl_port_funcs");

const struct fl_symreq *const fl_port_symtabs[] = {
	fl_syms_calls,
	fl_syms_shared,
	fl_syms_enqueue,
	fl_syms_dequeue,
	fl_syms_tick,
	fl_syms_blocked,
	NULL
};
