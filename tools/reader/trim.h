/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keeping the resident set flat while libtracecmd reads a file.
 *
 * libtracecmd 1.3 maps the ring-buffer data of an uncompressed trace.dat
 * in 4 MB windows and keeps every window it has mapped until the file is
 * closed: resident memory grows to the size of the data (760 MB for 10 M
 * records).  The pages are clean file pages, so dropping them from our
 * page tables is harmless: a page touched again is faulted back in from
 * the page cache with the same content.  fl_trim_file() does that for
 * every mapping of the file, and the reader calls it every so many
 * records.
 */
#ifndef FL_TRIM_H
#define FL_TRIM_H

/* Records between two trims: about 20 MB of ring-buffer data. */
#define FL_TRIM_RECORDS (1u << 18)

/* Drops the resident pages of every mapping of the file open on @fd. */
void fl_trim_file(int fd);

#endif /* FL_TRIM_H */
