/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fl-tracegen: one ring-buffer page in the kernel's layout (a 64-bit,
 * little-endian kernel: the header_page of every file this accepts),
 * walked event by event.
 */
#ifndef FL_TRACEGEN_PAGE_H
#define FL_TRACEGEN_PAGE_H

#include <stdint.h>

/* Called for each data event: its payload, length and absolute time. */
typedef void (*tg_event_fn)(unsigned char *data, int len, uint64_t ts, void *arg);

/*
 * Walks @page (@page_size bytes): adds @t_off to its timestamp and to
 * every absolute time stamp (TIME_STAMP events) in it, and calls @fn on
 * each data event.  Returns the number of data events, -1 when the page
 * is malformed (an event running past its end).
 */
long tg_page_walk(unsigned char *page, int page_size, uint64_t t_off,
		  tg_event_fn fn, void *arg);

#endif
