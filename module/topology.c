// SPDX-License-Identifier: GPL-2.0
/*
 * Making a recording self-describing: tg_info (id -> parent, depth, cgroup
 * path) for every task group and cpu_topology (node, LLC) for every CPU.
 * Emitted at patch time and on request:
 *
 *   echo 1 > /sys/kernel/fairlab/describe
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include "port.h"
#include "autogroup.h"
#include "fairlab.h"
#include "fairlab_trace_events.h"

/*
 * A trace event must fit one ring-buffer page (4 KB, headers included):
 * a longer event is dropped without a trace.  Names longer than
 * FL_TG_NAME_MAX - 1 bytes are cut to FL_TG_NAME_MAX - 4 bytes plus
 * "...", and the record says so (truncated, full_len).
 */
#define FL_TG_NAME_MAX	2048

static DEFINE_MUTEX(fl_describe_lock);	/* guards the path buffer */
static char fl_path[PATH_MAX];

static u32 fl_tg_level(struct task_group *tg)
{
	u32 level = 0;

	while (tg->parent && level < 1024) {	/* cgroups nest far less */
		tg = tg->parent;
		level++;
	}
	return level;
}

/*
 * @tg's name in fl_path, cut to at most FL_TG_NAME_MAX - 1 bytes; returns
 * its length before the cut (kernfs_path_from_node() itself stops at
 * PATH_MAX - 1).
 */
static size_t fl_tg_name(struct task_group *tg)
{
	ssize_t len;
	int ret;

#ifdef CONFIG_SCHED_AUTOGROUP	/* not in 6.12's rt-amd64 */
	if (tg->autogroup) {
		len = snprintf(fl_path, sizeof(fl_path), "autogroup-%lu",
			       tg->autogroup->id);
	} else
#endif
	if (tg->css.cgroup && tg->css.cgroup->kn) {
		ret = kernfs_path_from_node(tg->css.cgroup->kn, NULL, fl_path,
					    sizeof(fl_path));
		if (ret < 0)
			len = strscpy(fl_path, tg->css.cgroup->kn->name,
				      sizeof(fl_path));
		else
			len = ret;
	} else {
		len = strscpy(fl_path, "?", sizeof(fl_path));
	}
	if (len < 0)		/* strscpy() cut it at PATH_MAX - 1 */
		len = strlen(fl_path);
	if (len >= FL_TG_NAME_MAX)
		strcpy(fl_path + FL_TG_NAME_MAX - 4, "...");
	return len;
}

void fl_describe(void)
{
	struct task_group *tg;
	int cpu;

	mutex_lock(&fl_describe_lock);
	for_each_possible_cpu(cpu)
		trace_cpu_topology(cpu, cpu_to_node(cpu),
				   *per_cpu_ptr(fl_vm.sd_llc_id, cpu));
	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		size_t len = fl_tg_name(tg);

		trace_tg_info(fl_tg_id(tg),
			      tg->parent ? fl_tg_id(tg->parent) : 0,
			      fl_tg_level(tg), fl_path, len >= FL_TG_NAME_MAX,
			      min_t(size_t, len, U32_MAX));
	}
	rcu_read_unlock();
	fl_params_describe();	/* a fallback in force (klp_later.c) */
	mutex_unlock(&fl_describe_lock);
}

static ssize_t describe_store(struct kobject *kobj,
			      struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	fl_klp_later_check();	/* a recording starts: see klp_later.c */
	fl_describe();
	return count;
}

struct kobj_attribute fl_describe_attr = __ATTR_WO(describe);
