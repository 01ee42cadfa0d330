// SPDX-License-Identifier: GPL-2.0
/*
 * fl-tracegen: walking a ring-buffer page (see page.h).  The layout is
 * the kernel's (kernel/trace/ring_buffer.c, as libtraceevent's kbuffer
 * reads it): a u64 timestamp, a u64 commit (the data's length in its low
 * 27 bits, flags above), then events, each a u32 of type_len (5 bits) and
 * time_delta (27 bits).  Time deltas need no change when a whole page
 * moves in time: only the page's base and absolute stamps do.
 */
#include <string.h>

#include "page.h"

#define HDR		16
#define COMMIT_MASK	((1u << 27) - 1)
#define T_PADDING	29
#define T_EXTEND	30
#define T_STAMP		31

static uint32_t ld4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void st4(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

long tg_page_walk(unsigned char *page, int page_size, uint64_t t_off,
		  tg_event_fn fn, void *arg)
{
	uint64_t base, commit, ts, abs;
	uint32_t size, pos = HDR, h, type, delta, len;
	long n = 0;

	memcpy(&base, page, 8);
	memcpy(&commit, page + 8, 8);
	size = (uint32_t)commit & COMMIT_MASK;
	if (size > (uint32_t)page_size - HDR)
		return -1;
	base += t_off;
	memcpy(page, &base, 8);
	ts = base;
	size += HDR;
	while (pos + 4 <= size) {
		h = ld4(page + pos);
		type = h & 31;
		delta = h >> 5;
		switch (type) {
		case T_PADDING:
			if (!delta)
				return n;	/* the rest of the page is padding */
			/* a discarded event: its length in the next word */
			if (pos + 8 > size)
				return -1;
			pos += 4 + ld4(page + pos + 4);
			continue;
		case T_EXTEND:
			if (pos + 8 > size)
				return -1;
			ts += ((uint64_t)ld4(page + pos + 4) << 27) + delta;
			pos += 8;
			continue;
		case T_STAMP:
			if (pos + 8 > size)
				return -1;
			/* absolute: low 27 bits here, the rest in the next word */
			abs = ((uint64_t)ld4(page + pos + 4) << 27 | delta) + t_off;
			st4(page + pos, (uint32_t)(abs & COMMIT_MASK) << 5 | T_STAMP);
			st4(page + pos + 4, (uint32_t)(abs >> 27));
			ts = abs;
			pos += 8;
			continue;
		case 0:
			if (pos + 8 > size)
				return -1;
			len = ld4(page + pos + 4);
			if (len < 4 || pos + 4 + len > size)
				return -1;
			ts += delta;
			fn(page + pos + 8, (int)(len - 4), ts, arg);
			pos += 4 + ((len + 3) & ~3u);
			break;
		default:
			len = type * 4;
			if (pos + 4 + len > size)
				return -1;
			ts += delta;
			fn(page + pos + 4, (int)len, ts, arg);
			pos += 4 + len;
			break;
		}
		n++;
	}
	return pos > size ? -1 : n;
}
