// SPDX-License-Identifier: GPL-2.0
/*
 * fl-tracegen: the fairlab fields a copy renumbers (see fields.h).
 * Offsets and sizes come from the file's own event formats, so a
 * recording of an older or newer module layout is handled as long as the
 * fields exist.  Little-endian files only (checked by the caller).
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>

#include "fields.h"

/* Autogroup ids carry bit 62 (module/fairlab_trace_events.h); a copy's
 * set of groups is numbered above every cgroup id, below that bit. */
#define GROUP_SHIFT 40

static const char *const names[TG_NEV] = {
	"tg_update", "tg_read", "pick_idlest", "tg_info", "cpu_topology",
	"tg_audit", "policy_switch",
};

/*
 * An older module's event may lack a field a copy moves (tg_audit had no
 * snap_ns): OPT ones are then left alone (size 0); the ids and CPUs that
 * keep the copies apart are required.
 */
#define OPT "?"

static int field(struct tep_event *ev, const char *name, struct tg_field *out,
		 char *err, size_t errlen)
{
	bool opt = name[0] == '?';
	struct tep_format_field *fl = tep_find_field(ev, opt ? name + 1 : name);

	out->off = out->size = 0;
	if (!fl && opt)
		return 0;
	if (!fl || (fl->size != 4 && fl->size != 8)) {
		snprintf(err, errlen, "event fairlab:%s has no 4- or 8-byte field %s",
			 ev->name, opt ? name + 1 : name);
		return -1;
	}
	out->off = fl->offset;
	out->size = fl->size;
	return 0;
}

int tg_fields_init(struct tg_fields *f, struct tep_handle *tep, char *err, size_t errlen)
{
	struct tep_event *ev[TG_NEV];
	int i, any = 0;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < TG_NEV; i++) {
		ev[i] = tep_find_event_by_name(tep, "fairlab", names[i]);
		f->id[i] = ev[i] ? ev[i]->id : -1;
		any |= ev[i] != NULL;
	}
	if (!any) {
		snprintf(err, errlen, "the file has no fairlab event formats (not a fairlab recording)");
		return -1;
	}
	if ((ev[TG_UPDATE] && (field(ev[TG_UPDATE], "tg", &f->tg, err, errlen) ||
			       field(ev[TG_UPDATE], "cfs_cpu", &f->cfs_cpu, err, errlen))) ||
	    (ev[TG_READ] && (field(ev[TG_READ], "tg", &f->r_tg, err, errlen) ||
			     field(ev[TG_READ], "cfs_cpu", &f->r_cpu, err, errlen) ||
			     field(ev[TG_READ], OPT "nr", &f->r_nr, err, errlen))) ||
	    (ev[TG_PICK] && (field(ev[TG_PICK], "idlest_cpu", &f->p_idlest, err, errlen) ||
			     field(ev[TG_PICK], "group_cpu", &f->p_group, err, errlen))) ||
	    (ev[TG_INFO] && (field(ev[TG_INFO], "tg", &f->i_tg, err, errlen) ||
			     field(ev[TG_INFO], "parent", &f->i_parent, err, errlen) ||
			     field(ev[TG_INFO], OPT "level", &f->i_level, err, errlen))) ||
	    (ev[TG_TOPO] && (field(ev[TG_TOPO], "cpu", &f->t_cpu, err, errlen) ||
			     field(ev[TG_TOPO], OPT "node", &f->t_node, err, errlen) ||
			     field(ev[TG_TOPO], OPT "llc", &f->t_llc, err, errlen))) ||
	    (ev[TG_AUDIT] && (field(ev[TG_AUDIT], "tg", &f->a_tg, err, errlen) ||
			      field(ev[TG_AUDIT], OPT "seq", &f->a_seq, err, errlen) ||
			      field(ev[TG_AUDIT], OPT "snap_ns", &f->a_snap, err, errlen))))
		return -1;
	return 0;
}

int tg_event_of(const struct tg_fields *f, const unsigned char *data, int len)
{
	int id, i;

	if (len < 2)
		return -1;
	id = data[0] | data[1] << 8;	/* common_type, little-endian */
	for (i = 0; i < TG_NEV; i++)
		if (f->id[i] == id)
			return i;
	return -1;
}

/* Loads a field (sign-extended from 4 bytes: the CPU fields are s32). */
static int64_t ld(const unsigned char *d, int len, struct tg_field x)
{
	uint64_t v = 0;
	int32_t v32;

	if (!x.size || x.off + x.size > len)
		return 0;
	if (x.size == 4) {
		memcpy(&v32, d + x.off, 4);
		return v32;
	}
	memcpy(&v, d + x.off, 8);
	return (int64_t)v;
}

static void st(unsigned char *d, int len, struct tg_field x, int64_t v)
{
	int32_t v32 = (int32_t)v;

	if (!x.size || x.off + x.size > len)
		return;
	if (x.size == 4)
		memcpy(d + x.off, &v32, 4);
	else
		memcpy(d + x.off, &v, 8);
}

void tg_note(const struct tg_fields *f, struct tg_stats *s, int cpu,
	     const unsigned char *d, int len)
{
	int64_t v;

	switch (tg_event_of(f, d, len)) {
	case TG_READ:
		if ((uint64_t)ld(d, len, f->r_nr) > s->max_nr[cpu])
			s->max_nr[cpu] = (uint64_t)ld(d, len, f->r_nr);
		if (!s->min_nr[cpu] || (uint64_t)ld(d, len, f->r_nr) < s->min_nr[cpu])
			s->min_nr[cpu] = (uint64_t)ld(d, len, f->r_nr);
		break;
	case TG_TOPO:
		v = ld(d, len, f->t_node);
		if (v > s->max_node)
			s->max_node = v;
		break;
	case TG_AUDIT:
		if ((uint64_t)ld(d, len, f->a_seq) > s->max_seq)
			s->max_seq = (uint64_t)ld(d, len, f->a_seq);
		break;
	case TG_INFO:
		v = ld(d, len, f->i_tg);
		if (f->i_level.size && ld(d, len, f->i_level) == 0 &&
		    s->nroots < (int)(sizeof(s->roots) / sizeof(s->roots[0])))
			s->roots[s->nroots++] = (uint64_t)v;
		break;
	default:
		return;
	}
}

/* A group id in copy @c: its own set, except the root group(s). */
static int64_t group(const struct tg_stats *s, const struct tg_copy *c, int64_t id)
{
	int i;

	if (id == 0)	/* no parent */
		return 0;
	for (i = 0; i < s->nroots; i++)
		if ((uint64_t)id == s->roots[i])
			return id;
	return (int64_t)((uint64_t)id + (c->group << GROUP_SHIFT));
}

static void add(unsigned char *d, int len, struct tg_field x, int64_t off)
{
	st(d, len, x, ld(d, len, x) + off);
}

void tg_rewrite(const struct tg_fields *f, const struct tg_stats *s,
		const struct tg_copy *c, unsigned char *d, int len)
{
	switch (tg_event_of(f, d, len)) {
	case TG_UPDATE:
		st(d, len, f->tg, group(s, c, ld(d, len, f->tg)));
		add(d, len, f->cfs_cpu, c->cpu_off);
		break;
	case TG_READ:
		st(d, len, f->r_tg, group(s, c, ld(d, len, f->r_tg)));
		add(d, len, f->r_cpu, c->cpu_off);
		add(d, len, f->r_nr, (int64_t)c->nr_off);
		break;
	case TG_PICK:
		/* idlest_cpu -1: no idlest group yet */
		if (ld(d, len, f->p_idlest) >= 0)
			add(d, len, f->p_idlest, c->cpu_off);
		add(d, len, f->p_group, c->cpu_off);
		break;
	case TG_INFO:
		st(d, len, f->i_tg, group(s, c, ld(d, len, f->i_tg)));
		st(d, len, f->i_parent, group(s, c, ld(d, len, f->i_parent)));
		break;
	case TG_TOPO:
		/* llc is the first CPU of the last-level cache (sd_llc_id) */
		add(d, len, f->t_cpu, c->cpu_off);
		add(d, len, f->t_node, c->node_off);
		add(d, len, f->t_llc, c->cpu_off);
		break;
	case TG_AUDIT:
		st(d, len, f->a_tg, group(s, c, ld(d, len, f->a_tg)));
		add(d, len, f->a_seq, (int64_t)c->seq_off);
		add(d, len, f->a_snap, (int64_t)c->t_off);
		break;
	default:
		break;
	}
}
