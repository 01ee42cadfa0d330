// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of update attempts and writes per site and per policy, and of
 * pick_idlest decisions, shown in /sys/kernel/fairlab/stats.
 *
 * Kept per CPU and summed only when read, so that counting adds no shared
 * cacheline to the hot path (the point of the whole exercise).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include "fairlab.h"
#include "layout.h"

struct fl_stats __percpu *fl_stats;

int fl_stats_init(void)
{
	fl_stats = alloc_percpu(struct fl_stats);
	return fl_stats ? 0 : -ENOMEM;
}

void fl_stats_exit(void)
{
	free_percpu(fl_stats);
	fl_stats = NULL;
}

void fl_stats_pubtime_evicted(void)
{
	this_cpu_inc(fl_stats->pubtime_evictions);
}

void fl_stats_idlest(u32 policy, bool picked)
{
	if (policy < FL_IDLEST_NR_POLICIES)
		this_cpu_inc(fl_stats->idlest_decisions[policy][picked]);
}

/* Sum over CPUs; a torn read of a counter being incremented is harmless. */
static void fl_stats_sum(struct fl_stats *sum)
{
	const u64 *src;
	u64 *dst = (u64 *)sum;
	size_t i, n = sizeof(*sum) / sizeof(u64);
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		src = (const u64 *)per_cpu_ptr(fl_stats, cpu);
		for (i = 0; i < n; i++)
			dst[i] += READ_ONCE(src[i]);
	}
}

/*
 * "tg_read cpuN reads 0" per possible CPU, after "tg_read all reads 0":
 * reads of tg->load_avg by calc_group_shares(), counted per CPU.  The
 * per-CPU lines stop, with a "tg_read cut N 0" line naming how many CPUs
 * were left out, when the page could not hold the rest.
 */
static int fl_stats_reads_show(char *buf, int n, u64 total)
{
	int cpu, left = 0;

	n += sysfs_emit_at(buf, n, "tg_read all %llu 0\n", total);
	for_each_possible_cpu(cpu) {
		if (left || n > PAGE_SIZE - 128) {
			left++;
			continue;
		}
		n += sysfs_emit_at(buf, n, "tg_read cpu%d %llu 0\n", cpu,
				   READ_ONCE(per_cpu_ptr(fl_stats, cpu)->tg_reads));
	}
	if (left)
		n += sysfs_emit_at(buf, n, "tg_read cut %d 0\n", left);
	return n;
}

/* One "kind name attempts writes" line per counter that is non-zero. */
static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct fl_stats *s;
	ssize_t n = 0;
	int i;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	fl_stats_sum(s);
	n += sysfs_emit_at(buf, n, "# kind name attempts writes\n");
	for (i = 0; i < FL_NR_SITES; i++)
		n += sysfs_emit_at(buf, n, "site %s %llu %llu\n",
				   fl_site_names[i], s->site_attempts[i],
				   s->site_writes[i]);
	for (i = 0; i < FL_TG_NR_POLICIES; i++)
		n += sysfs_emit_at(buf, n, "tg_policy %s %llu %llu\n",
				   fl_tg_policy_names[i], s->policy_attempts[i],
				   s->policy_writes[i]);
	for (i = 0; i < FL_IDLEST_NR_POLICIES; i++)
		n += sysfs_emit_at(buf, n, "idlest_policy %s %llu %llu\n",
				   fl_idlest_policy_names[i],
				   s->idlest_decisions[i][0] + s->idlest_decisions[i][1],
				   s->idlest_decisions[i][1]);
	n += sysfs_emit_at(buf, n, "pubtime_evictions - %llu 0\n",
			   s->pubtime_evictions);
	for (i = 0; i < FL_NR_HOLDS; i++)	/* resync, audit lock holds */
		n = fl_hold_show(i, buf, n);
	n = fl_audit_show(buf, n);
	n = fl_layout_show(buf, n);	/* tg_layout (layout.c) */
	n = fl_stats_reads_show(buf, n, s->tg_reads);
	kfree(s);
	return n;
}

static struct kobj_attribute fl_stats_attr = __ATTR_RO(stats);

static struct attribute *fl_stats_attrs[] = {
	&fl_stats_attr.attr,
	&fl_audit_trigger_attr.attr,
	&fl_describe_attr.attr,
	&fl_fallback_attr.attr,
	NULL,
};

const struct attribute_group fl_stats_group = {
	.attrs = fl_stats_attrs,
};
