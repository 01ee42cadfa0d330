/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libtracecmd 1.3 (trace-cmd 3.1.x) output functions fl-tracegen
 * needs beyond tools/reader/tracecmd_private.h's: exported by
 * libtracecmd.so, declared only in its private header trace-cmd-private.h
 * (not shipped by the -dev package).  Prototypes copied from that header.
 */
#ifndef FL_TRACECMD_WRITE_H
#define FL_TRACECMD_WRITE_H

#include <stdbool.h>

#include "tracecmd_private.h"

struct tracecmd_option;
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle,
					    unsigned short id, int size,
					    const void *data);
/* CPU count, options, then each CPU's data from its file, in that order. */
int tracecmd_append_cpu_data(struct tracecmd_output *handle,
			     int cpus, char * const *cpu_data_files);

#endif
