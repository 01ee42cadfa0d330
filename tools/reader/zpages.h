/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a zstd-compressed trace.dat version 7 in place: each CPU's data
 * is a sequence of compressed chunks (trace-cmd.dat.v7(5): a count, then
 * per chunk its compressed and uncompressed sizes and a zstd frame), read
 * and decompressed one chunk at a time into a buffer of that CPU's, whose
 * pages kbuffer walks and merge.h merges.  Memory: one chunk (10 pages
 * as trace-cmd writes them) per CPU, whatever the recording's length; no
 * temporary file.
 *
 * libtracecmd still reads the file's headers (event formats, options,
 * CPU count, page size: they must agree with the BUFFER option), but
 * not its data sections, whose chunk tables it would read with four
 * system calls a chunk: @h may have none loaded.  Files this reader does
 * not take (other compressors, timestamp corrections, anything
 * unexpected in the layout) are left to libtracecmd.  The chunks must
 * fill each CPU's data exactly.
 */
#ifndef FL_ZPAGES_H
#define FL_ZPAGES_H

#include <event-parse.h>
#include <trace-cmd.h>

struct fl_zpages;

/* What the reader did, for FAIRLAB_PROFILE. */
struct fl_zstats {
	unsigned long long chunks;
	unsigned long long zbytes, bytes;	/* compressed, decompressed */
	double decompress_secs;			/* in ZSTD_decompressDCtx() */
	double read_secs;			/* in pread() of the chunks */
};

/*
 * 0 with *@out ready to iterate; 1 when the file is not one this reader
 * takes (the reason in @why: use libtracecmd), *@out NULL.  @fd stays the
 * caller's.  While it is being built, the handle is already in *@out: a
 * guard jump (guard.h) out of a library call inside leaves it reachable
 * there, part-built, for the caller to fl_zpages_free().
 */
int fl_zpages_open(int fd, struct tracecmd_input *h, struct fl_zpages **out,
		   char *why, size_t whylen);
/*
 * Calls @cb for every record in timestamp order (as fl_pages_iterate())
 * until it returns < 0.  0 at the end, the callback's negative value, or
 * -2 with a message in @err when the data is corrupt.
 */
int fl_zpages_iterate(struct fl_zpages *z, int (*cb)(struct tep_record *rec, void *arg),
		      void *arg, char *err, size_t errlen);
/*
 * Walking the streams on other threads (pardecode.h): each thread has
 * its own decompression context (fl_zwork_new(); NULL when out of
 * memory), and walks only its own streams.  fl_zwork_free() adds its
 * figures to fl_zpages_stats().
 */
struct fl_zwork;
struct fl_zwork *fl_zwork_new(struct fl_zpages *z);
void fl_zwork_free(struct fl_zpages *z, struct fl_zwork *w);
/* The message of the walk that returned -1 on @w. */
const char *fl_zwork_error(const struct fl_zwork *w);
int fl_zpages_streams(const struct fl_zpages *z);
/*
 * The bytes of pages decompressed so far, by any thread: what bounds the
 * records read (reader.c), so that a corrupt page making kbuffer re-read
 * events ends.  A record handed over by a decoding thread was
 * decompressed before it.
 */
unsigned long long fl_zpages_decompressed(const struct fl_zpages *z);

/*
 * Calls @cb for the next records of stream (CPU index) @i alone, at most
 * @max: 0 when more follow, 1 when the stream has no more, -1 when @cb
 * returned < 0 or the data is corrupt (fl_zwork_error()).
 */
int fl_zpages_walk(struct fl_zpages *z, struct fl_zwork *w, int i,
		   int (*cb)(struct tep_record *rec, void *arg), void *arg, int max);

const struct fl_zstats *fl_zpages_stats(const struct fl_zpages *z);
void fl_zpages_free(struct fl_zpages *z);

#endif /* FL_ZPAGES_H */
