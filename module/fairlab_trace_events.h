/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairlab:* trace events.  Defined (CREATE_TRACE_POINTS) in the plain
 * module fairlab_trace.ko, because 6.1 creates no trace events for a
 * K-tainted (livepatch) module; fairlab.ko calls the exported tracepoints.
 *
 * Numeric fields only in the per-decision events, so that a record is
 * small and userspace decodes it without string handling.  Ids and enum
 * values are those of policy/fairlab_abi.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fairlab

#if !defined(_FAIRLAB_TRACE_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FAIRLAB_TRACE_EVENTS_H

#include <linux/tracepoint.h>
#include <linux/version.h>
#include "policy/policy.h"

/* 6.10 dropped __assign_str()'s source argument (it is __string()'s). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define fl_assign_str(dst, src)	__assign_str(dst)
#else
#define fl_assign_str(dst, src)	__assign_str(dst, src)
#endif

/*
 * First probe on tg_info or cpu_topology (tracing of them starts): have
 * fairlab.ko describe every group and CPU (fairlab_trace.c).
 */
int fl_trace_describe_reg(void);
void fl_trace_describe_unreg(void);
void fairlab_trace_set_describe(void (*fn)(void));

/*
 * A tracepoint takes at most 12 arguments (bpf_probe.h's COUNT_ARGS):
 * tg_update's nr_cpus and tg_layout domain travel as one.
 */
#ifndef FL_TRACE_CPUS_DOM	/* once: this header is read many times */
#define FL_TRACE_CPUS_DOM
static inline u32 fl_trace_cpus_dom(u16 nr_cpus, s16 domain)
{
	return nr_cpus | (u32)(u16)domain << 16;
}
#endif

/* One tg->load_avg update attempt on a non-root task group. */
TRACE_EVENT(tg_update,
	TP_PROTO(u64 tg, int cfs_cpu, u64 load, u64 contrib, s64 delta,
		 bool written, s64 tg_load_avg, u64 since_ns, u8 site,
		 u8 policy, u32 arg, u32 cpus_dom),
	TP_ARGS(tg, cfs_cpu, load, contrib, delta, written, tg_load_avg,
		since_ns, site, policy, arg, cpus_dom),
	TP_STRUCT__entry(
		__field(u64, tg)		/* cgroup id, or autogroup id | 1<<62 */
		__field(u64, load)		/* cfs_rq->avg.load_avg now; 0 at
						 * clear_tg_load_avg (what it publishes) */
		__field(u64, contrib)		/* tg_load_avg_contrib before */
		__field(s64, delta)		/* load - contrib */
		__field(s64, tg_load_avg)	/* tg->load_avg after; under a
						 * split tg_layout (domain >= 0)
						 * that domain's counter after */
		__field(u64, since_ns)		/* since last publish, ~0 = never */
		__field(u32, arg)		/* policy argument */
		__field(s32, cfs_cpu)		/* the cfs_rq's CPU */
		__field(u16, nr_cpus)		/* policy input nr_cpus */
		__field(u8, site)		/* enum fl_site */
		__field(u8, policy)		/* enum fl_tg_policy_id */
		__field(u8, written)		/* 1 when delta was published */
		/*
		 * The tg_layout domain written (layout.h), -1 for
		 * tg->load_avg.  Last: older formats lack it.  Printed
		 * with %hd: libtraceevent (trace-cmd report) does not
		 * sign-extend a 16-bit field, and prints it through a cast
		 * to int as 65535; %hd makes it -1.
		 */
		__field(s16, domain)
	),
	TP_fast_assign(
		__entry->tg = tg;
		__entry->load = load;
		__entry->contrib = contrib;
		__entry->delta = delta;
		__entry->tg_load_avg = tg_load_avg;
		__entry->since_ns = since_ns;
		__entry->arg = arg;
		__entry->cfs_cpu = cfs_cpu;
		__entry->nr_cpus = (u16)cpus_dom;
		__entry->site = site;
		__entry->policy = policy;
		__entry->written = written;
		__entry->domain = (s16)(u16)(cpus_dom >> 16);
	),
	TP_printk("tg=%llu cfs_cpu=%d load=%llu contrib=%llu delta=%lld written=%u tg_load_avg=%lld since_ns=%llu site=%u policy=%u arg=%u nr_cpus=%u domain=%hd",
		  __entry->tg, __entry->cfs_cpu, __entry->load, __entry->contrib,
		  __entry->delta, __entry->written, __entry->tg_load_avg,
		  __entry->since_ns, __entry->site, __entry->policy,
		  __entry->arg, __entry->nr_cpus, __entry->domain)
);

/*
 * One read of tg->load_avg by calc_group_shares() (inside update_cfs_group()),
 * with every input of the shares it computed: tg_weight = tg_load_avg -
 * contrib + load, shares = clamp(tg_shares * load / tg_weight, MIN_SHARES,
 * tg_shares) (shares = tg_shares * load when tg_weight is 0).  nr is the
 * reading CPU's read count, this read included (the tg_read row of
 * /sys/kernel/fairlab/stats): consecutive on a CPU unless a read was not
 * recorded.  Under a split tg_layout (layout.h) tg_load_avg is the sum
 * the read used (tg->load_avg + every domain counter, or the reader's
 * domain's cached sum: cache_hit 1), domain the reader's domain (-1: a
 * global read).
 */
TRACE_EVENT(tg_read,
	TP_PROTO(u64 tg, int cfs_cpu, s64 tg_load_avg, u64 load, u64 load_avg,
		 u64 contrib, u64 tg_shares, s64 shares, u64 nr, s16 domain,
		 bool cache_hit),
	TP_ARGS(tg, cfs_cpu, tg_load_avg, load, load_avg, contrib, tg_shares,
		shares, nr, domain, cache_hit),
	TP_STRUCT__entry(
		__field(u64, tg)		/* id, as tg_update's */
		__field(s64, tg_load_avg)	/* the value read */
		__field(u64, load)		/* max(load.weight down, load_avg) */
		__field(u64, load_avg)		/* cfs_rq->avg.load_avg */
		__field(u64, contrib)		/* tg_load_avg_contrib */
		__field(u64, tg_shares)		/* tg->shares (scaled) */
		__field(s64, shares)		/* computed group entity weight */
		__field(u64, nr)		/* this CPU's reads so far */
		__field(s32, cfs_cpu)		/* the reading cfs_rq's CPU */
		__field(s16, domain)		/* reader's tg_layout domain, -1 */
		__field(u8, cache_hit)		/* 1: the domain's cached sum */
	),
	TP_fast_assign(
		__entry->tg = tg;
		__entry->tg_load_avg = tg_load_avg;
		__entry->load = load;
		__entry->load_avg = load_avg;
		__entry->contrib = contrib;
		__entry->tg_shares = tg_shares;
		__entry->shares = shares;
		__entry->nr = nr;
		__entry->cfs_cpu = cfs_cpu;
		__entry->domain = domain;
		__entry->cache_hit = cache_hit;
	),
	TP_printk("tg=%llu cfs_cpu=%d tg_load_avg=%lld load=%llu load_avg=%llu contrib=%llu tg_shares=%llu shares=%lld nr=%llu domain=%hd cache_hit=%u",
		  __entry->tg, __entry->cfs_cpu, __entry->tg_load_avg,
		  __entry->load, __entry->load_avg, __entry->contrib,
		  __entry->tg_shares, __entry->shares, __entry->nr,
		  __entry->domain, __entry->cache_hit)
);

/* One update_pick_idlest() decision inside find_idlest_group(). */
TRACE_EVENT(pick_idlest,
	TP_PROTO(int idlest_cpu, int group_cpu, const struct fl_sg_stats *is,
		 const struct fl_sg_stats *gs, bool picked, u8 policy),
	TP_ARGS(idlest_cpu, group_cpu, is, gs, picked, policy),
	TP_STRUCT__entry(
		__field(u64, idlest_util)
		__field(u64, group_util)
		__field(u64, idlest_avg_load)
		__field(u64, group_avg_load)
		__field(u64, idlest_max_cap)
		__field(u64, group_max_cap)
		__field(s32, idlest_cpu)	/* first CPU, -1 = no idlest yet */
		__field(s32, group_cpu)		/* first CPU of the candidate */
		__field(u32, idlest_idle_cpus)
		__field(u32, group_idle_cpus)
		__field(u32, idlest_nr_running)
		__field(u32, group_nr_running)
		__field(u8, idlest_type)	/* enum fl_group_type */
		__field(u8, group_type)
		__field(u8, picked)		/* 1: candidate becomes idlest */
		__field(u8, policy)		/* enum fl_idlest_policy_id */
	),
	TP_fast_assign(
		__entry->idlest_util = is->group_util;
		__entry->group_util = gs->group_util;
		__entry->idlest_avg_load = is->avg_load;
		__entry->group_avg_load = gs->avg_load;
		__entry->idlest_max_cap = is->max_capacity;
		__entry->group_max_cap = gs->max_capacity;
		__entry->idlest_cpu = idlest_cpu;
		__entry->group_cpu = group_cpu;
		__entry->idlest_idle_cpus = is->idle_cpus;
		__entry->group_idle_cpus = gs->idle_cpus;
		__entry->idlest_nr_running = is->sum_nr_running;
		__entry->group_nr_running = gs->sum_nr_running;
		__entry->idlest_type = is->group_type;
		__entry->group_type = gs->group_type;
		__entry->picked = picked;
		__entry->policy = policy;
	),
	TP_printk("idlest_cpu=%d group_cpu=%d type=%u/%u idle_cpus=%u/%u util=%llu/%llu nr_running=%u/%u avg_load=%llu/%llu max_cap=%llu/%llu picked=%u policy=%u",
		  __entry->idlest_cpu, __entry->group_cpu,
		  __entry->idlest_type, __entry->group_type,
		  __entry->idlest_idle_cpus, __entry->group_idle_cpus,
		  __entry->idlest_util, __entry->group_util,
		  __entry->idlest_nr_running, __entry->group_nr_running,
		  __entry->idlest_avg_load, __entry->group_avg_load,
		  __entry->idlest_max_cap, __entry->group_max_cap,
		  __entry->picked, __entry->policy)
);

/*
 * A policy change (kind: 0 tg, 1 idlest); at load old == new.  Kind 2
 * (unpatch): the unpatching transition starts, old the tg policy in force,
 * new the kernel's stock (fairlab_abi.h: FL_KIND_UNPATCH).
 */
TRACE_EVENT(policy_switch,
	TP_PROTO(u8 kind, u8 old_policy, u32 old_arg, u8 new_policy,
		 u32 new_arg),
	TP_ARGS(kind, old_policy, old_arg, new_policy, new_arg),
	TP_STRUCT__entry(
		__field(u32, old_arg)
		__field(u32, new_arg)
		__field(u8, kind)
		__field(u8, old_policy)
		__field(u8, new_policy)
	),
	TP_fast_assign(
		__entry->old_arg = old_arg;
		__entry->new_arg = new_arg;
		__entry->kind = kind;
		__entry->old_policy = old_policy;
		__entry->new_policy = new_policy;
	),
	TP_printk("kind=%u old=%u:%u new=%u:%u", __entry->kind,
		  __entry->old_policy, __entry->old_arg,
		  __entry->new_policy, __entry->new_arg)
);

/*
 * Names a task group: id -> parent id, depth, and its cgroup name.  Every
 * group is named when tracing of this event starts, at patch time, and on
 * request (/sys/kernel/fairlab/describe).  A name too long for one
 * ring-buffer event is cut, ending in "...", with truncated = 1 and the
 * full length in full_len (bytes, without the NUL).
 */
TRACE_EVENT_FN(tg_info,
	TP_PROTO(u64 tg, u64 parent, u32 level, const char *name,
		 bool truncated, u32 full_len),
	TP_ARGS(tg, parent, level, name, truncated, full_len),
	TP_STRUCT__entry(
		__field(u64, tg)
		__field(u64, parent)
		__field(u32, level)
		__field(u32, full_len)
		__field(u8, truncated)
		__string(name, name)
	),
	TP_fast_assign(
		__entry->tg = tg;
		__entry->parent = parent;
		__entry->level = level;
		__entry->full_len = full_len;
		__entry->truncated = truncated;
		fl_assign_str(name, name);
	),
	TP_printk("tg=%llu parent=%llu level=%u name=%s truncated=%u full_len=%u",
		  __entry->tg, __entry->parent, __entry->level,
		  __get_str(name), __entry->truncated, __entry->full_len),
	fl_trace_describe_reg, fl_trace_describe_unreg
);

/* Places a CPU: its NUMA node and its last-level-cache id (as tg_info). */
TRACE_EVENT_FN(cpu_topology,
	TP_PROTO(int cpu, int node, int llc),
	TP_ARGS(cpu, node, llc),
	TP_STRUCT__entry(
		__field(s32, cpu)
		__field(s32, node)
		__field(s32, llc)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->node = node;
		__entry->llc = llc;
	),
	TP_printk("cpu=%d node=%d llc=%d", __entry->cpu, __entry->node,
		  __entry->llc),
	fl_trace_describe_reg, fl_trace_describe_unreg
);

/*
 * One task group in a consistent snapshot (module/audit.c: one rq lock at
 * a time, the group's write generations unchanged across its read): the
 * published tg->load_avg against the sums over its per-CPU cfs_rqs.  An
 * audit (one seq) reads its groups in batches; snap_ns is when the
 * group's tg->load_avg was read (ktime_get_mono_fast_ns(), the clock of
 * "trace-cmd record -C mono"), the instant the row is a cut at, so the
 * group's tg_update records with a smaller timestamp are in the snapshot
 * and those with a larger one are not, whenever the record itself was
 * written.  checked=0: the row could not be proved a cut.
 */
TRACE_EVENT(tg_audit,
	TP_PROTO(u64 seq, u64 tg, s64 tg_load_avg, s64 sum_contrib,
		 u64 sum_load, u64 snap_ns, bool checked, bool split,
		 s64 global, s64 sum_domains),
	TP_ARGS(seq, tg, tg_load_avg, sum_contrib, sum_load, snap_ns, checked,
		split, global, sum_domains),
	TP_STRUCT__entry(
		__field(u64, seq)		/* snapshot number */
		__field(u64, tg)
		__field(s64, tg_load_avg)
		__field(s64, sum_contrib)	/* sum of tg_load_avg_contrib */
		__field(u64, sum_load)		/* sum of cfs_rq avg.load_avg */
		__field(u64, snap_ns)		/* snapshot time, mono clock */
		/*
		 * 1: an exact cut (audit.c); 0: writers kept moving, the row
		 * is as read and proves nothing.  Last, so that readers of
		 * the older format find every other field where it was.
		 */
		__field(u8, checked)
		/*
		 * tg_layout (layout.h), after the older fields: split 1 when
		 * the group has per-domain counters; tg_load_avg is then
		 * global (tg->load_avg) + sum_domains.
		 */
		__field(s64, global)
		__field(s64, sum_domains)
		__field(u8, split)
	),
	TP_fast_assign(
		__entry->seq = seq;
		__entry->tg = tg;
		__entry->tg_load_avg = tg_load_avg;
		__entry->sum_contrib = sum_contrib;
		__entry->sum_load = sum_load;
		__entry->snap_ns = snap_ns;
		__entry->checked = checked;
		__entry->global = global;
		__entry->sum_domains = sum_domains;
		__entry->split = split;
	),
	TP_printk("seq=%llu tg=%llu tg_load_avg=%lld sum_contrib=%lld sum_load=%llu snap_ns=%llu checked=%u split=%u global=%lld sum_domains=%lld",
		  __entry->seq, __entry->tg, __entry->tg_load_avg,
		  __entry->sum_contrib, __entry->sum_load, __entry->snap_ns,
		  __entry->checked, __entry->split, __entry->global,
		  __entry->sum_domains)
);

#endif /* _FAIRLAB_TRACE_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE fairlab_trace_events
#include <trace/define_trace.h>
