/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running gnuplot on a script the caller wrote into a directory, and
 * the files of that directory.
 */
#ifndef FL_GNUPLOT_H
#define FL_GNUPLOT_H

#include <stdio.h>

/* DIR/STEMSUFFIX opened for writing; NULL after printing why. */
FILE *fl_open_out(const char *dir, const char *stem, const char *suffix);

/* `PROG SCRIPT` in directory @dir; 0, or -1 after printing why. */
int fl_run_gnuplot(const char *prog, const char *dir, const char *script);

#endif /* FL_GNUPLOT_H */
