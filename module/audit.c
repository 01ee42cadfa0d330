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
 * No more than one rq lock is ever held.  A group's row is read in two
 * passes over the possible CPUs, each pass taking one CPU's rq lock at a
 * time (lockhold.c) for a batch of at most FL_AUDIT_GROUPS_PER_HOLD
 * groups, one cfs_rq each:
 *
 *   pass 1, CPU c, under c's rq lock:  contrib_c, load_c, and the group's
 *           two write generations on c, a_c and b_c (fairlab.h);
 *   then    L = tg->load_avg, between two full barriers, at snap_ns;
 *   pass 2, CPU c, under c's rq lock:  a_c and b_c again (a'_c, b'_c), and
 *           contrib_c again
 *
 * (pass 1 from the highest CPU down, pass 2 from the lowest up:
 * fl_audit_pass() says why).
 *
 * Every write fairlab makes to tg->load_avg and to a cfs_rq's contrib
 * (fl_tg_update(), its slow path, the resync, clear_tg_load_avg()'s
 * fl_tg_clear(): all through tg_update.h/tg_update.c) bumps, inside the
 * same critical section of that cfs_rq's rq lock, both of the group's
 * counters on that CPU: its bucket in each of two tables, by two
 * independent hashes of the group pointer.  Counters only grow, so if on
 * every CPU c a'_c == a_c or b'_c == b_c, then no such write to the
 * group's cfs_rq of c ran between our two holds of c's lock (it would
 * have moved both; a writer's critical section is wholly before the first
 * hold or wholly after the second).  Other groups share a bucket (1,024
 * per table) and move it too: they can make a row fail the test, never
 * pass it.  One table would do for the proof, but with one, an idle group
 * that shares its bucket with a busy one sees it move in most windows
 * when many CPUs are online, and can fail every re-read; with two, a
 * group's row fails only if on one CPU, within that CPU's window, both
 * its buckets moved: its own write, or other groups' writes in both.
 * Then, at the moment L was read, every write of the group had either
 * completed before our pass-1 hold of its CPU, or not begun before our
 * pass-2 hold of it:
 *  - a completed write's atomic_long_add() and contrib store precede its
 *    unlock, which precedes our lock (RELEASE/ACQUIRE of the same lock),
 *    which precedes the first smp_mb() and so the read of L: L includes
 *    its delta, and pass 1 read its contrib, unchanged since;
 *  - a later write's add follows its lock, which follows our pass-2
 *    unlock, which follows the second smp_mb() and so our read of L: by
 *    coherence L cannot include it, and its contrib is not in the rows.
 * So L and Σ contrib_c are one consistent cut, at snap_ns, of the writes
 * of that group, and tg_load_avg == sum_contrib must hold exactly (both
 * start at 0 when the group is made).  Under a split tg_layout (layout.h)
 * L is tg->load_avg plus the group's domain counters, read together
 * between the same barriers: every write to a domain counter is made
 * under the writing CPU's rq lock with the same generation bump, so the
 * argument holds for their sum (the row's tg_load_avg; global and
 * sum_domains are its two parts, split 1 when the group has a block).  A
 * layout switch runs with snapshots held off (fl_audit_pause()).  sum_load is each CPU's
 * avg.load_avg as pass 1 read it (it changes without a publish, so it is
 * no instant's sum; it never was exact to the publish rule either).
 *
 * A row that fails (contrib sums differ, or both counters moved on some
 * CPU: the group's own write, or other groups' in both its buckets) is
 * read again at once, with the others of its batch that failed, up to
 * FL_AUDIT_RETRIES times.  Failures come in runs: a group busy on one CPU
 * (a fork loop, a recorder's many readers) or a lock holder descheduled
 * (a VM's vCPU) can fail every re-read of a few milliseconds.  So a row
 * that fails all of them is put off to a later round, read once the walk
 * has read every other group and after a pause (FL_AUDIT_PAUSE_MS, more
 * each round), with its immediate re-reads again, up to FL_AUDIT_ROUNDS
 * rounds; then it is given as read but flagged unchecked (checked=0 in
 * the text and in tg_audit).  /sys/kernel/fairlab/stats counts the rows,
 * those unchecked, the re-reads and the rows put off (audit_rows,
 * audit_retries).  A row's snap_ns is that of the read that gave it.
 * The rows of one snapshot are in the order they were given, not the
 * order of task_groups: a row put off comes after every row given in the
 * rounds before the one that gave it.
 *
 * The kernel's own writers: while the patch is in force every writer of
 * tg->load_avg is fairlab's (port/<kernel>/surface.txt).  During the
 * patch and unpatch transitions and after an unpatch, vmlinux's
 * update_tg_load_avg() also writes, without a generation; the contrib
 * re-read of pass 2 catches any of its writes that leaves a CPU's contrib
 * changed, not a write undone by another within the window, so rows taken
 * then are exact only as far as that goes.
 *
 * The walk and its pauses: a batch's groups are protected by RCU only (a
 * module cannot pin an autogroup: autogroup_kref_put()'s release is
 * static to autogroup.c), so the holds of one batch, 2 x nr_cpu_ids x
 * (1 + retries) of them with interrupts on in between, run in one RCU
 * read-side section.  Pass 1's counters, 2 x nr_cpu_ids per group of
 * the batch, are kept in an array allocated with the snapshot's rows,
 * before any hold.  Between batches the section ends and cond_resched()
 * runs; the next batch restarts the walk of task_groups from its head and
 * skips the groups already read, by id (the saved position: a table of
 * ids, not a pointer into a list that may have changed).  Groups created
 * meanwhile are read too, groups destroyed meanwhile are not; the walks
 * cost O(groups^2 / FL_AUDIT_GROUPS_PER_HOLD) id look-ups, no lock held.
 *
 * Groups are named by cgroup id or flagged autogroup id, never by kernel
 * pointer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/delay.h>
#include <linux/kernfs.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include "port.h"
#include "autogroup.h"
#include "fairlab.h"
#include "lockhold.h"
#include "layout.h"
#include "fairlab_trace_events.h"

/* Re-reads at once of a batch's rows that failed the test. */
#define FL_AUDIT_RETRIES	8
/*
 * Later rounds for the rows whose re-reads all failed, each after a pause
 * of FL_AUDIT_PAUSE_MS << (round - 1): 10, 20, 40 ms, outside any lock
 * but the audit's mutex; then a row still failing is given unchecked.
 */
#define FL_AUDIT_ROUNDS		3
#define FL_AUDIT_PAUSE_MS	10

struct fl_audit_row {
	u64 id;
	s64 tg_load_avg;	/* global + sum_domains: the group's sum */
	s64 global;		/* tg->load_avg */
	s64 sum_domains;	/* Σ its tg_layout domain counters */
	bool split;		/* it has a block under a split layout */
	s64 sum_contrib;
	u64 sum_load;
	u64 snap_ns;
	bool checked;		/* no write of the group in the window: exact */
};

/* A group of the batch being read, and its two passes' sums. */
struct fl_audit_slot {
	struct task_group *tg;
	unsigned int seen;		/* its index in the snapshot's seen table */
	unsigned long *gen1;		/* pass 1's counters: [cpu][table] */
	bool moved;			/* on some CPU both counters moved */
	s64 contrib1, contrib2;		/* Σ tg_load_avg_contrib, pass 1 and 2 */
	u64 load;
	s64 tla, doms;
	bool split;
	bool pending;
};

struct fl_audit_snap {
	struct fl_audit_row *rows;
	unsigned int cap, n;
	bool overflow;
	u64 *seen;			/* ids + 1 met by the walk; 0: free */
	u8 *round;			/* per seen entry: 0, or the round to read it in */
	unsigned int seen_bits;
	struct fl_audit_slot *slot;	/* FL_AUDIT_GROUPS_PER_HOLD */
	unsigned long *gen1;		/* the slots' gen1 arrays */
	unsigned int retried, unchecked, deferred;
};

/* The text one open file reads. */
struct fl_audit_text {
	size_t len;
	char buf[];
};

static DEFINE_MUTEX(fl_audit_lock);	/* one snapshot at a time, seq order */
static u64 fl_audit_seq;
static atomic64_t fl_audit_rows, fl_audit_unchecked, fl_audit_retried;
static atomic64_t fl_audit_deferred;

/* fs/kernfs: not exported; resolved by fl_resolve_symbols() (symbols.c). */
struct kernfs_node *(*fl_kernfs_create_file)(struct kernfs_node *parent,
					     const char *name, umode_t mode,
					     kuid_t uid, kgid_t gid, loff_t size,
					     const struct kernfs_ops *ops,
					     void *priv, const void *ns,
					     struct lock_class_key *key);

/*
 * A group's id: its cgroup id (64-bit, never reused while the system
 * runs), or for an autogroup FL_TG_AUTOGROUP_FLAG | its id.  Autogroup ids
 * come from the kernel's 32-bit autogroup_seq_nr (autogroup_create()),
 * which wraps after 2^32 setsid() calls; an id can then name a new
 * autogroup while, at most, an older one with the same id is still alive.
 * What that does: 6.1's publish-time table (pubtime.c, keyed by id and
 * CPU) may hand the new group the older stamp, which is then at least as
 * old as the 2^32 setsid()s took, far beyond any rate limit, so no publish
 * is held back by it; an audit reads only the first of two live groups
 * with one id (its table of ids read, above); and the analyzer, which
 * keys groups by id, adds the two groups' records together, in a
 * recording that spans the reuse (tg_info names the newer one).  No
 * generation is added: reaching it takes billions of sessions.
 */
u64 fl_tg_id(struct task_group *tg)
{
#ifdef CONFIG_SCHED_AUTOGROUP	/* not in 6.12's rt-amd64 */
	if (tg->autogroup)
		return FL_TG_AUTOGROUP_FLAG | tg->autogroup->id;
#endif
	if (tg->css.cgroup)
		return cgroup_id(tg->css.cgroup);
	return 0;
}

/*
 * Id @id's entry in the seen table, at *@at: whether the walk met it
 * before; if not, it is entered now (round 0: being read).
 */
static bool fl_audit_seen(struct fl_audit_snap *snap, u64 id, unsigned int *at)
{
	u64 key = id + 1, mask = (1ULL << snap->seen_bits) - 1;
	u64 i = hash_64(key, snap->seen_bits);

	for (;; i = (i + 1) & mask) {
		*at = i;
		if (snap->seen[i] == key)
			return true;
		if (!snap->seen[i]) {
			snap->seen[i] = key;
			snap->round[i] = 0;
			return false;
		}
	}
}

/*
 * One CPU's hold of a pass over the pending slots of @sl: its rq lock held
 * once, alone, for at most FL_AUDIT_GROUPS_PER_HOLD cfs_rqs.
 */
static void fl_audit_hold(struct fl_audit_slot *sl, unsigned int n, int cpu,
			  bool first)
{
	struct fl_rq_hold h;
	unsigned int i, k, t;
	unsigned long *g;

	fl_rq_hold_begin(&h, cpu);
	for (i = 0, k = 0; i < n; i++) {
		struct fl_audit_slot *s = &sl[i];
		struct cfs_rq *cfs_rq;

		if (!s->pending)
			continue;
		cfs_rq = s->tg->cfs_rq[cpu];
		k++;
		g = &s->gen1[cpu * FL_GEN_HASHES];
		if (first) {
			for (t = 0; t < FL_GEN_HASHES; t++)
				g[t] = fl_gen_read(s->tg, cpu, t);
			s->contrib1 += cfs_rq->tg_load_avg_contrib;
			s->load += cfs_rq->avg.load_avg;
		} else {
			for (t = 0; t < FL_GEN_HASHES; t++)
				if (fl_gen_read(s->tg, cpu, t) == g[t])
					break;
			if (t == FL_GEN_HASHES)
				s->moved = true;
			s->contrib2 += cfs_rq->tg_load_avg_contrib;
		}
	}
	fl_rq_hold_end(&h, FL_HOLD_AUDIT, k);
}

/*
 * One pass over the possible CPUs, a hold each.  Pass 1 runs from the
 * highest CPU down and pass 2 from the lowest up, so CPU c's window (its
 * pass-1 hold to its pass-2 hold, within which a write fails the row)
 * spans the holds of the CPUs below it only, twice: the lowest CPUs get
 * the shortest.  Where possible CPUs outnumber the present ones (slots
 * for hot-plugged CPUs, numbered after those present at boot), the CPUs
 * that run tasks get windows a few holds long instead of a whole pass;
 * with every CPU online the mean window is one pass either way.
 * Caller in an RCU read-side section that keeps the groups.
 */
static void fl_audit_pass(struct fl_audit_slot *sl, unsigned int n, bool first)
{
	int cpu;

	if (!first) {
		for_each_possible_cpu(cpu)
			fl_audit_hold(sl, n, cpu, false);
		return;
	}
	for (cpu = nr_cpu_ids - 1; cpu >= 0; cpu--)
		if (cpu_possible(cpu))
			fl_audit_hold(sl, n, cpu, true);
}

/* The slot's row, given: the next of the snapshot's rows. */
static void fl_audit_fill(struct fl_audit_snap *snap, struct fl_audit_slot *s,
			  u64 snap_ns, bool checked)
{
	struct fl_audit_row *r = &snap->rows[snap->n++];

	r->id = fl_tg_id(s->tg);
	r->tg_load_avg = s->tla + s->doms;
	r->global = s->tla;
	r->sum_domains = s->doms;
	r->split = s->split;
	r->sum_contrib = s->contrib1;
	r->sum_load = s->load;
	r->snap_ns = snap_ns;
	r->checked = checked;
	s->pending = false;
}

/*
 * Read the @n groups of @sl into rows: pass 1, tg->load_avg, pass 2 (the
 * header says why a row that passes is exact), again for the rows that
 * fail, FL_AUDIT_RETRIES times at most; in round @round of the walk.
 */
static void fl_audit_batch(struct fl_audit_snap *snap, struct fl_audit_slot *sl,
			   unsigned int n, unsigned int round)
{
	unsigned int i, left = n, tries;
	u64 snap_ns;

	for (i = 0; i < n; i++)
		sl[i].pending = true;
	for (tries = 0; left; tries++) {
		for (i = 0; i < n; i++) {
			sl[i].moved = false;
			sl[i].contrib1 = sl[i].contrib2 = 0;
			sl[i].load = 0;
		}
		fl_audit_pass(sl, n, true);
		smp_mb();	/* pass 1's holds before the reads of L */
		snap_ns = ktime_get_mono_fast_ns();
		for (i = 0; i < n; i++) {
			if (!sl[i].pending)
				continue;
			/* L: tg->load_avg and its domains (layout.h) */
			sl[i].tla = atomic_long_read(&sl[i].tg->load_avg);
			sl[i].split = fl_layout_audit(sl[i].tg, &sl[i].doms);
		}
		smp_mb();	/* the reads of L before pass 2's holds */
		fl_audit_pass(sl, n, false);
		left = 0;
		for (i = 0; i < n; i++) {
			struct fl_audit_slot *s = &sl[i];

			if (!s->pending)
				continue;
			if (!s->moved && s->contrib1 == s->contrib2) {	/* a cut */
				fl_audit_fill(snap, s, snap_ns, true);
			} else if (tries < FL_AUDIT_RETRIES) {
				left++;
				snap->retried++;
			} else if (round < FL_AUDIT_ROUNDS) {
				snap->round[s->seen] = round + 1;	/* put off */
				s->pending = false;
				snap->deferred++;
			} else {
				fl_audit_fill(snap, s, snap_ns, false);
				snap->unchecked++;
			}
		}
	}
}

/*
 * One round of the walk, in batches of FL_AUDIT_GROUPS_PER_HOLD (the
 * header says how it resumes between them): every group it has not met
 * (in round 0, all), and in a later round @round those put off to it
 * (any destroyed meanwhile are then missing, and not read).
 */
static void fl_audit_walk_round(struct fl_audit_snap *snap, unsigned int round)
{
	struct task_group *tg;
	unsigned int n, at;

	do {
		n = 0;
		rcu_read_lock();
		list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
			if (tg == fl_root_task_group || !tg->cfs_rq)
				continue;
			if (fl_audit_seen(snap, fl_tg_id(tg), &at) &&
			    (!round || snap->round[at] != round))
				continue;
			if (snap->n + n == snap->cap) {	/* more than counted */
				snap->overflow = true;
				break;
			}
			snap->round[at] = 0;		/* being read */
			snap->slot[n].tg = tg;
			snap->slot[n].seen = at;
			if (++n == FL_AUDIT_GROUPS_PER_HOLD)
				break;
		}
		if (n)
			fl_audit_batch(snap, snap->slot, n, round);
		rcu_read_unlock();
		cond_resched();
	} while (n && !snap->overflow);
}

/* Read every group: round 0, then the rounds of rows put off. */
static void fl_audit_walk(struct fl_audit_snap *snap)
{
	unsigned int round, put_off = 0;

	for (round = 0; round <= FL_AUDIT_ROUNDS && !snap->overflow; round++) {
		if (round) {
			if (snap->deferred == put_off)	/* none put off to it */
				break;
			put_off = snap->deferred;
			msleep(FL_AUDIT_PAUSE_MS << (round - 1));
		}
		fl_audit_walk_round(snap, round);
	}
}

/* The task groups alive now (fairlab.h): the audit and tg_layout size by it. */
unsigned int fl_count_groups(void)
{
	struct task_group *tg;
	unsigned int n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list)
		n++;
	rcu_read_unlock();
	return n;
}

static void fl_audit_free(struct fl_audit_snap *snap)
{
	kvfree(snap->rows);
	kvfree(snap->seen);
	kvfree(snap->round);
	kfree(snap->slot);
	kvfree(snap->gen1);
	snap->rows = NULL;
	snap->seen = NULL;
	snap->round = NULL;
	snap->slot = NULL;
	snap->gen1 = NULL;
}

/* Take a snapshot into @snap (caller fl_audit_free()s); groups may come and go. */
static int fl_audit_snapshot(struct fl_audit_snap *snap)
{
	unsigned int i;
	int tries;

	lockdep_assert_held(&fl_audit_lock);
	memset(snap, 0, sizeof(*snap));
	for (tries = 0; tries < 4; tries++) {
		snap->cap = fl_count_groups() * (tries + 1) + 64;
		snap->n = 0;
		snap->overflow = false;
		snap->retried = snap->unchecked = snap->deferred = 0;
		snap->seen_bits = ilog2(roundup_pow_of_two(2 * snap->cap));
		snap->rows = kvmalloc_array(snap->cap, sizeof(*snap->rows),
					    GFP_KERNEL);
		snap->seen = kvcalloc(1U << snap->seen_bits,
				      sizeof(*snap->seen), GFP_KERNEL);
		snap->round = kvmalloc(1U << snap->seen_bits, GFP_KERNEL);
		snap->slot = kmalloc_array(FL_AUDIT_GROUPS_PER_HOLD,
					   sizeof(*snap->slot), GFP_KERNEL);
		snap->gen1 = kvmalloc_array(FL_AUDIT_GROUPS_PER_HOLD * FL_GEN_HASHES,
					    nr_cpu_ids * sizeof(*snap->gen1),
					    GFP_KERNEL);
		if (!snap->rows || !snap->seen || !snap->round || !snap->slot ||
		    !snap->gen1) {
			fl_audit_free(snap);
			return -ENOMEM;
		}
		for (i = 0; i < FL_AUDIT_GROUPS_PER_HOLD; i++)
			snap->slot[i].gen1 = snap->gen1 +
				(size_t)i * nr_cpu_ids * FL_GEN_HASHES;
		fl_audit_walk(snap);
		if (!snap->overflow) {
			atomic64_add(snap->n, &fl_audit_rows);
			atomic64_add(snap->unchecked, &fl_audit_unchecked);
			atomic64_add(snap->retried, &fl_audit_retried);
			atomic64_add(snap->deferred, &fl_audit_deferred);
			return 0;
		}
		fl_audit_free(snap);
	}
	return -EAGAIN;
}

/*
 * The audit's lines of /sys/kernel/fairlab/stats ("kind name a b"):
 *   audit_rows - rows unchecked      rows read, and those left unchecked
 *   audit_retries - rows put_off     re-reads at once of rows that failed,
 *                                    and rows put off to a later round
 */
int fl_audit_show(char *buf, int at)
{
	at += sysfs_emit_at(buf, at, "audit_rows - %lld %lld\n",
			    atomic64_read(&fl_audit_rows),
			    atomic64_read(&fl_audit_unchecked));
	at += sysfs_emit_at(buf, at, "audit_retries - %lld %lld\n",
			    atomic64_read(&fl_audit_retried),
			    atomic64_read(&fl_audit_deferred));
	return at;
}

static struct fl_audit_text *fl_audit_format(const struct fl_audit_snap *snap,
					     u64 seq)
{
	size_t cap = 128 + (size_t)snap->n * 180;
	struct fl_audit_text *t;
	unsigned int i;
	size_t len;

	t = kvmalloc(sizeof(*t) + cap, GFP_KERNEL);
	if (!t)
		return NULL;
	len = scnprintf(t->buf, cap,
			"# seq %llu\n# tg tg_load_avg sum_contrib sum_load snap_ns checked split global sum_domains\n",
			seq);
	for (i = 0; i < snap->n; i++) {
		const struct fl_audit_row *r = &snap->rows[i];

		len += scnprintf(t->buf + len, cap - len,
				 "%llu %lld %lld %llu %llu %d %d %lld %lld\n",
				 r->id, r->tg_load_avg, r->sum_contrib,
				 r->sum_load, r->snap_ns, r->checked, r->split,
				 r->global, r->sum_domains);
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
				       snap.rows[i].snap_ns,
				       snap.rows[i].checked,
				       snap.rows[i].split,
				       snap.rows[i].global,
				       snap.rows[i].sum_domains);
		fl_audit_free(&snap);
	}
	mutex_unlock(&fl_audit_lock);
	return ret;
}

void fl_audit_pause(void)
{
	mutex_lock(&fl_audit_lock);
}

void fl_audit_resume(void)
{
	mutex_unlock(&fl_audit_lock);
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
		fl_audit_free(&snap);
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
