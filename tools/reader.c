// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat reading through libtracecmd (see reader.h).
 *
 * libtracecmd's own diagnostics are silenced: each failure is turned
 * into one message that says what is wrong with the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode.h"
#include "reader.h"
#include "tracecmd_private.h"

struct fl_reader {
	struct tracecmd_input *h;
	struct fl_decoder dec;
	struct fl_read_info info;
	struct fa_engine *e;
	struct fa_event ev;		/* reused for every record */
	bool engine_failed;
};

/* The first bytes of every trace-cmd data file: 23 8 68 "tracing". */
static const char tracing_magic[10] = "\027\010\104tracing";

bool fl_clock_is_global(const char *clock)
{
	static const char *const global[] = {
		"global", "mono", "mono_raw", "boot", "tai", "x86-tsc",
		"tsc2nsec", "counter", "uptime", NULL,
	};
	int i;

	for (i = 0; global[i]; i++)
		if (!strcmp(clock, global[i]))
			return true;
	return false;
}

/*
 * Sums the "overrun:", "commit overrun:" and "dropped events:" lines of
 * the saved stats: every one is an event the ring buffer lost.
 */
static u64 parse_overruns(const char *stats)
{
	const char *p = stats;
	u64 sum = 0;

	while (p && *p) {
		if (!strncmp(p, "overrun:", 8))
			sum += strtoull(p + 8, NULL, 10);
		else if (!strncmp(p, "commit overrun:", 15))
			sum += strtoull(p + 15, NULL, 10);
		else if (!strncmp(p, "dropped events:", 15))
			sum += strtoull(p + 15, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return sum;
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

static int check_fd(int fd, const char *name, char *err, size_t errlen)
{
	char magic[sizeof(tracing_magic)];
	struct stat st;
	ssize_t got;

	if (fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a trace.dat file", name);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (trace.dat files are read with mmap and seeks)",
			 name);
		return -1;
	}
	if (st.st_size == 0) {
		snprintf(err, errlen, "%s: empty file", name);
		return -1;
	}
	got = pread(fd, magic, sizeof(magic), 0);
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if ((size_t)got < sizeof(magic) || memcmp(magic, tracing_magic, sizeof(magic))) {
		snprintf(err, errlen, "%s: not a trace-cmd data file (no \"tracing\" magic at its start)",
			 name);
		return -1;
	}
	return 0;
}

struct fl_reader *fl_reader_open_fd(int fd, const char *name, char *err,
				    size_t errlen)
{
	struct fl_reader *r;
	struct tep_handle *tep;
	const char *cname = NULL, *cver = NULL;
	char msg[256];
	int t;

	if (check_fd(fd, name, err, errlen)) {
		close(fd);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		close(fd);
		return NULL;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	/* No plugins: nothing is printed, and loading them costs time. */
	r->h = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!r->h) {
		snprintf(err, errlen, "%s: cannot read the trace-cmd headers (truncated or corrupt trace.dat)",
			 name);
		close(fd);
		free(r);
		return NULL;
	}
	tep = tracecmd_get_tep(r->h);
	if (!tep) {
		snprintf(err, errlen, "%s: no event formats", name);
		goto fail;
	}
	if (fl_decoder_init(&r->dec, tep, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s: %s", name, msg);
		goto fail;
	}
	if (!r->dec.nr_present) {
		snprintf(err, errlen, "%s: no fairlab:* event formats in this recording (was it recorded with -e fairlab while fairlab_trace.ko was loaded?)",
			 name);
		goto fail;
	}
	copy_str(r->info.clock, sizeof(r->info.clock),
		 tracecmd_get_trace_clock(r->h));
	if (!tracecmd_get_file_compress_proto(r->h, &cname, &cver))
		copy_str(r->info.compression, sizeof(r->info.compression), cname);
	r->info.file_version = tracecmd_get_in_file_version(r->h);
	r->info.nr_cpus = tracecmd_cpus(r->h);
	r->info.parse_failures = tracecmd_get_parsing_failures(r->h);
	r->info.overruns = parse_overruns(tracecmd_get_cpustats(r->h));
	for (t = 0; t < FA_EV_NR_TYPES; t++)
		r->info.has_event[t] = r->dec.id[t] >= 0;
	return r;
fail:
	fl_reader_close(r);
	return NULL;
}

struct fl_reader *fl_reader_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	return fl_reader_open_fd(fd, path, err, errlen);
}

const struct fl_read_info *fl_reader_info(const struct fl_reader *r)
{
	return &r->info;
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *arg)
{
	struct fl_reader *r = arg;
	int got;

	(void)h;
	(void)cpu;
	r->info.records++;
	if (rec->missed_events > 0)
		r->info.lost_events += (u64)rec->missed_events;
	else if (rec->missed_events < 0)
		r->info.lost_unknown++;
	got = fl_decode(&r->dec, rec, &r->ev);
	if (got < 0) {
		r->info.short_records++;
		return 0;
	}
	if (!got)
		return 0;
	if (!r->info.fairlab_records++)
		r->info.first_ts = rec->ts;
	r->info.last_ts = rec->ts;
	if (fa_engine_feed(r->e, &r->ev)) {
		r->engine_failed = true;
		return -1;
	}
	return 0;
}

int fl_reader_run(struct fl_reader *r, struct fa_engine *e, char *err,
		  size_t errlen)
{
	int ret;

	r->e = e;
	ret = tracecmd_iterate_events(r->h, NULL, 0, on_record, r);
	if (r->engine_failed || fa_engine_finish(e)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (ret < 0) {
		snprintf(err, errlen, "libtracecmd stopped reading the records (out of memory?)");
		return -1;
	}
	return 0;
}

void fl_reader_close(struct fl_reader *r)
{
	if (!r)
		return;
	if (r->h)
		tracecmd_close(r->h);
	free(r);
}

void fl_read_warnings(const struct fl_read_info *in,
		      void (*emit)(const char *msg, void *arg), void *arg)
{
	char msg[256];

	if (in->lost_events) {
		snprintf(msg, sizeof(msg), "%llu events lost in the ring buffer: counts, writer switches and errors are incomplete (record with a larger -b)",
			 (unsigned long long)in->lost_events);
		emit(msg, arg);
	}
	if (in->lost_unknown) {
		snprintf(msg, sizeof(msg), "the ring buffer lost events of unknown number before %llu records",
			 (unsigned long long)in->lost_unknown);
		emit(msg, arg);
	}
	if (in->overruns) {
		snprintf(msg, sizeof(msg), "the saved ring buffer statistics report %llu overrun or dropped events",
			 (unsigned long long)in->overruns);
		emit(msg, arg);
	}
	if (!in->clock[0]) {
		emit("the recording does not say which trace clock it used (trace-cmd's default is 'local', per CPU): ordering across CPUs may be wrong",
		     arg);
	} else if (!fl_clock_is_global(in->clock)) {
		snprintf(msg, sizeof(msg), "trace clock '%s' is not global: records of different CPUs may be misordered, writer switches are unreliable (record with -C mono)",
			 in->clock);
		emit(msg, arg);
	} else if (!strcmp(in->clock, "counter") || !strcmp(in->clock, "uptime")) {
		snprintf(msg, sizeof(msg), "trace clock '%s' does not count nanoseconds: rates per second are wrong",
			 in->clock);
		emit(msg, arg);
	}
	if (in->short_records) {
		snprintf(msg, sizeof(msg), "%llu fairlab records shorter than their format were skipped (corrupt data)",
			 (unsigned long long)in->short_records);
		emit(msg, arg);
	}
	if (in->parse_failures) {
		snprintf(msg, sizeof(msg), "%d event formats in the file could not be parsed",
			 in->parse_failures);
		emit(msg, arg);
	}
}
