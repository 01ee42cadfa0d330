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
#include <time.h>
#include <unistd.h>

#include "decode.h"
#include "decompress.h"
#include "reader.h"
#include "guard.h"
#include "pages.h"
#include "pardecode.h"
#include "pipe.h"
#include "trim.h"
#include "tracecmd_private.h"
#include "warnings.h"
#include "zpages.h"

struct fl_reader {
	struct tracecmd_input *h;
	struct fl_decoder dec;
	struct fl_read_info info;
	struct fa_engine *e;
	struct fl_pipe *pipe;		/* the engine's thread, NULL: inline */
	struct fl_pages *pages;		/* page-by-page reading state */
	struct fl_zpages *z;		/* zstd chunks read in place, NULL: not */
	char z_why[160];		/* why not, for FAIRLAB_PROFILE */
	bool z_left;			/* a stalled decoding thread may use r, z, h */
	int threads;			/* decoding threads (pardecode.h), 1: none */
	bool engine_failed;
	bool abandoned;			/* h left inconsistent: never close it */
	bool looped;			/* more records than the data holds */
	int fd;				/* the file, owned by h once it exists */
	u64 max_records;		/* more than the data can hold: a loop */
	const char *open_error;
	int jump;			/* the guard's last jump (guard.h), 0: none */
	int copy_fd;
	char copy_error[160];
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

/* Only a regular file can be a recording: -1 with a message otherwise. */
static int check_type(mode_t mode, const char *name, char *err, size_t errlen)
{
	if (S_ISDIR(mode)) {
		snprintf(err, errlen, "%s: is a directory, not a trace.dat file", name);
		return -1;
	}
	if (!S_ISREG(mode)) {
		snprintf(err, errlen, "%s: not a regular file (trace.dat files are read with mmap and seeks)",
			 name);
		return -1;
	}
	return 0;
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
	if (check_type(st.st_mode, name, err, errlen))
		return -1;
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

/*
 * The most records @bytes of ring buffer in @streams per-CPU sections
 * can hold.  A record takes at least 12 bytes (4 of header, 8 of common
 * fields); 8 leaves a margin.  A corrupt page can make libtraceevent
 * re-read the same events forever: this bound ends it (count()).
 */
static u64 records_bound(u64 bytes, int streams)
{
	return bytes / 8 + (u64)streams;
}

/*
 * libtracecmd's per-CPU data sections: for a compressed file that means
 * reading every chunk's header (four system calls a chunk: 0.2 s of
 * 31,839 chunks in the 2-core VM the benchmark runs on, before any
 * record is read), so zpages.c reads those itself and this step runs
 * only for the files it does not take.
 */
static int data_steps(struct fl_reader *r, int fd)
{
	if (tracecmd_init_data(r->h) < 0) {
		r->open_error = "cannot read the per-CPU data sections (truncated or corrupt trace.dat)";
		if (tracecmd_cpus(r->h) > 0)
			close(fd);	/* h abandoned: see open_steps() */
		else
			tracecmd_close(r->h);
		r->h = NULL;
		return -1;
	}
	return 0;
}

/*
 * tracecmd_open_fd(), step by step.  libtracecmd 1.3's tracecmd_close()
 * dereferences the per-CPU table that a failed tracecmd_init_data() can
 * leave unallocated once the CPU count is known (a truncated v6 file
 * crashes it): such a half-open handle is abandoned, not closed.  So is
 * one whose headers failed to parse: libtraceevent 1.7's tep_free() then
 * sometimes frees a pointer it never allocated (an invalid free under
 * ASan, seen now and then by tests/unit/fuzz-reader.t).  The process
 * loses its memory, which only matters to the fuzzer.
 */
static int open_steps(struct fl_reader *r, int fd)
{
	/* No plugins: nothing is printed, and loading them costs time. */
	struct tracecmd_input *h = tracecmd_alloc_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	const char *cname, *cver;

	if (!h) {
		r->open_error = "cannot read the trace-cmd file header (corrupt trace.dat)";
		close(fd);
		return -1;
	}
	if (tracecmd_read_headers(h, 0) < 0) {
		r->open_error = "cannot read the trace-cmd headers (truncated or corrupt trace.dat)";
		close(fd);	/* h abandoned: see above */
		return -1;
	}
	r->h = h;
	/*
	 * A compressed file's data sections wait: when zpages.c reads them
	 * in place, libtracecmd never loads them (data_steps()).
	 */
	if (!tracecmd_get_file_compress_proto(h, &cname, &cver))
		return 0;
	return data_steps(r, fd);
}

/*
 * Runs @step (open_steps or copy_step) the way libtracecmd must be run
 * outside the record loop.  libtracecmd prints with printf, whatever its
 * log level: diagnostics while opening ("File possibly truncated"), and
 * while copying lines per CPU (on stderr too).  Meanwhile its stdout is
 * our stderr, or both go to /dev/null when @quiet, so that a report on
 * stdout stays clean.  It is
 * guarded too (guard.h), with a longer stall allowance: nothing counts
 * progress in it.
 */
static int guarded(struct fl_reader *r, int (*step)(struct fl_reader *, int),
		   int fd, bool quiet)
{
	int null = quiet ? open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
	volatile int out, err = -1;
	int ret;

	fflush(stdout);
	fflush(stderr);
	out = dup(STDOUT_FILENO);
	if (out >= 0)
		dup2(quiet && null >= 0 ? null : STDERR_FILENO, STDOUT_FILENO);
	if (quiet && null >= 0) {
		err = dup(STDERR_FILENO);
		if (err >= 0)
			dup2(null, STDERR_FILENO);
	}
	r->jump = 0;
	switch (sigsetjmp(fl_guard_env, 1)) {
	case 0:
		fl_guard_arm(6 * fl_guard_stall_secs());
		ret = step(r, fd);
		break;
	case FL_GUARD_STALL:
		r->jump = FL_GUARD_STALL;
		r->open_error = "libtracecmd made no progress opening it (corrupt trace.dat)";
		r->abandoned = true;
		ret = -1;
		break;
	default:
		r->jump = FL_GUARD_FAULT;
		r->open_error = "libtracecmd faulted opening it (corrupt trace.dat)";
		r->abandoned = true;
		ret = -1;
		break;
	}
	fl_guard_disarm();
	fflush(stdout);
	fflush(stderr);
	if (out >= 0) {
		dup2(out, STDOUT_FILENO);
		close(out);
	}
	if (err >= 0) {
		dup2(err, STDERR_FILENO);
		close(err);
	}
	if (null >= 0)
		close(null);
	return ret;
}

/* The uncompressed copy's descriptor in r->copy_fd, or -1 and a reason. */
static int copy_step(struct fl_reader *r, int fd)
{
	r->copy_fd = fl_decompress_copy(fd, r->info.file_version, r->copy_error,
					sizeof(r->copy_error));
	return r->copy_fd < 0 ? -1 : 0;
}

/* r->z when the zstd chunks can be read in place (zpages.h). */
static int zpages_step(struct fl_reader *r, int fd)
{
	fl_zpages_open(fd, r->h, &r->z, r->z_why, sizeof(r->z_why));
	return 0;
}

/*
 * A compressed recording is read in place when zpages.c takes it (unless
 * FAIRLAB_ZSTD=0); otherwise from an uncompressed temporary copy
 * (decompress.h says why), and when no copy can be made, from itself,
 * slowly.
 */
static int use_uncompressed_copy(struct fl_reader *r, const char *name,
				 char *err, size_t errlen)
{
	const char *env = getenv("FAIRLAB_ZSTD");
	char msg[256];

	if (!env || strcmp(env, "0")) {
		if (guarded(r, zpages_step, r->fd, true)) {
			/*
			 * The handle a jump left part-built (zpages.h): the
			 * jump came from the first walk of a CPU's pages, in
			 * libtraceevent, not from libtracecmd's open.
			 */
			fl_zpages_free(r->z);
			r->z = NULL;
			snprintf(err, errlen, "%s: %s", name, r->jump == FL_GUARD_STALL ?
				 "libtraceevent made no progress walking a CPU's first ring-buffer page (a corrupt page makes it loop)" :
				 "libtraceevent faulted walking a CPU's first ring-buffer page (corrupt trace.dat)");
			return -1;
		}
		if (r->z)
			return 0;
	} else {
		snprintf(r->z_why, sizeof(r->z_why), "FAIRLAB_ZSTD=0");
	}
	if (guarded(r, data_steps, r->fd, false)) {
		snprintf(err, errlen, "%s: %s", name, r->open_error);
		return -1;
	}
	if (getenv("FAIRLAB_NO_COPY") || guarded(r, copy_step, r->fd, true)) {
		if (r->abandoned) {
			snprintf(err, errlen, "%s: %s", name, r->open_error);
			return -1;
		}
		r->info.copy_failed = !getenv("FAIRLAB_NO_COPY");
		return 0;
	}
	tracecmd_close(r->h);	/* closes r->fd */
	r->h = NULL;
	r->fd = r->copy_fd;
	if (guarded(r, open_steps, r->fd, false)) {
		snprintf(err, errlen, "%s (uncompressed copy): %s", name, r->open_error);
		return -1;
	}
	if (fl_decoder_init(&r->dec, tracecmd_get_tep(r->h), msg, sizeof(msg))) {
		snprintf(err, errlen, "%s (uncompressed copy): %s", name, msg);
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
	r->fd = fd;
	r->copy_fd = -1;
	if (guarded(r, open_steps, fd, false)) {
		snprintf(err, errlen, "%s: %s", name, r->open_error);
		if (r->abandoned)
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
	/*
	 * libtracecmd merges the CPUs by scanning all of them per record:
	 * a corrupt CPU count of millions makes reading crawl.  No kernel
	 * has more than NR_CPUS (8192 in Debian's config) CPUs.
	 */
	if (tracecmd_cpus(r->h) < 0 || tracecmd_cpus(r->h) > FA_MAX_CPUS) {
		snprintf(err, errlen, "%s: implausible CPU count %d (corrupt trace.dat)",
			 name, tracecmd_cpus(r->h));
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
	if (r->info.compression[0] && use_uncompressed_copy(r, name, err, errlen))
		goto fail;
	fl_decoder_audit_clock(&r->dec, r->info.clock);
	r->info.audit_snap_ns = r->dec.has_snap_ns;
	/* read in place, libtracecmd has not sized the data: count() */
	for (t = 0; !r->z && t < r->info.nr_cpus; t++) {
		off64_t size = tracecmd_get_cpu_file_size(r->h, t);

		r->max_records += records_bound(size > 0 ? (u64)size : 0, 1);
	}
	return r;
fail:
	fl_reader_close(r);
	return NULL;
}

/*
 * A FIFO (or a tty) blocks open() until a writer appears, for ever if
 * none does: the path is checked first, and opened with O_NONBLOCK so
 * that something put there in between cannot block it either
 * (check_fd() refuses it then).  O_NONBLOCK means nothing to a regular
 * file.
 */
struct fl_reader *fl_reader_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (check_type(st.st_mode, path, err, errlen))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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

/* Counts a record; -1 when there are more than the data can hold. */
static int count(struct fl_reader *r, int missed_events)
{
	if (++r->info.records > r->max_records) {
		/* read in place: the bound grows with the chunks decompressed */
		if (r->z)
			r->max_records = records_bound(fl_zpages_decompressed(r->z),
						       fl_zpages_streams(r->z));
		if (r->info.records > r->max_records) {
			r->looped = true;
			return -1;
		}
	}
	if (!(r->info.records % FL_TRIM_RECORDS))
		fl_trim_file(r->fd);
	if (missed_events > 0)
		r->info.lost_events += (u64)missed_events;
	else if (missed_events < 0)
		r->info.lost_unknown++;
	return 0;
}

/* Where a record is decoded for the engine; NULL: the engine failed. */
static struct fa_event *slot(struct fl_reader *r)
{
	struct fa_event *ev = r->pipe ? fl_pipe_slot(r->pipe) : fa_engine_slot(r->e);

	if (!ev)
		r->engine_failed = true;
	return ev;
}

/* fl_decode()'s result @got for the record at @ts, decoded into @ev. */
static int commit(struct fl_reader *r, unsigned long long ts, int got,
		  const struct fa_event *ev)
{
	if (got < 0) {
		r->info.short_records++;
		return 0;
	}
	if (!got)
		return 0;
	if (ev->type == FA_EV_TG_AUDIT)
		r->info.audits++;
	if (!r->info.fairlab_records++)
		r->info.first_ts = ts;
	r->info.last_ts = ts;
	if (r->pipe)
		fl_pipe_commit(r->pipe);
	else if (fa_engine_push(r->e)) {
		r->engine_failed = true;
		return -1;
	}
	return 0;
}

static int record(struct fl_reader *r, struct tep_record *rec)
{
	struct fa_event *ev;

	if (count(r, rec->missed_events))
		return -1;
	/*
	 * Decoded straight into the pipeline's batch, or inline into the
	 * engine's queue: no allocation.
	 */
	ev = slot(r);
	if (!ev)
		return -1;
	return commit(r, rec->ts, fl_decode(&r->dec, rec, ev), ev);
}

/* A record decoded on a decoding thread (pardecode.h), in merge order. */
static int on_item(const struct fl_par_item *it, void *arg)
{
	struct fl_reader *r = arg;
	struct fa_event *ev;

	fl_guard_progress++;
	if (count(r, it->missed))
		return -1;
	if (it->got <= 0)
		return commit(r, it->ts, it->got, NULL);
	ev = slot(r);
	if (!ev)
		return -1;
	memcpy(ev, &it->ev, fa_event_bytes(&it->ev));
	return commit(r, it->ts, it->got, ev);
}

/* Decoding records of one CPU on a decoding thread, into a slot. */
struct fill {
	const struct fl_decoder *dec;
	struct fl_par_item *it;
	int n;
};

static int decode_one(struct tep_record *rec, void *arg)
{
	struct fill *f = arg;
	struct fl_par_item *it = &f->it[f->n++];

	it->ts = rec->ts;
	it->missed = rec->missed_events;
	fl_guard_local_ours = 1;
	it->got = fl_decode(f->dec, rec, &it->ev);
	fl_guard_local_ours = 0;
	return 0;
}

static int zfill(void *src, void *work, int i, struct fl_par_item *it, int cap,
		 int *n, char *err, size_t errlen)
{
	struct fl_reader *r = src;
	struct fill f = { &r->dec, it, 0 };
	int ret = fl_zpages_walk(r->z, work, i, decode_one, &f, cap);

	*n = f.n;
	if (ret < 0)
		snprintf(err, errlen, "%s", fl_zwork_error(work));
	return ret;
}

static void *zwork_new(void *src)
{
	return fl_zwork_new(((struct fl_reader *)src)->z);
}

static void zwork_free(void *src, void *work)
{
	fl_zwork_free(((struct fl_reader *)src)->z, work);
}

static int decode_threads(const struct fl_reader *r)
{
	const char *env = getenv("FAIRLAB_THREADS");
	long n = fl_threads;

	if (env && !strcmp(env, "0"))
		return 1;	/* no thread besides the caller's */
	if (n <= 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n > FL_DEFAULT_THREADS)
			n = FL_DEFAULT_THREADS;
	}
	if (n > r->info.nr_cpus)
		n = r->info.nr_cpus;
	return n > 1 ? (int)n : 1;
}

/* The zstd streams on decoding threads; 1: one thread (fl_zpages_iterate()). */
static int iterate_parallel(struct fl_reader *r, char *err, size_t errlen)
{
	const struct fl_par_src src = {
		.streams = fl_zpages_streams(r->z), .src = r, .work_new = zwork_new,
		.work_free = zwork_free, .fill = zfill,
	};
	int ret;

	r->threads = decode_threads(r);
	if (r->threads < 2)
		return 1;
	/* Our code throughout: pardecode.c watches its threads itself. */
	fl_guard_ours = 1;
	ret = fl_par_run(&src, r->threads, on_item, r, err, errlen);
	fl_guard_ours = 0;
	if (ret == -4)
		r->z_left = true;	/* a stalled decoding thread may still use r */
	return ret < 0 ? -1 : 0;
}

/* libtracecmd calls this for every record: our code, for the guard. */
static int on_record(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *arg)
{
	int ret;

	(void)h;
	(void)cpu;
	fl_guard_ours = 1;
	fl_guard_progress++;
	ret = record(arg, rec);
	fl_guard_ours = 0;
	return ret;
}

/* The same for fl_pages_iterate(). */
static int on_page_record(struct tep_record *rec, void *arg)
{
	return on_record(NULL, rec, rec->cpu, arg);
}

/*
 * Every record to on_record(): from the zstd chunks (zpages.h), or page
 * by page (pages.h) unless FAIRLAB_PAGES=0 or the file needs
 * libtracecmd's timestamp corrections: then record by record.
 */
static int iterate(struct fl_reader *r, char *err, size_t errlen)
{
	const char *env = getenv("FAIRLAB_PAGES");
	int ret = FL_PAGES_UNSUPPORTED;

	if (r->z) {
		ret = iterate_parallel(r, err, errlen);
		if (ret != 1)
			return ret;
		return fl_zpages_iterate(r->z, on_page_record, r, err, errlen);
	}
	if (!env || strcmp(env, "0"))
		ret = fl_pages_iterate(r->h, &r->pages, on_page_record, r, err, errlen);
	fl_pages_free(r->pages);
	r->pages = NULL;
	if (ret == FL_PAGES_UNSUPPORTED)
		ret = tracecmd_iterate_events(r->h, NULL, 0, on_record, r);
	return ret;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * FAIRLAB_PROFILE=1: where the reading thread's time went, on stderr
 * (the engine runs on its own thread meanwhile, tools/reader/pipe.h).
 */
static void profile(const struct fl_reader *r, double secs)
{
	const struct fl_zstats *z;

	if (!getenv("FAIRLAB_PROFILE"))
		return;
	fprintf(stderr, "fairlab profile: read %llu records in %.3f s (%.2f M records/s), %s\n",
		(unsigned long long)r->info.records, secs,
		secs > 0 ? (double)r->info.records / secs / 1e6 : 0.0,
		r->z ? "zstd chunks read in place" :
		r->info.compression[0] ? "through an uncompressed copy or libtracecmd" :
		"through libtracecmd's mapping");
	if (!r->z) {
		if (r->z_why[0])
			fprintf(stderr, "fairlab profile: not read in place: %s\n", r->z_why);
		return;
	}
	z = fl_zpages_stats(r->z);
	if (r->threads > 1) {
		const struct fl_par_stats *ps = fl_par_last_stats();

		fprintf(stderr, "fairlab profile: CPU seconds per stage: %d decoding threads (pread, zstd, kbuffer, decode; slots of %d records) %.3f s in all; the merge (and hand-off to the engine) %.3f s on one thread, which waited %.3f s (wall) for the decoding threads; the engine %.3f s on one thread\n",
			ps->threads, ps->items, ps->decode_cpu_secs, ps->merge_cpu_secs,
			ps->merge_wait_secs, fl_pipe_engine_cpu_secs());
	}
	fprintf(stderr, "fairlab profile: %llu chunks, %.1f MB compressed -> %.1f MB; pread %.3f s; ZSTD_decompressDCtx %.3f s (%.0f MB/s of output)",
		z->chunks, (double)z->zbytes / 1e6, (double)z->bytes / 1e6, z->read_secs,
		z->decompress_secs,
		z->decompress_secs > 0 ? (double)z->bytes / z->decompress_secs / 1e6 : 0.0);
	/* on decoding threads, those times are theirs, summed: no "rest" */
	if (r->threads > 1)
		fprintf(stderr, ", on the decoding threads\n");
	else
		fprintf(stderr, "; the rest (pages, merge, decode, hand-off to the engine) %.3f s\n",
			secs - z->read_secs - z->decompress_secs);
}

int fl_reader_run(struct fl_reader *r, struct fa_engine *e, char *err,
		  size_t errlen)
{
	unsigned int secs = fl_guard_stall_secs();
	double t0 = now();
	int ret, jumped;

	r->e = e;
	r->pipe = fl_pipe_start(e);
	jumped = sigsetjmp(fl_guard_env, 1);
	if (jumped) {
		fl_guard_disarm();
		fl_pages_free(r->pages);
		r->pages = NULL;
		if (r->pipe)
			fl_pipe_abort(r->pipe);
		r->pipe = NULL;
		r->abandoned = true;
		if (jumped == FL_GUARD_STALL)
			snprintf(err, errlen, "libtraceevent made no progress for %u s decoding the records after record %llu (a corrupt ring-buffer page makes it loop)",
				 secs, (unsigned long long)r->info.records);
		else
			snprintf(err, errlen, "libtraceevent faulted decoding the records after record %llu (a corrupt ring-buffer page)",
				 (unsigned long long)r->info.records);
		return -1;
	}
	fl_guard_arm(secs);
	err[0] = '\0';
	ret = iterate(r, err, errlen);
	fl_guard_disarm();
	t0 = now() - t0;
	if (r->pipe && fl_pipe_finish(r->pipe))
		r->engine_failed = true;
	r->pipe = NULL;
	profile(r, t0);
	if (r->looped) {
		snprintf(err, errlen, "libtraceevent delivered more records than the file's %d CPU data sections can hold (a corrupt ring-buffer page makes it re-read records)",
			 r->info.nr_cpus);
		return -1;
	}
	if (r->engine_failed || fa_engine_finish(e)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (ret < 0) {
		if (!err[0])
			snprintf(err, errlen, "libtracecmd stopped reading the records (out of memory?)");
		return -1;
	}
	return 0;
}

void fl_reader_close(struct fl_reader *r)
{
	if (!r)
		return;
	if (r->z_left) {
		/*
		 * A stalled decoding thread may come back to r, r->z and the
		 * libraries' handle (fl_par_run()): all left, kept reachable.
		 */
		fl_par_keep(r->z);
		fl_par_keep(r);
		return;
	}
	fl_zpages_free(r->z);
	if (r->abandoned)
		close(r->fd);
	else if (r->h)
		tracecmd_close(r->h);
	free(r);
}

void fl_read_warnings(const struct fl_read_info *in,
		      void (*emit)(const char *msg, void *arg), void *arg)
{
	char msg[256];

	fl_warn_count(emit, arg, in->lost_events,
		      "%llu events lost in the ring buffer: counts, writer switches and errors are incomplete (record with a larger -b)");
	fl_warn_count(emit, arg, in->lost_unknown,
		      "the ring buffer lost events of unknown number before %llu records");
	/*
	 * The saved statistics count the same losses the records mark: a
	 * second warning only when they say more (or the records could
	 * not say how many).
	 */
	if (in->overruns > in->lost_events && (in->lost_events || in->lost_unknown)) {
		snprintf(msg, sizeof(msg), "the saved ring buffer statistics report %llu overrun or dropped events, %llu more than the records mark",
			 (unsigned long long)in->overruns,
			 (unsigned long long)(in->overruns - in->lost_events));
		emit(msg, arg);
	} else if (in->overruns > in->lost_events) {
		fl_warn_count(emit, arg, in->overruns,
			      "the saved ring buffer statistics report %llu overrun or dropped events: counts, writer switches and errors are incomplete (record with a larger -b)");
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
	if (in->audits && !in->audit_snap_ns) {
		emit("the tg_audit records carry no snap_ns (an older fairlab_trace.ko): each audit is placed at its record's time, after its snapshot, so tg_update records in between count in the wrong audit window: audit windows are approximate",
		     arg);
	} else if (in->audits && strcmp(in->clock, "mono")) {
		snprintf(msg, sizeof(msg), "tg_audit's snap_ns is a mono clock time, the recording's clock is '%s': audits are placed at their records' times, audit windows are approximate (record with -C mono)",
			 in->clock[0] ? in->clock : "unknown");
		emit(msg, arg);
	}
	if (in->copy_failed) {
		emit("no uncompressed copy could be made in $TMPDIR: the compressed data is read in place, which libtracecmd 1.3 does slowly and with memory growing with the recording",
		     arg);
	}
	fl_warn_count(emit, arg, in->short_records,
		      "%llu fairlab records shorter than their format were skipped (corrupt data)");
	if (in->parse_failures > 0)
		fl_warn_count(emit, arg, (unsigned long long)in->parse_failures,
			      "%llu event formats in the file could not be parsed");
}
