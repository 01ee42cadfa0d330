// SPDX-License-Identifier: GPL-2.0
/*
 * Test livepatches for the klp-others scenario, built by
 * tests/vm/build-refusal-modules.sh from the three files that include
 * this one:
 *
 *   fl_test_other.ko     replaces __sched_group_set_shares() (one of the
 *                        functions fairlab replaces) without atomic replace
 *   fl_test_replace.ko   the same with atomic replace (.replace = true),
 *                        not declaring fairlab's klp state
 *   fl_test_handover.ko  with atomic replace, declaring fairlab's state and
 *                        calling its handover from post_patch
 *
 * The replacement refuses every change of a group's weight (-EINVAL), so a
 * write to a cgroup's cpu.weight shows whether this patch is in force; it
 * changes nothing else.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/livepatch.h>
#include <linux/module.h>
#include "fairlab_klp.h"

struct task_group;

static int fl_test_set_shares(struct task_group *tg, unsigned long shares)
{
	return -EINVAL;
}

static struct klp_func funcs[] = {
	{
		.old_name = "__sched_group_set_shares",
		.new_func = fl_test_set_shares,
	}, { }
};

#ifdef FL_TEST_HANDOVER
static void fl_test_post_patch(struct klp_object *obj)
{
	struct klp_state *s = klp_get_prev_state(FAIRLAB_KLP_STATE_ID);
	struct fairlab_klp_handover *h = s ? s->data : NULL;

	pr_info("fairlab state %s\n", h ? "found: publishing" : "not found");
	if (h)
		h->publish();
}

static struct klp_state states[] = {
	{ .id = FAIRLAB_KLP_STATE_ID, .version = FAIRLAB_KLP_STATE_VERSION },
	{ }
};
#endif

static struct klp_object objs[] = {
	{
		.funcs = funcs,
#ifdef FL_TEST_HANDOVER
		.callbacks = { .post_patch = fl_test_post_patch },
#endif
	}, { }
};

static struct klp_patch patch = {
	.mod = THIS_MODULE,
	.objs = objs,
#ifdef FL_TEST_REPLACE
	.replace = true,
#endif
#ifdef FL_TEST_HANDOVER
	.states = states,
#endif
};

static int __init fl_test_init(void)
{
	return klp_enable_patch(&patch);
}

static void __exit fl_test_exit(void)
{
}

module_init(fl_test_init);
module_exit(fl_test_exit);
MODULE_DESCRIPTION("fairlab test: another livepatch of __sched_group_set_shares");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
