// SPDX-License-Identifier: GPL-2.0
/*
 * spawnloop: the aim9-style process-creation loops of make demo's idlest
 * VM, each timed for SECS seconds and printed as operations per second.
 *
 *   spawnloop exec SECS   fork, the child execs this binary (static, so
 *                         the exec maps nothing else) with argument
 *                         "exit", which returns at once; wait; repeat
 *                         (aim9's exec_test)
 *   spawnloop fork SECS   fork, the child _exit()s at once; wait; repeat
 *                         (aim9's fork_test)
 *
 * Both put wake_up_new_task() (fork balancing) on every operation, exec
 * also sched_exec() (exec balancing): the two paths that call
 * find_idlest_group() and so update_pick_idlest().  Built static on the
 * host by demo/demo.sh (build/spawnloop), so the guest needs no libc.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: spawnloop exec|fork SECS\n"
		"  prints the operations per second: fork+exec+wait (exec) or\n"
		"  fork+exit+wait (fork) in a tight loop for SECS seconds\n"
		"example: spawnloop exec 3\n");
}

int main(int argc, char **argv)
{
	double t0, t, secs;
	unsigned long ops = 0;
	char *end;
	int exec_mode;

	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;		/* the exec'd child */
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc != 3 || (strcmp(argv[1], "exec") && strcmp(argv[1], "fork"))) {
		usage(stderr);
		return 2;
	}
	exec_mode = !strcmp(argv[1], "exec");
	secs = strtod(argv[2], &end);
	if (*end || !(secs > 0)) {
		fprintf(stderr, "spawnloop: SECS must be a positive number, not '%s'\n", argv[2]);
		return 2;
	}
	t0 = now_s();
	do {
		int st;
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "spawnloop: fork: %s\n", strerror(errno));
			return 1;
		}
		if (!pid) {
			if (exec_mode) {
				execl("/proc/self/exe", "spawnloop", "exit", (char *)NULL);
				_exit(127);
			}
			_exit(0);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "spawnloop: child %d failed\n", (int)pid);
			return 1;
		}
		ops++;
		t = now_s();
	} while (t - t0 < secs);
	printf("%.1f\n", ops / (t - t0));
	return 0;
}
