// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a recording into a finished engine (see analyze.h).
 */
#include "analyze.h"
#include "cli.h"
#include "reader.h"
#include "warnings.h"

static void warn_file(const char *msg, void *arg)
{
	fl_warn("%s: %s", (const char *)arg, msg);
}

int fl_analyze(const char *path, struct fa_engine *e)
{
	struct fl_reader *rd;
	char err[512];

	rd = fl_reader_open(path, err, sizeof(err));
	if (!rd) {
		fl_error("%s", err);
		return -1;
	}
	if (fl_reader_run(rd, e, err, sizeof(err))) {
		fl_error("%s: %s", path, err);
		fl_reader_close(rd);
		return -1;
	}
	/*
	 * Nothing to compare or plot: said plainly, rather than as rows
	 * of zeros ("new" in compare) or gnuplot's errors on empty data.
	 */
	if (!fa_engine_segments(e)) {
		fl_no_records(fl_reader_info(rd), path);
		fl_reader_close(rd);
		return -1;
	}
	fl_read_warnings(fl_reader_info(rd), warn_file, (void *)path);
	fl_engine_warnings(fa_engine_total(e), warn_file, (void *)path);
	fl_reader_close(rd);
	return 0;
}

void fl_no_records(const struct fl_read_info *in, const char *path)
{
	if (!in->fairlab_records)
		fl_error("%s: the recording holds no fairlab records (it has the fairlab:* event formats, but no event was recorded): nothing to analyze",
			 path);
	else
		fl_error("%s: no tg_update or pick_idlest records among its %llu fairlab records: nothing to analyze",
			 path, (unsigned long long)in->fairlab_records);
}
