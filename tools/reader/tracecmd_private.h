/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtracecmd functions the analyzer needs that libtracecmd 1.3 (trace-cmd
 * 3.1.x) exports from libtracecmd.so but declares only in its private
 * header trace-cmd-private.h, which the -dev package does not ship.
 * Prototypes copied from that header; all read back what the file holds.
 */
#ifndef FL_TRACECMD_PRIVATE_H
#define FL_TRACECMD_PRIVATE_H

#include <trace-cmd.h>

/* The trace clock recorded in the file ("local", "mono", ...), or NULL. */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
/* The per-CPU ring buffer statistics saved at the end of the recording. */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
/* trace.dat file format version (6 or 7). */
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
/* Compression of a version 7 file; non-zero when not compressed. */
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
int tracecmd_cpus(struct tracecmd_input *handle);
/* Bytes of ring-buffer data recorded for @cpu (uncompressed). */
off64_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
/* tracecmd_open_fd() in three steps, so that a failure can be handled. */
struct tracecmd_input *tracecmd_alloc_fd(int fd, int flags);
int tracecmd_read_headers(struct tracecmd_input *handle, int state);
int tracecmd_get_parsing_failures(struct tracecmd_input *handle);

/* Reading page by page (pages.c). */
int tracecmd_page_size(struct tracecmd_input *handle);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
/* The mapped ring-buffer page a record lies in, and the record in it. */
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);
void *tracecmd_record_offset(struct tracecmd_input *handle, struct tep_record *record);

/* Copying a file (trace-cmd convert): state TRACECMD_FILE_CPU_FLYRECORD
 * of enum tracecmd_file_states copies headers, options and CPU data. */
#define TRACECMD_FILE_CPU_FLYRECORD_STATE 11
struct tracecmd_output;
struct tracecmd_output *tracecmd_copy(struct tracecmd_input *ihandle, const char *file,
				      int state, int file_version,
				      const char *compression);
void tracecmd_output_close(struct tracecmd_output *handle);

#endif /* FL_TRACECMD_PRIVATE_H */
