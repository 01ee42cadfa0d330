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

static const char *fl_tg_name(struct task_group *tg)
{
	if (tg->autogroup) {
		snprintf(fl_path, sizeof(fl_path), "autogroup-%lu",
			 tg->autogroup->id);
	} else if (tg->css.cgroup && tg->css.cgroup->kn) {
		if (kernfs_path_from_node(tg->css.cgroup->kn, NULL, fl_path,
					  sizeof(fl_path)) < 0)
			strscpy(fl_path, tg->css.cgroup->kn->name,
				sizeof(fl_path));
	} else {
		strscpy(fl_path, "?", sizeof(fl_path));
	}
	return fl_path;
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
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list)
		trace_tg_info(fl_tg_id(tg),
			      tg->parent ? fl_tg_id(tg->parent) : 0,
			      fl_tg_level(tg), fl_tg_name(tg));
	rcu_read_unlock();
	mutex_unlock(&fl_describe_lock);
}

static ssize_t describe_store(struct kobject *kobj,
			      struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	fl_describe();
	return count;
}

struct kobj_attribute fl_describe_attr = __ATTR_WO(describe);
