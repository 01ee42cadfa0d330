/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's side of a recording (fairlab record, experiment):
 * are fairlab.ko and fairlab_trace.ko loaded and the patch transition
 * done; the active policies through sysfs; the describe and audit
 * triggers.  Every function prints its own error (naming what to run).
 */
#ifndef FL_LIVE_H
#define FL_LIVE_H

#include <stddef.h>

/* The two policies a recording can switch. */
enum fl_knob { FL_KNOB_TG, FL_KNOB_IDLEST };

/* "tg" or "idlest": the kind in file names and in throughput.tsv. */
const char *fl_knob_kind(enum fl_knob k);

/*
 * The root the live system's files are read under: "" (the real one), or
 * $FAIRLAB_SYSROOT, a directory laid out as / (sys/, proc/sys/kernel/
 * osrelease, run/) that the tests build to stand for a kernel.
 */
const char *fl_sysroot(void);
/* @abs ("/sys/...") under fl_sysroot(), in @buf; returns @buf. */
const char *fl_sys_path(char *buf, size_t len, const char *abs);

/* The first line of @path without its newline; 0 or -errno. */
int fl_read_line(const char *path, char *buf, size_t len);

/*
 * In this order: root, /sys/kernel/livepatch, a port serving the running
 * release (served.h), both modules loaded, the livepatch enabled and its transition
 * done (waits up to 15 s for it), the fairlab events in tracefs.
 * 0, or -1 after printing what is missing and what to run.
 */
int fl_live_check(void);

/*
 * Is @policy one fairlab.ko takes for @k?  Parsed by the module's own
 * parser (module/policy/policy.c), so that a typo is a usage error
 * before anything is switched or recorded.  0, or -1 after an error
 * naming @what ("record: --policy") and every valid name.
 */
int fl_policy_check(enum fl_knob k, const char *policy, const char *what);

/* The active policy (canonical form, as sysfs reads it back); 0 or -1. */
int fl_policy_get(enum fl_knob k, char *buf, size_t len);
/* Switches the policy; 0, or -1 when fairlab.ko refused it (-EINVAL). */
int fl_policy_set(enum fl_knob k, const char *policy);

/*
 * tg_layout, where each group's sum of load lives (global, node, llc,
 * with :US a read cache; fairlab.ko's parameter): the active one, as sysfs
 * reads it back, and a switch.  0, or -1 after an error (a fairlab.ko
 * without tg_layout is named as such).
 */
int fl_layout_get(char *buf, size_t len);
int fl_layout_set(const char *layout);

/* fairlab:tg_info + cpu_topology events (describe) / a tg_audit snapshot. */
int fl_live_describe(void);
int fl_live_audit(void);

/* The tracefs directory (/sys/kernel/tracing, or the debugfs one). */
const char *fl_tracefs(void);

#endif /* FL_LIVE_H */
