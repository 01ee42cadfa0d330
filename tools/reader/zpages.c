// SPDX-License-Identifier: GPL-2.0
/*
 * zstd chunks decompressed in place, page by page (see zpages.h).
 */
#include <endian.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>

#include "merge.h"
#include "tracecmd_private.h"
#include "v7layout.h"
#include "zpages.h"

/*
 * trace-cmd writes chunks of 10 pages; a chunk of more than 64 MB is a
 * corrupt size, not a recording (and would be that much memory per CPU).
 */
#define MAX_CHUNK	(64u << 20)

/* One CPU's compressed data and its current chunk, decompressed. */
struct zstream {
	unsigned long long pos, end;	/* next chunk header; end of the CPU's data */
	unsigned int left;		/* chunks not read yet */
	unsigned char h[8];		/* the next chunk's header, when have_h */
	bool have_h;			/* read with the chunk before it */
	unsigned char *z;		/* the compressed chunk */
	size_t zcap;
	char *buf;			/* the chunk's pages, and a page of slack */
	size_t cap;
	size_t len, next;		/* bytes in buf; offset of the next page */
};

/*
 * What decompressing needs besides a stream: one per thread that walks
 * streams (fl_zpages_walk()), the reader's own in fl_zpages.
 */
struct fl_zwork {
	ZSTD_DCtx *dctx;
	char *err;
	size_t errlen;
	struct fl_zstats st;
	char msg[200];			/* a worker's message, before the merge takes it */
};

struct fl_zpages {
	struct fl_merge m;
	int fd;
	struct fl_zwork w;		/* the calling thread's */
	pthread_mutex_t lock;		/* adding a worker's figures to w.st */
	/* bytes decompressed so far, by every thread: fl_zpages_decompressed() */
	atomic_ullong decompressed;
	struct fl_cursor *c;
	struct zstream s[];
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int corrupt(struct fl_zpages *z, struct fl_zwork *w, int i, const char *what)
{
	snprintf(w->err, w->errlen, "CPU index %d: %s at offset %llu (corrupt trace.dat)",
		 i, what, z->s[i].pos);
	return -1;
}

/* Grows *@p to hold @n bytes; -1 when out of memory. */
static int reserve(void *p, size_t *cap, size_t n)
{
	void *q;

	if (n <= *cap)
		return 0;
	q = realloc(*(void **)p, n);
	if (!q)
		return -1;
	*(void **)p = q;
	*cap = n;
	return 0;
}

/*
 * Stream @i's next chunk into its buffer: 0, 1 when none is left, -1.
 * One pread() a chunk: it takes the next chunk's header along (a system
 * call costs microseconds in a VM: two a chunk were a tenth of the
 * decoding threads' time).  The chunks must fill the CPU's data exactly:
 * data left after the last one means a chunk count or size that does
 * not match the section, and is refused.
 */
static int next_chunk(struct fl_zpages *z, struct fl_zwork *w, int i)
{
	struct zstream *s = &z->s[i];
	unsigned int zsize, size, ps = (unsigned int)z->m.page_size;
	unsigned long long after;
	size_t want, got;
	ssize_t rd;
	uint32_t v;
	double t;

	if (!s->left) {
		if (s->pos != s->end)
			return corrupt(z, w, i, "data after the CPU's last chunk");
		return 1;
	}
	if (!s->have_h &&
	    (s->end - s->pos < sizeof(s->h) ||
	     pread(z->fd, s->h, sizeof(s->h), (off_t)s->pos) != (ssize_t)sizeof(s->h)))
		return corrupt(z, w, i, "chunk header past the end of the CPU's data");
	s->have_h = false;
	memcpy(&v, s->h, 4);
	zsize = le32toh(v);
	memcpy(&v, s->h + 4, 4);
	size = le32toh(v);
	if (zsize > s->end - s->pos - sizeof(s->h))
		return corrupt(z, w, i, "compressed chunk past the end of the CPU's data");
	if (!size || size % ps || size > MAX_CHUNK)
		return corrupt(z, w, i, "implausible chunk size");
	after = s->pos + sizeof(s->h) + zsize;
	want = zsize;
	if (s->left > 1 && s->end - after >= sizeof(s->h))
		want += sizeof(s->h);
	if (reserve(&s->z, &s->zcap, want ? want : 1) ||
	    reserve(&s->buf, &s->cap, (size_t)size + ps)) {
		snprintf(w->err, w->errlen, "out of memory");
		return -1;
	}
	t = now();
	rd = pread(z->fd, s->z, want, (off_t)(s->pos + sizeof(s->h)));
	w->st.read_secs += now() - t;
	if (rd != (ssize_t)want)
		return corrupt(z, w, i, "unreadable chunk");
	if (want > zsize) {
		memcpy(s->h, s->z + zsize, sizeof(s->h));
		s->have_h = true;
	}
	t = now();
	got = ZSTD_decompressDCtx(w->dctx, s->buf, size, s->z, zsize);
	w->st.decompress_secs += now() - t;
	if (ZSTD_isError(got) || got != size)
		return corrupt(z, w, i, "zstd chunk that does not decompress to its size");
	/* kbuffer may look a little past a page's data: never at old bytes */
	memset(s->buf + size, 0, ps);
	s->pos = after;
	s->left--;
	s->len = size;
	s->next = 0;
	atomic_fetch_add_explicit(&z->decompressed, size, memory_order_relaxed);
	w->st.chunks++;
	w->st.zbytes += zsize;
	w->st.bytes += size;
	return 0;
}

/*
 * Cursor @i at the first event of its stream's next page with one
 * (fl_merge's next_page): as libtracecmd, pages without events are
 * skipped.
 */
static int walk_page(struct fl_zpages *z, struct fl_zwork *w, int i)
{
	struct fl_merge *m = &z->m;
	struct zstream *s = &z->s[i];
	struct fl_cursor *c = &m->c[i];
	char *page;
	int ret;

	for (;;) {
		if (s->next >= s->len) {
			ret = next_chunk(z, w, i);
			if (ret) {
				c->data = NULL;
				return ret;
			}
		}
		page = s->buf + s->next;
		s->next += (size_t)m->page_size;
		c->data = NULL;
		if (kbuffer_load_subbuffer(c->kb, page) < 0 ||
		    kbuffer_start_of_data(c->kb) + kbuffer_subbuffer_size(c->kb) > m->page_size)
			return corrupt(z, w, i, "ring-buffer page larger than a page, in the chunk before");
		c->data = kbuffer_read_event(c->kb, &c->ts);
		if (c->data) {
			c->page = page;
			c->first = true;
			return 0;
		}
	}
}

static int next_page(struct fl_merge *m, int i)
{
	struct fl_zpages *z = (struct fl_zpages *)((char *)m - offsetof(struct fl_zpages, m));

	return walk_page(z, &z->w, i);
}

struct fl_zwork *fl_zwork_new(struct fl_zpages *z)
{
	struct fl_zwork *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	(void)z;
	w->dctx = ZSTD_createDCtx();
	if (!w->dctx) {
		free(w);
		return NULL;
	}
	w->err = w->msg;
	w->errlen = sizeof(w->msg);
	return w;
}

void fl_zwork_free(struct fl_zpages *z, struct fl_zwork *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&z->lock);
	z->w.st.chunks += w->st.chunks;
	z->w.st.zbytes += w->st.zbytes;
	z->w.st.bytes += w->st.bytes;
	z->w.st.read_secs += w->st.read_secs;
	z->w.st.decompress_secs += w->st.decompress_secs;
	pthread_mutex_unlock(&z->lock);
	ZSTD_freeDCtx(w->dctx);
	free(w);
}

const char *fl_zwork_error(const struct fl_zwork *w)
{
	return w->msg;
}

int fl_zpages_streams(const struct fl_zpages *z)
{
	return z->m.n;
}

int fl_zpages_walk(struct fl_zpages *z, struct fl_zwork *w, int i,
		   int (*cb)(struct tep_record *rec, void *arg), void *arg, int max)
{
	struct fl_cursor *c = &z->c[i];
	struct tep_record rec;
	int k;

	memset(&rec, 0, sizeof(rec));
	rec.ref_count = 1;
	for (k = 0; k < max; k++) {
		if (!c->data)
			return 1;
		fl_cursor_record(&z->m, c, &rec);
		if (cb(&rec, arg) < 0)
			return -1;
		c->data = kbuffer_next_event(c->kb, &c->ts);
		if (!c->data && walk_page(z, w, i) < 0)
			return -1;
	}
	return c->data ? 0 : 1;
}

void fl_zpages_free(struct fl_zpages *z)
{
	int i;

	if (!z)
		return;
	for (i = 0; i < z->m.n; i++) {
		if (z->c && z->c[i].kb)
			kbuffer_free(z->c[i].kb);
		free(z->s[i].z);
		free(z->s[i].buf);
	}
	free(z->m.heap);
	free(z->c);
	ZSTD_freeDCtx(z->w.dctx);
	pthread_mutex_destroy(&z->lock);
	free(z);
}

int fl_zpages_open(int fd, struct tracecmd_input *h, struct fl_zpages **out,
		   char *why, size_t whylen)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct fl_v7layout l;
	struct fl_zpages *z = NULL;
	struct zstream *s;
	unsigned char cnt[4];
	uint32_t v;
	int i, n;

	*out = NULL;
	if (fl_v7layout_read(fd, &l, why, whylen))
		goto unsupported;
	n = l.nr_cpus;
	if (!l.compressed || strcmp(l.compression, "zstd")) {
		snprintf(why, whylen, "its data is not zstd-compressed");
		goto unsupported;
	}
	if (!tep || n <= 0 || n != tracecmd_cpus(h) ||
	    (int)l.page_size != tracecmd_page_size(h) || l.page_size < 64) {
		snprintf(why, whylen, "libtracecmd counts its CPUs or pages otherwise");
		goto unsupported;
	}
	z = calloc(1, sizeof(*z) + (size_t)n * sizeof(z->s[0]));
	if (!z)
		goto oom;
	*out = z;	/* reachable from the caller if a guard jump ends this */
	z->m.n = n;
	z->c = calloc((size_t)n, sizeof(*z->c));
	z->w.dctx = ZSTD_createDCtx();
	pthread_mutex_init(&z->lock, NULL);
	if (!z->c || !z->w.dctx)
		goto oom;
	z->m.c = z->c;
	z->m.page_size = (int)l.page_size;
	z->m.next_page = next_page;
	z->fd = fd;
	z->w.err = why;
	z->w.errlen = whylen;
	for (i = 0; i < n; i++) {
		s = &z->s[i];
		z->c[i].cpu = i;
		z->c[i].kb = fl_cursor_kbuffer(tep);
		if (!z->c[i].kb)
			goto oom;
		s->pos = s->end = l.cpu[i].offset;	/* no data: no chunk, no count */
		if (l.cpu[i].size) {
			/* the size trace-cmd records leaves out the chunk count */
			s->end += l.cpu[i].size + sizeof(cnt);
			if (l.cpu[i].size < sizeof(cnt) ||
			    pread(fd, cnt, sizeof(cnt), (off_t)s->pos) != (ssize_t)sizeof(cnt)) {
				corrupt(z, &z->w, i, "no chunk count");
				goto unsupported;
			}
			memcpy(&v, cnt, 4);
			s->left = le32toh(v);
			s->pos += sizeof(cnt);
		}
	}
	/*
	 * The layout is freed before the first pages are walked: a walk is in
	 * libtraceevent, where a guard jump can end this call, and would leave
	 * the layout on a frame that is gone, reachable from nothing.
	 */
	fl_v7layout_free(&l);
	for (i = 0; i < n; i++)
		if (next_page(&z->m, i) < 0)
			goto unsupported;
	*out = z;
	return 0;
oom:
	snprintf(why, whylen, "out of memory");
unsupported:
	fl_v7layout_free(&l);
	fl_zpages_free(z);
	*out = NULL;
	return 1;
}

int fl_zpages_iterate(struct fl_zpages *z, int (*cb)(struct tep_record *rec, void *arg),
		      void *arg, char *err, size_t errlen)
{
	z->w.err = err;
	z->w.errlen = errlen;
	return fl_merge_run(&z->m, cb, arg);
}

unsigned long long fl_zpages_decompressed(const struct fl_zpages *z)
{
	return atomic_load_explicit(&z->decompressed, memory_order_relaxed);
}

const struct fl_zstats *fl_zpages_stats(const struct fl_zpages *z)
{
	return &z->w.st;
}
