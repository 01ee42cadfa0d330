/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input of the statistics engine: one decoded fairlab:* record.
 *
 * Field meanings are those of module/fairlab_trace_events.h; the engine
 * never sees a file, so tests build these structs by hand and the trace
 * reader (tools/) fills them from libtraceevent fields.
 */
#ifndef FA_EVENTS_H
#define FA_EVENTS_H

#include <stddef.h>

#include "policy.h"

/* Longest task group name kept (cgroup names longer are truncated). */
#define FA_NAME_MAX 128

enum fa_event_type {
	FA_EV_TG_UPDATE,
	FA_EV_PICK_IDLEST,
	FA_EV_POLICY_SWITCH,
	FA_EV_TG_INFO,
	FA_EV_CPU_TOPOLOGY,
	FA_EV_TG_AUDIT,
	FA_EV_TG_READ,
	FA_EV_NR_TYPES
};

/* One tg->load_avg update attempt. */
struct fa_tg_update {
	u64 tg;			/* cgroup id, or autogroup id | FL_TG_AUTOGROUP_FLAG */
	u64 load;		/* cfs_rq->avg.load_avg now */
	u64 contrib;		/* tg_load_avg_contrib before the attempt */
	s64 delta;		/* load - contrib */
	s64 tg_load_avg;	/* tg->load_avg after the attempt */
	u64 since_ns;		/* since the last publish, FL_SINCE_NEVER = never */
	u32 arg;		/* policy argument */
	s32 cfs_cpu;		/* the cfs_rq's CPU (may differ from the record's) */
	u16 nr_cpus;
	u8 site;		/* enum fl_site */
	u8 policy;		/* enum fl_tg_policy_id */
	bool written;
	/*
	 * Under a split tg_layout: 1 + the domain counter the publish
	 * moved; 0 when it moved tg->load_avg, or the record has no domain
	 * field (a recording from before tg_layout).
	 */
	u16 split_dom;
};

/* One update_pick_idlest() decision. */
struct fa_pick_idlest {
	struct fl_sg_stats idlest;	/* the current idlest group */
	struct fl_sg_stats group;	/* the candidate */
	s32 idlest_cpu;			/* -1: no idlest group yet */
	s32 group_cpu;
	u8 policy;			/* enum fl_idlest_policy_id */
	bool picked;
};

struct fa_policy_switch {
	u32 old_arg, new_arg;
	u8 kind;			/* enum fl_policy_kind */
	u8 old_policy, new_policy;
};

struct fa_tg_info {
	u64 tg, parent;
	u32 level;
	char name[FA_NAME_MAX];		/* NUL-terminated */
};

struct fa_cpu_topology {
	s32 cpu, node, llc;
};

/*
 * One group in an audit snapshot: tg->load_avg and the sums as one
 * consistent cut at snap_ns, unless unchecked.  Its records are written
 * afterwards, so a record's timestamp
 * lies after the snapshot, and tg_update records may lie in between.
 * snap_ns, when the recording carries it in the recording's clock, says
 * when the snapshot was taken.
 */
struct fa_tg_audit {
	u64 seq, tg;
	s64 tg_load_avg, sum_contrib;
	u64 sum_load;
	u64 snap_ns;		/* snapshot time, trace clock ns, if has_snap */
	bool has_snap;		/* false: place the audit at its record's time */
	bool unchecked;		/* not an exact cut: counted, otherwise ignored */
};

/*
 * One read of tg->load_avg by calc_group_shares(): what was read and the
 * shares (group entity weight) computed from it.
 */
struct fa_tg_read {
	u64 tg;
	s64 tg_load_avg;	/* the value read */
	u64 load;		/* max(load.weight down, avg.load_avg) */
	u64 load_avg;		/* cfs_rq->avg.load_avg */
	u64 contrib;		/* tg_load_avg_contrib */
	u64 tg_shares;		/* tg->shares, scaled */
	s64 shares;		/* computed weight */
	u64 nr;			/* the reading CPU's read count */
	s32 cfs_cpu;		/* the weighed cfs_rq's CPU */
	/*
	 * Under a split tg_layout: 1 + the reader's domain; 0 when it read
	 * tg->load_avg alone, or the record has no domain field.
	 */
	u16 split_dom;
	bool cache_hit;		/* the value read is its domain's cached sum */
};

/*
 * A record: its timestamp (trace clock, ns), the CPU that executed it
 * (the ring buffer it came from) and the decoded payload.
 */
struct fa_event {
	u64 ts;
	s32 cpu;
	u32 type;			/* enum fa_event_type */
	union {
		struct fa_tg_update tg_update;
		struct fa_pick_idlest pick_idlest;
		struct fa_policy_switch policy_switch;
		struct fa_tg_info tg_info;
		struct fa_cpu_topology cpu_topology;
		struct fa_tg_audit tg_audit;
		struct fa_tg_read tg_read;
	} u;
};

#define FA_EV_BYTES(m) (offsetof(struct fa_event, u) + \
			sizeof(((struct fa_event *)0)->u.m))

/*
 * The bytes of @ev its type uses, all a copy needs: a tg_update, most
 * records, is 80 of the 168 bytes.
 */
static inline size_t fa_event_bytes(const struct fa_event *ev)
{
	switch (ev->type) {
	case FA_EV_TG_UPDATE:		return FA_EV_BYTES(tg_update);
	case FA_EV_PICK_IDLEST:		return FA_EV_BYTES(pick_idlest);
	case FA_EV_POLICY_SWITCH:	return FA_EV_BYTES(policy_switch);
	case FA_EV_TG_INFO:		return FA_EV_BYTES(tg_info);
	case FA_EV_CPU_TOPOLOGY:	return FA_EV_BYTES(cpu_topology);
	case FA_EV_TG_AUDIT:		return FA_EV_BYTES(tg_audit);
	case FA_EV_TG_READ:		return FA_EV_BYTES(tg_read);
	}
	return sizeof(*ev);
}

#endif /* FA_EVENTS_H */
