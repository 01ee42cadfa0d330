/* SPDX-License-Identifier: GPL-2.0 */
/*
 * whatif's policies dealt out to processes, "shards" (whatif --procs=N):
 * every shard reads the recording and runs the engine itself, and
 * replays its own share of the policies (shard k of n: the list's
 * policies k, k + n, k + 2n, ...: each shard a mix of every rule shape).
 * Shard 0 is the calling process; the others are forked before it
 * begins and hand their results back through a shared anonymous mapping,
 * each into its own area.
 *
 * Nothing is handed between processes per record: on the 2-CPU host it
 * was measured on, every way of handing each record's shared work from
 * one thread to another (a ring, a helper thread, the policies split
 * between the engine's thread and another) made the replay cost 15-47%
 * more CPU, while two independent processes ran as fast as one.  The
 * price is a reading and an engine per process, and their memory: a
 * gain only where reading is cheap against the replay and cores and
 * memory are free, hence asked for, never the default
 * (docs/history/2026-12-05-analyzer-speed.md, "Policies over processes").
 *
 *   s = fl_shards_start(n, bytes, fn, arg)
 *			shards 1 .. n-1 forked: each runs fn(k, area, arg),
 *			then exits; NULL: none (errno), do it all here
 *   ... shard 0's own work ...
 *   fl_shards_wait(s)	0, or -1 after saying which shard failed
 *   fl_shards_area(s, k)	shard k's results
 *   fl_shards_free(s)	stops any still running, unmaps
 */
#ifndef FL_WHATIF_SHARDS_H
#define FL_WHATIF_SHARDS_H

#include <stddef.h>

#include "fl_types.h"

/* At most this many shards (whatif --procs). */
#define FL_SHARDS_MAX 64

struct fl_shards;

/* The policies of shard @k of @n among @npol: list indices k, k + n, ... */
static inline u32 fl_shard_size(u32 npol, u32 k, u32 n)
{
	return npol > k ? (npol - k + n - 1) / n : 0;
}

/* Shard @k's work: 0, or -1 (the shard exits 1; its stderr is discarded). */
typedef int (*fl_shard_fn)(u32 k, void *area, void *arg);

/*
 * Shards 1 .. @n-1 forked, shard k given an area of @bytes[k] zeroed
 * bytes; NULL with errno when the mapping or a fork failed (none left
 * running).  The caller's stdio is flushed first.
 */
struct fl_shards *fl_shards_start(u32 n, const size_t *bytes, fl_shard_fn fn,
				  void *arg);
/*
 * Every shard ended: 0 when each ran @fn to a 0, else -1 after an error
 * naming the first that did not (its exit status or signal).
 * FAIRLAB_PROFILE=1: their CPU time and peak RSS on stderr.
 */
int fl_shards_wait(struct fl_shards *s);
/* After fl_shards_wait(): the other shards' peak RSS, KB, summed. */
long fl_shards_rss_kb(const struct fl_shards *s);
/* Shard @k's area (1 <= @k < n), valid until fl_shards_free(). */
const void *fl_shards_area(const struct fl_shards *s, u32 k);
/* Any shard still running killed and reaped; the areas unmapped. */
void fl_shards_free(struct fl_shards *s);

#endif /* FL_WHATIF_SHARDS_H */
