// SPDX-License-Identifier: GPL-2.0
/*
 * whatif's policies split over processes that each read the recording
 * (see whatif_shards.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "whatif_shards.h"

/* Written last by a shard that ran its work to a 0: its area is whole. */
#define DONE_MAGIC 0x66736864u	/* "dhsf" */

/* Each area starts on its own page, behind a header of its own. */
struct area_hdr {
	u32 done;
} __attribute__((aligned(64)));	/* the results behind it aligned */

struct fl_shards {
	u32 n;
	pid_t pid[FL_SHARDS_MAX];	/* [1 .. n): 0 once reaped */
	size_t off[FL_SHARDS_MAX];	/* each area's header, in map */
	char *map;
	size_t len;
	long rss_kb;		/* the others' peak RSS, summed */
};

static size_t page_up(size_t v)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t p = pg > 0 ? (size_t)pg : 4096;

	return (v + p - 1) / p * p;
}

/* In the shard: its work, its verdict in the area, its exit. */
static void __attribute__((noreturn))
shard_main(struct fl_shards *s, u32 k, fl_shard_fn fn, void *arg,
	   pid_t parent)
{
	struct area_hdr *h = (struct area_hdr *)(s->map + s->off[k]);
	int fd;

	/* no work left behind a parent killed under way */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	fd = open("/dev/null", O_WRONLY);

	/* shard 0 says what every shard would (warnings, errors) */
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	if (fn(k, h + 1, arg))
		_exit(1);
	__atomic_store_n(&h->done, DONE_MAGIC, __ATOMIC_RELEASE);
	/* no exit handlers: the stdio buffers and atexit() work are the parent's */
	_exit(0);
}

struct fl_shards *fl_shards_start(u32 n, const size_t *bytes, fl_shard_fn fn,
				  void *arg)
{
	pid_t self = getpid();
	struct fl_shards *s;
	size_t len = 0;
	u32 k;
	int err;

	if (n < 2 || n > FL_SHARDS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->n = n;
	for (k = 1; k < n; k++) {
		s->off[k] = len;
		len += page_up(sizeof(struct area_hdr) + bytes[k]);
	}
	s->len = len;
	s->map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (s->map == MAP_FAILED) {
		err = errno;
		free(s);
		errno = err;
		return NULL;
	}
	/* a child's exit must not write what the parent has buffered */
	fflush(NULL);
	for (k = 1; k < n; k++) {
		pid_t pid = fork();

		if (pid == 0)
			shard_main(s, k, fn, arg, self);
		if (pid < 0) {
			err = errno;
			fl_shards_free(s);
			errno = err;
			return NULL;
		}
		s->pid[k] = pid;
	}
	return s;
}

static void describe(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
}

int fl_shards_wait(struct fl_shards *s)
{
	bool prof = getenv("FAIRLAB_PROFILE") != NULL;
	int ret = 0;
	u32 k;

	for (k = 1; k < s->n; k++) {
		const struct area_hdr *h = (const void *)(s->map + s->off[k]);
		struct rusage ru;
		int status;
		pid_t p;

		do {
			p = wait4(s->pid[k], &status, 0, &ru);
		} while (p < 0 && errno == EINTR);
		if (p < 0) {
			if (!ret)
				fl_error("whatif: waiting for replay process %d: %s",
					 (int)s->pid[k], strerror(errno));
			ret = -1;
			continue;
		}
		s->pid[k] = 0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) ||
		    __atomic_load_n(&h->done, __ATOMIC_ACQUIRE) != DONE_MAGIC) {
			char why[96];

			describe(status, why, sizeof(why));
			if (!ret)
				fl_error("whatif: the replay process of policy share %u of %u failed (%s); --procs=1 replays every policy in one process, which says why",
					 k + 1, s->n, why);
			ret = -1;
			continue;
		}
		s->rss_kb += ru.ru_maxrss;
		if (prof)
			fprintf(stderr, "fairlab profile: replay process %u of %u: %.3f s of CPU, peak RSS %.1f MB\n",
				k + 1, s->n,
				(double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
				((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6,
				(double)ru.ru_maxrss / 1024.0);
	}
	return ret;
}

long fl_shards_rss_kb(const struct fl_shards *s)
{
	return s->rss_kb;
}

const void *fl_shards_area(const struct fl_shards *s, u32 k)
{
	return (const struct area_hdr *)(s->map + s->off[k]) + 1;
}

void fl_shards_free(struct fl_shards *s)
{
	u32 k;

	if (!s)
		return;
	for (k = 1; k < s->n; k++) {
		int status;

		if (s->pid[k] <= 0)
			continue;
		kill(s->pid[k], SIGKILL);
		while (waitpid(s->pid[k], &status, 0) < 0 && errno == EINTR)
			;
	}
	munmap(s->map, s->len);
	free(s);
}
