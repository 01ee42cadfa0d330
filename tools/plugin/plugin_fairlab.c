// SPDX-License-Identifier: GPL-2.0
/*
 * libtraceevent plugin: `trace-cmd report` prints fairlab:* records with
 * names (policies, call sites, group types, task groups, tg_layouts)
 * instead of the numbers the events carry; tg_read keeps the kernel's own
 * format (its domain and cache_hit fields print as numbers there).  Names come from module/policy/policy.c, the
 * same table fairlab.ko is built with.
 *
 * Install: make -C tools install (~/.local/lib/traceevent/plugins), or
 * point TRACEEVENT_PLUGIN_DIR at the directory holding plugin_fairlab.so.
 */
#include <event-parse.h>
#include <trace-seq.h>

#include "policy.h"

#define EXPORT __attribute__((visibility("default")))

/* The kernel's initial idlest avg_load in find_idlest_group(): UINT_MAX. */
#define FL_AVG_LOAD_NONE 0xffffffffull

/* Reads a field; on failure notes it in the output and returns nonzero. */
static int val(struct trace_seq *s, struct tep_event *ev, const char *name,
	       struct tep_record *rec, unsigned long long *v)
{
	return tep_get_field_val(s, ev, name, rec, v, 1);
}

static void print_tg(struct trace_seq *s, const char *key, unsigned long long tg)
{
	if (tg & FL_TG_AUTOGROUP_FLAG)
		trace_seq_printf(s, "%s=autogroup-%llu", key, tg & ~FL_TG_AUTOGROUP_FLAG);
	else
		trace_seq_printf(s, "%s=cgroup-%llu", key, tg);
}

static void print_tg_policy(struct trace_seq *s, unsigned long long id,
			    unsigned long long arg)
{
	struct fl_tg_policy p = { .id = (u32)id, .arg = (u32)arg };
	char buf[48];

	if (id < FL_TG_NR_POLICIES) {
		fl_tg_policy_format(&p, buf, sizeof(buf));
		trace_seq_puts(s, buf);
	} else {
		trace_seq_printf(s, "policy#%llu:%llu", id, arg);
	}
}

static void print_idlest_policy(struct trace_seq *s, unsigned long long id)
{
	if (id < FL_IDLEST_NR_POLICIES)
		trace_seq_puts(s, fl_idlest_policy_names[id]);
	else
		trace_seq_printf(s, "policy#%llu", id);
}

static const char *group_type(unsigned long long t)
{
	return t < 6 ? fl_group_type_names[t] : "?";
}

/*
 * tg_layout's domain (newer fairlab_trace.ko, an s16): "domain=N", or
 * "domain=global" for -1 (tg->load_avg); nothing on older records.
 */
static void print_domain(struct trace_seq *s, struct tep_event *ev,
			 struct tep_record *rec)
{
	unsigned long long v;

	if (!tep_find_field(ev, "domain") || val(s, ev, "domain", rec, &v))
		return;
	if ((short)v < 0)
		trace_seq_puts(s, " domain=global");
	else
		trace_seq_printf(s, " domain=%d", (short)v);
}

static void print_layout(struct trace_seq *s, unsigned long long id,
			 unsigned long long us)
{
	char buf[32];

	if (id < FL_NR_LAYOUTS) {
		fl_layout_format((u8)id, (u32)us, buf, sizeof(buf));
		trace_seq_puts(s, buf);
	} else {
		trace_seq_printf(s, "layout#%llu:%llu", id, us);
	}
}

static int tg_update_handler(struct trace_seq *s, struct tep_record *rec,
			     struct tep_event *ev, void *context)
{
	unsigned long long tg, cpu, load, contrib, delta, written, tla, since,
			   site, policy, arg, nr_cpus;

	(void)context;
	if (val(s, ev, "tg", rec, &tg) || val(s, ev, "cfs_cpu", rec, &cpu) ||
	    val(s, ev, "load", rec, &load) || val(s, ev, "contrib", rec, &contrib) ||
	    val(s, ev, "delta", rec, &delta) || val(s, ev, "written", rec, &written) ||
	    val(s, ev, "tg_load_avg", rec, &tla) || val(s, ev, "since_ns", rec, &since) ||
	    val(s, ev, "site", rec, &site) || val(s, ev, "policy", rec, &policy) ||
	    val(s, ev, "arg", rec, &arg) || val(s, ev, "nr_cpus", rec, &nr_cpus))
		return 0;
	print_tg(s, "tg", tg);
	trace_seq_printf(s, " cfs_cpu=%d load=%llu contrib=%llu delta=%lld %s tg_load_avg=%lld",
			 (int)cpu, load, contrib, (long long)delta,
			 written ? "written" : "skipped", (long long)tla);
	if (since == FL_SINCE_NEVER)
		trace_seq_puts(s, " since=never");
	else
		trace_seq_printf(s, " since=%lluns", since);
	if (site < FL_NR_SITES)
		trace_seq_printf(s, " site=%s", fl_site_names[site]);
	else
		trace_seq_printf(s, " site=#%llu", site);
	trace_seq_puts(s, " policy=");
	print_tg_policy(s, policy, arg);
	trace_seq_printf(s, " nr_cpus=%llu", nr_cpus);
	print_domain(s, ev, rec);
	return 0;
}

/*
 * find_idlest_group() starts with an idlest group whose avg_load is
 * UINT_MAX ("none yet"): that value is no load, and prints as "none".
 */
static void print_avg_load(struct trace_seq *s, unsigned long long v)
{
	if (v == FL_AVG_LOAD_NONE)
		trace_seq_puts(s, "none");
	else
		trace_seq_printf(s, "%llu", v);
}

static int pick_idlest_handler(struct trace_seq *s, struct tep_record *rec,
			       struct tep_event *ev, void *context)
{
	unsigned long long icpu, gcpu, it, gt, ii, gi, iu, gu, in, gn, ia, ga,
			   ic, gc, picked, policy;

	(void)context;
	if (val(s, ev, "idlest_cpu", rec, &icpu) || val(s, ev, "group_cpu", rec, &gcpu) ||
	    val(s, ev, "idlest_type", rec, &it) || val(s, ev, "group_type", rec, &gt) ||
	    val(s, ev, "idlest_idle_cpus", rec, &ii) || val(s, ev, "group_idle_cpus", rec, &gi) ||
	    val(s, ev, "idlest_util", rec, &iu) || val(s, ev, "group_util", rec, &gu) ||
	    val(s, ev, "idlest_nr_running", rec, &in) ||
	    val(s, ev, "group_nr_running", rec, &gn) ||
	    val(s, ev, "idlest_avg_load", rec, &ia) || val(s, ev, "group_avg_load", rec, &ga) ||
	    val(s, ev, "idlest_max_cap", rec, &ic) || val(s, ev, "group_max_cap", rec, &gc) ||
	    val(s, ev, "picked", rec, &picked) || val(s, ev, "policy", rec, &policy))
		return 0;
	trace_seq_printf(s, "idlest_cpu=%d group_cpu=%d type=%s/%s idle_cpus=%llu/%llu util=%llu/%llu nr_running=%llu/%llu avg_load=",
			 (int)icpu, (int)gcpu, group_type(it), group_type(gt), ii, gi,
			 iu, gu, in, gn);
	print_avg_load(s, ia);
	trace_seq_putc(s, '/');
	print_avg_load(s, ga);
	trace_seq_printf(s, " max_cap=%llu/%llu %s policy=", ic, gc,
			 picked ? "picked" : "kept");
	print_idlest_policy(s, policy);
	return 0;
}

static int policy_switch_handler(struct trace_seq *s, struct tep_record *rec,
				 struct tep_event *ev, void *context)
{
	unsigned long long kind, oldp, olda, newp, newa;

	(void)context;
	if (val(s, ev, "kind", rec, &kind) || val(s, ev, "old_policy", rec, &oldp) ||
	    val(s, ev, "old_arg", rec, &olda) || val(s, ev, "new_policy", rec, &newp) ||
	    val(s, ev, "new_arg", rec, &newa))
		return 0;
	if (kind == FL_KIND_TG || kind == FL_KIND_UNPATCH ||
	    kind == FL_KIND_FALLBACK) {
		trace_seq_puts(s, kind == FL_KIND_TG ? "kind=tg old=" :
				  kind == FL_KIND_UNPATCH ? "kind=unpatch old=" :
				  "kind=fallback old=");
		print_tg_policy(s, oldp, olda);
		trace_seq_puts(s, " new=");
		print_tg_policy(s, newp, newa);
	} else if (kind == FL_KIND_LAYOUT) {
		trace_seq_puts(s, "kind=layout old=");
		print_layout(s, oldp, olda);
		trace_seq_puts(s, " new=");
		print_layout(s, newp, newa);
	} else {
		trace_seq_printf(s, "kind=%s old=", kind == FL_KIND_IDLEST ? "idlest" : "?");
		print_idlest_policy(s, oldp);
		trace_seq_puts(s, " new=");
		print_idlest_policy(s, newp);
	}
	return 0;
}

static int tg_info_handler(struct trace_seq *s, struct tep_record *rec,
			   struct tep_event *ev, void *context)
{
	unsigned long long tg, parent, level;
	const char *name;
	int len;

	(void)context;
	if (val(s, ev, "tg", rec, &tg) || val(s, ev, "parent", rec, &parent) ||
	    val(s, ev, "level", rec, &level))
		return 0;
	name = tep_get_field_raw(s, ev, "name", rec, &len, 1);
	print_tg(s, "tg", tg);
	trace_seq_putc(s, ' ');
	print_tg(s, "parent", parent);
	trace_seq_printf(s, " level=%llu name=%.*s", level, name ? len : 0,
			 name ? name : "");
	return 0;
}

static int tg_audit_handler(struct trace_seq *s, struct tep_record *rec,
			    struct tep_event *ev, void *context)
{
	unsigned long long seq, tg, tla, sum_contrib, sum_load, snap, checked = 1;
	unsigned long long split, global, doms;

	(void)context;
	if (val(s, ev, "seq", rec, &seq) || val(s, ev, "tg", rec, &tg) ||
	    val(s, ev, "tg_load_avg", rec, &tla) ||
	    val(s, ev, "sum_contrib", rec, &sum_contrib) ||
	    val(s, ev, "sum_load", rec, &sum_load))
		return 0;
	/* newer fairlab.ko: 0 when the row is no exact cut */
	if (tep_find_field(ev, "checked") && val(s, ev, "checked", rec, &checked))
		return 0;
	trace_seq_printf(s, "seq=%llu ", seq);
	print_tg(s, "tg", tg);
	trace_seq_printf(s, " tg_load_avg=%lld sum_contrib=%lld sum_load=%llu error=%lld%s",
			 (long long)tla, (long long)sum_contrib, sum_load,
			 (long long)(tla - sum_load),
			 !checked ? " UNCHECKED" :
			 tla == sum_contrib ? "" : " INVARIANT-BROKEN");
	/* newer fairlab_trace.ko: when the snapshot was taken (mono clock) */
	if (tep_find_field(ev, "snap_ns") && !val(s, ev, "snap_ns", rec, &snap))
		trace_seq_printf(s, " snap_ns=%llu", snap);
	/* newer still: tg_layout, tg_load_avg = global + sum_domains */
	if (tep_find_field(ev, "split") && !val(s, ev, "split", rec, &split) &&
	    !val(s, ev, "global", rec, &global) &&
	    !val(s, ev, "sum_domains", rec, &doms))
		trace_seq_printf(s, " split=%llu global=%lld sum_domains=%lld",
				 split, (long long)global, (long long)doms);
	return 0;
}

static const struct {
	const char *name;
	tep_event_handler_func fn;
} handlers[] = {
	{ "tg_update", tg_update_handler },
	{ "pick_idlest", pick_idlest_handler },
	{ "policy_switch", policy_switch_handler },
	{ "tg_info", tg_info_handler },
	{ "tg_audit", tg_audit_handler },
};

#define NR_HANDLERS (sizeof(handlers) / sizeof(handlers[0]))

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < NR_HANDLERS; i++)
		tep_register_event_handler(tep, -1, "fairlab", handlers[i].name,
					   handlers[i].fn, NULL);
	return 0;
}

EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < NR_HANDLERS; i++)
		tep_unregister_event_handler(tep, -1, "fairlab", handlers[i].name,
					     handlers[i].fn, NULL);
}
