// SPDX-License-Identifier: GPL-2.0
/*
 * Page-by-page reading through libtracecmd and kbuffer (see pages.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "pages.h"
#include "tracecmd_private.h"

/* One CPU's data: the page being walked and the event it is at. */
struct fl_stream {
	struct tep_record *anchor;	/* a record of the page: keeps it mapped */
	struct kbuffer *kb;
	char *page;
	unsigned long long page_off;	/* file offset of the page */
	void *data;			/* the current event, NULL: no more */
	unsigned long long ts;
	bool first;			/* data is the first event delivered of the page */
};

struct fl_pages {
	int n;
	int page_size;
	struct fl_stream s[];
};

void fl_pages_free(struct fl_pages *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		if (p->s[i].kb)
			kbuffer_free(p->s[i].kb);
	free(p);
}

/*
 * Points stream @i's kbuffer at the event of @rec, in the page @rec
 * holds.  -1 when kbuffer does not find there what libtracecmd did: the
 * same data, with the same (untransformed) timestamp.
 */
static int locate(struct fl_pages *p, struct tracecmd_input *h, int i,
		  struct tep_record *rec)
{
	struct fl_stream *s = &p->s[i];
	char *page = tracecmd_record_page(h, rec);
	char *at = tracecmd_record_offset(h, rec);
	unsigned long long ts = 0;
	void *data;

	if (!page || !at || at < page || at - page >= p->page_size)
		return -1;
	kbuffer_load_subbuffer(s->kb, page);
	data = kbuffer_read_at_offset(s->kb, (int)(at - page), &ts);
	if (data != rec->data || ts != rec->ts)
		return -1;
	s->page = page;
	s->page_off = rec->offset - (unsigned long long)(at - page);
	s->data = data;
	s->ts = ts;
	s->first = true;
	return 0;
}

/* The page after stream @i's: 0, 1 when the CPU has no more, -1 mismatch. */
static int next_page(struct fl_pages *p, struct tracecmd_input *h, int i)
{
	struct fl_stream *s = &p->s[i];
	struct tep_record *rec;
	int cpu = -1;

	/*
	 * libtracecmd finds the page (skipping empty ones) and the CPU whose
	 * data holds that offset: past this CPU's last page, another one's,
	 * or none.
	 */
	rec = tracecmd_read_at(h, s->page_off + (unsigned long long)p->page_size, &cpu);
	if (rec && cpu == i && !locate(p, h, i, rec)) {
		tracecmd_free_record(s->anchor);
		s->anchor = rec;
		return 0;
	}
	s->data = NULL;
	tracecmd_free_record(s->anchor);
	s->anchor = NULL;
	if (!rec)
		return 1;
	tracecmd_free_record(rec);
	return cpu == i ? -1 : 1;
}

/* Stream @a's event comes before stream @b's (a != b, both live). */
static bool before(const struct fl_pages *p, int a, int b)
{
	return p->s[a].ts < p->s[b].ts || (p->s[a].ts == p->s[b].ts && a < b);
}

/*
 * tracecmd_iterate_events()'s choice: the earliest event, the lowest CPU
 * index on ties; -1 when none is left.  @second: the runner-up, or -1.
 */
static int pick(const struct fl_pages *p, int *second)
{
	int i, best = -1, next = -1;

	for (i = 0; i < p->n; i++) {
		if (!p->s[i].data)
			continue;
		if (best < 0 || before(p, i, best)) {
			next = best;
			best = i;
		} else if (next < 0 || before(p, i, next)) {
			next = i;
		}
	}
	*second = next;
	return best;
}

int fl_pages_iterate(struct tracecmd_input *h, struct fl_pages **state,
		     int (*cb)(struct tep_record *rec, void *arg), void *arg,
		     char *err, size_t errlen)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	int n = tracecmd_cpus(h), i, best, other, ret = 0;
	struct tep_record rec, *peek;
	struct fl_stream *s;
	struct fl_pages *p;
	char *end;

	*state = NULL;
	if (!tep || n <= 0 || tracecmd_page_size(h) <= 0)
		return FL_PAGES_UNSUPPORTED;
	p = calloc(1, sizeof(*p) + (size_t)n * sizeof(p->s[0]));
	if (!p)
		return FL_PAGES_UNSUPPORTED;
	*state = p;
	p->n = n;
	p->page_size = tracecmd_page_size(h);
	for (i = 0; i < n; i++) {
		s = &p->s[i];
		s->kb = kbuffer_alloc(tep_get_header_page_size(tep) == 8 ?
				      KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				      tep_is_file_bigendian(tep) ?
				      KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		if (!s->kb)
			return FL_PAGES_UNSUPPORTED;
		if (tep_is_old_format(tep))
			kbuffer_set_old_format(s->kb);
	}
	/* Before anything is consumed: does kbuffer see what libtracecmd does? */
	for (i = 0; i < n; i++) {
		peek = tracecmd_peek_data(h, i);
		if (peek && locate(p, h, i, peek))
			return FL_PAGES_UNSUPPORTED;
	}
	for (i = 0; i < n; i++) {
		s = &p->s[i];
		s->anchor = tracecmd_read_data(h, i);	/* the record peeked */
		if (s->anchor && locate(p, h, i, s->anchor))
			break;	/* the record just checked: cannot happen */
	}
	best = -1;
	if (i < n) {
		/* records are taken: too late for tracecmd_iterate_events() */
		snprintf(err, errlen, "libtracecmd and libtraceevent's kbuffer disagree on the first page of CPU index %d (FAIRLAB_PAGES=0 reads record by record)",
			 i);
		ret = -2;
	} else {
		best = pick(p, &other);
	}

	memset(&rec, 0, sizeof(rec));
	rec.ref_count = 1;
	while (best >= 0) {
		s = &p->s[best];
		rec.ts = s->ts;
		rec.data = s->data;
		rec.size = kbuffer_event_size(s->kb);
		rec.cpu = s->anchor->cpu;
		/* Only a page's first event can have missed events (kbuffer.h). */
		rec.missed_events = s->first ? kbuffer_missed_events(s->kb) : 0;
		s->first = false;
		/* A corrupt length cannot make the decoder read past the page. */
		end = s->page + p->page_size;
		if (rec.size < 0 || rec.size > end - (char *)rec.data)
			rec.size = 0;
		ret = cb(&rec, arg);
		if (ret < 0)
			break;
		s->data = kbuffer_next_event(s->kb, &s->ts);
		if (!s->data && next_page(p, h, best) < 0) {
			snprintf(err, errlen, "libtracecmd and libtraceevent's kbuffer disagree on a page of CPU index %d (timestamps transformed part way? FAIRLAB_PAGES=0 reads record by record)",
				 best);
			ret = -2;
			break;
		}
		/*
		 * The other streams have not moved: the same one goes on while
		 * it is still first (runs of records of one CPU are the rule).
		 */
		if (!s->data || (other >= 0 && !before(p, best, other)))
			best = pick(p, &other);
	}
	for (i = 0; i < n; i++) {
		tracecmd_free_record(p->s[i].anchor);
		p->s[i].anchor = NULL;
	}
	return ret;
}
