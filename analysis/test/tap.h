/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for the C unit tests: one "ok - NAME" or
 * "not ok - NAME" line per check (what tests/run.sh counts), with the
 * expected and actual values on a "#" line after a failure.
 */
#ifndef FA_TAP_H
#define FA_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define TAP_FN __attribute__((unused)) static

static int tap_failed;

TAP_FN void tap_line(int pass, const char *fmt, va_list ap)
{
	printf("%s - ", pass ? "ok" : "not ok");
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass)
		tap_failed++;
}

__attribute__((format(printf, 2, 3)))
TAP_FN int ok(int pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(pass, fmt, ap);
	va_end(ap);
	return pass;
}

__attribute__((format(printf, 3, 4)))
TAP_FN int is_u64(unsigned long long got, unsigned long long want,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(got == want, fmt, ap);
	va_end(ap);
	if (got != want)
		printf("#   got %llu, want %llu\n", got, want);
	return got == want;
}

__attribute__((format(printf, 3, 4)))
TAP_FN int is_s64(long long got, long long want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(got == want, fmt, ap);
	va_end(ap);
	if (got != want)
		printf("#   got %lld, want %lld\n", got, want);
	return got == want;
}

/* Equal within a relative tolerance of 1e-9 (exact sums of small integers). */
__attribute__((format(printf, 3, 4)))
TAP_FN int is_dbl(double got, double want, const char *fmt, ...)
{
	int pass = fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want));
	va_list ap;

	va_start(ap, fmt);
	tap_line(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got %.12g, want %.12g\n", got, want);
	return pass;
}

TAP_FN int tap_done(void)
{
	printf("# %d failed\n", tap_failed);
	return tap_failed ? 1 : 0;
}

#endif /* FA_TAP_H */
