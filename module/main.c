// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab.ko: a klp livepatch that puts two CFS decisions of Debian
 * 6.1.0-57-amd64 under switchable policies, with every decision traced:
 *
 *  - whether a CPU publishes its share of a task group's load into
 *    tg->load_avg (update_tg_load_avg(), inlined into 12 functions);
 *  - which group the fork/exec slow path picks (update_pick_idlest(),
 *    inlined into find_idlest_group()).
 *
 *   insmod fairlab_trace.ko
 *   insmod fairlab.ko tg_policy=stock idlest_policy=stock
 *   echo 0 > /sys/kernel/livepatch/fairlab/enabled; rmmod fairlab
 *
 * Modelled on samples/livepatch/livepatch-sample.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include "port.h"
#include "fairlab.h"
#include "fairlab_klp.h"
#include "fairlab_trace_events.h"

u32 fl_nr_cpus __read_mostly;	/* set by fl_params_init() */

/* one klp_func per replaced function (port.h), and klp's terminator */
static struct klp_func fl_klp_funcs[FL_PORT_NR_FUNCS + 1];
static struct klp_patch fl_klp_patch;
static struct kobject *fl_kobj;
static bool fl_enabled_seen;	/* klp_enable_patch() succeeded */
static bool fl_unpatched;	/* post_unpatch ran */

/*
 * Patching starts (under klp_mutex, before any function is replaced):
 * switches are live from here on, also during the transition, since a
 * resync is right whichever code a task runs.
 */
static int fl_pre_patch(struct klp_object *obj)
{
	int ret = fl_klp_check_others(&fl_klp_patch);

	if (!ret)
		fl_params_set_live(true);
	return ret;
}

/* Patched: the recording gets the initial state. */
static void fl_post_patch(struct klp_object *obj)
{
	fl_params_patched();
	fl_describe();
	fl_audit_emit();
}

/*
 * Unpatched: the kernel's own update_tg_load_avg() runs again; publish
 * what the policy held back so that it inherits an exact tg->load_avg.
 */
static void fl_unpatched_publish(void)
{
	WRITE_ONCE(fl_unpatched, true);
	fl_params_set_live(false);
	fl_resync_all();
	fl_audit_emit();
}

/*
 * Before the unpatch transition starts: as tasks switch back, the
 * kernel's own update_tg_load_avg() runs for them, untraced; a
 * policy_switch record of kind unpatch says from where.
 */
static void fl_pre_unpatch(struct klp_object *obj)
{
	fl_params_unpatching();
}

static void fl_post_unpatch(struct klp_object *obj)
{
	fl_unpatched_publish();
}

/*
 * A livepatch with atomic replace runs none of our callbacks (klp's
 * klp_unpatch_replaced_patches() of 6.1 and 6.12 only clears enabled and
 * removes our functions, at the end of the new patch's transition): klp
 * refuses it unless it declares this state, whose data lets it publish
 * what we held back (fairlab_klp.h), from its post_patch.  That call is
 * the only code of ours that runs at a handover, so it records the
 * unpatch first, as pre_unpatch would (late: the new patch's transition,
 * in which tasks left fairlab's code, has ended by then), then refuses
 * switches and publishes as post_unpatch does.
 */
static void fl_handover_publish(void)
{
	fl_params_unpatching();
	fl_unpatched_publish();
}

static struct fairlab_klp_handover fl_handover = {
	.publish = fl_handover_publish,
};

static struct klp_state fl_klp_states[] = {
	{
		.id = FAIRLAB_KLP_STATE_ID,
		.version = FAIRLAB_KLP_STATE_VERSION,
		.data = &fl_handover,
	}, { }
};

static struct klp_object fl_klp_objs[] = {
	{
		/* name NULL: vmlinux */
		.funcs = fl_klp_funcs,
		.callbacks = {
			.pre_patch = fl_pre_patch,
			.post_patch = fl_post_patch,
			.pre_unpatch = fl_pre_unpatch,
			.post_unpatch = fl_post_unpatch,
		},
	}, { }
};

static struct klp_patch fl_klp_patch = {
	.mod = THIS_MODULE,
	.objs = fl_klp_objs,
	.states = fl_klp_states,
};

/*
 * The patch is no longer in force: unpatched, being unpatched (klp clears
 * enabled when the unpatch transition starts), or replaced by another
 * livepatch with atomic replace (klp clears enabled and runs none of our
 * callbacks).
 */
bool fl_patch_gone(void)
{
	return READ_ONCE(fl_unpatched) ||
	       (READ_ONCE(fl_enabled_seen) && !READ_ONCE(fl_klp_patch.enabled));
}

static int fl_fill_klp_funcs(void)
{
	int i;

	/* FL_PORT_NR_FUNCS counts them exactly (static_assert in port.c) */
	for (i = 0; i < FL_PORT_NR_FUNCS; i++) {
		fl_klp_funcs[i].old_name = fl_port_funcs[i].name;
		fl_klp_funcs[i].new_func = fl_port_funcs[i].new_func;
	}
	return 0;
}

static int __init fl_init(void)
{
	int ret;

	fl_params_init();

	ret = fl_check_port();
	if (ret)
		return ret;
	ret = fl_resolve_symbols();
	if (ret) {
		pr_err("missing vmlinux symbols: refusing to load\n");
		return ret;
	}
	ret = fl_fill_klp_funcs();
	if (ret)
		return ret;

	ret = fl_stats_init();
	if (ret)
		return ret;
	ret = fl_pubtime_init();
	if (ret)
		goto err_stats;
	ret = fl_gens_init();
	if (ret)
		goto err_pubtime;

	fl_kobj = kobject_create_and_add("fairlab", kernel_kobj);
	if (!fl_kobj) {
		ret = -ENOMEM;
		goto err_gens;
	}
	ret = sysfs_create_group(fl_kobj, &fl_stats_group);
	if (ret)
		goto err_kobj;
	ret = fl_audit_init(fl_kobj);
	if (ret)
		goto err_kobj;

	ret = klp_enable_patch(&fl_klp_patch);
	if (ret)
		goto err_kobj;
	WRITE_ONCE(fl_enabled_seen, true);
	/* livepatches loaded from now on may stack over ours */
	if (fl_klp_later_init(&fl_klp_patch))
		pr_warn("cannot watch for livepatches loaded later (module notifier)\n");
	/* from now on, tracing that starts gets the groups and CPUs named */
	fairlab_trace_set_describe(fl_describe);
	return 0;

err_kobj:
	kobject_put(fl_kobj);
err_gens:
	fl_gens_exit();
err_pubtime:
	fl_pubtime_exit();
err_stats:
	fl_stats_exit();
	return ret;
}

static void __exit fl_exit(void)
{
	/* klp guarantees no task runs the replacements any more. */
	fl_klp_later_exit();
	fl_params_exit();	/* no block left (tg_layout, layout.c) */
	fairlab_trace_set_describe(NULL);
	kobject_put(fl_kobj);
	fl_gens_exit();
	fl_pubtime_exit();
	fl_stats_exit();
}

module_init(fl_init);
module_exit(fl_exit);
MODULE_DESCRIPTION("fairlab: switchable CFS tg->load_avg and pick-idlest policies (klp livepatch)");
MODULE_AUTHOR("fairlab developers");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
