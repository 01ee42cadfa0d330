/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fl-tracegen: where the fairlab event fields it rewrites lie in a
 * record, and how one copy of a recording renumbers them.
 */
#ifndef FL_TRACEGEN_FIELDS_H
#define FL_TRACEGEN_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

struct tep_handle;

/* The events a copy changes; other records are copied as they are. */
enum tg_ev { TG_UPDATE, TG_READ, TG_PICK, TG_INFO, TG_TOPO, TG_AUDIT, TG_POLICY, TG_NEV };

/* One field: offset and size in the record's payload (size 0: absent). */
struct tg_field {
	int off, size;
};

struct tg_fields {
	int id[TG_NEV];			/* event id, -1 when the file has none */
	struct tg_field tg, cfs_cpu;	/* tg_update (the same names in tg_read) */
	struct tg_field r_tg, r_cpu, r_nr;
	struct tg_field p_idlest, p_group;
	struct tg_field i_tg, i_parent, i_level;
	struct tg_field t_cpu, t_node, t_llc;
	struct tg_field a_tg, a_seq, a_snap;
};

/* What a copy adds: CPU copy k of K, time repetition r. */
struct tg_copy {
	int64_t cpu_off;	/* k * source CPUs */
	int64_t node_off;	/* k * (highest source node + 1) */
	uint64_t group;		/* r * K + k: the copy's set of groups */
	uint64_t nr_off;	/* r * the reading CPU's tg_read nr range */
	uint64_t seq_off;	/* r * the highest audit seq */
	uint64_t t_off;		/* r * the recording's span (ns) */
};

/* What the source holds, found before any copy is written. */
struct tg_stats {
	uint64_t records, fairlab_records;
	uint64_t first_ts, last_ts;
	int64_t max_node;
	uint64_t max_seq;
	uint64_t *min_nr, *max_nr;	/* per source CPU (min 0: no read) */
	uint64_t roots[16];	/* tg ids named at level 0: never renumbered */
	int nroots;
};

/* -1 with a message in @err when a fairlab event lacks a field. */
int tg_fields_init(struct tg_fields *f, struct tep_handle *tep, char *err, size_t errlen);
/* Which enum tg_ev @data (a record's payload) is, or -1. */
int tg_event_of(const struct tg_fields *f, const unsigned char *data, int len);
/* Notes what the payload tells about the source (maxima, roots). */
void tg_note(const struct tg_fields *f, struct tg_stats *s, int cpu,
	     const unsigned char *data, int len);
/* Renumbers the payload in place for copy @c. */
void tg_rewrite(const struct tg_fields *f, const struct tg_stats *s,
		const struct tg_copy *c, unsigned char *data, int len);

#endif
