/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task group names for output (see group_path.c).
 */
#ifndef FL_GROUP_PATH_H
#define FL_GROUP_PATH_H

#include "fa_engine.h"

/*
 * The group's tg_info name when it is a path (fairlab.ko gives the
 * cgroup path, "/a/b", and "autogroup-N"); else "/parent/child" from the
 * tg_info names of the group and its parents ("child" alone when the
 * chain stops below level 1); for a group without tg_info, "autogroup-N"
 * or "cgroup-N".
 */
const char *fl_group_path(const struct fa_engine *e, const struct fa_tg *g,
			  char *buf, size_t n);

#endif /* FL_GROUP_PATH_H */
