/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizes of the replaced functions in Debian 6.12.117+deb12-amd64
 * (6.12.117-1~deb12u1), as kallsyms reports them (distance to the next
 * text symbol, equal to sprint_symbol's "/SIZE"; surface.txt gives each
 * function's own DWARF size, which the padding to 16 bytes rounds up to
 * these).
 */
#ifndef FAIRLAB_PORT612_SIZES_H
#define FAIRLAB_PORT612_SIZES_H

#define FL_SIZE_sched_balance_find_dst_group		0x8a0
#define FL_SIZE_enqueue_entity				0x520
#define FL_SIZE_enqueue_task_fair			0x810
#define FL_SIZE_unthrottle_cfs_rq			0x560
#define FL_SIZE_dequeue_entity				0x580
#define FL_SIZE_dequeue_entities			0x670
#define FL_SIZE_set_next_entity				0x1b0
#define FL_SIZE_task_tick_fair				0x2f0
#define FL_SIZE_propagate_entity_cfs_rq			0x340
#define FL_SIZE_attach_entity_cfs_rq			0x0e0
#define FL_SIZE_switched_from_fair			0x0e0
#define FL_SIZE_task_change_group_fair			0x170
#define FL_SIZE_sched_balance_update_blocked_averages	0x7b0
#define FL_SIZE___sched_group_set_shares		0x160
#define FL_SIZE_update_cfs_group			0x0b0
#define FL_SIZE_rq_offline_fair				0x1d0

#endif /* FAIRLAB_PORT612_SIZES_H */
