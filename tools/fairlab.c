// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab: analyzer of fairlab:* trace-cmd recordings.  Dispatches to the
 * report, compare, plot, whatif, record, experiment and reset subcommands
 * (cmd_*.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "served.h"

#define FAIRLAB_VERSION "0.1"

/*
 * Which kernel builds record and experiment run on, and whether this
 * machine's is one: the first thing a user on another kernel should read.
 */
static void served(FILE *f)
{
	const char *rel = fl_running_release();
	const struct fl_build *b = fl_served_find(rel);

	fputs("\nRecording (record, experiment) runs on the kernel builds fairlab's ports serve:\n", f);
	fl_served_list(f, "  ");
	if (b && b->served)
		fprintf(f, "This kernel, %s, is served.\n", rel);
	else if (b)
		fprintf(f, "This kernel, %s, is refused by the %s port: %s\n", rel, b->series, b->reason);
	else
		fprintf(f, "This kernel, %s, has no port: report, compare, plot and whatif work here\non recordings made elsewhere.\n",
			rel);
}

static void usage(FILE *f)
{
	fputs(
"usage: fairlab <command> [options] [files]\n"
"\n"
"Reads trace-cmd recordings (trace.dat, versions 6 and 7, compressed or not) of\n"
"the fairlab:* events and reports tg->load_avg cacheline contention (attempts,\n"
"writes, writer switches) and accumulated error, per policy segment.\n"
"\n"
"commands:\n"
"  report FILE                 figures of one recording, segment by segment\n"
"  compare BASE... -- NEW...   LKP-style table: base +- %stddev, %change, new\n"
"  plot FILE... -o DIR         error and writes/s over time, Pareto plot (PNG, SVG)\n"
"  whatif FILE                 the recording replayed under every policy: figures,\n"
"                              Pareto frontier\n"
"  record [-- CMD]             record the fairlab:* events on this machine (root)\n"
"  experiment -- CMD           record CMD under each policy, rounds; table, plots,\n"
"                              verdict (root; what make demo runs in its VM)\n"
"  reset                       undo what a recording killed by kill -9 left: its\n"
"                              policy, its trace-cmd (root)\n"
"  help [COMMAND]              this text, or a command's (same as COMMAND --help)\n"
"\n"
"report, compare, plot and whatif take --json or --csv instead of text; every\n"
"command takes --help.\n"
"\n"
"examples:\n"
"  fairlab report tests/data/analyzer-numa.dat      (a recording in the source tree)\n"
"  fairlab compare stock-1.dat stock-2.dat -- budget-1.dat budget-2.dat\n"
"  fairlab plot stock.dat relative8.dat budget5.dat -o plots/\n"
"  fairlab whatif --sweep=relative:2..64x2 stock.dat\n"
"\n"
"Exit status: 0 success, 1 an unreadable file or a failed tool, 2 a bad command line.\n",
	      f);
	served(f);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	char *help_argv[3] = { NULL, "--help", NULL };

	if (!cmd) {
		usage(stderr);
		return FL_EXIT_USAGE;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return FL_EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("fairlab %s\n", FAIRLAB_VERSION);
		served(stdout);
		return FL_EXIT_OK;
	}
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			usage(stdout);
			return FL_EXIT_OK;
		}
		help_argv[0] = argv[2];
		argv = help_argv;
		argc = 2;
		cmd = argv[0];
	} else {
		argv++;
		argc--;
	}
	if (!strcmp(cmd, "report"))
		return cmd_report(argc, argv);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc, argv);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc, argv);
	if (!strcmp(cmd, "whatif"))
		return cmd_whatif(argc, argv);
	if (!strcmp(cmd, "record"))
		return cmd_record(argc, argv);
	if (!strcmp(cmd, "experiment"))
		return cmd_experiment(argc, argv);
	if (!strcmp(cmd, "reset"))
		return cmd_reset(argc, argv);
	fl_error("unknown command '%s' (see fairlab --help)", cmd);
	return FL_EXIT_USAGE;
}
