// SPDX-License-Identifier: GPL-2.0
/*
 * Printable names for ids in records.  Policy and site names come from
 * module/policy/policy.c, the table the kernel module is built with.
 */
#include <stdio.h>

#include "fa_engine.h"

const char *fa_tg_label(const struct fa_tg *g, char *buf, size_t n)
{
	if (g->named && g->name[0])
		snprintf(buf, n, "%s", g->name);
	else if (g->id & FL_TG_AUTOGROUP_FLAG)
		snprintf(buf, n, "autogroup-%llu",
			 (unsigned long long)(g->id & ~FL_TG_AUTOGROUP_FLAG));
	else
		snprintf(buf, n, "cgroup-%llu", (unsigned long long)g->id);
	return buf;
}

const char *fa_tg_policy_label(const struct fl_tg_policy *p, char *buf, size_t n)
{
	if (p->id < FL_TG_NR_POLICIES)
		fl_tg_policy_format(p, buf, n);
	else
		snprintf(buf, n, "policy#%u:%u", p->id, p->arg);
	return buf;
}

const char *fa_idlest_policy_label(u32 id, char *buf, size_t n)
{
	if (id < FL_IDLEST_NR_POLICIES)
		snprintf(buf, n, "%s", fl_idlest_policy_names[id]);
	else
		snprintf(buf, n, "policy#%u", id);
	return buf;
}

const char *fa_site_label(u32 site, char *buf, size_t n)
{
	if (site < FL_NR_SITES)
		snprintf(buf, n, "%s", fl_site_names[site]);
	else
		snprintf(buf, n, "site#%u", site);
	return buf;
}
