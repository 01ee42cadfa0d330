/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording changes on the host, kept in a state file
 * (/run/fairlab/state) while it runs: the policy in force when it began,
 * if it switches one, and the trace-cmd it runs.  A recording that ends
 * as it should removes the file; after `kill -9` or a crash, fl_reset()
 * (`fairlab reset`, and the start of the next record or experiment)
 * restores the policy and stops the leftover trace-cmd.
 */
#ifndef FL_STATE_H
#define FL_STATE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "live.h"

/* The state file's path (under fl_sysroot()). */
const char *fl_state_path(void);

/*
 * Undoes what a recording that is gone left behind, saying what it did
 * on @f (stdout for `fairlab reset`, stderr before a recording).  0 when
 * nothing is left to undo; -1 after an error (a recording still running
 * owns the state, not root, the policy could not be restored: the file
 * stays).  @quiet: no line when there was nothing to undo.
 */
int fl_reset(FILE *f, bool quiet);

/*
 * A recording begins: the state file names this process and, when
 * @policy is not NULL, the @k policy to restore.  0 or -1 (printed).
 */
int fl_state_begin(enum fl_knob k, const char *policy);
/* The recording switches tg_layout too: @layout is the one to restore; 0 or -1. */
int fl_state_layout(const char *layout);
/* trace-cmd started as @pid writing @out; 0: it has stopped. */
void fl_state_recorder(pid_t pid, const char *out);
/* The recording ended and the host is as it was: the file goes. */
void fl_state_end(void);

#endif /* FL_STATE_H */
