// SPDX-License-Identifier: GPL-2.0
/*
 * `fairlab whatif --idlest FILE`: the placement what-if, every recorded
 * find_idlest_group() call replayed under every idlest policy
 * (analysis/fa_idlest.h defines the figures).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cli.h"
#include "fa_idlest.h"

static void help(FILE *f)
{
	fputs(
"usage: fairlab whatif --idlest [--by-type] [--json|--csv] FILE\n"
"\n"
"The placement what-if: replays every find_idlest_group() call recorded in\n"
"FILE (fairlab:pick_idlest records) under every idlest policy (stock,\n"
"idle_cpus, nr_running), with module/policy/'s fl_idlest_decide(), the code\n"
"the kernel runs, and counts the calls where a policy picks another group\n"
"than the recorded one.\n"
"\n"
"calls: a CPU's records, in order; a record with idlest_cpu=-1 (the kernel's\n"
"sentinel, overloaded with avg_load UINT_MAX) starts a new call once the\n"
"CPU's current call has picked a group; each record's group side is one\n"
"candidate.  A policy's pick: start from the sentinel, take each candidate\n"
"in order when fl_idlest_decide(policy, idlest, candidate) says so; the last\n"
"taken (none if none).  The recorded pick: the candidate of the call's last\n"
"record with picked=1.  A call disagrees when the two differ.\n"
"consistent calls only: every record's idlest side must be the sentinel or the\n"
"candidate the call last picked (lost records, or a recording starting inside\n"
"a call, break that; such calls are counted and left out).\n"
"self-check: every record's picked flag is decided again under its own policy;\n"
"mismatches are counted (and warned about on stderr).\n"
"limit: exact only for what find_idlest_group() returns at the level recorded:\n"
"the comparison with the local group that follows is not recorded, and a\n"
"different pick would have descended into a domain whose calls were never\n"
"recorded; calls below the first level are replayed on the recorded descent.\n"
"\n"
"columns (units in parentheses; JSON/CSV keys end with the unit):\n"
"  calls          consistent find_idlest_group() calls\n"
"  choice         of them, calls with two or more candidates\n"
"  differ         calls whose pick under the policy differs from the recorded\n"
"  differ%        differ in % of calls, and in % of choice calls\n"
"  decisions      candidates (records) of the consistent calls\n"
"  dec.differ     records the policy decides otherwise than recorded, on the\n"
"                 recorded stats of both sides\n"
"  by type: the differing calls by (recorded pick's group_type, the policy's\n"
"  pick's group_type); none: no group picked\n"
"\n"
"options:\n"
"  --idlest      this what-if (without it: the tg->load_avg what-if)\n"
"  --by-type     with --csv: the table by group type instead of the policies\n"
"  --json        one JSON document: file, totals, policies[], by_type[]\n"
"  --csv         the policies table, one row each\n"
"  -h, --help    this text\n"
"\n"
"examples:\n"
"  fairlab whatif --idlest idlest-stock-r1.dat\n"
"  fairlab whatif --idlest --json idlest-stock-r1.dat | jq '.policies'\n"
"  fairlab whatif --idlest --csv --by-type idlest-stock-r1.dat\n"
"\n"
"Exit status: 0 success, 1 an unreadable file or no pick_idlest records,\n"
"2 a bad command line.\n",
	      f);
}

static const struct fl_col pcols[] = {
	{ "policy", "policy", FL_STR, 0, 12 },
	{ "calls_n", "calls(n)", FL_U64, 0, 0 },
	{ "choice_calls_n", "choice(n)", FL_U64, 0, 0 },
	{ "differ_n", "differ(n)", FL_U64, 0, 0 },
	{ "differ_pct", "differ(%calls)", FL_DBL, 2, 0 },
	{ "differ_choice_pct", "differ(%choice)", FL_DBL, 2, 0 },
	{ "decisions_n", "decisions(n)", FL_U64, 0, 0 },
	{ "dec_differ_n", "dec.differ(n)", FL_U64, 0, 0 },
};
static const struct fl_table ptable =
	FL_TABLE("policies", "Recorded find_idlest_group() calls replayed under each idlest policy", pcols);

static const struct fl_col tcols[] = {
	{ "policy", "policy", FL_STR, 0, 12 },
	{ "recorded_type", "recorded type", FL_STR, 0, 14 },
	{ "policy_type", "policy's type", FL_STR, 0, 14 },
	{ "calls_n", "calls(n)", FL_U64, 0, 0 },
	{ "differ_pct", "%differ", FL_DBL, 2, 0 },
};
static const struct fl_table ttable =
	FL_TABLE("by_type", "Differing calls by the group types of the two picks", tcols);

static double pct(u64 a, u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static const char *type_name(u32 t)
{
	return t < FA_IDLEST_NONE ? fl_group_type_names[t] : "none";
}

static void policy_rows(struct fl_emit *em, const struct fa_idlest_replay *r)
{
	u32 p;

	fl_table_begin(em);
	for (p = 0; p < FL_IDLEST_NR_POLICIES; p++) {
		const struct fa_idlest_result *x = fa_idlest_result(r, p);
		struct fl_val v[FL_NCOLS(pcols)];
		int k = 0;

		v[k++] = fl_v_str(fl_idlest_policy_names[p]);
		v[k++] = fl_v_u64(x->calls);
		v[k++] = fl_v_u64(x->choice_calls);
		v[k++] = fl_v_u64(x->differ);
		v[k++] = x->calls ? fl_v_dbl(pct(x->differ, x->calls)) : fl_v_none();
		v[k++] = x->choice_calls ? fl_v_dbl(pct(x->differ, x->choice_calls)) : fl_v_none();
		v[k++] = fl_v_u64(x->decisions);
		v[k++] = fl_v_u64(x->dec_differ);
		fl_table_row(em, v);
	}
	fl_table_end(em);
}

static void type_rows(struct fl_emit *em, const struct fa_idlest_replay *r)
{
	u32 p, a, b;

	fl_table_begin(em);
	for (p = 0; p < FL_IDLEST_NR_POLICIES; p++) {
		const struct fa_idlest_result *x = fa_idlest_result(r, p);

		for (a = 0; a < FA_IDLEST_NTYPES; a++)
			for (b = 0; b < FA_IDLEST_NTYPES; b++) {
				struct fl_val v[FL_NCOLS(tcols)];

				if (!x->by_type[a][b])
					continue;
				v[0] = fl_v_str(fl_idlest_policy_names[p]);
				v[1] = fl_v_str(type_name(a));
				v[2] = fl_v_str(type_name(b));
				v[3] = fl_v_u64(x->by_type[a][b]);
				v[4] = fl_v_dbl(pct(x->by_type[a][b], x->differ));
				fl_table_row(em, v);
			}
	}
	fl_table_end(em);
}

/* The recorded policy: one name, or "several policies" / "unknown". */
static const char *recorded(const struct fa_idlest_totals *t)
{
	u32 p, n = 0;
	const char *name = "unknown";

	for (p = 0; p < FL_IDLEST_NR_POLICIES; p++)
		if (t->policies_seen & (1u << p)) {
			name = fl_idlest_policy_names[p];
			n++;
		}
	return n > 1 ? "several policies" : name;
}

int cmd_whatif_idlest(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "idlest", no_argument, NULL, 'I' },
		{ "by-type", no_argument, NULL, 'T' },
		FL_COMMON_OPTIONS,
	};
	enum fl_format fmt = FL_FMT_TEXT;
	struct fa_engine_cfg cfg = { 0 };
	struct fa_idlest_replay *r = NULL;
	const struct fa_idlest_totals *t;
	struct fa_engine *e = NULL;
	int c, st, ret = FL_EXIT_USAGE;
	bool by_type = false;
	const char *path;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'I':
			break;
		case 'T':
			by_type = true;
			break;
		default:
			st = fl_common_option(c, &fmt, help, "whatif --idlest");
			if (st != FL_OPT_NEXT)
				return st;
			break;
		}
	}
	if (optind != argc - 1) {
		fl_error(optind == argc ? "whatif --idlest: no FILE given (see fairlab whatif --idlest --help)" :
			 "whatif --idlest: one FILE at a time");
		return FL_EXIT_USAGE;
	}
	if (by_type && fmt != FL_FMT_CSV) {
		fl_error("whatif --idlest: --by-type goes with --csv (text and JSON carry both tables)");
		return FL_EXIT_USAGE;
	}
	path = argv[optind];
	ret = FL_EXIT_FAIL;
	r = fa_idlest_new();
	cfg.idlest = r;
	if (r)
		e = fa_engine_new(&cfg);
	if (!e) {
		fl_error("out of memory");
		goto out;
	}
	if (fl_analyze(path, e))
		goto out;
	fa_idlest_finish(r);
	t = fa_idlest_totals(r);
	if (!t->records) {
		fl_error("%s: no fairlab:pick_idlest records (record with -e fairlab:pick_idlest)", path);
		goto out;
	}
	if (t->mismatches)
		fl_warn("%s: %llu of %llu pick_idlest records decided otherwise by policy.c than recorded (policy.c differs from the kernel's?)",
			path, (unsigned long long)t->mismatches, (unsigned long long)t->records);
	if (t->inconsistent)
		fl_warn("%s: %llu calls (%llu records) left out: their records do not chain (records lost, or the recording began inside a call)",
			path, (unsigned long long)t->inconsistent,
			(unsigned long long)t->inconsistent_records);

	if (fmt == FL_FMT_TEXT) {
		struct fl_emit em = { .fmt = FL_FMT_TEXT, .f = stdout, .t = &ptable };

		printf("fairlab whatif --idlest: %s\n", path);
		printf("   recorded under %s: %llu pick_idlest records, %llu find_idlest_group() calls",
		       recorded(t), (unsigned long long)t->records, (unsigned long long)t->calls);
		if (t->inconsistent)
			printf(" (and %llu inconsistent, left out)", (unsigned long long)t->inconsistent);
		printf("\n   self-check: %llu records whose picked flag policy.c decides otherwise%s\n",
		       (unsigned long long)t->mismatches, t->mismatches ? " (NOT exact)" : " (exact)");
		policy_rows(&em, r);
		em.t = &ttable;
		type_rows(&em, r);
		printf("\n   exact for the level recorded only: the local group is not compared, and a\n"
		       "   different pick would have descended into calls that were never recorded\n");
	} else if (fmt == FL_FMT_JSON) {
		struct fl_json j;
		struct fl_emit em = { .fmt = FL_FMT_JSON, .f = stdout, .json = &j, .t = &ptable };

		fl_json_init(&j, stdout);
		fl_json_obj(&j, NULL);
		fl_json_str(&j, "file", path);
		fl_json_str(&j, "recorded_policy", recorded(t));
		fl_json_u64(&j, "records_n", t->records);
		fl_json_u64(&j, "calls_n", t->calls);
		fl_json_u64(&j, "inconsistent_calls_n", t->inconsistent);
		fl_json_u64(&j, "inconsistent_records_n", t->inconsistent_records);
		fl_json_u64(&j, "mismatches_n", t->mismatches);
		fl_json_u64(&j, "mixed_calls_n", t->mixed_calls);
		policy_rows(&em, r);
		em.t = &ttable;
		type_rows(&em, r);
		fl_json_end(&j, '}');
	} else {
		struct fl_emit em = { .fmt = FL_FMT_CSV, .f = stdout,
				      .t = by_type ? &ttable : &ptable,
				      .nlead = 1, .csv_header = true,
				      .lead_keys = (const char *const[]){ "file" },
				      .lead_vals = (const char *const[]){ path } };

		if (by_type)
			type_rows(&em, r);
		else
			policy_rows(&em, r);
	}
	ret = fflush(stdout) ? FL_EXIT_FAIL : FL_EXIT_OK;
	if (ret)
		fl_error("writing the output failed");
out:
	fa_engine_free(e);
	fa_idlest_free(r);
	return ret;
}
