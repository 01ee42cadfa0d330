/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task groups seen in a trace: id -> dense index, plus what the engine
 * must remember about each group across records and segments (its name,
 * the last writer CPU, and the per-cfs_rq contrib/load last observed).
 *
 * Memory is one entry per distinct task group plus one slot per CPU that
 * group was seen on; it does not grow with the number of records.
 */
#ifndef FA_TGTAB_H
#define FA_TGTAB_H

#include "fa_coh.h"
#include "fa_events.h"
#include "fa_layout.h"

/* Highest CPU number + 1 the engine keeps state for (the kernel's NR_CPUS). */
#define FA_MAX_CPUS 8192

/* What the last record of one cfs_rq said. */
struct fa_cfs {
	s64 contrib;		/* tg_load_avg_contrib after the attempt */
	s64 load;		/* avg.load_avg observed */
	bool seen;
	/* The last tg_read of this cfs_rq: its shares error, held since rd_ts. */
	s64 rd_diff;		/* shares given - shares ideal */
	s64 rd_ideal;		/* shares ideal (>= FA_MIN_SHARES) */
	s64 rd_scale;		/* tg_shares read (>= FA_MIN_SHARES) */
	u64 rd_ts;
	bool rd_seen;
};

struct fa_tg {
	/* From tg_info, when the recording has it. */
	u64 id, parent;
	u32 level;
	bool named;
	char name[FA_NAME_MAX];

	/* Running state. */
	s64 err;		/* sum over seen cfs_rqs of (contrib - load) */
	s64 sum_load;		/* sum over seen cfs_rqs of load */
	s64 sum_contrib;	/* sum over seen cfs_rqs of contrib */
	u64 last_ts;		/* up to where err has been integrated */
	bool timed;		/* last_ts is valid: a tg_update was seen */
	s32 last_writer;	/* executing CPU of the last write, -1 none */
	struct fa_coh_line coh;	/* its tg->load_avg line, modeled (fa_coh.h) */
	struct fa_lay_group lay;	/* its domain lines under a split layout (fa_split.c) */

	/* For audit windows (fa_audit.c): over the whole trace. */
	s64 written_sum;	/* sum of the deltas of written tg_updates */
	u64 written_n;		/* their number */
	bool audited;		/* the last audit's figures below are valid */
	bool audit_exact;	/* ... and it was placed by its snap_ns */
	u64 audit_seq, audit_t;
	s64 audit_tla;		/* tg->load_avg it audited */
	s64 audit_written;	/* written_sum at its snapshot */
	u64 audit_written_n;
	u32 nr_cfs;
	struct fa_cfs *cfs;	/* indexed by cfs_cpu */
};

struct fa_tgtab {
	u32 n, cap;		/* dense entries */
	struct fa_tg *tg;
	u32 nslots;		/* power of two */
	u32 *slot;		/* dense index + 1, 0 = empty */
	u32 last;		/* last index found: records of a group come in runs */
};

void fa_tgtab_init(struct fa_tgtab *t);
void fa_tgtab_free(struct fa_tgtab *t);

/*
 * Dense index of @id, created if absent; -1 on allocation failure.
 * Creating may move the entries: do not keep struct fa_tg pointers
 * across calls.
 */
s64 fa_tgtab_get(struct fa_tgtab *t, u64 id);
/* Dense index of @id, or -1. */
s64 fa_tgtab_find(const struct fa_tgtab *t, u64 id);

/* The cfs_rq slot of @cpu (0 <= cpu < FA_MAX_CPUS) in @g, grown on demand. */
struct fa_cfs *fa_tg_cfs(struct fa_tg *g, u32 cpu);

#endif /* FA_TGTAB_H */
