// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over the decoding path: the input becomes a file
 * (memfd) that libtracecmd opens, the reader decodes its records, the
 * engine accounts them (with time bins) and every segment is formatted as
 * text and JSON into /dev/null, as `fairlab report` would.
 *
 *   build/fuzz/fuzz-reader -max_total_time=20 CORPUS_DIR
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reader.h"
#include "report.h"
#include "warnings.h"

static FILE *sink;

static void on_segment(const struct fa_segment *s, void *arg)
{
	struct fl_report *r = arg;

	r->fmt = FL_FMT_TEXT;
	fl_report_segment(r, s);
	r->fmt = FL_FMT_JSON;
	fl_json_init(&r->json, sink);
	fl_report_segment(r, s);
}

static void on_bin(const struct fa_bin *b, void *arg)
{
	(void)arg;
	fprintf(sink, "%llu %f\n", (unsigned long long)b->t_start, b->err_sum);
}

static void on_warning(const char *msg, void *arg)
{
	(void)arg;
	fputs(msg, sink);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct fl_report rep = { .path = "fuzz", .top = 3 };
	struct fa_engine_cfg cfg = {
		.on_segment = on_segment, .on_bin = on_bin,
		.bin_ns = 1000000, .arg = &rep,
	};
	struct fl_reader *r;
	struct fa_engine *e;
	char err[512];
	size_t off = 0;
	ssize_t n;
	int fd;

	if (!sink)
		sink = fopen("/dev/null", "w");
	rep.f = sink;
	fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	while (off < size) {
		n = write(fd, data + off, size - off);
		if (n <= 0) {
			close(fd);
			return 0;
		}
		off += (size_t)n;
	}
	/* libtracecmd reads from the current offset */
	if (lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return 0;
	}
	r = fl_reader_open_fd(fd, "fuzz", err, sizeof(err));
	if (!r)
		return 0;
	e = fa_engine_new(&cfg);
	if (e) {
		rep.e = e;
		if (!fl_reader_run(r, e, err, sizeof(err))) {
			on_segment(fa_engine_total(e), &rep);
			fl_engine_warnings(fa_engine_total(e), on_warning, NULL);
		}
		fl_read_warnings(fl_reader_info(r), on_warning, NULL);
		fa_engine_free(e);
	}
	fl_reader_close(r);
	return 0;
}
