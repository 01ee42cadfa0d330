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

#define CREATE_TRACE_POINTS
#include "fairlab_trace_events.h"

EXPORT_TRACEPOINT_SYMBOL_GPL(tg_update);
EXPORT_TRACEPOINT_SYMBOL_GPL(pick_idlest);
EXPORT_TRACEPOINT_SYMBOL_GPL(policy_switch);
EXPORT_TRACEPOINT_SYMBOL_GPL(tg_info);
EXPORT_TRACEPOINT_SYMBOL_GPL(cpu_topology);
EXPORT_TRACEPOINT_SYMBOL_GPL(tg_audit);

MODULE_DESCRIPTION("fairlab: trace events for the CFS policy livepatch");
MODULE_AUTHOR("fairlab developers");
MODULE_LICENSE("GPL");
