// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab policies, shared by fairlab.ko and userspace (see policy.h).
 *
 * No allocation, no loops but over fixed tables: fl_tg_decide() runs under
 * the runqueue lock on every tg->load_avg update attempt.
 */
#include "policy.h"

const char *const fl_tg_policy_names[FL_TG_NR_POLICIES] = {
	[FL_TG_STOCK] = "stock",	[FL_TG_FORCE] = "force",
	[FL_TG_NONZERO] = "nonzero",	[FL_TG_RELATIVE] = "relative",
	[FL_TG_TURNER1] = "turner1",	[FL_TG_TURNER2] = "turner2",
	[FL_TG_FIXED] = "fixed",	[FL_TG_LOG2] = "log2",
	[FL_TG_RATELIMIT] = "ratelimit", [FL_TG_BUDGET] = "budget",
};

const char *const fl_idlest_policy_names[FL_IDLEST_NR_POLICIES] = {
	[FL_IDLEST_STOCK] = "stock",
	[FL_IDLEST_IDLE_CPUS] = "idle_cpus",
	[FL_IDLEST_NR_RUNNING] = "nr_running",
};

const char *const fl_layout_names[FL_NR_LAYOUTS] = {
	[FL_LAYOUT_GLOBAL] = "global", [FL_LAYOUT_NODE] = "node",
	[FL_LAYOUT_LLC] = "llc",
};

const char *const fl_site_names[FL_NR_SITES] = {
	[FL_SITE_ENQUEUE_ENTITY] = "enqueue_entity",
	[FL_SITE_DEQUEUE_ENTITY] = "dequeue_entity",
	[FL_SITE_SET_NEXT_ENTITY] = "set_next_entity",
	[FL_SITE_ENTITY_TICK] = "entity_tick",
	[FL_SITE_ENQUEUE_TASK_FAIR] = "enqueue_task_fair",
	[FL_SITE_DEQUEUE_TASK_FAIR] = "dequeue_task_fair",
	[FL_SITE_UNTHROTTLE_CFS_RQ] = "unthrottle_cfs_rq",
	[FL_SITE_PROPAGATE_ENTITY] = "propagate_entity_cfs_rq",
	[FL_SITE_SET_SHARES] = "sched_group_set_shares",
	[FL_SITE_BLOCKED_SE] = "blocked_averages_se",
	[FL_SITE_BLOCKED_DIRECT] = "blocked_averages",
	[FL_SITE_ATTACH_ULA] = "attach_entity_ula",
	[FL_SITE_ATTACH_DIRECT] = "attach_entity_cfs_rq",
	[FL_SITE_DETACH_ULA] = "detach_entity_ula",
	[FL_SITE_DETACH_DIRECT] = "detach_entity_cfs_rq",
	[FL_SITE_RESYNC] = "resync",
	[FL_SITE_CLEAR_TG_LOAD_AVG] = "clear_tg_load_avg",
};

const char *const fl_group_type_names[6] = {
	"has_spare", "fully_busy", "misfit_task",
	"asym_packing", "imbalanced", "overloaded",
};

const struct fl_tg_policy_desc fl_tg_policy_descs[FL_TG_NR_POLICIES] = {
	[FL_TG_STOCK] = { "stock" },
	[FL_TG_FORCE] = { "force" },
	[FL_TG_NONZERO] = { "nonzero" },
	[FL_TG_RELATIVE] = { "relative", true, 8, 1, 4096, "divisor" },
	[FL_TG_TURNER1] = { "turner1" },
	[FL_TG_TURNER2] = { "turner2" },
	[FL_TG_FIXED] = { "fixed", true, 16, 0, 1u << 20, "load units" },
	[FL_TG_LOG2] = { "log2", true, 8, 0, 1u << 16, "load units" },
	[FL_TG_RATELIMIT] = { "ratelimit", true, 1000, 1, 1000000, "us" },
	[FL_TG_BUDGET] = { "budget", true, 5, 1, 100, "percent" },
};

u32 fl_ilog2(u32 v)
{
	return v ? 31 - (u32)__builtin_clz(v) : 0;
}

static u64 fl_nonzero(u32 v)
{
	return v ? v : 1;
}

/*
 * Every policy is one of four shapes of rule; what a rule needs that
 * depends only on the policy and nr_cpus is computed here, once per
 * switch, so that a decision is a few instructions (bench-module.sh
 * counts them).
 */
void fl_tg_rule_make(const struct fl_tg_policy *p, u32 nr_cpus,
		     struct fl_tg_rule *r)
{
	u64 nr = fl_nonzero(nr_cpus);

	r->shape = FL_RULE_SCALED;	/* stock, and any unknown id */
	r->a = r->b = 64;
	switch (p->id) {
	case FL_TG_STOCK:
		/* the kernel's own rate limit, 6.7 on (policy.h) */
		if (p->arg) {
			r->shape = FL_RULE_GATED;
			r->a = (u64)p->arg * 1000;
		}
		break;
	case FL_TG_FORCE:
		r->shape = FL_RULE_ABOVE;
		r->a = 0;	/* |delta| >= 0: every attempt */
		break;
	case FL_TG_NONZERO:
		r->shape = FL_RULE_ABOVE;
		r->a = 1;
		break;
	case FL_TG_RELATIVE:
		r->a = r->b = p->arg;
		break;
	case FL_TG_TURNER1:
		r->a = 8;
		r->b = 16;
		break;
	case FL_TG_TURNER2:
		r->a = 8;
		r->b = nr;
		break;
	case FL_TG_FIXED:
		r->shape = FL_RULE_ABOVE;
		r->a = (u64)p->arg + 1;
		break;
	case FL_TG_LOG2:
		r->shape = FL_RULE_ABOVE;
		r->a = (u64)p->arg * (1 + fl_ilog2(nr_cpus)) + 1;
		break;
	case FL_TG_RATELIMIT:
		r->shape = FL_RULE_GATED;
		r->a = (u64)p->arg * 1000;
		break;
	case FL_TG_BUDGET:
		r->shape = FL_RULE_BUDGET;
		r->a = 100 * nr;
		r->b = p->arg;
		break;
	}
}

bool fl_tg_decide(const struct fl_tg_policy *p, const struct fl_tg_input *in)
{
	struct fl_tg_rule r;

	fl_tg_rule_make(p, in->nr_cpus, &r);
	return fl_tg_rule_decide(&r, in);
}

bool fl_idlest_decide(u32 policy, const struct fl_sg_stats *idlest,
		      const struct fl_sg_stats *group)
{
	if (group->group_type < idlest->group_type)
		return true;
	if (group->group_type > idlest->group_type)
		return false;

	switch (group->group_type) {
	case FL_GROUP_OVERLOADED:
	case FL_GROUP_FULLY_BUSY:
		/* Lowest avg_load. */
		return idlest->avg_load > group->avg_load;
	case FL_GROUP_IMBALANCED:
	case FL_GROUP_ASYM_PACKING:
		/* Not used in the slow wakeup path. */
		return false;
	case FL_GROUP_MISFIT_TASK:
		/* Highest max capacity. */
		return idlest->max_capacity < group->max_capacity;
	case FL_GROUP_HAS_SPARE:
		/* Most idle CPUs, for every policy... */
		if (idlest->idle_cpus > group->idle_cpus)
			return false;
		if (idlest->idle_cpus < group->idle_cpus)
			return true;
		/* ...and the policies differ only in the tie-break. */
		switch (policy) {
		case FL_IDLEST_IDLE_CPUS:	/* pre-5.9: the first stays */
			return false;
		case FL_IDLEST_NR_RUNNING:
			return idlest->sum_nr_running > group->sum_nr_running;
		default:			/* 5.9+ (3edecfef): lower util */
			return idlest->group_util > group->group_util;
		}
	}
	return true;
}

static bool fl_streq(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen; i++)
		if (a[i] != b[i] || !a[i])
			return false;
	return a[blen] == '\0';
}

static size_t fl_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* Length of s without one trailing '\n' (what "echo x > file" adds). */
static size_t fl_trimmed_len(const char *s)
{
	size_t n = fl_strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	return n;
}

/* Decimal u32 of exactly len chars, no sign, no leading zeros but "0". */
static int fl_parse_u32(const char *s, size_t len, u32 *out)
{
	u64 v = 0;
	size_t i;

	if (!len || len > 10 || (len > 1 && s[0] == '0'))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (u64)(s[i] - '0');
	}
	if (v > 0xffffffffULL)
		return -1;
	*out = (u32)v;
	return 0;
}

#define FL_POLICY_MAXLEN 32

int fl_tg_policy_parse(const char *s, struct fl_tg_policy *out)
{
	size_t len = fl_trimmed_len(s), nlen, i;
	u32 id, arg;

	if (!len || len > FL_POLICY_MAXLEN)
		return -1;
	for (nlen = 0; nlen < len && s[nlen] != ':'; nlen++)
		;
	for (id = 0; id < FL_TG_NR_POLICIES; id++) {
		const struct fl_tg_policy_desc *d = &fl_tg_policy_descs[id];

		if (fl_strlen(d->name) != nlen)
			continue;
		for (i = 0; i < nlen && s[i] == d->name[i]; i++)
			;
		if (i != nlen)
			continue;
		if (nlen == len) {
			arg = d->has_arg ? d->def : 0;
		} else {
			if (!d->has_arg ||
			    fl_parse_u32(s + nlen + 1, len - nlen - 1, &arg) ||
			    arg < d->min || arg > d->max)
				return -1;
		}
		out->id = id;
		out->arg = arg;
		return 0;
	}
	return -1;
}

int fl_idlest_policy_parse(const char *s, u32 *out)
{
	size_t len = fl_trimmed_len(s);
	u32 id;

	if (!len || len > FL_POLICY_MAXLEN)
		return -1;
	for (id = 0; id < FL_IDLEST_NR_POLICIES; id++) {
		if (fl_streq(fl_idlest_policy_names[id], s, len)) {
			*out = id;
			return 0;
		}
	}
	return -1;
}

/*
 * The one parser of tg_layout values (the module's parameter and the
 * analyzer's whatif --layout): "global", "node", "llc", "node:US",
 * "llc:US" in exactly @len chars; US a decimal 0..FL_LAYOUT_MAX_REFRESH_US
 * (no sign, no leading zeros but "0").  global takes no refresh: it has
 * no domains to cache a sum for.
 */
int fl_layout_parse(const char *s, size_t len, u8 *id, u32 *refresh_us)
{
	size_t nlen, i;
	u32 k, v = 0;

	if (!len || len > FL_POLICY_MAXLEN)
		return -1;
	for (nlen = 0; nlen < len && s[nlen] != ':'; nlen++)
		;
	for (k = 0; k < FL_NR_LAYOUTS; k++) {
		if (fl_strlen(fl_layout_names[k]) != nlen)
			continue;
		for (i = 0; i < nlen && s[i] == fl_layout_names[k][i]; i++)
			;
		if (i == nlen)
			break;
	}
	if (k == FL_NR_LAYOUTS)
		return -1;
	if (nlen < len &&
	    (k == FL_LAYOUT_GLOBAL ||
	     fl_parse_u32(s + nlen + 1, len - nlen - 1, &v) ||
	     v > FL_LAYOUT_MAX_REFRESH_US))
		return -1;
	*id = (u8)k;
	*refresh_us = v;
	return 0;
}

int fl_layout_format(u8 id, u32 refresh_us, char *buf, size_t n)
{
	const char *name = id < FL_NR_LAYOUTS ? fl_layout_names[id] : "?";
	char num[11];
	size_t len = 0, i, k = 0;

	if (!n)
		return 0;
	for (i = 0; name[i] && len + 1 < n; i++)
		buf[len++] = name[i];
	if (refresh_us && len + 1 < n) {
		buf[len++] = ':';
		do {
			num[k++] = (char)('0' + refresh_us % 10);
			refresh_us /= 10;
		} while (refresh_us);
		while (k && len + 1 < n)
			buf[len++] = num[--k];
	}
	buf[len] = '\0';
	return (int)len;
}

int fl_tg_policy_format(const struct fl_tg_policy *p, char *buf, size_t n)
{
	const struct fl_tg_policy_desc *d;
	char num[11];
	size_t len = 0, i, k = 0;
	u32 v;

	if (!n)
		return 0;
	if (p->id >= FL_TG_NR_POLICIES) {
		buf[0] = '\0';
		return 0;
	}
	d = &fl_tg_policy_descs[p->id];
	for (i = 0; d->name[i] && len + 1 < n; i++)
		buf[len++] = d->name[i];
	if (d->has_arg && len + 1 < n) {
		buf[len++] = ':';
		v = p->arg;
		do {
			num[k++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (k && len + 1 < n)
			buf[len++] = num[--k];
	}
	buf[len] = '\0';
	return (int)len;
}
