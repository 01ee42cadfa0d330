// SPDX-License-Identifier: GPL-2.0
/*
 * The audit: a consistent snapshot, taken with every CPU stopped, of each
 * task group's published tg->load_avg against the sums over its per-CPU
 * cfs_rqs of tg_load_avg_contrib and avg.load_avg.
 *
 *   /sys/kernel/fairlab/audit        (0400) read: a fresh snapshot as text
 *   /sys/kernel/fairlab/audit_emit   (0200) write: snapshot as tg_audit events
 *
 * Groups are named by cgroup id or flagged autogroup id, never by kernel
 * pointer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/mm.h>
#include <linux/stop_machine.h>
#include "port.h"
#include "autogroup.h"
#include "fairlab.h"
#include "fairlab_trace_events.h"

struct fl_audit_row {
	u64 id;
	s64 tg_load_avg;
	s64 sum_contrib;
	u64 sum_load;
};

struct fl_audit_snap {
	struct fl_audit_row *rows;
	unsigned int cap, n;
	bool overflow;
};

static DEFINE_MUTEX(fl_audit_lock);	/* serialises snapshots and text */
static char *fl_audit_text;
static size_t fl_audit_text_len;
static u64 fl_audit_seq;

u64 fl_tg_id(struct task_group *tg)
{
	if (tg->autogroup)
		return FL_TG_AUTOGROUP_FLAG | tg->autogroup->id;
	if (tg->css.cgroup)
		return cgroup_id(tg->css.cgroup);
	return 0;
}

/* Runs on one CPU while all others spin with interrupts off. */
static int fl_audit_stopped(void *data)
{
	struct fl_audit_snap *snap = data;
	struct task_group *tg;
	int cpu;

	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		struct fl_audit_row *r;

		if (tg == fl_root_task_group || !tg->cfs_rq)
			continue;
		if (snap->n == snap->cap) {
			snap->overflow = true;
			return 0;
		}
		r = &snap->rows[snap->n++];
		r->id = fl_tg_id(tg);
		r->tg_load_avg = atomic_long_read(&tg->load_avg);
		r->sum_contrib = 0;
		r->sum_load = 0;
		for_each_possible_cpu(cpu) {
			r->sum_contrib += tg->cfs_rq[cpu]->tg_load_avg_contrib;
			r->sum_load += tg->cfs_rq[cpu]->avg.load_avg;
		}
	}
	return 0;
}

static unsigned int fl_count_groups(void)
{
	struct task_group *tg;
	unsigned int n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list)
		n++;
	rcu_read_unlock();
	return n;
}

/* Take a snapshot into @snap (caller kvfree()s rows); groups may come and go. */
static int fl_audit_snapshot(struct fl_audit_snap *snap)
{
	int tries, ret;

	for (tries = 0; tries < 4; tries++) {
		snap->cap = fl_count_groups() * (tries + 1) + 64;
		snap->n = 0;
		snap->overflow = false;
		snap->rows = kvmalloc_array(snap->cap, sizeof(*snap->rows),
					    GFP_KERNEL);
		if (!snap->rows)
			return -ENOMEM;
		ret = stop_machine(fl_audit_stopped, snap, NULL);
		if (ret || !snap->overflow)
			return ret;
		kvfree(snap->rows);
	}
	snap->rows = NULL;
	return -EAGAIN;
}

static int fl_audit_format(const struct fl_audit_snap *snap, u64 seq)
{
	size_t cap = 64 + (size_t)snap->n * 96, len;
	unsigned int i;
	char *t;

	t = kvmalloc(cap, GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	len = scnprintf(t, cap, "# seq %llu\n# tg tg_load_avg sum_contrib sum_load\n",
			seq);
	for (i = 0; i < snap->n; i++) {
		const struct fl_audit_row *r = &snap->rows[i];

		len += scnprintf(t + len, cap - len, "%llu %lld %lld %llu\n",
				 r->id, r->tg_load_avg, r->sum_contrib,
				 r->sum_load);
	}
	kvfree(fl_audit_text);
	fl_audit_text = t;
	fl_audit_text_len = len;
	return 0;
}

/* A snapshot as tg_audit records: on request and at patch/unpatch. */
int fl_audit_emit(void)
{
	struct fl_audit_snap snap;
	unsigned int i;
	u64 seq;
	int ret;

	mutex_lock(&fl_audit_lock);
	ret = fl_audit_snapshot(&snap);
	seq = ++fl_audit_seq;
	if (!ret) {
		for (i = 0; i < snap.n; i++)
			trace_tg_audit(seq, snap.rows[i].id,
				       snap.rows[i].tg_load_avg,
				       snap.rows[i].sum_contrib,
				       snap.rows[i].sum_load);
		ret = fl_audit_format(&snap, seq);
		kvfree(snap.rows);
	}
	mutex_unlock(&fl_audit_lock);
	return ret;
}

static ssize_t fl_audit_read(struct file *file, struct kobject *kobj,
			     struct bin_attribute *attr, char *buf,
			     loff_t off, size_t count)
{
	struct fl_audit_snap snap;
	ssize_t ret = 0;

	mutex_lock(&fl_audit_lock);
	if (off == 0) {
		/* Each read from the start is a fresh snapshot. */
		ret = fl_audit_snapshot(&snap);
		if (!ret) {
			ret = fl_audit_format(&snap, ++fl_audit_seq);
			kvfree(snap.rows);
		}
	}
	if (!ret && fl_audit_text && off < fl_audit_text_len) {
		ret = min_t(size_t, count, fl_audit_text_len - off);
		memcpy(buf, fl_audit_text + off, ret);
	}
	mutex_unlock(&fl_audit_lock);
	return ret;
}

struct bin_attribute fl_audit_attr = {
	.attr = { .name = "audit", .mode = 0400 },
	.read = fl_audit_read,
	.size = 0,		/* unbounded: read until EOF */
};

static ssize_t audit_emit_store(struct kobject *kobj,
				struct kobj_attribute *attr,
				const char *buf, size_t count)
{
	int ret = fl_audit_emit();

	return ret ? ret : count;
}

struct kobj_attribute fl_audit_trigger_attr = __ATTR_WO(audit_emit);

void fl_audit_exit(void)
{
	kvfree(fl_audit_text);
	fl_audit_text = NULL;
}
