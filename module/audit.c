// SPDX-License-Identifier: GPL-2.0
/*
 * The audit: a consistent snapshot of each task group's published
 * tg->load_avg against the sums over its per-CPU cfs_rqs of
 * tg_load_avg_contrib and avg.load_avg.
 *
 *   /sys/kernel/fairlab/audit        (0400) each open: a fresh snapshot,
 *                                    read as text by that open file only
 *   /sys/kernel/fairlab/audit_emit   (0200) write: snapshot as tg_audit events
 *
 * A group's row is consistent because it is read with every CPU's rq lock
 * held (lockhold.c): no writer of tg->load_avg or of a contrib runs then.
 * The groups are read in batches, the locks released in between, so that
 * the time with interrupts off stays bounded however many groups exist;
 * each row carries the time of its batch's snapshot (snap_ns,
 * ktime_get_mono_fast_ns(): trace-cmd's "-C mono" clock), so a recording
 * places each group's audit among its tg_update records.
 *
 * Groups are named by cgroup id or flagged autogroup id, never by kernel
 * pointer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include "port.h"
#include "autogroup.h"
#include "fairlab.h"
#include "fairlab_trace_events.h"

struct fl_audit_row {
	u64 id;
	s64 tg_load_avg;
	s64 sum_contrib;
	u64 sum_load;
	u64 snap_ns;
};

struct fl_audit_snap {
	struct fl_audit_row *rows;
	unsigned int cap, n;
	bool overflow;
};

/* The text one open file reads. */
struct fl_audit_text {
	size_t len;
	char buf[];
};

static DEFINE_MUTEX(fl_audit_lock);	/* one snapshot at a time, seq order */
static u64 fl_audit_seq;

/* fs/kernfs: not exported; resolved by fl_resolve_symbols() (symbols.c). */
struct kernfs_node *(*fl_kernfs_create_file)(struct kernfs_node *parent,
					     const char *name, umode_t mode,
					     kuid_t uid, kgid_t gid, loff_t size,
					     const struct kernfs_ops *ops,
					     void *priv, const void *ns,
					     struct lock_class_key *key);

u64 fl_tg_id(struct task_group *tg)
{
	if (tg->autogroup)
		return FL_TG_AUTOGROUP_FLAG | tg->autogroup->id;
	if (tg->css.cgroup)
		return cgroup_id(tg->css.cgroup);
	return 0;
}

/*
 * Walk every group, FL_AUDIT_CFS_RQS_PER_HOLD cfs_rqs per hold of all rq
 * locks.  One RCU read-side section covers the walk, so the cursor group
 * stays valid while the locks are dropped between batches; groups created
 * meanwhile may be missed, groups being destroyed may still be read, as
 * with any walk of task_groups.
 */
static void fl_audit_walk(struct fl_audit_snap *snap)
{
	unsigned int per_hold = max(1U, FL_AUDIT_CFS_RQS_PER_HOLD / nr_cpu_ids);
	unsigned int in_hold = 0;
	struct task_group *tg;
	unsigned long flags = 0;
	u64 t0 = 0, snap_ns = 0;
	int cpu;

	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		struct fl_audit_row *r;

		if (tg == fl_root_task_group || !tg->cfs_rq)
			continue;
		if (snap->n == snap->cap) {
			snap->overflow = true;
			break;
		}
		if (!in_hold) {
			t0 = ktime_get_mono_fast_ns();
			fl_rq_lock_all(&flags);
			snap_ns = ktime_get_mono_fast_ns();
		}
		r = &snap->rows[snap->n++];
		r->id = fl_tg_id(tg);
		r->tg_load_avg = atomic_long_read(&tg->load_avg);
		r->sum_contrib = 0;
		r->sum_load = 0;
		r->snap_ns = snap_ns;
		for_each_possible_cpu(cpu) {
			r->sum_contrib += tg->cfs_rq[cpu]->tg_load_avg_contrib;
			r->sum_load += tg->cfs_rq[cpu]->avg.load_avg;
		}
		if (++in_hold == per_hold) {
			fl_rq_unlock_all(flags);
			fl_hold_account(FL_HOLD_AUDIT, in_hold,
					ktime_get_mono_fast_ns() - t0);
			in_hold = 0;
		}
	}
	if (in_hold) {
		fl_rq_unlock_all(flags);
		fl_hold_account(FL_HOLD_AUDIT, in_hold,
				ktime_get_mono_fast_ns() - t0);
	}
	rcu_read_unlock();
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
	int tries;

	lockdep_assert_held(&fl_audit_lock);
	for (tries = 0; tries < 4; tries++) {
		snap->cap = fl_count_groups() * (tries + 1) + 64;
		snap->n = 0;
		snap->overflow = false;
		snap->rows = kvmalloc_array(snap->cap, sizeof(*snap->rows),
					    GFP_KERNEL);
		if (!snap->rows)
			return -ENOMEM;
		fl_audit_walk(snap);
		if (!snap->overflow)
			return 0;
		kvfree(snap->rows);
	}
	snap->rows = NULL;
	return -EAGAIN;
}

static struct fl_audit_text *fl_audit_format(const struct fl_audit_snap *snap,
					     u64 seq)
{
	size_t cap = 96 + (size_t)snap->n * 120;
	struct fl_audit_text *t;
	unsigned int i;
	size_t len;

	t = kvmalloc(sizeof(*t) + cap, GFP_KERNEL);
	if (!t)
		return NULL;
	len = scnprintf(t->buf, cap,
			"# seq %llu\n# tg tg_load_avg sum_contrib sum_load snap_ns\n",
			seq);
	for (i = 0; i < snap->n; i++) {
		const struct fl_audit_row *r = &snap->rows[i];

		len += scnprintf(t->buf + len, cap - len, "%llu %lld %lld %llu %llu\n",
				 r->id, r->tg_load_avg, r->sum_contrib,
				 r->sum_load, r->snap_ns);
	}
	t->len = len;
	return t;
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
				       snap.rows[i].sum_load,
				       snap.rows[i].snap_ns);
		kvfree(snap.rows);
	}
	mutex_unlock(&fl_audit_lock);
	return ret;
}

/* Each open file gets its own snapshot, taken at open. */
static int fl_audit_open(struct kernfs_open_file *of)
{
	struct fl_audit_snap snap;
	struct fl_audit_text *t = NULL;
	int ret;

	fl_klp_later_check();	/* before fl_audit_lock: see klp_later.c */
	mutex_lock(&fl_audit_lock);
	ret = fl_audit_snapshot(&snap);
	if (!ret) {
		t = fl_audit_format(&snap, ++fl_audit_seq);
		kvfree(snap.rows);
		if (!t)
			ret = -ENOMEM;
	}
	mutex_unlock(&fl_audit_lock);
	of->priv = t;
	return ret;
}

static ssize_t fl_audit_read(struct kernfs_open_file *of, char *buf,
			     size_t count, loff_t off)
{
	const struct fl_audit_text *t = of->priv;

	if (off >= t->len)
		return 0;
	count = min_t(size_t, count, t->len - off);
	memcpy(buf, t->buf + off, count);
	return count;
}

static void fl_audit_release(struct kernfs_open_file *of)
{
	kvfree(of->priv);
	of->priv = NULL;
}

/*
 * A sysfs bin_attribute has no open or release, so the file is a kernfs
 * node of its own in the fairlab directory; it goes when the directory
 * goes (kobject_put() at exit), open files then being released.
 */
static const struct kernfs_ops fl_audit_kfops = {
	.open = fl_audit_open,
	.read = fl_audit_read,
	.release = fl_audit_release,
};

int fl_audit_init(struct kobject *dir)
{
	struct kernfs_node *kn;

	kn = fl_kernfs_create_file(dir->sd, "audit", 0400, GLOBAL_ROOT_UID,
				   GLOBAL_ROOT_GID, 0, &fl_audit_kfops, NULL,
				   NULL, NULL);
	return IS_ERR(kn) ? PTR_ERR(kn) : 0;
}

static ssize_t audit_emit_store(struct kobject *kobj,
				struct kobj_attribute *attr,
				const char *buf, size_t count)
{
	int ret;

	fl_klp_later_check();	/* before fl_audit_lock: see klp_later.c */
	ret = fl_audit_emit();

	return ret ? ret : count;
}

struct kobj_attribute fl_audit_trigger_attr = __ATTR_WO(audit_emit);
