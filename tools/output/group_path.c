// SPDX-License-Identifier: GPL-2.0
/*
 * Task group names for output: the cgroup path from tg_info records.
 */
#include <stdio.h>

#include "group_path.h"

const char *fl_group_path(const struct fa_engine *e, const struct fa_tg *g,
			  char *buf, size_t n)
{
	const struct fa_tg *chain[16];
	int depth = 0, i;
	size_t len = 0;

	/* fairlab.ko names cgroups by their full path already. */
	if (!g->named || g->name[0] == '/')
		return fa_tg_label(g, buf, n);
	/* Up through named parents; a cycle in corrupt data stops at 16. */
	while (g && g->named && depth < 16) {
		chain[depth++] = g;
		g = g->parent ? fa_engine_tg_by_id(e, g->parent) : NULL;
	}
	buf[0] = '\0';
	for (i = depth - 1; i >= 0 && len + 1 < n; i--) {
		bool slash = i != depth - 1 || chain[i]->level <= 1;

		len += (size_t)snprintf(buf + len, n - len, "%s%s", slash ? "/" : "",
					chain[i]->name);
	}
	return buf;
}
