// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU merge of ring-buffer pages (see merge.h).
 */
#include <stdlib.h>
#include <string.h>

#include "merge.h"

struct kbuffer *fl_cursor_kbuffer(struct tep_handle *tep)
{
	struct kbuffer *kb;

	kb = kbuffer_alloc(tep_get_header_page_size(tep) == 8 ?
			   KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			   tep_is_file_bigendian(tep) ?
			   KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (kb && tep_is_old_format(tep))
		kbuffer_set_old_format(kb);
	return kb;
}

/* @a's event comes before @b's: the earlier, the lower CPU index on ties. */
static bool before(const struct fl_key *a, const struct fl_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->i < b->i);
}

void fl_heap_sift(struct fl_key *h, int n, int i)
{
	struct fl_key x = h[i];
	int k;

	for (;;) {
		k = 2 * i + 1;
		if (k >= n)
			break;
		if (k + 1 < n && before(&h[k + 1], &h[k]))
			k++;
		if (!before(&h[k], &x))
			break;
		h[i] = h[k];
		i = k;
	}
	h[i] = x;
}

void fl_heap_init(struct fl_key *h, int n)
{
	int i;

	for (i = n / 2 - 1; i >= 0; i--)
		fl_heap_sift(h, n, i);
}

void fl_heap_next(struct fl_key *h, int *n, bool more, unsigned long long ts)
{
	if (more)
		h[0].ts = ts;
	else
		h[0] = h[--*n];
	if (*n > 1)
		fl_heap_sift(h, *n, 0);
}

void fl_cursor_record(const struct fl_merge *m, struct fl_cursor *s,
		      struct tep_record *rec)
{
	char *end = s->page + m->page_size;

	rec->ts = s->ts;
	rec->data = s->data;
	rec->size = kbuffer_event_size(s->kb);
	rec->cpu = s->cpu;
	/* Only a page's first event can have missed events (kbuffer.h). */
	rec->missed_events = s->first ? kbuffer_missed_events(s->kb) : 0;
	s->first = false;
	/* A corrupt length cannot make the decoder read past the page. */
	if (rec->size < 0 || rec->size > end - (char *)rec->data)
		rec->size = 0;
}

/*
 * tracecmd_iterate_events()'s order: the earliest event, the lowest CPU
 * index on ties.  A binary heap of the cursors that have data keeps it
 * in O(log n) a record (a scan of every cursor at each change of CPU took
 * a third of the time at 64 CPUs); the timestamps are copied into it, so
 * that sifting reads no cursor.  (ts, index) is a total order: the
 * sequence is the scan's exactly.
 */
int fl_merge_run(struct fl_merge *m, int (*cb)(struct tep_record *rec, void *arg),
		 void *arg)
{
	struct tep_record rec;
	struct fl_cursor *s;
	struct fl_key *h;
	int n = 0, i, ret = 0;

	if (!m->heap)
		m->heap = malloc((size_t)(m->n > 0 ? m->n : 1) * sizeof(*h));
	h = m->heap;
	if (!h)
		return -1;
	for (i = 0; i < m->n; i++) {
		if (m->c[i].data) {
			h[n].ts = m->c[i].ts;
			h[n++].i = i;
		}
	}
	fl_heap_init(h, n);
	memset(&rec, 0, sizeof(rec));
	rec.ref_count = 1;
	while (n > 0) {
		s = &m->c[h[0].i];
		fl_cursor_record(m, s, &rec);
		ret = cb(&rec, arg);
		if (ret < 0)
			break;
		s->data = kbuffer_next_event(s->kb, &s->ts);
		if (!s->data && m->next_page(m, h[0].i) < 0) {
			ret = -2;
			break;
		}
		fl_heap_next(h, &n, s->data, s->ts);
	}
	return ret;
}
