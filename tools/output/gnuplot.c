// SPDX-License-Identifier: GPL-2.0
/*
 * Running gnuplot (see gnuplot.h), for `plot` and `whatif`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "gnuplot.h"

FILE *fl_open_out(const char *dir, const char *stem, const char *suffix)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s", dir, stem, suffix);
	f = fopen(path, "w");
	if (!f)
		fl_error("%s: %s", path, strerror(errno));
	return f;
}

int fl_run_gnuplot(const char *prog, const char *dir, const char *script)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fl_error("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execlp(prog, prog, script, (char *)NULL);
		fprintf(stderr, "fairlab: error: cannot run %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fl_error("%s failed on %s/%s", prog, dir, script);
		return -1;
	}
	return 0;
}
