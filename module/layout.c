// SPDX-License-Identifier: GPL-2.0
/*
 * tg_layout (layout.h): the switch between layouts of the groups' sums
 * of load, the blocks of per-domain counters, and the seed and fold that
 * move contributions between tg->load_avg and the domains.
 *
 * A switch (fl_layout_apply(), under params.c's fl_switch_lock, process
 * context) to a split layout:
 *  1. builds the new layout before any lock is taken: each CPU's domain,
 *     the table, one block per group (GFP_KERNEL; groups counted under
 *     RCU first, the blocks allocated, then handed out under RCU);
 *  2. folds the old split layout, if any (below);
 *  3. publishes the new one (fl_lay_cur, then the static key);
 *  4. seeds: on each CPU, under its rq lock, for at most
 *     FL_RESYNC_GROUPS_PER_HOLD groups per hold (fl_rq_walk_all(),
 *     lockhold.c), moves each group's tg_load_avg_contrib on that CPU
 *     from tg->load_avg into the CPU's domain counter and marks the CPU
 *     seeded in the block; the writers (same lock) split from then on.
 * A fold (to global, at the klp pre-unpatch, in a fallback, at exit)
 * runs the same walk backwards: under each CPU's rq lock the CPU stops
 * being seeded (its writers go to tg->load_avg from then on) and its
 * contribution moves back into tg->load_avg; then, with no writer left
 * on any domain counter, whatever a domain still holds (a write the
 * module did not make: the kernel's own code during a patch transition)
 * is moved back too, atomic_long_xchg(dom, 0) then added; then the
 * layout is unpublished and its blocks freed after a grace period (the
 * readers and writers are RCU-sched readers: the rq lock, IRQs off).
 * After a fold, tg->load_avg == Σ contrib exactly.  Every move keeps
 * tg->load_avg + Σ domains == Σ contrib, and each per-CPU move bumps the
 * group's write generations (audit.c) like any other publish; the
 * switch also holds the audit off (fl_audit_pause()) so that no snapshot
 * reads a group between the two halves of the final sweep.
 *
 * A reader that runs during a seed or fold may read tg->load_avg before
 * a move and a domain after it, and count one CPU's contribution twice or
 * not at all, for that one read; the kernel's own read is no more exact
 * (contributions it reads are as old as each CPU's last publish).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include "port.h"
#include "fairlab.h"
#include "lockhold.h"
#include "layout_hot.h"

DEFINE_STATIC_KEY_FALSE(fl_lay_split);
struct fl_layout __rcu *fl_lay_cur;

/* what the folds did (stats) */
static atomic_long_t fl_lay_residue;	/* moved back by sweeps: not ours */
static atomic_long_t fl_lay_folds;

static struct fl_layout *fl_lay_now(void)
{
	return rcu_dereference_protected(fl_lay_cur, 1);
}

void fl_layout_get(u8 *id, u32 *refresh_us)
{
	const struct fl_layout *l;

	rcu_read_lock();
	l = rcu_dereference(fl_lay_cur);
	*id = l ? l->id : FL_LAYOUT_GLOBAL;
	*refresh_us = l ? l->refresh_us : 0;
	rcu_read_unlock();
}

static size_t fl_lay_blk_size(unsigned int nr_dom)
{
	return sizeof(struct fl_lay_blk) + nr_dom * sizeof(struct fl_lay_dom) +
	       BITS_TO_LONGS(nr_cpu_ids) * sizeof(unsigned long);
}

/* One block, its domains cacheline-aligned; process context. */
static struct fl_lay_blk *fl_lay_blk_alloc(unsigned int nr_dom)
{
	void *raw = kzalloc(fl_lay_blk_size(nr_dom) + SMP_CACHE_BYTES - 1,
			    GFP_KERNEL);
	struct fl_lay_blk *b;

	if (!raw)
		return NULL;
	b = PTR_ALIGN(raw, SMP_CACHE_BYTES);
	b->raw = raw;
	b->seeded = (unsigned long *)&b->dom[nr_dom];
	return b;
}

static void fl_lay_blk_free(struct fl_lay_blk *b)
{
	if (b)
		kfree(b->raw);
}

static void fl_lay_free(struct fl_layout *l)
{
	unsigned int i;

	if (!l)
		return;
	for (i = 0; i < FL_LAY_SIZE; i++)
		fl_lay_blk_free(l->tab[i].blk);
	kfree(l->dom_of);
	kvfree(l);
}

/*
 * Each possible CPU's domain: its NUMA node, or a dense index of its LLC
 * id (sd_llc_id: the first CPU of its LLC, computed by the scheduler's
 * domain build).  Fixed for the layout's life, so that a contribution
 * seeded into a domain is folded from the same one.
 */
static int fl_lay_domains(struct fl_layout *l)
{
	u16 *map = NULL;
	int cpu, id;

	l->dom_of = kcalloc(nr_cpu_ids, sizeof(*l->dom_of), GFP_KERNEL);
	if (!l->dom_of)
		return -ENOMEM;
	if (l->id == FL_LAYOUT_NODE) {
		l->nr_dom = nr_node_ids;
		for_each_possible_cpu(cpu) {
			id = cpu_to_node(cpu);
			l->dom_of[cpu] = id >= 0 && id < nr_node_ids ? id : 0;
		}
		return 0;
	}
	map = kmalloc_array(nr_cpu_ids, sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	memset(map, 0xff, nr_cpu_ids * sizeof(*map));
	l->nr_dom = 0;
	for_each_possible_cpu(cpu) {
		id = READ_ONCE(*per_cpu_ptr(fl_vm.sd_llc_id, cpu));
		if (id < 0 || id >= nr_cpu_ids)
			id = cpu;	/* not in a domain (yet): its own */
		if (map[id] == U16_MAX)
			map[id] = l->nr_dom++;
		l->dom_of[cpu] = map[id];
	}
	kfree(map);
	return 0;
}

/* @tg into @l's table with block @b; false: no free slot within the probes. */
static bool fl_lay_insert(struct fl_layout *l, struct task_group *tg,
			  struct fl_lay_blk *b)
{
	unsigned int i = hash_ptr(tg, FL_LAY_BITS), n;

	for (n = 0; n < FL_LAY_PROBES; n++, i = (i + 1) & (FL_LAY_SIZE - 1)) {
		struct fl_lay_ent *e = &l->tab[i];

		if (e->tg)
			continue;
		e->id = fl_tg_id(tg);
		e->blk = b;
		e->tg = tg;
		return true;
	}
	return false;
}

/* A new split layout, every block allocated and placed; not published. */
static struct fl_layout *fl_lay_build(u8 id, u32 refresh_us)
{
	struct fl_lay_blk **blks;
	struct task_group *tg;
	unsigned int n, got, used = 0, i;
	struct fl_layout *l;

	l = kvzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return NULL;
	l->id = id;
	l->refresh_us = refresh_us;
	l->refresh_ns = (u64)refresh_us * NSEC_PER_USEC;
	if (fl_lay_domains(l))
		goto err;
	/* a few spare for groups made between the count and the walk */
	n = fl_count_groups() + 16;
	blks = kvcalloc(n, sizeof(*blks), GFP_KERNEL);
	if (!blks)
		goto err;
	for (got = 0; got < n; got++) {
		blks[got] = fl_lay_blk_alloc(l->nr_dom);
		if (!blks[got])
			break;
	}
	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		if (tg == fl_root_task_group || !tg->cfs_rq)
			continue;
		if (used == got) {
			if (got < n)
				l->nomem++;
			else
				l->late++;
			continue;
		}
		if (fl_lay_insert(l, tg, blks[used])) {
			used++;
			l->blocks++;
		} else {
			l->full++;
		}
	}
	rcu_read_unlock();
	for (i = used; i < got; i++)
		fl_lay_blk_free(blks[i]);
	kvfree(blks);
	if (l->nomem || l->full || l->late)
		pr_warn("tg_layout %s: %u groups stay global (%u no memory, %u table full, %u made meanwhile)\n",
			fl_layout_names[id], l->nomem + l->full + l->late,
			l->nomem, l->full, l->late);
	return l;
err:
	fl_lay_free(l);
	return NULL;
}

/* The seed's step, under @cpu's rq lock: @cpu's contrib into its domain. */
static void fl_lay_seed_one(struct task_group *tg, int cpu, void *arg)
{
	struct fl_layout *l = arg;
	struct fl_lay_blk *b = fl_lay_find(l, tg);
	long c;

	if (!b || test_bit(cpu, b->seeded))
		return;
	c = tg->cfs_rq[cpu]->tg_load_avg_contrib;
	fl_gen_bump(tg, cpu);	/* a write, for the audit (audit.c) */
	atomic_long_sub(c, &tg->load_avg);
	atomic_long_add(c, &b->dom[l->dom_of[cpu]].ctr.sum);
	set_bit(cpu, b->seeded);
}

/* The fold's step, under @cpu's rq lock: @cpu's contrib back. */
static void fl_lay_fold_one(struct task_group *tg, int cpu, void *arg)
{
	struct fl_layout *l = arg;
	struct fl_lay_blk *b = fl_lay_find(l, tg);
	long c;

	if (!b || !test_bit(cpu, b->seeded))
		return;
	c = tg->cfs_rq[cpu]->tg_load_avg_contrib;
	fl_gen_bump(tg, cpu);
	clear_bit(cpu, b->seeded);
	atomic_long_sub(c, &b->dom[l->dom_of[cpu]].ctr.sum);
	atomic_long_add(c, &tg->load_avg);
}

/*
 * Fold @l (still published): no CPU seeded any more, every domain
 * emptied into tg->load_avg.  Under fl_audit_pause().
 */
static void fl_lay_fold(struct fl_layout *l)
{
	struct task_group *tg;
	struct fl_lay_blk *b;
	unsigned int d;
	long x;

	fl_rq_walk_all(fl_lay_fold_one, l, FL_HOLD_RESYNC);
	/*
	 * No writer adds to a domain now: each CPU was unseeded under its rq
	 * lock, which every writer holds.  What is left is not the
	 * module's: move it back as it is.
	 */
	rcu_read_lock();
	list_for_each_entry_rcu(tg, fl_vm.task_groups, list) {
		b = fl_lay_find(l, tg);
		if (!b)
			continue;
		for (d = 0; d < l->nr_dom; d++) {
			x = atomic_long_xchg(&b->dom[d].ctr.sum, 0);
			if (x) {
				atomic_long_add(x, &tg->load_avg);
				atomic_long_add(x, &fl_lay_residue);
			}
		}
	}
	rcu_read_unlock();
	atomic_long_inc(&fl_lay_folds);
}

/*
 * Make @id (refresh @refresh_us) the layout in force: the old one folded,
 * the new one built, published and seeded.  Under fl_switch_lock, process
 * context; -ENOMEM (nothing changed) if the new layout's table cannot be
 * had.  Applying the split layout in force again re-blocks it: groups
 * made since get blocks.
 */
int fl_layout_apply(u8 id, u32 refresh_us)
{
	struct fl_layout *old = fl_lay_now(), *new = NULL;

	if (id != FL_LAYOUT_GLOBAL) {
		new = fl_lay_build(id, refresh_us);
		if (!new)
			return -ENOMEM;
	}
	if (!old && !new)
		return 0;
	fl_audit_pause();
	if (old)
		fl_lay_fold(old);
	if (new) {
		rcu_assign_pointer(fl_lay_cur, new);
		static_branch_enable(&fl_lay_split);
		fl_rq_walk_all(fl_lay_seed_one, new, FL_HOLD_RESYNC);
	} else {
		static_branch_disable(&fl_lay_split);
		rcu_assign_pointer(fl_lay_cur, NULL);
	}
	fl_audit_resume();
	if (old) {
		synchronize_rcu();	/* no reader or writer left in @old */
		fl_lay_free(old);
	}
	return 0;
}

/* @tg's domains' sum for the audit; false: @tg has no block (global). */
bool fl_layout_audit(struct task_group *tg, s64 *sum_domains)
{
	const struct fl_layout *l = rcu_dereference(fl_lay_cur);
	struct fl_lay_blk *b;
	unsigned int d;

	*sum_domains = 0;
	b = l ? fl_lay_find(l, tg) : NULL;
	if (!b)
		return false;
	for (d = 0; d < l->nr_dom; d++)
		*sum_domains += atomic_long_read(&b->dom[d].ctr.sum);
	return true;
}

/*
 * Its lines of /sys/kernel/fairlab/stats ("kind name a b"):
 *   layout NAME domains groups     the layout in force, its domains, and
 *                                  the groups with a block
 *   layout_global nomem|full|late N 0
 *                                  groups the switch left global: no
 *                                  memory, no table slot, made while the
 *                                  blocks were handed out
 *   layout_global now N 0          groups global now (those, if alive,
 *                                  and every group made since the switch)
 *   layout_cache hits N 0          reads served by a domain's cached sum
 *   layout_fold - folds residue    folds, and what their sweeps moved back
 *                                  that no fairlab write had put there
 */
int fl_layout_show(char *buf, int at)
{
	const struct fl_layout *l;
	struct task_group *tg;
	unsigned int now = 0;
	u64 hits = 0;
	char name[32];
	int cpu;

	for_each_possible_cpu(cpu)
		hits += READ_ONCE(per_cpu_ptr(fl_stats, cpu)->tg_read_hits);
	rcu_read_lock();
	l = rcu_dereference(fl_lay_cur);
	if (l) {
		list_for_each_entry_rcu(tg, fl_vm.task_groups, list)
			if (tg != fl_root_task_group && tg->cfs_rq &&
			    !fl_lay_find(l, tg))
				now++;
		fl_layout_format(l->id, l->refresh_us, name, sizeof(name));
		at += sysfs_emit_at(buf, at, "layout %s %u %u\n", name,
				    l->nr_dom, l->blocks);
		at += sysfs_emit_at(buf, at, "layout_global nomem %u 0\n",
				    l->nomem);
		at += sysfs_emit_at(buf, at, "layout_global full %u 0\n",
				    l->full);
		at += sysfs_emit_at(buf, at, "layout_global late %u 0\n",
				    l->late);
		at += sysfs_emit_at(buf, at, "layout_global now %u 0\n", now);
	} else {
		at += sysfs_emit_at(buf, at, "layout global 0 0\n");
	}
	rcu_read_unlock();
	at += sysfs_emit_at(buf, at, "layout_cache hits %llu 0\n", hits);
	at += sysfs_emit_at(buf, at, "layout_fold - %ld %ld\n",
			    atomic_long_read(&fl_lay_folds),
			    atomic_long_read(&fl_lay_residue));
	return at;
}
