// SPDX-License-Identifier: GPL-2.0
/*
 * `fairlab report FILE`: reads one recording and writes each policy
 * segment as the engine closes it, then the whole trace and warnings.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode.h"
#include "metrics.h"
#include "report.h"
#include "warnings.h"

static void help(FILE *f)
{
	fputs(
"usage: fairlab report [--json | --csv [--table=NAME] | --top=N] [FILE]\n"
"\n"
"FILE defaults to fairlab.dat, what `fairlab record` writes.\n"
"Figures of one recording for each policy segment (the records between two\n"
"policy_switch events that change a policy) and, when there are several, for\n"
"the whole trace.\n"
"\n"
"definitions (the same as in tools/README.md, \"What is measured\"):\n"
"  attempt        a fairlab:tg_update record; write: one with written=1\n"
"  skip           attempts that did not write, in % of attempts\n"
"  writer switch  a write to group T executed on CPU c whose previous write to T\n"
"                 (in time order, over the whole trace) executed on CPU c' != c:\n"
"                 the estimate of tg->load_avg cacheline transfers; xnode when\n"
"                 cpu_topology puts c and c' on different NUMA nodes; unknown\n"
"                 ('-', null, empty CSV field) when a switch involves a CPU no\n"
"                 cpu_topology record places (a recording cut after them)\n"
"  E              accumulated error of a group: the sum over its cfs_rqs of\n"
"                 (contrib after the record - load last observed), which equals\n"
"                 tg->load_avg - sum(load) when every update is traced; unit\n"
"                 'load' = cfs_rq avg.load_avg units\n"
"  |E| max        over every value E took\n"
"  |E| mean, p99  TIME-WEIGHTED: each value counts for as long as it held, from\n"
"                 the group's first record to the end of the segment; p99 is the\n"
"                 value |E| stays at or below 99% of that time (read from a\n"
"                 log-linear histogram: at most 12.5% above the exact value)\n"
"  rel            |E| / sum(load), over the time sum(load) > 0\n"
"  read           a tg_read record: calc_group_shares() read tg->load_avg to\n"
"                 weigh one cfs_rq's group entity ('reads')\n"
"  shares error   THE HEADLINE ERROR: at each read of cfs_rq i, given = the\n"
"                 shares the kernel computed (recorded) against ideal =\n"
"                 calc_group_shares() with tg->load_avg - contrib_i replaced by\n"
"                 the sum of the OTHER cfs_rqs' tracked loads: clamp(tg_shares x\n"
"                 load_i / (sum_{j!=i} L_j + load_i), 2, tg_shares); headline\n"
"                 |given - ideal| / tg->shares (%tgs, % of the group's weight:\n"
"                 bounded in [0, 100%), linear in the error, its scale the same\n"
"                 for every read of a group, so a read whose ideal is the floor\n"
"                 of 2 cannot blow a mean up as / ideal can); mean, p50, p99\n"
"                 and max; relative form |given - ideal| / ideal (%ideal,\n"
"                 unbounded) beside it; it holds from the read to the next read\n"
"                 of the same cfs_rq or the segment's end (never into the next\n"
"                 segment), so mean and percentiles are TIME-WEIGHTED per\n"
"                 cfs_rq-second (max: over every read; p50 <= p99 <= max and\n"
"                 mean <= max); unknown without tg_read records or before a\n"
"                 group's first tg_update; a read whose shares are not\n"
"                 calc_group_shares() of its own fields (or negative) is left\n"
"                 out, counted (read_mismatch_n) and warned of\n"
"  gap            tg_load_avg - sum(contrib) at the group's last record (0 once\n"
"                 every cfs_rq of the group has been seen)\n"
"  missed         records whose contrib differs from what the previous record of\n"
"                 the same cfs_rq left: updates absent from the recording\n"
"  mismatch       decisions module/policy/policy.c takes otherwise on the same input\n"
"  audit window   two consecutive tg_audit snapshots of a group: tg->load_avg\n"
"                 moves between them (d_tla) by the sum of the deltas of the\n"
"                 written tg_updates between the snapshots (written) when every\n"
"                 write is traced (verdict equal, else MISMATCH, or unpatch when\n"
"                 it ends after the patch began unpatching: the kernel's own\n"
"                 functions, untraced, run for tasks switched back); a snapshot is\n"
"                 placed at its snap_ns (taken inside it, mono clock), or at its\n"
"                 record's time (placed_by record: approximate) without it\n"
"  coherence      a MODEL and a LOWER BOUND: each group's tg->load_avg line\n"
"                 replayed through reads (tg_read) and writes (written\n"
"                 tg_update) by executing CPU: Modified by one CPU or Shared\n"
"                 by a set; a read of a line another CPU modified and a write\n"
"                 to a line others hold are transfers, by distance (same LLC,\n"
"                 same node, cross-node: cpu_topology); cost = transfers x\n"
"                 idle core-to-core latency (Chips and Cheese 2023: Sapphire\n"
"                 Rapids 59/59/138 ns, EPYC Milan 23/107/197 ns), in ns per s;\n"
"                 contention makes real transfers far dearer; reads include\n"
"                 the policy's own (budget reads tg->load_avg at each decision:\n"
"                 from its definition); a Shared miss is free unless\n"
"                 --shared-miss=nearest\n"
"  rates          per second of the segment's trace time\n"
"Summary error figures merge all groups: mean and p99 per group-second.\n"
"Text tables show the unit of each column in parentheses; JSON keys and CSV\n"
"headers end with it (_n count, _s seconds, _per_s, _pct, _load).\n"
"\n"
"options:\n"
"  --json         one JSON document: file, recording, segments[], total, warnings[]\n"
"  --csv          one CSV table, chosen with --table: summary (default), groups,\n"
"                 cpus, sites, tg_policies, idlest, hist, shares_hist; each row\n"
"                 starts with\n"
"                 file, segment ('all' = whole trace), tg_policy, idlest_policy;\n"
"                 or audit_windows (rows start with file)\n"
"  --table=NAME   the CSV table (with --csv only)\n"
"  --top=N        text: task groups shown per segment (default 20, 0 = all)\n"
FL_MACHINE_HELP
FL_SHARED_MISS_HELP
FL_THREADS_HELP
"  -h, --help     this text\n"
"\n"
"Warnings go to stderr: lost events, a trace clock that is not global, records\n"
"out of time order, missed records, decisions policy.c disputes.\n"
"\n"
"examples:\n"
"  fairlab report                     (fairlab.dat)\n"
"  fairlab report trace.dat\n"
"  fairlab report --top=0 trace.dat | less\n"
"  fairlab report --json trace.dat | jq '.segments[0].metrics.writes_per_s'\n"
"  fairlab report --csv --table=groups trace.dat > groups.csv\n"
"  fairlab report --machine=milan trace.dat    # headline cost on EPYC Milan\n"
"  fairlab report --threads=4 big.dat # its CPUs decoded on 4 threads\n",
	      f);
}

struct report_run {
	struct fl_report rep;
	bool json_warnings;	/* inside the JSON warnings array */
};

static void on_segment(const struct fa_segment *s, void *arg)
{
	fl_report_segment(&((struct report_run *)arg)->rep, s);
}

static void on_audit_window(const struct fa_audit_window *w, void *arg)
{
	fl_report_keep_window(&((struct report_run *)arg)->rep, w);
}

static void on_warning(const char *msg, void *arg)
{
	struct report_run *rr = arg;

	fl_warn("%s: %s", rr->rep.path, msg);
	if (rr->json_warnings)
		fl_json_str(&rr->rep.json, NULL, msg);
	else if (rr->rep.fmt == FL_FMT_TEXT)
		fprintf(rr->rep.f, "  warning: %s\n", msg);
}

static void recording_header(struct report_run *rr, const struct fl_read_info *in)
{
	struct fl_report *r = &rr->rep;
	int t;

	if (r->fmt == FL_FMT_TEXT) {
		fprintf(r->f, "fairlab report: %s\n", r->path);
		fprintf(r->f, "   trace.dat v%lu%s%s, clock %s, %d CPUs; events:",
			in->file_version, in->compression[0] ? ", compressed " : "",
			in->compression, in->clock[0] ? in->clock : "unknown", in->nr_cpus);
		for (t = 0; t < FA_EV_NR_TYPES; t++)
			if (in->has_event[t])
				fprintf(r->f, " %s", fl_event_names[t]);
		fputc('\n', r->f);
	} else if (r->fmt == FL_FMT_JSON) {
		fl_json_obj(&r->json, NULL);
		fl_json_str(&r->json, "file", r->path);
		fl_json_obj(&r->json, "recording");
		fl_json_u64(&r->json, "file_version", in->file_version);
		fl_json_str(&r->json, "compression", in->compression[0] ? in->compression : NULL);
		fl_json_str(&r->json, "clock", in->clock[0] ? in->clock : NULL);
		fl_json_bool(&r->json, "clock_global", fl_clock_is_global(in->clock));
		fl_json_u64(&r->json, "cpus_n", (u64)in->nr_cpus);
		fl_json_end(&r->json, '}');
		fl_json_arr(&r->json, "segments");
	}
}

static void recording_footer(struct report_run *rr, const struct fl_read_info *in,
			     const struct fa_engine *e)
{
	struct fl_report *r = &rr->rep;
	const struct fa_segment *tot = fa_engine_total(e);

	if (r->fmt == FL_FMT_JSON) {
		fl_json_end(&r->json, ']');
		fl_report_segment(r, tot);
		fl_report_audit_windows(r);
		fl_json_obj(&r->json, "records");
		fl_json_u64(&r->json, "all_n", in->records);
		fl_json_u64(&r->json, "fairlab_n", in->fairlab_records);
		fl_json_u64(&r->json, "short_n", in->short_records);
		fl_json_u64(&r->json, "lost_n", in->lost_events);
		fl_json_u64(&r->json, "lost_unknown_n", in->lost_unknown);
		fl_json_u64(&r->json, "overrun_n", in->overruns);
		fl_json_u64(&r->json, "segments_n", fa_engine_segments(e));
		fl_json_end(&r->json, '}');
		fl_json_arr(&r->json, "warnings");
		rr->json_warnings = true;
	} else if (r->fmt == FL_FMT_TEXT) {
		if (fa_engine_segments(e) > 1)
			fl_report_segment(r, tot);
		else if (!in->fairlab_records)
			fprintf(r->f, "\n   no fairlab records: the recording has the fairlab:* event formats but holds no event\n");
		else if (!fa_engine_segments(e))
			fprintf(r->f, "\n   no tg_update or pick_idlest records\n");
		fl_report_audit_windows(r);
		fprintf(r->f, "\n   %llu records, %llu fairlab, %u segments\n",
			(unsigned long long)in->records,
			(unsigned long long)in->fairlab_records,
			fa_engine_segments(e));
	} else {
		if (fa_engine_segments(e) > 1)
			fl_report_segment(r, tot);	/* CSV rows of segment "all" */
		fl_report_audit_windows(r);	/* when it is the table asked for */
	}
	fl_read_warnings(in, on_warning, rr);
	fl_engine_warnings(tot, on_warning, rr);
	if (r->fmt == FL_FMT_JSON) {
		fl_json_end(&r->json, ']');
		fl_json_end(&r->json, '}');
	}
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "table", required_argument, NULL, 't' },
		{ "top", required_argument, NULL, 'n' },
		{ "machine", required_argument, NULL, 'm' },
		{ "shared-miss", required_argument, NULL, 'S' },
		FL_COMMON_OPTIONS,
	};
	struct report_run rr = { .rep = { .fmt = FL_FMT_TEXT, .f = stdout, .top = 20,
					  .csv_table = "summary" } };
	struct fa_engine_cfg cfg = { .on_segment = on_segment,
				     .on_audit_window = on_audit_window, .arg = &rr };
	struct fl_reader *rd;
	struct fa_engine *e;
	bool table_set = false, top_set = false;
	char err[512];
	long top;
	int c, i, st, ret = FL_EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			for (i = 0; fl_report_tables[i] && strcmp(optarg, fl_report_tables[i]); i++)
				;
			if (!fl_report_tables[i]) {
				fl_error("--table: no table '%s' (summary, groups, cpus, sites, tg_policies, idlest, hist, shares_hist, audit_windows)",
					 optarg);
				return FL_EXIT_USAGE;
			}
			rr.rep.csv_table = fl_report_tables[i];
			table_set = true;
			break;
		case 'n':
			if (fl_parse_long(optarg, 0, 1000000, "--top", &top))
				return FL_EXIT_USAGE;
			rr.rep.top = (int)top;
			top_set = true;
			break;
		case 'm':
			if (fl_machine_option(optarg))
				return FL_EXIT_USAGE;
			break;
		case 'S':
			if (fl_shared_miss_option(optarg))
				return FL_EXIT_USAGE;
			break;
		default:
			st = fl_common_option(c, &rr.rep.fmt, help, "report");
			if (st != FL_OPT_NEXT)
				return st;
			break;
		}
	}
	/* An option that would change nothing is a mistake, not a no-op. */
	if (table_set && rr.rep.fmt != FL_FMT_CSV) {
		fl_error("report: --table chooses the CSV table: it needs --csv (text and JSON hold every table)");
		return FL_EXIT_USAGE;
	}
	if (top_set && rr.rep.fmt != FL_FMT_TEXT) {
		fl_error("report: --top limits the text tables: --json and --csv hold every group");
		return FL_EXIT_USAGE;
	}
	if (optind < argc - 1) {
		fl_error("report: one FILE at a time (fairlab compare takes several)");
		return FL_EXIT_USAGE;
	}
	/* what fairlab record writes when given no -o */
	rr.rep.path = optind < argc ? argv[optind] : "fairlab.dat";
	rd = fl_reader_open(rr.rep.path, err, sizeof(err));
	if (!rd) {
		fl_error("%s", err);
		return FL_EXIT_FAIL;
	}
	cfg.coh_miss = fl_shared_miss();
	e = fa_engine_new(&cfg);
	if (!e) {
		fl_error("out of memory");
		fl_reader_close(rd);
		return FL_EXIT_FAIL;
	}
	rr.rep.e = e;
	fl_json_init(&rr.rep.json, rr.rep.f);
	recording_header(&rr, fl_reader_info(rd));
	if (fl_reader_run(rd, e, err, sizeof(err))) {
		fl_error("%s: %s", rr.rep.path, err);
		ret = FL_EXIT_FAIL;
	} else {
		recording_footer(&rr, fl_reader_info(rd), e);
	}
	if (rr.rep.wins_oom) {
		fl_error("out of memory keeping the audit windows");
		ret = FL_EXIT_FAIL;
	}
	free(rr.rep.wins);
	fa_engine_free(e);
	fl_reader_close(rd);
	if (fflush(stdout)) {
		fl_error("writing the report failed");
		ret = FL_EXIT_FAIL;
	}
	return ret;
}
