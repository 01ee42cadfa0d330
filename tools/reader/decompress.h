/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An uncompressed temporary copy of a compressed trace.dat, made with
 * libtracecmd's own copy (what `trace-cmd convert --compression none`
 * does).
 *
 * Why: libtracecmd 1.3 reads a compressed file by decompressing each
 * chunk into a cache that it never shrinks (free_zpage() tests
 * "map <= start && map > end", which no page satisfies) and searches
 * linearly for every page.  Memory then grows with the recording and time
 * with its square: 14 s and 740 MB for 10 M records, against 2 s to copy
 * and 1.6 s and a flat RSS to read the copy.
 */
#ifndef FL_DECOMPRESS_H
#define FL_DECOMPRESS_H

/*
 * Copies the trace.dat open on @fd (left untouched) to an unlinked file in
 * $TMPDIR (or /tmp), as trace.dat @version without compression.  Returns
 * the copy's descriptor at offset 0, or -1 (errno-style message in @err).
 */
int fl_decompress_copy(int fd, unsigned long version, char *err, size_t errlen);

#endif /* FL_DECOMPRESS_H */
