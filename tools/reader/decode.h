/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding fairlab:* records into engine events through libtraceevent.
 *
 * Each event's fields are looked up by name once (tep_find_field), from
 * the formats stored in the recording; their offsets and sizes are kept,
 * and each record's fields are loaded straight from its data (byte-swapped
 * when the file's endianness is not the host's), as tep_read_number_field
 * would, without a library call per field: the decoder follows the file's
 * layout, never a compiled-in one.  Records shorter than their format are
 * rejected instead of read past their end.
 */
#ifndef FL_DECODE_H
#define FL_DECODE_H

#include <event-parse.h>

#include "fa_events.h"

#define FL_MAX_FIELDS 16

/* Where a field lies in a record: resolved once per event. */
struct fl_field {
	unsigned short offset;
	unsigned char size;		/* 1, 2, 4 or 8 */
};

struct fl_decoder {
	struct tep_handle *tep;
	int id[FA_EV_NR_TYPES];			/* event id, -1 when absent */
	int min_size[FA_EV_NR_TYPES];		/* bytes every record must hold */
	struct tep_format_field *f[FA_EV_NR_TYPES][FL_MAX_FIELDS];
	struct fl_field at[FA_EV_NR_TYPES][FL_MAX_FIELDS];
	struct tep_format_field *common_type;	/* the event id of a record */
	struct fl_field type_at;
	/*
	 * tg_audit's snap_ns (newer fairlab_trace.ko): where the snapshot
	 * was taken, in the mono clock.  Used only when the recording's
	 * clock is mono (fl_decoder_audit_clock()).
	 */
	bool has_snap_ns;
	bool use_snap_ns;
	struct fl_field snap_at;
	/*
	 * tg_audit's checked (newer fairlab.ko): 0 when the row is no
	 * exact cut (writers kept moving); older recordings lack it, and
	 * their snapshots were all exact.
	 */
	bool has_checked;
	struct fl_field checked_at;
	/*
	 * tg_layout's fields (newer fairlab.ko): tg_update's and tg_read's
	 * domain (s16, -1: tg->load_avg) and tg_read's cache_hit (u8).
	 */
	bool has_upd_domain, has_rd_domain, has_rd_hit;
	struct fl_field upd_domain_at, rd_domain_at, rd_hit_at;
	bool swap;				/* file endianness != host's */
	bool native_tg_update;			/* tg_update sizes as compiled, !swap */
	int nr_present;
};

/* Event names, in enum fa_event_type order. */
extern const char *const fl_event_names[FA_EV_NR_TYPES];

/*
 * Looks the fairlab events and their fields up in @tep.  Returns 0
 * (nr_present may be 0: no fairlab events), or -1 with a message in
 * @err when an event lacks a field or has one of an unreadable size.
 */
int fl_decoder_init(struct fl_decoder *d, struct tep_handle *tep,
		    char *err, size_t errlen);

/* Tells the decoder the recording's trace clock ("" when unknown). */
void fl_decoder_audit_clock(struct fl_decoder *d, const char *clock);

/*
 * Decodes @rec.  Returns 1 and fills @ev for a fairlab record, 0 for a
 * record of another event, -1 for a fairlab record too short for its
 * format.
 */
int fl_decode(const struct fl_decoder *d, struct tep_record *rec,
	      struct fa_event *ev);

#endif /* FL_DECODE_H */
