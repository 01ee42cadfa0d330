// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab:* record decoding (see decode.h).  Field names and order are
 * those of module/fairlab_trace_events.h.
 */
#include <byteswap.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"

const char *const fl_event_names[FA_EV_NR_TYPES] = {
	[FA_EV_TG_UPDATE] = "tg_update",
	[FA_EV_PICK_IDLEST] = "pick_idlest",
	[FA_EV_POLICY_SWITCH] = "policy_switch",
	[FA_EV_TG_INFO] = "tg_info",
	[FA_EV_CPU_TOPOLOGY] = "cpu_topology",
	[FA_EV_TG_AUDIT] = "tg_audit",
	[FA_EV_TG_READ] = "tg_read",
};

enum { U_TG, U_CFS_CPU, U_LOAD, U_CONTRIB, U_DELTA, U_WRITTEN, U_TG_LOAD_AVG,
       U_SINCE_NS, U_SITE, U_POLICY, U_ARG, U_NR_CPUS, U_N };
enum { P_IUTIL, P_GUTIL, P_IAVG, P_GAVG, P_ICAP, P_GCAP, P_ICPU, P_GCPU,
       P_IIDLE, P_GIDLE, P_INR, P_GNR, P_ITYPE, P_GTYPE, P_PICKED, P_POLICY,
       P_N };
enum { S_KIND, S_OLD, S_OLD_ARG, S_NEW, S_NEW_ARG, S_N };
enum { I_TG, I_PARENT, I_LEVEL, I_NAME, I_N };
enum { T_CPU, T_NODE, T_LLC, T_N };
enum { A_SEQ, A_TG, A_TG_LOAD_AVG, A_SUM_CONTRIB, A_SUM_LOAD, A_N };
enum { R_TG, R_CFS_CPU, R_TG_LOAD_AVG, R_LOAD, R_LOAD_AVG, R_CONTRIB,
       R_TG_SHARES, R_SHARES, R_NR, R_N };

static const char *const fields_tg_update[U_N + 1] = {
	"tg", "cfs_cpu", "load", "contrib", "delta", "written", "tg_load_avg",
	"since_ns", "site", "policy", "arg", "nr_cpus", NULL };
static const char *const fields_pick_idlest[P_N + 1] = {
	"idlest_util", "group_util", "idlest_avg_load", "group_avg_load",
	"idlest_max_cap", "group_max_cap", "idlest_cpu", "group_cpu",
	"idlest_idle_cpus", "group_idle_cpus", "idlest_nr_running",
	"group_nr_running", "idlest_type", "group_type", "picked", "policy",
	NULL };
static const char *const fields_policy_switch[S_N + 1] = {
	"kind", "old_policy", "old_arg", "new_policy", "new_arg", NULL };
static const char *const fields_tg_info[I_N + 1] = {
	"tg", "parent", "level", "name", NULL };
static const char *const fields_cpu_topology[T_N + 1] = {
	"cpu", "node", "llc", NULL };
static const char *const fields_tg_audit[A_N + 1] = {
	"seq", "tg", "tg_load_avg", "sum_contrib", "sum_load", NULL };

static const char *const fields_tg_read[R_N + 1] = {
	"tg", "cfs_cpu", "tg_load_avg", "load", "load_avg", "contrib",
	"tg_shares", "shares", "nr", NULL };

static const char *const *const event_fields[FA_EV_NR_TYPES] = {
	fields_tg_update, fields_pick_idlest, fields_policy_switch,
	fields_tg_info, fields_cpu_topology, fields_tg_audit, fields_tg_read,
};

/* The sizes of tg_update's fields in fairlab_trace_events.h. */
static const unsigned char tg_update_sizes[U_N] = {
	[U_TG] = 8, [U_CFS_CPU] = 4, [U_LOAD] = 8, [U_CONTRIB] = 8,
	[U_DELTA] = 8, [U_WRITTEN] = 1, [U_TG_LOAD_AVG] = 8, [U_SINCE_NS] = 8,
	[U_SITE] = 1, [U_POLICY] = 1, [U_ARG] = 4, [U_NR_CPUS] = 2,
};

static bool size_ok(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/*
 * A field of @size bytes older formats lack: found (*@has), absent
 * (fine), or unreadable (an error, as for the other fields).
 */
static int optional_field(struct fl_decoder *d, struct tep_event *ev, int t,
			  const char *name, int size, struct fl_field *at,
			  bool *has, char *err, size_t errlen)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f)
		return 0;
	if (f->size != size || f->offset < 0 || f->offset + size > 0xffff ||
	    f->flags & TEP_FIELD_IS_ARRAY) {
		snprintf(err, errlen, "fairlab:%s has an unreadable field '%s' (its format differs from this fairlab build)",
			 fl_event_names[t], name);
		return -1;
	}
	at->offset = (unsigned short)f->offset;
	at->size = (unsigned char)size;
	if (f->offset + size > d->min_size[t])
		d->min_size[t] = f->offset + size;
	*has = true;
	return 0;
}

/*
 * snap_ns is ktime_get_mono_fast_ns(): the clock of trace-cmd -C mono.
 * In any other trace clock it cannot be compared with record times.
 */
void fl_decoder_audit_clock(struct fl_decoder *d, const char *clock)
{
	d->use_snap_ns = d->has_snap_ns && !strcmp(clock, "mono");
}

int fl_decoder_init(struct fl_decoder *d, struct tep_handle *tep,
		    char *err, size_t errlen)
{
	struct tep_format_field *f;
	struct tep_event *ev;
	int t, i, end;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	for (t = 0; t < FA_EV_NR_TYPES; t++) {
		d->id[t] = -1;
		ev = tep_find_event_by_name(tep, "fairlab", fl_event_names[t]);
		if (!ev)
			continue;
		for (i = 0; event_fields[t][i]; i++) {
			f = tep_find_field(ev, event_fields[t][i]);
			if (!f || !size_ok(f->size) ||
			    (f->flags & TEP_FIELD_IS_ARRAY &&
			     !(f->flags & TEP_FIELD_IS_DYNAMIC))) {
				snprintf(err, errlen,
					 "fairlab:%s %s field '%s' (its format differs from this fairlab build)",
					 fl_event_names[t], f ? "has an unreadable" : "has no",
					 event_fields[t][i]);
				return -1;
			}
			d->f[t][i] = f;
			end = f->offset + f->size;
			if (f->offset < 0 || end > 0xffff) {
				snprintf(err, errlen, "fairlab:%s field '%s' lies outside a record",
					 fl_event_names[t], event_fields[t][i]);
				return -1;
			}
			d->at[t][i].offset = (unsigned short)f->offset;
			d->at[t][i].size = (unsigned char)f->size;
			if (end > d->min_size[t])
				d->min_size[t] = end;
		}
		if (t == FA_EV_TG_AUDIT &&
		    (optional_field(d, ev, t, "snap_ns", 8, &d->snap_at,
				    &d->has_snap_ns, err, errlen) ||
		     optional_field(d, ev, t, "checked", 1, &d->checked_at,
				    &d->has_checked, err, errlen)))
			return -1;
		if (t == FA_EV_TG_UPDATE &&
		    optional_field(d, ev, t, "domain", 2, &d->upd_domain_at,
				   &d->has_upd_domain, err, errlen))
			return -1;
		if (t == FA_EV_TG_READ &&
		    (optional_field(d, ev, t, "domain", 2, &d->rd_domain_at,
				    &d->has_rd_domain, err, errlen) ||
		     optional_field(d, ev, t, "cache_hit", 1, &d->rd_hit_at,
				    &d->has_rd_hit, err, errlen)))
			return -1;
		d->id[t] = ev->id;
		d->nr_present++;
	}
	d->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	d->native_tg_update = !d->swap && d->id[FA_EV_TG_UPDATE] >= 0;
	for (i = 0; i < U_N; i++)
		if (d->at[FA_EV_TG_UPDATE][i].size != tg_update_sizes[i])
			d->native_tg_update = false;
	/*
	 * The record's event id: where tep_data_type() finds it, in the
	 * common fields of the first event.  Left to tep_data_type() when
	 * that lookup fails or looks odd.
	 */
	ev = tep_get_first_event(tep);
	f = ev ? tep_find_common_field(ev, "common_type") : NULL;
	if (f && size_ok(f->size) && f->offset >= 0 && f->offset + f->size <= 0xffff) {
		d->common_type = f;
		d->type_at.offset = (unsigned short)f->offset;
		d->type_at.size = (unsigned char)f->size;
	}
	return 0;
}

/*
 * A field, as tep_read_number_field() reads it: native, or byte-swapped
 * (@swap) when the file's endianness differs.  fl_decode() has checked
 * that the record holds it.
 */
static inline u64 load_as(bool swap, struct fl_field at, const void *data)
{
	const unsigned char *p = (const unsigned char *)data + at.offset;
	uint16_t v2;
	uint32_t v4;
	uint64_t v8;

	switch (at.size) {
	case 1:
		return *p;
	case 2:
		memcpy(&v2, p, 2);
		return swap ? bswap_16(v2) : v2;
	case 4:
		memcpy(&v4, p, 4);
		return swap ? bswap_32(v4) : v4;
	default:
		memcpy(&v8, p, 8);
		return swap ? bswap_64(v8) : v8;
	}
}

/* A value of a field the schema declares signed, sign-extended from its size. */
static inline s64 sext(u64 v, unsigned int size)
{
	unsigned int bits = size * 8;

	if (bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~0ull << bits;
	return (s64)v;
}

static inline u64 load(const struct fl_decoder *d, struct fl_field at,
		       const void *data)
{
	return load_as(d->swap, at, data);
}

static inline s64 load_s(const struct fl_decoder *d, struct fl_field at,
			 const void *data)
{
	return sext(load(d, at, data), at.size);
}

#define get_u(i, p) load(d, f[i], p)
#define get_s(i, p) load_s(d, f[i], p)

/* 1 + a recorded domain (s16; -1: tg->load_avg), 0 when none. */
static inline u16 split_dom(const struct fl_decoder *d, bool has,
			    struct fl_field at, const void *p)
{
	s64 v = has ? load_s(d, at, p) : -1;

	return v < 0 || v >= 0xffff ? 0 : (u16)(v + 1);
}

/*
 * tg_update is almost every record.  When the file's sizes are those of
 * fairlab_trace_events.h and its byte order the host's (the usual case,
 * @native), the sizes are the compiled constants and nothing is swapped:
 * inlined with @native constant, each field is one fixed-size load at the
 * file's offset.  One field list serves both cases.
 */
static inline __attribute__((always_inline)) u64
tgu(const struct fl_decoder *d, const struct fl_field *f, const void *p,
    int i, bool native, bool sign)
{
	struct fl_field at = {
		.offset = f[i].offset,
		.size = native ? tg_update_sizes[i] : f[i].size,
	};
	u64 v = load_as(native ? false : d->swap, at, p);

	return sign ? (u64)sext(v, at.size) : v;
}

static inline __attribute__((always_inline)) void
dec_tg_update(const struct fl_decoder *d, const struct fl_field *f,
	      const void *p, struct fa_tg_update *u, bool native)
{
#define TGU(i) tgu(d, f, p, i, native, false)
#define TGS(i) tgu(d, f, p, i, native, true)
	u->tg = TGU(U_TG);
	u->cfs_cpu = (s32)TGS(U_CFS_CPU);
	u->load = TGU(U_LOAD);
	u->contrib = TGU(U_CONTRIB);
	u->delta = (s64)TGS(U_DELTA);
	u->written = TGU(U_WRITTEN) != 0;
	u->tg_load_avg = (s64)TGS(U_TG_LOAD_AVG);
	u->since_ns = TGU(U_SINCE_NS);
	u->site = (u8)TGU(U_SITE);
	u->policy = (u8)TGU(U_POLICY);
	u->arg = (u32)TGU(U_ARG);
	u->nr_cpus = (u16)TGU(U_NR_CPUS);
	u->split_dom = split_dom(d, d->has_upd_domain, d->upd_domain_at, p);
#undef TGU
#undef TGS
}

/* The other byte order or sizes: rare, kept out of line. */
static __attribute__((noinline)) void
dec_tg_update_any(const struct fl_decoder *d, const struct fl_field *f,
		  const void *p, struct fa_tg_update *u)
{
	dec_tg_update(d, f, p, u, false);
}

static void dec_pick_idlest(const struct fl_decoder *d,
			    const struct fl_field *f, const void *p,
			    struct fa_pick_idlest *k)
{
	k->idlest.group_util = get_u(P_IUTIL, p);
	k->group.group_util = get_u(P_GUTIL, p);
	k->idlest.avg_load = get_u(P_IAVG, p);
	k->group.avg_load = get_u(P_GAVG, p);
	k->idlest.max_capacity = get_u(P_ICAP, p);
	k->group.max_capacity = get_u(P_GCAP, p);
	k->idlest_cpu = (s32)get_s(P_ICPU, p);
	k->group_cpu = (s32)get_s(P_GCPU, p);
	k->idlest.idle_cpus = (u32)get_u(P_IIDLE, p);
	k->group.idle_cpus = (u32)get_u(P_GIDLE, p);
	k->idlest.sum_nr_running = (u32)get_u(P_INR, p);
	k->group.sum_nr_running = (u32)get_u(P_GNR, p);
	k->idlest.group_type = (u32)get_u(P_ITYPE, p);
	k->group.group_type = (u32)get_u(P_GTYPE, p);
	k->picked = get_u(P_PICKED, p) != 0;
	k->policy = (u8)get_u(P_POLICY, p);
}

static void dec_policy_switch(const struct fl_decoder *d,
			      const struct fl_field *f, const void *p,
			      struct fa_policy_switch *s)
{
	s->kind = (u8)get_u(S_KIND, p);
	s->old_policy = (u8)get_u(S_OLD, p);
	s->old_arg = (u32)get_u(S_OLD_ARG, p);
	s->new_policy = (u8)get_u(S_NEW, p);
	s->new_arg = (u32)get_u(S_NEW_ARG, p);
}

/* The __string name: a __data_loc (or __rel_loc) word, offset | len << 16. */
static int dec_name(const struct fl_decoder *d, const struct fl_field *f,
		    const struct tep_format_field *tf,
		    const struct tep_record *rec, char *out, size_t n)
{
	u64 loc = get_u(I_NAME, rec->data);
	u64 off = loc & 0xffff, len = (loc >> 16) & 0xffff, i;
	const char *s = rec->data;

	if (tf->flags & TEP_FIELD_IS_RELATIVE)
		off += (u64)tf->offset + (u64)tf->size;
	if (!(tf->flags & TEP_FIELD_IS_DYNAMIC) || off + len > (u64)rec->size)
		return -1;
	for (i = 0; i < len && i + 1 < n && s[off + i]; i++)
		out[i] = s[off + i];
	out[i] = '\0';
	return 0;
}

static int dec_tg_info(const struct fl_decoder *d, const struct fl_field *f,
		       const struct tep_record *rec, struct fa_tg_info *t)
{
	t->tg = get_u(I_TG, rec->data);
	t->parent = get_u(I_PARENT, rec->data);
	t->level = (u32)get_u(I_LEVEL, rec->data);
	return dec_name(d, f, d->f[FA_EV_TG_INFO][I_NAME], rec, t->name,
			sizeof(t->name));
}

static void dec_cpu_topology(const struct fl_decoder *d,
			     const struct fl_field *f, const void *p,
			     struct fa_cpu_topology *t)
{
	t->cpu = (s32)get_s(T_CPU, p);
	t->node = (s32)get_s(T_NODE, p);
	t->llc = (s32)get_s(T_LLC, p);
}

static void dec_tg_audit(const struct fl_decoder *d,
			 const struct fl_field *f, const void *p,
			 struct fa_tg_audit *a)
{
	a->seq = get_u(A_SEQ, p);
	a->tg = get_u(A_TG, p);
	a->tg_load_avg = get_s(A_TG_LOAD_AVG, p);
	a->sum_contrib = get_s(A_SUM_CONTRIB, p);
	a->sum_load = get_u(A_SUM_LOAD, p);
	a->has_snap = d->use_snap_ns;
	a->snap_ns = d->use_snap_ns ? load(d, d->snap_at, p) : 0;
	a->unchecked = d->has_checked && !load(d, d->checked_at, p);
}

static void dec_tg_read(const struct fl_decoder *d,
			const struct fl_field *f, const void *p,
			struct fa_tg_read *r)
{
	r->tg = get_u(R_TG, p);
	r->cfs_cpu = (s32)get_s(R_CFS_CPU, p);
	r->tg_load_avg = get_s(R_TG_LOAD_AVG, p);
	r->load = get_u(R_LOAD, p);
	r->load_avg = get_u(R_LOAD_AVG, p);
	r->contrib = get_u(R_CONTRIB, p);
	r->tg_shares = get_u(R_TG_SHARES, p);
	r->shares = get_s(R_SHARES, p);
	r->nr = get_u(R_NR, p);
	r->split_dom = split_dom(d, d->has_rd_domain, d->rd_domain_at, p);
	r->cache_hit = d->has_rd_hit && load(d, d->rd_hit_at, p);
}

int fl_decode(const struct fl_decoder *d, struct tep_record *rec,
	      struct fa_event *ev)
{
	const struct fl_field *f;
	const void *p = rec->data;
	int id, t;

	if (rec->size < 2)	/* not even common_type */
		return -1;
	if (d->common_type && rec->size >= d->type_at.offset + d->type_at.size)
		id = (int)load(d, d->type_at, p);
	else
		id = tep_data_type(d->tep, rec);
	for (t = 0; t < FA_EV_NR_TYPES; t++)
		if (d->id[t] == id)
			break;
	if (t == FA_EV_NR_TYPES)
		return 0;
	if (rec->size < d->min_size[t])
		return -1;
	f = d->at[t];
	ev->ts = rec->ts;
	ev->cpu = rec->cpu;
	ev->type = (u32)t;
	switch (t) {
	case FA_EV_TG_UPDATE:
		if (d->native_tg_update)
			dec_tg_update(d, f, p, &ev->u.tg_update, true);
		else
			dec_tg_update_any(d, f, p, &ev->u.tg_update);
		break;
	case FA_EV_PICK_IDLEST:
		dec_pick_idlest(d, f, p, &ev->u.pick_idlest);
		break;
	case FA_EV_POLICY_SWITCH:
		dec_policy_switch(d, f, p, &ev->u.policy_switch);
		break;
	case FA_EV_TG_INFO:
		return dec_tg_info(d, f, rec, &ev->u.tg_info) ? -1 : 1;
	case FA_EV_CPU_TOPOLOGY:
		dec_cpu_topology(d, f, p, &ev->u.cpu_topology);
		break;
	case FA_EV_TG_AUDIT:
		dec_tg_audit(d, f, p, &ev->u.tg_audit);
		break;
	case FA_EV_TG_READ:
		dec_tg_read(d, f, p, &ev->u.tg_read);
		break;
	}
	return 1;
}
