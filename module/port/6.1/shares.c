// SPDX-License-Identifier: GPL-2.0
/*
 * __sched_group_set_shares() of Linux 6.1.192 (Debian 6.1.0-57-amd64),
 * kernel/sched/fair.c: its body is the same in 6.12.117, so the
 * replacement is port/shared/sched_group_set_shares.h's, compiled here.
 */
#include "sched_group_set_shares.h"
