// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU merge of ring-buffer pages (see merge.h).
 */
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

/* Cursor @a's event comes before cursor @b's (a != b, both live). */
static bool before(const struct fl_cursor *c, int a, int b)
{
	return c[a].ts < c[b].ts || (c[a].ts == c[b].ts && a < b);
}

/*
 * tracecmd_iterate_events()'s choice: the earliest event, the lowest CPU
 * index on ties; -1 when none is left.  @second: the runner-up, or -1.
 */
static int pick(const struct fl_merge *m, int *second)
{
	int i, best = -1, next = -1;

	for (i = 0; i < m->n; i++) {
		if (!m->c[i].data)
			continue;
		if (best < 0 || before(m->c, i, best)) {
			next = best;
			best = i;
		} else if (next < 0 || before(m->c, i, next)) {
			next = i;
		}
	}
	*second = next;
	return best;
}

int fl_merge_run(struct fl_merge *m, int (*cb)(struct tep_record *rec, void *arg),
		 void *arg)
{
	struct tep_record rec;
	struct fl_cursor *s;
	int best, other, ret = 0;
	char *end;

	memset(&rec, 0, sizeof(rec));
	rec.ref_count = 1;
	best = pick(m, &other);
	while (best >= 0) {
		s = &m->c[best];
		rec.ts = s->ts;
		rec.data = s->data;
		rec.size = kbuffer_event_size(s->kb);
		rec.cpu = s->cpu;
		/* Only a page's first event can have missed events (kbuffer.h). */
		rec.missed_events = s->first ? kbuffer_missed_events(s->kb) : 0;
		s->first = false;
		/* A corrupt length cannot make the decoder read past the page. */
		end = s->page + m->page_size;
		if (rec.size < 0 || rec.size > end - (char *)rec.data)
			rec.size = 0;
		ret = cb(&rec, arg);
		if (ret < 0)
			break;
		s->data = kbuffer_next_event(s->kb, &s->ts);
		if (!s->data && m->next_page(m, best) < 0) {
			ret = -2;
			break;
		}
		/*
		 * The other cursors have not moved: the same one goes on while
		 * it is still first (runs of records of one CPU are the rule).
		 */
		if (!s->data || (other >= 0 && !before(m->c, best, other)))
			best = pick(m, &other);
	}
	return ret;
}
