// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab_trace.ko: the fairlab:* trace events and nothing else.
 *
 * A livepatch module is tainted K, and 6.1 refuses to create trace events
 * for such modules ("module has bad taint, not creating trace events").
 * So the events live here, in a plain module, and fairlab.ko calls the
 * exported tracepoints.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#define CREATE_TRACE_POINTS
#include "fairlab_trace_events.h"

/*
 * A recording names its groups and CPUs from the start: the first probe
 * on tg_info or cpu_topology (trace-cmd record -e fairlab) queues a work
 * that calls fairlab.ko's describe hook.  A probe's reg callback runs
 * before the probe is in place, trace-cmd enables the events one by one,
 * and it turns tracing_on back on only once its recorders run: so the
 * work polls until both events are live and tracing is on, for at most
 * FL_DESCRIBE_TRIES x FL_DESCRIBE_WAIT_MS (then describes anyway: one
 * event alone may have been enabled, or only in an instance).
 */
#define FL_DESCRIBE_WAIT_MS	50
#define FL_DESCRIBE_TRIES	200

static DEFINE_MUTEX(fl_hook_lock);	/* a hook call against its removal */
static void (*fl_describe_hook)(void);
static atomic_t fl_describe_tries;
static void fl_describe_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fl_describe_work, fl_describe_fn);

/* fairlab.ko sets its describe function at init and clears it at exit. */
void fairlab_trace_set_describe(void (*fn)(void))
{
	mutex_lock(&fl_hook_lock);
	fl_describe_hook = fn;
	mutex_unlock(&fl_hook_lock);
}
EXPORT_SYMBOL_GPL(fairlab_trace_set_describe);

static void fl_describe_fn(struct work_struct *work)
{
	if (!(trace_tg_info_enabled() && trace_cpu_topology_enabled() &&
	      tracing_is_on()) &&
	    atomic_inc_return(&fl_describe_tries) < FL_DESCRIBE_TRIES) {
		schedule_delayed_work(&fl_describe_work,
				      msecs_to_jiffies(FL_DESCRIBE_WAIT_MS));
		return;
	}
	mutex_lock(&fl_hook_lock);
	if (fl_describe_hook)
		fl_describe_hook();
	mutex_unlock(&fl_hook_lock);
}

int fl_trace_describe_reg(void)
{
	atomic_set(&fl_describe_tries, 0);
	schedule_delayed_work(&fl_describe_work,
			      msecs_to_jiffies(FL_DESCRIBE_WAIT_MS));
	return 0;
}

void fl_trace_describe_unreg(void)
{
}

static int __init fl_trace_init(void)
{
	return 0;
}

static void __exit fl_trace_exit(void)
{
	cancel_delayed_work_sync(&fl_describe_work);
}

module_init(fl_trace_init);
module_exit(fl_trace_exit);

EXPORT_TRACEPOINT_SYMBOL_GPL(tg_update);
EXPORT_TRACEPOINT_SYMBOL_GPL(tg_read);
EXPORT_TRACEPOINT_SYMBOL_GPL(pick_idlest);
EXPORT_TRACEPOINT_SYMBOL_GPL(policy_switch);
EXPORT_TRACEPOINT_SYMBOL_GPL(tg_info);
EXPORT_TRACEPOINT_SYMBOL_GPL(cpu_topology);
EXPORT_TRACEPOINT_SYMBOL_GPL(tg_audit);

MODULE_DESCRIPTION("fairlab: trace events for the CFS policy livepatch");
MODULE_AUTHOR("fairlab developers");
MODULE_LICENSE("GPL");
