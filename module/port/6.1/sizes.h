/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizes of the replaced functions in Debian 6.1.0-57-amd64 (6.1.192-3),
 * as kallsyms reports them (distance to the next text symbol in the
 * guest's /proc/kallsyms, equal to sprint_symbol's "/SIZE").
 */
#ifndef FAIRLAB_PORT_SIZES_H
#define FAIRLAB_PORT_SIZES_H

#define FL_SIZE_find_idlest_group		0x8b0
#define FL_SIZE_update_blocked_averages		0x7b0
#define FL_SIZE_attach_entity_cfs_rq		0x090
#define FL_SIZE_detach_task_cfs_rq		0x0f0
#define FL_SIZE_enqueue_entity			0x4f0
#define FL_SIZE_dequeue_entity			0x420
#define FL_SIZE_set_next_entity			0x150
#define FL_SIZE_task_tick_fair			0x380
#define FL_SIZE_enqueue_task_fair		0x3d0
#define FL_SIZE_dequeue_task_fair		0x3a0
#define FL_SIZE_unthrottle_cfs_rq		0x490
#define FL_SIZE_propagate_entity_cfs_rq		0x330
#define FL_SIZE___sched_group_set_shares	0x160
#define FL_SIZE_update_cfs_group		0x0b0

#endif /* FAIRLAB_PORT_SIZES_H */
