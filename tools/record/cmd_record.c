// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab record: one recording of the fairlab:* events on this machine,
 * made as `make demo` makes them (recorder.h), optionally under a policy.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "live.h"
#include "recorder.h"
#include "state.h"

static void help(FILE *f)
{
	fputs(
"usage: fairlab record [-o FILE] [--policy P] [--idlest] [--duration S]\n"
"                      [--allow-lost] [-b KB] [-e EVENT]... [-- CMD [ARG]...]\n"
"\n"
"Records every fairlab:* event on this machine while CMD runs (or for S\n"
"seconds, or until Ctrl-C), the way `make demo` does in its VM. Before\n"
"anything else it checks, in this order: root, /sys/kernel/livepatch, a\n"
"fairlab port serving this kernel build (uname -r; else it names the served\n"
"builds), fairlab_trace.ko and fairlab.ko loaded, the livepatch enabled with\n"
"its transition done; each refusal says what to run.  A policy fairlab.ko\n"
"would not take is a usage error.\n"
"\n"
"It runs `trace-cmd record -C mono` as a child process (a global clock: the\n"
"one tg_audit's snap_ns is read on), writes 1 to /sys/kernel/fairlab/describe\n"
"once tracing is on (tg_info, cpu_topology) and 1 to audit_emit (an opening\n"
"tg_audit), runs the workload, writes 1 to audit_emit again (the closing\n"
"tg_audit), stops trace-cmd, reads the file back and\n"
"prints one line: records, lost events, file size.\n"
"\n"
"SIGINT, SIGTERM, SIGHUP (a dropped ssh session) and SIGQUIT end it the same\n"
"way. trace-cmd gets SIGINT if fairlab dies. While it runs, the policy to\n"
"restore and trace-cmd's pid are in /run/fairlab/state: after kill -9 or a\n"
"crash, `fairlab reset` restores the policy and stops trace-cmd; record\n"
"and experiment run that reset first.\n"
"\n"
"options:\n"
"  -o, --output FILE   the recording (default fairlab.dat)\n"
"  -p, --policy P      switch tg_policy to P before recording, and back to\n"
"                      the previous policy afterwards (P as in\n"
"                      /sys/module/fairlab/parameters/tg_policy: stock,\n"
"                      relative:8, budget:5...)\n"
"      --idlest        --policy switches idlest_policy instead\n"
"  -d, --duration S    stop after S seconds (CMD is then sent SIGINT)\n"
"      --allow-lost    keep a recording that lost events with exit status 0\n"
"                      (default: lost events are an error, exit 1; the file\n"
"                      is kept either way)\n"
"  -b, --buffer KB     trace buffer per CPU (default: 32768, less when a\n"
"                      quarter of MemAvailable divided by the CPUs is smaller)\n"
"  -e, --event EVENT   record EVENT instead of fairlab (repeatable), e.g.\n"
"                      -e fairlab:pick_idlest -e fairlab:tg_info\n"
"  -h, --help          this text\n"
"\n"
"Leaves behind FILE only (FILE.record.log, trace-cmd's output, is kept if\n"
"trace-cmd fails); the policy is restored.\n"
"\n"
"examples:\n"
"  sudo fairlab record -o stock.dat -- hackbench -g 8 -l 1000\n"
"  sudo fairlab record --policy relative:8 --duration 10 -o rel8.dat\n"
"  fairlab report rel8.dat\n"
"\n"
"Exit status: 0 recorded; 1 not recorded, lost events, or CMD failed (the\n"
"file is kept); 2 a bad command line; 128+N stopped by signal N, e.g. 130\n"
"SIGINT, 129 SIGHUP (the file is kept).\n",
	      f);
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "policy", required_argument, NULL, 'p' },
		{ "idlest", no_argument, NULL, 'I' },
		{ "duration", required_argument, NULL, 'd' },
		{ "allow-lost", no_argument, NULL, 'L' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "event", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct fl_rec_opts o = { .out = "fairlab.dat" };
	struct fl_rec_result res;
	enum fl_knob knob = FL_KNOB_TG;
	const char *policy = NULL;
	char prev[128];
	bool allow_lost = false;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:p:d:b:e:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out = optarg;
			break;
		case 'p':
			policy = optarg;
			break;
		case 'I':
			knob = FL_KNOB_IDLEST;
			break;
		case 'L':
			allow_lost = true;
			break;
		case 'h':
			help(stdout);
			return FL_EXIT_OK;
		default:
			ret = fl_rec_option(c, optarg, &o, "record");
			if (ret)
				return ret;
		}
	}
	if (knob == FL_KNOB_IDLEST && !policy) {
		fl_error("record: --idlest says which policy --policy switches: give --policy too");
		return FL_EXIT_USAGE;
	}
	if (fl_rec_command(argc, argv, &o, "record"))
		return FL_EXIT_USAGE;
	if (policy && fl_policy_check(knob, policy, "record: --policy"))
		return FL_EXIT_USAGE;

	if (fl_live_check())
		return FL_EXIT_FAIL;
	fl_rec_catch_signals();
	/* what a recording killed before left behind, then this one's state */
	if (fl_reset(stderr, true))
		return FL_EXIT_FAIL;
	if (policy && fl_policy_get(knob, prev, sizeof(prev)))
		return FL_EXIT_FAIL;
	if (fl_state_begin(knob, policy ? prev : NULL))
		return FL_EXIT_FAIL;
	if (policy && fl_policy_set(knob, policy)) {
		fl_state_end();
		return FL_EXIT_FAIL;
	}
	if (!o.cmd && !o.duration)
		fprintf(stderr, "fairlab record: recording to %s; Ctrl-C stops\n", o.out);
	ret = fl_record(&o, &res) ? FL_EXIT_FAIL : FL_EXIT_OK;
	if (policy && fl_policy_set(knob, prev)) {
		/* the state file stays: fairlab reset retries */
		ret = FL_EXIT_FAIL;
	} else {
		if (policy)
			fprintf(stderr, "fairlab record: %s_policy restored to %s\n",
				fl_knob_kind(knob), prev);
		fl_state_end();
	}
	if (ret)
		return ret;
	if (res.lost && !allow_lost) {
		fl_error("%s: %llu events lost: its figures undercount; raise --buffer (per CPU) or record less (-e), or keep it with --allow-lost",
			 o.out, res.lost);
		return FL_EXIT_FAIL;
	}
	if (o.cmd && res.cmd_status && !res.interrupted) {
		if (WIFEXITED(res.cmd_status))
			fl_error("%s exited with status %d (the recording is kept)", o.cmd[0],
				 WEXITSTATUS(res.cmd_status));
		else
			fl_error("%s was killed by signal %d (the recording is kept)", o.cmd[0],
				 WTERMSIG(res.cmd_status));
		return FL_EXIT_FAIL;
	}
	/* a Ctrl-C with no command and no duration is how it is meant to end */
	if (res.interrupted && (o.cmd || o.duration || fl_rec_interrupted != SIGINT))
		return 128 + fl_rec_interrupted;
	return FL_EXIT_OK;
}
