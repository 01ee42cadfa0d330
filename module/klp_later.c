// SPDX-License-Identifier: GPL-2.0
/*
 * Livepatches loaded after fairlab that replace one of its functions.
 *
 * klp stacks a later non-cumulative patch on top of fairlab: the ftrace
 * handler of that function runs the newest replacement.  But fairlab's
 * replacements call each other directly (its enqueue_entity() is called by
 * its enqueue_task_fair(), not through ftrace), so such a patch is only
 * half applied while fairlab is in.  fairlab cannot make it whole; it says
 * so (one dmesg line naming the patch and the function, the fallback file,
 * a policy_switch record of kind fallback in recordings and at describe)
 * and falls back to the kernel's rule (tg_policy and idlest_policy stock)
 * until that patch is disabled, then restores the user's policies.
 *
 * klp has no notifier chain of its own.  The check runs:
 *  - when a livepatch module goes live or away (module notifier: at
 *    MODULE_STATE_LIVE its klp_enable_patch() has returned);
 *  - at every policy write, audit, describe and read of the fallback file
 *    (a recording's start writes describe and audit_emit);
 *  - once a second while a fallback is in force, since disabling a patch
 *    (echo 0 > .../enabled) tells no one.
 *
 * It walks klp_patches under klp_mutex (neither is exported: symbols.c
 * resolves them).  klp holds klp_mutex while it runs fairlab's callbacks,
 * and those take fl_switch_lock, fl_audit_lock and fl_describe_lock; so the
 * check is never called from a callback nor with one of those held: only
 * from sysfs handlers and a work item, before their own locks.
 *
 * A cumulative patch (.replace) is not stacking: klp refuses it unless it
 * declares fairlab's klp state (fairlab_klp.h), and one that does takes
 * fairlab's place.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include "fairlab.h"

/* kernel/livepatch/core.c: guards klp_patches; resolved by symbols.c. */
struct mutex *fl_klp_mutex;

static struct klp_patch *fl_later_self;	/* fairlab's patch, once enabled */
static DEFINE_MUTEX(fl_later_lock);	/* one check at a time; the names */
static bool fl_later_on;		/* fallback in force */
static char fl_later_patch[MODULE_NAME_LEN];
static char fl_later_func[KSYM_NAME_LEN];

static void fl_later_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fl_later_work, fl_later_fn);

/*
 * Under klp_mutex: the first enabled non-cumulative patch other than
 * fairlab that replaces one of fairlab's vmlinux functions.  Every such
 * patch is a later one: fl_klp_check_others() refused fairlab over an
 * earlier one.
 */
static bool fl_klp_find_later(char *patch, char *func)
{
	struct klp_object *obj;
	struct klp_patch *p;
	struct klp_func *f;

	lockdep_assert_held(fl_klp_mutex);
	list_for_each_entry(p, fl_klp_patches, list) {
		if (p == fl_later_self || !p->enabled || p->replace)
			continue;
		klp_for_each_object(p, obj) {
			if (obj->name)		/* a module's function */
				continue;
			klp_for_each_func(obj, f) {
				if (f->nop ||
				    !fl_klp_replaces(fl_later_self, f->old_name))
					continue;
				strscpy(patch, p->mod->name, MODULE_NAME_LEN);
				strscpy(func, f->old_name, KSYM_NAME_LEN);
				return true;
			}
		}
	}
	return false;
}

/*
 * Look for a later patch and fall back or restore accordingly.  Process
 * context; never under klp_mutex nor a lock that a klp callback of
 * fairlab takes (see the top of this file).
 */
void fl_klp_later_check(void)
{
	char patch[MODULE_NAME_LEN], func[KSYM_NAME_LEN];
	struct klp_patch *self = READ_ONCE(fl_later_self);
	char tg[64];
	bool found;

	if (!self)
		return;
	mutex_lock(&fl_later_lock);
	mutex_lock(fl_klp_mutex);
	found = !fl_patch_gone() && fl_klp_find_later(patch, func);
	mutex_unlock(fl_klp_mutex);

	if (found && (!fl_later_on || strcmp(patch, fl_later_patch))) {
		/* once per patch that turns up */
		pr_warn("livepatch %s replaces %s after fairlab, which would bypass it (its replacements call each other directly): the kernel's rule is in force (tg_policy stock, idlest_policy stock) until %s is disabled; fairlab must be the topmost livepatch\n",
			patch, func, patch);
		strscpy(fl_later_patch, patch, sizeof(fl_later_patch));
		strscpy(fl_later_func, func, sizeof(fl_later_func));
		fl_params_fallback(true);
		fl_later_on = true;
	} else if (!found && fl_later_on) {
		fl_later_on = false;
		if (fl_params_fallback(false)) {
			struct fl_tg_policy p = fl_tg_policy_get();

			fl_tg_policy_format(&p, tg, sizeof(tg));
			pr_info("livepatch %s is gone: tg_policy %s and idlest_policy %s are in force again\n",
				fl_later_patch, tg,
				fl_idlest_policy_names[fl_idlest_policy_get()]);
		}
	}
	if (fl_later_on)	/* a disable tells no one: look again */
		schedule_delayed_work(&fl_later_work, HZ);
	mutex_unlock(&fl_later_lock);
}

static void fl_later_fn(struct work_struct *work)
{
	fl_klp_later_check();
}

/* A policy write while a later patch is in: refused, said once per write. */
int fl_klp_later_refuse(const char *param)
{
	mutex_lock(&fl_later_lock);
	pr_err("%s not changed: livepatch %s replaces %s after fairlab, the kernel's rule is in force until it is disabled\n",
	       param, fl_later_patch, fl_later_func);
	mutex_unlock(&fl_later_lock);
	return -EBUSY;
}

/*
 * A livepatch module went live (its patch enabled, its transition maybe
 * still running) or is going (its patch already disabled and removed):
 * look from a work item, outside the module loader's context.
 */
static int fl_later_module_cb(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	struct module *mod = data;

	if (mod->klp && mod != THIS_MODULE &&
	    (state == MODULE_STATE_LIVE || state == MODULE_STATE_GOING))
		mod_delayed_work(system_wq, &fl_later_work, 0);
	return NOTIFY_DONE;
}

static struct notifier_block fl_later_nb = {
	.notifier_call = fl_later_module_cb,
};

/*
 * /sys/kernel/fairlab/fallback: "none", or the later patch and the
 * function it replaces, with the user's policies restored when it goes:
 *   fl_test_other __sched_group_set_shares tg_policy=relative:8 idlest_policy=stock
 */
static ssize_t fallback_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct fl_tg_policy tg;
	u32 idlest;
	char t[64];
	ssize_t n;

	fl_klp_later_check();
	mutex_lock(&fl_later_lock);
	if (fl_later_on && fl_params_user(&tg, &idlest)) {
		fl_tg_policy_format(&tg, t, sizeof(t));
		n = sysfs_emit(buf, "%s %s tg_policy=%s idlest_policy=%s\n",
			       fl_later_patch, fl_later_func, t,
			       fl_idlest_policy_names[idlest]);
	} else {
		n = sysfs_emit(buf, "none\n");
	}
	mutex_unlock(&fl_later_lock);
	return n;
}

struct kobj_attribute fl_fallback_attr = __ATTR_RO(fallback);

/* After klp_enable_patch(@self) succeeded. */
int fl_klp_later_init(struct klp_patch *self)
{
	WRITE_ONCE(fl_later_self, self);
	return register_module_notifier(&fl_later_nb);
}

void fl_klp_later_exit(void)
{
	unregister_module_notifier(&fl_later_nb);
	cancel_delayed_work_sync(&fl_later_work);
}
