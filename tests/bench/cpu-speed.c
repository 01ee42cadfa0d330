// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-speed: the speed of the CPU it runs on, as three fixed loops' CPU
 * times, for benchmarks to print beside their figures (run pinned:
 * taskset -c N cpu-speed).
 *
 *  - mem: 10^8 read-modify-writes of 4-byte counters at pseudo-random
 *    places in a table of 1 MB (cache-resident, as the what-if replay's
 *    per-policy state is: a latency-bound load, add and store each);
 *  - alu: 4 x 10^8 steps of a dependent multiply-add chain (no memory);
 *  - stream: 16 passes of 8-byte reads over 256 MB (beyond any cache: the
 *    memory's bandwidth, what `fairlab report` on an uncompressed file,
 *    read from the page cache, leans on).
 *
 * On a virtual machine the CPUs need not be alike, nor stay alike: a
 * wall-time ratio of two commands whose threads land on different CPUs
 * then measures the host as much as the code
 * (docs/history/2026-12-06-unequal-cpus.md).
 *
 * Prints "mem SECONDS alu SECONDS stream SECONDS" (CPU time of this
 * process; the stream's pages are touched once before it is timed).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TABLE (1u << 18)	/* 4-byte counters: 1 MB */
#define MEM_STEPS 100000000ul
#define ALU_STEPS 400000000ul
#define STREAM_WORDS (32ul << 20)	/* 8-byte words: 256 MB */
#define STREAM_PASSES 16

static double cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
		perror("cpu-speed: clock_gettime");
		exit(1);
	}
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	uint32_t *t = calloc(TABLE, sizeof(*t));
	uint64_t *m = malloc(STREAM_WORDS * sizeof(*m));
	uint64_t j = 1, s = 0, x = 1, y = 3, z = 0;
	double t0, mem, alu, stream;
	unsigned long i, k;

	if (!t || !m) {
		fprintf(stderr, "cpu-speed: out of memory\n");
		return 1;
	}
	t0 = cpu_s();
	for (i = 0; i < MEM_STEPS; i++) {
		j = j * 6364136223846793005ull + 1442695040888963407ull;
		s += t[(j >> 33) & (TABLE - 1)]++;
	}
	mem = cpu_s() - t0;
	t0 = cpu_s();
	for (i = 0; i < ALU_STEPS; i++) {
		x = x * 6364136223846793005ull + y;
		y ^= x >> 7;
	}
	alu = cpu_s() - t0;
	/* the pages' first touch, not timed */
	for (i = 0; i < STREAM_WORDS; i++)
		m[i] = i;
	t0 = cpu_s();
	for (k = 0; k < STREAM_PASSES; k++)
		for (i = 0; i < STREAM_WORDS; i++)
			z += m[i];
	stream = cpu_s() - t0;
	/* the loops' results used, so that the compiler keeps the loops */
	if ((s ^ x ^ y ^ z) == 42)
		fputc('\n', stderr);
	printf("mem %.3f alu %.3f stream %.3f\n", mem, alu, stream);
	free(m);
	free(t);
	return 0;
}
