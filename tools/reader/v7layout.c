// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU data layout of a trace.dat version 7 file (see v7layout.h).
 * Every number and offset comes from the file: each is checked against
 * the file's size before it is used.
 */
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "v7layout.h"

/* Option and section ids (trace-cmd.dat.v7(5)). */
enum {
	OPT_DONE = 0,
	OPT_BUFFER = 3,
	OPT_OFFSET = 7,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	SEC_FL_COMPRESS = 1,
};

/* More options sections than trace-cmd ever writes: a loop. */
#define MAX_OPTION_SECTIONS	64
/* More CPU ids than any kernel has (NR_CPUS is 8192 in Debian's). */
#define MAX_CPU_ID		65536

struct in {
	int fd;
	unsigned long long size;	/* of the file */
	char *why;
	size_t whylen;
};

static int bad(struct in *in, const char *what, unsigned long long off)
{
	snprintf(in->why, in->whylen, "%s at offset %llu (truncated or corrupt trace.dat)",
		 what, off);
	return -1;
}

/* @n bytes at @off, all inside the file. */
static int get(struct in *in, unsigned long long off, void *buf, size_t n)
{
	if (off > in->size || n > in->size - off ||
	    pread(in->fd, buf, n, (off_t)off) != (ssize_t)n)
		return -1;
	return 0;
}

static unsigned int u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static unsigned long long u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* Length of the string at @p (at most @n bytes), -1 when unterminated. */
static long str_len(const unsigned char *p, size_t n)
{
	const unsigned char *z = memchr(p, '\0', n);

	return z ? (long)(z - p) : -1;
}

/* The BUFFER option of the top instance (name ""): its CPUs. */
static int buffer_option(struct in *in, struct fl_v7layout *l,
			 const unsigned char *d, size_t n, unsigned long long off,
			 unsigned long long *sec)
{
	size_t pos = 8;
	unsigned int cpus, i, id, max = 0;
	long len;

	if (n < 8)
		return bad(in, "BUFFER option too short", off);
	*sec = u64_at(d);
	len = str_len(d + pos, n - pos);	/* instance name */
	if (len < 0)
		return bad(in, "BUFFER option without instance name", off);
	if (len > 0)
		return 0;	/* another instance: libtracecmd reads the top one */
	pos += 1;
	len = str_len(d + pos, n - pos);	/* trace clock */
	if (len < 0)
		return bad(in, "BUFFER option without clock", off);
	pos += (size_t)len + 1;
	if (n - pos < 8)
		return bad(in, "BUFFER option too short", off);
	if (u32_at(d + pos) != l->page_size) {
		snprintf(in->why, in->whylen, "its buffer page size differs from the file's");
		return 1;
	}
	cpus = u32_at(d + pos + 4);
	pos += 8;
	if (cpus > MAX_CPU_ID || (n - pos) / 20 < cpus)
		return bad(in, "BUFFER option with more CPUs than it holds", off);
	for (i = 0; i < cpus; i++)
		if (u32_at(d + pos + 20 * i) >= max)
			max = u32_at(d + pos + 20 * i) + 1;
	if (max > MAX_CPU_ID)
		return bad(in, "BUFFER option with an implausible CPU id", off);
	free(l->cpu);
	l->cpu = calloc(max ? max : 1, sizeof(*l->cpu));
	if (!l->cpu) {
		snprintf(in->why, in->whylen, "out of memory");
		return -1;
	}
	l->nr_cpus = (int)max;
	for (i = 0; i < cpus; i++, pos += 20) {
		id = u32_at(d + pos);
		if (l->cpu[id].size)
			return bad(in, "BUFFER option naming a CPU twice", off);
		l->cpu[id].offset = u64_at(d + pos + 4);
		l->cpu[id].size = u64_at(d + pos + 12);
		if (l->cpu[id].offset > in->size ||
		    l->cpu[id].size > in->size - l->cpu[id].offset)
			return bad(in, "CPU data past the end of the file", off);
	}
	return 0;
}

/*
 * The options of the section at @off: the top BUFFER into @l, the next
 * section's offset into *@next (0: none).  1 when an option rules the
 * file out.
 */
static int options_section(struct in *in, struct fl_v7layout *l,
			   unsigned long long off, unsigned long long *next,
			   unsigned long long *sec)
{
	unsigned char h[16], *d = NULL;
	unsigned long long size, pos;
	unsigned int id, n;
	int ret = 0;

	if (get(in, off, h, sizeof(h)))
		return bad(in, "options section header past the end of the file", off);
	size = u64_at(h + 8);
	if (h[0] | h[1])	/* id 0: options */
		return bad(in, "not an options section", off);
	if (h[2] & SEC_FL_COMPRESS) {
		snprintf(in->why, in->whylen, "its options are compressed");
		return 1;
	}
	if (size > in->size - off - sizeof(h))
		return bad(in, "options section past the end of the file", off);
	*next = 0;
	for (pos = off + sizeof(h); pos + 6 <= off + sizeof(h) + size && !ret; pos += 6 + n) {
		if (get(in, pos, h, 6))
			return bad(in, "option past the end of the file", pos);
		id = h[0] | (unsigned int)h[1] << 8;
		n = u32_at(h + 2);
		if (n > off + sizeof(h) + size - pos - 6)
			return bad(in, "option past the end of its section", pos);
		switch (id) {
		case OPT_DONE:
			if (n != 8 || get(in, pos + 6, h, 8))
				return bad(in, "malformed DONE option", pos);
			*next = u64_at(h);
			return 0;
		case OPT_OFFSET:
		case OPT_TIME_SHIFT:
		case OPT_TSC2NSEC:
			snprintf(in->why, in->whylen, "libtracecmd corrects its timestamps (option %u)", id);
			return 1;
		case OPT_BUFFER:
			d = malloc(n ? n : 1);
			if (!d) {
				snprintf(in->why, in->whylen, "out of memory");
				return -1;
			}
			if (get(in, pos + 6, d, n))
				ret = bad(in, "BUFFER option past the end of the file", pos);
			else
				ret = buffer_option(in, l, d, n, pos, sec);
			free(d);
			break;
		default:
			break;
		}
	}
	return ret ? ret : bad(in, "options section without DONE option", off);
}

int fl_v7layout_read(int fd, struct fl_v7layout *l, char *why, size_t whylen)
{
	struct in in = { .fd = fd, .why = why, .whylen = whylen };
	unsigned long long off, sec = 0;
	unsigned char h[128];
	struct stat st;
	size_t pos;
	long len;
	int i, ret;

	memset(l, 0, sizeof(*l));
	if (fstat(fd, &st) || st.st_size <= 0)
		return bad(&in, "unreadable file", 0);
	in.size = (unsigned long long)st.st_size;
	memset(h, 0, sizeof(h));
	if (pread(fd, h, sizeof(h), 0) < 20)
		return bad(&in, "file header too short", 0);
	/* magic (10 bytes), then "7\0", endianness, long size, page size */
	if (memcmp(h + 10, "7", 2)) {
		snprintf(why, whylen, "not trace.dat version 7");
		return 1;
	}
	if (h[12] != 0) {
		snprintf(why, whylen, "big endian");
		return 1;
	}
	l->page_size = u32_at(h + 14);
	pos = 18;
	len = str_len(h + pos, sizeof(h) - pos);
	if (len < 0 || (size_t)len >= sizeof(l->compression))
		return bad(&in, "no compression name", pos);
	memcpy(l->compression, h + pos, (size_t)len + 1);
	pos += (size_t)len + 1;
	len = str_len(h + pos, sizeof(h) - pos);	/* compression version */
	if (len < 0 || pos + (size_t)len + 1 + 8 > sizeof(h))
		return bad(&in, "no compression version", pos);
	pos += (size_t)len + 1;
	off = u64_at(h + pos);
	for (i = 0; off && i < MAX_OPTION_SECTIONS; i++) {
		ret = options_section(&in, l, off, &off, &sec);
		if (ret)
			return ret;
	}
	if (off)
		return bad(&in, "options sections that never end", off);
	if (!l->cpu) {
		snprintf(why, whylen, "no flyrecord BUFFER option (a latency trace?)");
		return 1;
	}
	if (get(&in, sec, h, 16))
		return bad(&in, "flyrecord section past the end of the file", sec);
	l->compressed = h[2] & SEC_FL_COMPRESS;
	return 0;
}

void fl_v7layout_free(struct fl_v7layout *l)
{
	free(l->cpu);
	l->cpu = NULL;
}
