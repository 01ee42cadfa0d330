// SPDX-License-Identifier: GPL-2.0
/*
 * The two policy parameters, one validated path for insmod and sysfs
 * (as mm/zswap does with module_param_cb):
 *
 *   insmod fairlab.ko tg_policy=relative:8 idlest_policy=idle_cpus
 *   echo ratelimit:1000 > /sys/module/fairlab/parameters/tg_policy
 *
 * A bad value is refused with -EINVAL and one dmesg line; the active
 * policy stays.  Reading back gives the canonical form ("relative:8").
 * tg_layout (layout.h) is set the same way, and is in force from
 * post_patch to pre_unpatch, outside a fallback:
 *
 *   echo node:1000 > /sys/module/fairlab/parameters/tg_layout
 *
 * Once the patch is live (from its pre-patch callback on, so also during
 * the patch transition), a switch is traced (policy_switch) and a tg
 * policy switch publishes what the old policy held back (resync).  Once
 * the patch is no longer in force (disabled, being disabled, or replaced
 * by another livepatch: fl_patch_gone()), both parameters read "stock",
 * the kernel's own rule, and writes are refused with -EINVAL and one
 * dmesg line: a policy written then would never run.  The refusal is
 * decided under fl_switch_lock, against fl_unpatching, which klp's
 * pre_unpatch sets under the same lock as it records the unpatch: a
 * write either completes (switch, record, resync) before the unpatch
 * record, or is refused; none is recorded after it or changes the rule
 * of tasks still in patched code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include "fairlab.h"
#include "layout.h"
#include "fairlab_trace_events.h"

/*
 * The tg policy in force and its rule, in one of two slots: a switch fills
 * the other slot, publishes it, and waits for a grace period before the
 * slot it left may be written again, so the hot path (under the rq lock,
 * an RCU reader) always reads one consistent policy and rule.
 */
static struct fl_tg_state fl_tg_slots[2];
struct fl_tg_state __rcu *fl_tg_cur;	/* read by fl_tg_state_get() */
static u32 fl_idlest __read_mostly;
static bool fl_live;			/* patch enabled: switches take effect live */
static bool fl_unpatching;		/* pre_unpatch ran: writes refused */
static DEFINE_MUTEX(fl_switch_lock);	/* one switch (and resync) at a time */
/* A later livepatch is in (klp_later.c): stock in force, the user's kept. */
static bool fl_fallback;
static struct fl_tg_policy fl_user_tg;
static u32 fl_user_idlest;
/*
 * tg_layout as set (insmod or sysfs), and whether it is applied: from
 * post_patch (every task in the patched code, so no reader of the
 * kernel's own reads tg->load_avg alone) to pre_unpatch, outside a
 * fallback (layout.c folds it back to global in between).
 */
static u8 fl_user_layout;
static u32 fl_user_refresh;
static bool fl_layout_on;

struct fl_tg_policy fl_tg_policy_get(void)
{
	struct fl_tg_policy p = { .id = FL_TG_STOCK };
	const struct fl_tg_state *st;

	rcu_read_lock_sched();
	st = rcu_dereference_sched(fl_tg_cur);
	if (st)
		p = st->pol;
	rcu_read_unlock_sched();
	return p;
}

/* Make @p the policy in force; under fl_switch_lock, may sleep. */
static void fl_tg_state_set(const struct fl_tg_policy *p)
{
	struct fl_tg_state *cur, *next;

	lockdep_assert_held(&fl_switch_lock);
	cur = rcu_dereference_protected(fl_tg_cur,
					lockdep_is_held(&fl_switch_lock));
	next = cur == &fl_tg_slots[0] ? &fl_tg_slots[1] : &fl_tg_slots[0];
	next->pol = *p;
	fl_tg_rule_make(p, fl_nr_cpus, &next->rule);
	rcu_assign_pointer(fl_tg_cur, next);
	/* no reader is left in @cur: the next switch may overwrite it */
	synchronize_rcu();
}

u32 fl_idlest_policy_get(void)
{
	return READ_ONCE(fl_idlest);
}

/* The value as the user wrote it, without the newline echo adds. */
static int fl_val_len(const char *val)
{
	size_t n = strnlen(val, 64);

	if (n && val[n - 1] == '\n')
		n--;
	return n;
}

static void fl_tg_reject(const char *val)
{
	char list[256];
	size_t n = 0;
	int i;

	for (i = 0; i < FL_TG_NR_POLICIES; i++) {
		const struct fl_tg_policy_desc *d = &fl_tg_policy_descs[i];

		if (d->has_arg)
			n += scnprintf(list + n, sizeof(list) - n, " %s[:%u-%u]",
				       d->name, d->min, d->max);
		else
			n += scnprintf(list + n, sizeof(list) - n, " %s",
				       d->name);
	}
	pr_err("invalid tg_policy \"%*pE\": expected one of%s\n",
	       fl_val_len(val), val, list);
}

/*
 * A write once the unpatch has begun or the patch is gone: refused, said
 * once per write.  Under fl_switch_lock.
 */
static int fl_refuse_gone(const char *name)
{
	lockdep_assert_held(&fl_switch_lock);
	mutex_unlock(&fl_switch_lock);
	pr_err("%s not changed: the patch is disabled (the kernel's own stock rule is in force); reload fairlab to switch policies\n",
	       name);
	return -EINVAL;
}

/* stock means the running kernel's rule: its rate limit is the port's. */
static void fl_tg_policy_localise(struct fl_tg_policy *p)
{
	if (p->id == FL_TG_STOCK)
		p->arg = fl_port_stock_gate_us;
}

static int fl_tg_policy_set(const char *val, const struct kernel_param *kp)
{
	struct fl_tg_policy old, new;

	fl_klp_later_check();	/* before the lock: it may switch to fallback */
	mutex_lock(&fl_switch_lock);
	if (fl_unpatching || fl_patch_gone())
		return fl_refuse_gone("tg_policy");	/* unlocks */
	if (fl_tg_policy_parse(val, &new)) {
		mutex_unlock(&fl_switch_lock);
		fl_tg_reject(val);
		return -EINVAL;
	}
	fl_tg_policy_localise(&new);
	if (fl_fallback) {
		mutex_unlock(&fl_switch_lock);
		return fl_klp_later_refuse("tg_policy");
	}
	old = fl_tg_policy_get();
	fl_tg_state_set(&new);
	if (fl_live) {
		trace_policy_switch(FL_KIND_TG, old.id, old.arg, new.id,
				    new.arg);
		fl_resync_all();
	}
	mutex_unlock(&fl_switch_lock);
	return 0;
}

static int fl_tg_policy_show(char *buf, const struct kernel_param *kp)
{
	struct fl_tg_policy p = fl_tg_policy_get();
	int n;

	if (fl_patch_gone())
		p = (struct fl_tg_policy){ .id = FL_TG_STOCK };
	n = fl_tg_policy_format(&p, buf, 64);

	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static int fl_idlest_policy_set(const char *val, const struct kernel_param *kp)
{
	u32 old, new;
	char list[128];
	size_t n = 0;
	int i;

	fl_klp_later_check();	/* before the lock: it may switch to fallback */
	mutex_lock(&fl_switch_lock);
	if (fl_unpatching || fl_patch_gone())
		return fl_refuse_gone("idlest_policy");	/* unlocks */
	if (fl_idlest_policy_parse(val, &new)) {
		mutex_unlock(&fl_switch_lock);
		for (i = 0; i < FL_IDLEST_NR_POLICIES; i++)
			n += scnprintf(list + n, sizeof(list) - n, " %s",
				       fl_idlest_policy_names[i]);
		pr_err("invalid idlest_policy \"%*pE\": expected one of%s\n",
		       fl_val_len(val), val, list);
		return -EINVAL;
	}
	if (fl_fallback) {
		mutex_unlock(&fl_switch_lock);
		return fl_klp_later_refuse("idlest_policy");
	}
	old = fl_idlest_policy_get();
	WRITE_ONCE(fl_idlest, new);
	if (fl_live)
		trace_policy_switch(FL_KIND_IDLEST, old, 0, new, 0);
	mutex_unlock(&fl_switch_lock);
	return 0;
}

static int fl_idlest_policy_show(char *buf, const struct kernel_param *kp)
{
	u32 i = fl_patch_gone() ? FL_IDLEST_STOCK : fl_idlest_policy_get();

	return sysfs_emit(buf, "%s\n", fl_idlest_policy_names[i]);
}

/*
 * Put layout @id:@us in force (layout.c) and record the switch.  Under
 * fl_switch_lock.  Nothing changes if the new layout's table cannot be
 * had (-ENOMEM, said once).
 */
static int fl_layout_switch(u8 id, u32 us)
{
	char name[32];
	u32 old_us;
	u8 old;
	int ret;

	lockdep_assert_held(&fl_switch_lock);
	fl_layout_get(&old, &old_us);
	if (old == FL_LAYOUT_GLOBAL && id == FL_LAYOUT_GLOBAL)
		return 0;
	ret = fl_layout_apply(id, us);
	if (ret) {
		fl_layout_format(id, us, name, sizeof(name));
		pr_err("tg_layout %s not applied: no memory for its table (the layout in force stays)\n",
		       name);
		return ret;
	}
	if (fl_live)
		trace_policy_switch(FL_KIND_LAYOUT, old, old_us, id, us);
	return 0;
}

static int fl_tg_layout_set(const char *val, const struct kernel_param *kp)
{
	u32 us;
	u8 id;
	int ret = 0;

	fl_klp_later_check();	/* before the lock: it may switch to fallback */
	mutex_lock(&fl_switch_lock);
	if (fl_unpatching || fl_patch_gone())
		return fl_refuse_gone("tg_layout");	/* unlocks */
	if (fl_layout_parse(val, fl_val_len(val), &id, &us)) {
		mutex_unlock(&fl_switch_lock);
		pr_err("invalid tg_layout \"%*pE\": expected one of global node[:0-%u] llc[:0-%u] (read-cache refresh in us)\n",
		       fl_val_len(val), val, FL_LAYOUT_MAX_REFRESH_US,
		       FL_LAYOUT_MAX_REFRESH_US);
		return -EINVAL;
	}
	if (fl_fallback) {
		mutex_unlock(&fl_switch_lock);
		return fl_klp_later_refuse("tg_layout");
	}
	if (fl_layout_on)
		ret = fl_layout_switch(id, us);
	if (!ret) {
		WRITE_ONCE(fl_user_layout, id);
		WRITE_ONCE(fl_user_refresh, us);
	}
	mutex_unlock(&fl_switch_lock);
	return ret;
}

/* As set; global once the patch is gone or in a fallback (as in force). */
static int fl_tg_layout_show(char *buf, const struct kernel_param *kp)
{
	u8 id = READ_ONCE(fl_user_layout);
	u32 us = READ_ONCE(fl_user_refresh);
	int n;

	if (fl_patch_gone() || READ_ONCE(fl_fallback)) {
		id = FL_LAYOUT_GLOBAL;
		us = 0;
	}
	n = fl_layout_format(id, us, buf, 32);
	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static const struct kernel_param_ops fl_tg_layout_ops = {
	.set = fl_tg_layout_set,
	.get = fl_tg_layout_show,
};

static const struct kernel_param_ops fl_tg_policy_ops = {
	.set = fl_tg_policy_set,
	.get = fl_tg_policy_show,
};

static const struct kernel_param_ops fl_idlest_policy_ops = {
	.set = fl_idlest_policy_set,
	.get = fl_idlest_policy_show,
};

module_param_cb(tg_policy, &fl_tg_policy_ops, NULL, 0644);
MODULE_PARM_DESC(tg_policy,
		 "tg->load_avg publish policy: stock (default), force, nonzero, relative[:N], turner1, turner2, fixed[:T], log2[:B], ratelimit[:US], budget[:E]");
module_param_cb(idlest_policy, &fl_idlest_policy_ops, NULL, 0644);
MODULE_PARM_DESC(idlest_policy,
		 "update_pick_idlest tie-break: stock (default), idle_cpus, nr_running");
module_param_cb(tg_layout, &fl_tg_layout_ops, NULL, 0644);
MODULE_PARM_DESC(tg_layout,
		 "where a group's load sum lives: global (default, tg->load_avg), node[:US], llc[:US] (one counter per NUMA node or LLC; US: read-cache refresh in us)");

/*
 * Module init, before the patch: fix nr_cpus, and make the rule of the
 * policy given at insmod (parsed before init) or of stock for it.
 */
void fl_params_init(void)
{
	struct fl_tg_policy p;

	mutex_lock(&fl_switch_lock);
	fl_nr_cpus = num_present_cpus();
	p = fl_tg_policy_get();
	fl_tg_policy_localise(&p);
	fl_tg_state_set(&p);
	mutex_unlock(&fl_switch_lock);
}

/*
 * The unpatching transition is about to start (klp's pre_unpatch): record
 * it, so that the analyzer knows that from here on the kernel's own,
 * untraced update_tg_load_avg() runs for the tasks already switched back.
 */
void fl_params_unpatching(void)
{
	struct fl_tg_policy p;

	mutex_lock(&fl_switch_lock);
	WRITE_ONCE(fl_unpatching, true);	/* from here on, writes are refused */
	/* the kernel's own reader reads tg->load_avg alone: fold first */
	fl_layout_on = false;
	fl_layout_switch(FL_LAYOUT_GLOBAL, 0);
	p = fl_tg_policy_get();
	trace_policy_switch(FL_KIND_UNPATCH, p.id, p.arg, FL_TG_STOCK,
			    fl_port_stock_gate_us);
	mutex_unlock(&fl_switch_lock);
}

/* The tg_layout in force, as a switch to itself; under fl_switch_lock. */
static void fl_layout_record(void)
{
	u32 us;
	u8 id;

	fl_layout_get(&id, &us);
	trace_policy_switch(FL_KIND_LAYOUT, id, us, id, us);
}

/* Patch live or not; at going live, record the policies in force. */
void fl_params_set_live(bool live)
{
	struct fl_tg_policy p;
	u32 i;

	mutex_lock(&fl_switch_lock);
	fl_live = live;
	if (live) {
		p = fl_tg_policy_get();
		i = fl_idlest_policy_get();
		trace_policy_switch(FL_KIND_TG, p.id, p.arg, p.id, p.arg);
		trace_policy_switch(FL_KIND_IDLEST, i, 0, i, 0);
		fl_layout_record();
	}
	mutex_unlock(&fl_switch_lock);
}

/*
 * A later livepatch replaces one of fairlab's functions (@on) or is gone:
 * put the kernel's rule (stock, both policies) in force and keep the
 * user's, or restore the user's.  Recorded as a policy_switch of kind
 * fallback (old: the user's tg policy, new: the one now in force), then
 * as ordinary tg and idlest switches, which the analyzer segments on.
 * Nothing changes once the patch is gone (both read stock then).  Returns
 * true if the policies changed.
 */
bool fl_params_fallback(bool on)
{
	struct fl_tg_policy cur, next = { .id = FL_TG_STOCK };
	u32 idl, nidl = FL_IDLEST_STOCK;
	bool changed = false;

	mutex_lock(&fl_switch_lock);
	if (on == fl_fallback || fl_unpatching || fl_patch_gone())
		goto out;
	cur = fl_tg_policy_get();
	idl = fl_idlest_policy_get();
	if (on) {
		fl_user_tg = cur;
		fl_user_idlest = idl;
		fl_tg_policy_localise(&next);
	} else {
		next = fl_user_tg;
		nidl = fl_user_idlest;
	}
	fl_fallback = on;
	fl_tg_state_set(&next);
	WRITE_ONCE(fl_idlest, nidl);
	/* the later patch may read or write tg->load_avg alone: fold */
	if (fl_layout_on)
		fl_layout_switch(on ? FL_LAYOUT_GLOBAL : fl_user_layout,
				 on ? 0 : fl_user_refresh);
	if (fl_live) {
		trace_policy_switch(FL_KIND_FALLBACK, fl_user_tg.id,
				    fl_user_tg.arg, next.id, next.arg);
		trace_policy_switch(FL_KIND_TG, cur.id, cur.arg, next.id,
				    next.arg);
		trace_policy_switch(FL_KIND_IDLEST, idl, 0, nidl, 0);
		fl_resync_all();
	}
	changed = true;
out:
	mutex_unlock(&fl_switch_lock);
	return changed;
}

/* In fallback: the user's policies, restored when the later patch goes. */
bool fl_params_user(struct fl_tg_policy *tg, u32 *idlest)
{
	bool on;

	mutex_lock(&fl_switch_lock);
	on = fl_fallback;
	*tg = fl_user_tg;
	*idlest = fl_user_idlest;
	mutex_unlock(&fl_switch_lock);
	return on;
}

/* describe: a recording started during a fallback learns of it. */
void fl_params_describe(void)
{
	struct fl_tg_policy cur;

	mutex_lock(&fl_switch_lock);
	if (fl_fallback && fl_live) {
		cur = fl_tg_policy_get();
		trace_policy_switch(FL_KIND_FALLBACK, fl_user_tg.id,
				    fl_user_tg.arg, cur.id, cur.arg);
	}
	if (fl_live)
		fl_layout_record();	/* the layout in force */
	mutex_unlock(&fl_switch_lock);
}

/*
 * Patched (post_patch): also the end of an unpatch that was reversed
 * before it completed, after which switches count again.
 */
void fl_params_patched(void)
{
	mutex_lock(&fl_switch_lock);
	WRITE_ONCE(fl_unpatching, false);
	/* every task runs the patched readers and writers: split now */
	fl_layout_on = true;
	if (!fl_fallback)
		fl_layout_switch(fl_user_layout, fl_user_refresh);
	mutex_unlock(&fl_switch_lock);
}

/* Module exit: nothing left split (pre_unpatch folded; this is a guard). */
void fl_params_exit(void)
{
	mutex_lock(&fl_switch_lock);
	fl_layout_on = false;
	fl_layout_switch(FL_LAYOUT_GLOBAL, 0);
	mutex_unlock(&fl_switch_lock);
}
