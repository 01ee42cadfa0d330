// SPDX-License-Identifier: GPL-2.0
/*
 * Page-by-page reading through libtracecmd and kbuffer (see pages.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "pages.h"
#include "tracecmd_private.h"

/* What keeps one CPU's page mapped, and where the page is in the file. */
struct fl_anchor {
	struct tep_record *rec;		/* a record of the page: keeps it mapped */
	unsigned long long page_off;	/* file offset of the page */
};

struct fl_pages {
	struct fl_merge m;
	struct tracecmd_input *h;
	char *err;
	size_t errlen;
	struct fl_cursor *c;
	struct fl_anchor a[];
};

void fl_pages_free(struct fl_pages *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->m.n; i++)
		if (p->c[i].kb)
			kbuffer_free(p->c[i].kb);
	free(p->m.heap);
	free(p->c);
	free(p);
}

/*
 * Points cursor @i's kbuffer at the event of @rec, in the page @rec
 * holds.  -1 when kbuffer does not find there what libtracecmd did: the
 * same data, with the same (untransformed) timestamp.
 */
static int locate(struct fl_pages *p, int i, struct tep_record *rec)
{
	struct fl_cursor *s = &p->c[i];
	char *page = tracecmd_record_page(p->h, rec);
	char *at = tracecmd_record_offset(p->h, rec);
	unsigned long long ts = 0;
	void *data;

	if (!page || !at || at < page || at - page >= p->m.page_size)
		return -1;
	kbuffer_load_subbuffer(s->kb, page);
	data = kbuffer_read_at_offset(s->kb, (int)(at - page), &ts);
	if (data != rec->data || ts != rec->ts)
		return -1;
	s->page = page;
	s->data = data;
	s->ts = ts;
	s->cpu = rec->cpu;
	s->first = true;
	p->a[i].page_off = rec->offset - (unsigned long long)(at - page);
	return 0;
}

/* The page after cursor @i's (fl_merge's next_page). */
static int next_page(struct fl_merge *m, int i)
{
	struct fl_pages *p = (struct fl_pages *)((char *)m - offsetof(struct fl_pages, m));
	struct fl_anchor *a = &p->a[i];
	struct tep_record *rec;
	int cpu = -1;

	/*
	 * libtracecmd finds the page (skipping empty ones) and the CPU whose
	 * data holds that offset: past this CPU's last page, another one's,
	 * or none.
	 */
	rec = tracecmd_read_at(p->h, a->page_off + (unsigned long long)m->page_size, &cpu);
	if (rec && cpu == i && !locate(p, i, rec)) {
		tracecmd_free_record(a->rec);
		a->rec = rec;
		return 0;
	}
	m->c[i].data = NULL;
	tracecmd_free_record(a->rec);
	a->rec = NULL;
	if (!rec)
		return 1;
	tracecmd_free_record(rec);
	if (cpu != i)
		return 1;
	snprintf(p->err, p->errlen, "libtracecmd and libtraceevent's kbuffer disagree on a page of CPU index %d (timestamps transformed part way? FAIRLAB_PAGES=0 reads record by record)",
		 i);
	return -1;
}

int fl_pages_iterate(struct tracecmd_input *h, struct fl_pages **state,
		     int (*cb)(struct tep_record *rec, void *arg), void *arg,
		     char *err, size_t errlen)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	int n = tracecmd_cpus(h), i, ret = 0;
	struct tep_record *peek;
	struct fl_pages *p;

	*state = NULL;
	if (!tep || n <= 0 || tracecmd_page_size(h) <= 0)
		return FL_PAGES_UNSUPPORTED;
	p = calloc(1, sizeof(*p) + (size_t)n * sizeof(p->a[0]));
	if (!p)
		return FL_PAGES_UNSUPPORTED;
	*state = p;
	p->c = calloc((size_t)n, sizeof(*p->c));
	if (!p->c)
		return FL_PAGES_UNSUPPORTED;
	p->m.n = n;
	p->m.c = p->c;
	p->m.page_size = tracecmd_page_size(h);
	p->m.next_page = next_page;
	p->h = h;
	p->err = err;
	p->errlen = errlen;
	for (i = 0; i < n; i++) {
		p->c[i].kb = fl_cursor_kbuffer(tep);
		if (!p->c[i].kb)
			return FL_PAGES_UNSUPPORTED;
	}
	/* Before anything is consumed: does kbuffer see what libtracecmd does? */
	for (i = 0; i < n; i++) {
		peek = tracecmd_peek_data(h, i);
		if (peek && locate(p, i, peek))
			return FL_PAGES_UNSUPPORTED;
	}
	for (i = 0; i < n; i++) {
		p->a[i].rec = tracecmd_read_data(h, i);	/* the record peeked */
		p->c[i].data = NULL;
		if (p->a[i].rec && locate(p, i, p->a[i].rec))
			break;	/* the record just checked: cannot happen */
	}
	if (i < n) {
		/* records are taken: too late for tracecmd_iterate_events() */
		snprintf(err, errlen, "libtracecmd and libtraceevent's kbuffer disagree on the first page of CPU index %d (FAIRLAB_PAGES=0 reads record by record)",
			 i);
		ret = -2;
	} else {
		ret = fl_merge_run(&p->m, cb, arg);
	}
	for (i = 0; i < n; i++) {
		tracecmd_free_record(p->a[i].rec);
		p->a[i].rec = NULL;
	}
	return ret;
}
