// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab reset: undo what a recording killed with kill -9, or lost to a
 * crash, left behind (state.h): the policy it switched, its trace-cmd.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "state.h"

static void help(FILE *f)
{
	fputs(
"usage: fairlab reset\n"
"\n"
"Undoes what a `fairlab record` or `fairlab experiment` that did not end\n"
"cleanly (kill -9, a crash) left on this host, as its state file\n"
"/run/fairlab/state names it: stops its trace-cmd\n"
"(SIGINT, then SIGKILL after 60 s; only a process that is still trace-cmd,\n"
"by /proc/PID/cmdline) and restores the policy that was in force when it\n"
"began. Says what it did, one line each, and removes the state file.\n"
"record and experiment run it themselves before they start. Refuses while\n"
"the recording that owns the state file is still running.\n"
"\n"
"options:\n"
"  -h, --help   this text\n"
"\n"
"examples:\n"
"  sudo fairlab reset\n"
"\n"
"Exit status: 0 nothing left to undo, or undone; 1 the recording still\n"
"runs, root is needed, or the policy could not be restored (the state file\n"
"stays); 2 a bad command line.\n",
	      f);
}

int cmd_reset(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			help(stdout);
			return FL_EXIT_OK;
		}
		fl_error("see fairlab reset --help");
		return FL_EXIT_USAGE;
	}
	if (optind < argc) {
		fl_error("reset: '%s': reset takes no arguments", argv[optind]);
		return FL_EXIT_USAGE;
	}
	return fl_reset(stdout, false) ? FL_EXIT_FAIL : FL_EXIT_OK;
}
