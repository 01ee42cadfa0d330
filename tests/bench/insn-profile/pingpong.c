// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two processes pass one byte back and forth through two pipes,
 * N round trips; on one CPU each round trip is two context switches, each
 * with one wakeup (enqueue) and one sleep (dequeue): the paths fairlab.ko
 * replaces, with little else around them.
 *
 *   pingpong ROUNDTRIPS [--mark]
 *
 * Prints "<round trips> <guest ns per round trip>"; under QEMU -icount
 * shift=0 a guest ns is a guest instruction.  With --mark, the measured
 * loop runs between fl_profile_begin() and fl_profile_end(), which the
 * tb-insns plugin finds by address: build static and non-PIE, with the
 * text away from busybox's (also static, at 0x400000):
 * -Wl,-Ttext-segment=0x50000000.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void fl_profile_begin(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void fl_profile_end(void)
{
	__asm__ volatile("" ::: "memory");
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i;
	int mark = argc > 2 && !strcmp(argv[2], "--mark");
	int ab[2], ba[2], status;
	double t0, t1;
	char c = 0;
	pid_t pid;

	if (n <= 0 || argc > 3 || (argc == 3 && !mark)) {
		fprintf(stderr, "usage: pingpong ROUNDTRIPS [--mark]  (ROUNDTRIPS > 0)\n");
		return 2;
	}
	if (pipe(ab) || pipe(ba)) {
		perror("pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	if (mark)
		fl_profile_begin();
	t0 = now();
	for (i = 0; i < n; i++) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			perror("pingpong");
			return 1;
		}
	}
	t1 = now();
	if (mark)
		fl_profile_end();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "pingpong: the child failed\n");
		return 1;
	}
	printf("%ld %.1f\n", n, (t1 - t0) * 1e9 / n);
	return 0;
}
