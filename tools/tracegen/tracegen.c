// SPDX-License-Identifier: GPL-2.0
/*
 * fl-tracegen: a big trace.dat made from a recorded one, for timing the
 * analyzer at the size a big host records (see usage()).
 *
 * The source's ring-buffer pages are loaded once (memory: the source's
 * size); each output CPU's pages are then written in turn to a temporary
 * file, renumbered for their copy (fields.c) and moved in time
 * (page.c); libtracecmd writes the file around them (headers, formats
 * and command lines copied from the source, then the CPU data, zstd-
 * compressed for version 7), as trace-cmd split does.  Memory stays flat
 * in the output's size; the temporary files take the uncompressed size.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "fields.h"
#include "page.h"
#include "tracecmd_write.h"

#define TRACECMD_FILE_CMD_LINES_STATE	7	/* enum tracecmd_file_states */
#define TRACECMD_OPTION_TRACECLOCK_ID	4	/* enum tracecmd_option_type */

/*
 * libtracecmd's warnings (its weak tracecmd_warning(), replaced here):
 * printed, except the one every version 6 file written without a
 * buffer name gets (trace-output.c, update_buffer_cpu_offset_v6(): the
 * top buffer has no description in v6, and needs none).
 */
void tracecmd_warning(const char *fmt, ...);
void tracecmd_warning(const char *fmt, ...)
{
	va_list ap;

	if (!strncmp(fmt, "Cannot find description for buffer", 34))
		return;
	fputs("fl-tracegen: libtracecmd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: fl-tracegen [OPTION]... SOURCE.dat -o OUTPUT.dat\n"
"\n"
"Writes a valid trace.dat that is SOURCE (a fairlab recording) scaled up:\n"
"its per-CPU streams replicated onto K times the CPUs, and repeated R times\n"
"in time, so that `fairlab report` and `whatif` can be timed on 10^8\n"
"records without recording for hours.\n"
"\n"
"  -o, --output=FILE     the trace.dat to write (required)\n"
"  -f, --format=FMT      v7 (default: version 7, zstd-compressed, what\n"
"                        trace-cmd 3.1 writes) or v6 (version 6, uncompressed)\n"
"  -k, --cpu-copies=K    copies of the source's CPUs side by side (default 1)\n"
"  -r, --repeat=R        copies one after the other in time (default 1)\n"
"  -n, --records=N       repeat as often as needed for at least N records\n"
"                        in all (sets R = ceil(N / (K x source records)))\n"
"  -g, --same-groups     every repetition of copy k reuses copy k's groups:\n"
"                        3 x K groups from analyzer-policies.dat whatever\n"
"                        R, to check that memory does not grow with the\n"
"                        length alone; for memory, not figures (below)\n"
"  -t, --tmpdir=DIR      where the per-CPU data waits before it is written\n"
"                        into OUTPUT (default: OUTPUT's directory; it needs\n"
"                        the uncompressed size, freed at the end)\n"
"  -q, --quiet           no summary on stderr\n"
"  -h, --help            this help\n"
"\n"
"Copy k of K (0 = the source's own) takes source CPU c to CPU c + k x CPUs;\n"
"repetition r starts one source span (first to last record, plus the mean\n"
"interval between records) after repetition r-1.  Each (k, r) is its own\n"
"set of task groups: every group id (tg_update, tg_read, tg_info tg and\n"
"parent, tg_audit) gets (r x K + k) << 40 added (the root group, named at\n"
"level 0, is shared), so each copy's per-cfs_rq contrib sequences, the\n"
"tg_load_avg it publishes and reads, and its audits are the source's own.\n"
"CPU fields (cfs_cpu, pick_idlest's CPUs, cpu_topology's cpu and llc) move\n"
"with the copy, cpu_topology's node by k x (highest node + 1); tg_read's\n"
"per-CPU nr and tg_audit's seq continue across repetitions, snap_ns and\n"
"every timestamp move with the repetition.  policy_switch records are\n"
"copied as they are (the copies switch together).\n"
"\n"
"Preserved: the record mix and every per-copy figure: records x K x R\n"
"exactly; per-CPU record rates (per-CPU order and the records' relative\n"
"timing are the source's); the policy sequence, repeated R times; per\n"
"policy segment, ratios of counts (write%%, switch%%, cross-node share)\n"
"and the shares error's maximum and percentiles.  Not reproduced:\n"
"interactions between copies (they never share a group, so no writer\n"
"switch or line transfer crosses copies, as it would on one big host\n"
"where the same groups span every CPU); time-weighted means over the\n"
"whole trace (a copy's groups live only in their repetition; the gap\n"
"between repetitions moves the shares error's mean by about 1e-5 of it);\n"
"a constant number of groups (it is 3 x K x R from analyzer-policies.dat);\n"
"per-segment counts when the source has records before its first\n"
"policy_switch (in later repetitions they fall into the previous\n"
"repetition's last segment; the whole trace's counts still scale);\n"
"the source's cpustats (lost-event counts), uname and version options.\n"
"\n"
"With --same-groups, group ids get k << 40 only: repetition r's groups are\n"
"repetition 0's, and each repetition starts their contrib and tg_load_avg\n"
"over from the source's first values.  The analyzer then sees moves no\n"
"traced write explains at every repetition's start (audit warnings, an\n"
"error the source does not have there): such a file measures memory and\n"
"speed against length, not the source's figures.\n"
"\n"
"Examples:\n"
"  fl-tracegen -k 2 -r 3 -f v6 tests/data/analyzer-policies.dat -o big.dat\n"
"  fl-tracegen -k 16 -n 100000000 tests/data/analyzer-policies.dat \\\n"
"      -o build/bench/gen/analyzer.zstd.dat\n"
"  fl-tracegen -g -n 8000000 tests/data/analyzer-policies.dat -o long.dat\n");
}

struct source {
	struct tracecmd_input *h;
	int ncpu, page_size;
	unsigned char **pages;	/* per CPU: npages[cpu] pages, back to back */
	size_t *npages;
	struct tg_fields f;
	struct tg_stats s;
};

struct note_arg {
	struct source *src;
	int cpu;
};

static void note(unsigned char *data, int len, uint64_t ts, void *arg)
{
	struct note_arg *a = arg;
	struct tg_stats *s = &a->src->s;

	if (!s->records || ts < s->first_ts)
		s->first_ts = ts;
	if (ts > s->last_ts)
		s->last_ts = ts;
	s->records++;
	if (tg_event_of(&a->src->f, data, len) >= 0)
		s->fairlab_records++;
	tg_note(&a->src->f, s, a->cpu, data, len);
}

/* Copies each CPU's pages into memory (libtracecmd finds them). */
static int load(struct source *src, const char *file)
{
	char err[256];
	struct tep_handle *tep;
	int cpu;

	src->h = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!src->h) {
		fprintf(stderr, "fl-tracegen: %s: not a readable trace.dat\n", file);
		return -1;
	}
	tep = tracecmd_get_tep(src->h);
	src->ncpu = tracecmd_cpus(src->h);
	src->page_size = tracecmd_page_size(src->h);
	if (!tep || src->ncpu <= 0 || src->page_size <= 16) {
		fprintf(stderr, "fl-tracegen: %s: no CPU data\n", file);
		return -1;
	}
	if (tep_is_file_bigendian(tep) || tep_get_long_size(tep) != 8 ||
	    tep_get_header_page_size(tep) != 8) {
		fprintf(stderr, "fl-tracegen: %s: unsupported: only recordings of a 64-bit little-endian kernel are handled\n",
			file);
		return -1;
	}
	if (tg_fields_init(&src->f, tep, err, sizeof(err))) {
		fprintf(stderr, "fl-tracegen: %s: %s\n", file, err);
		return -1;
	}
	src->pages = calloc((size_t)src->ncpu, sizeof(*src->pages));
	src->npages = calloc((size_t)src->ncpu, sizeof(*src->npages));
	src->s.min_nr = calloc((size_t)src->ncpu, sizeof(*src->s.min_nr));
	src->s.max_nr = calloc((size_t)src->ncpu, sizeof(*src->s.max_nr));
	if (!src->pages || !src->npages || !src->s.min_nr || !src->s.max_nr)
		goto nomem;
	for (cpu = 0; cpu < src->ncpu; cpu++) {
		unsigned long long last = ~0ULL;
		size_t cap = 0, i;
		struct tep_record *rec;
		struct note_arg a = { src, cpu };

		for (rec = tracecmd_read_cpu_first(src->h, cpu); rec;
		     rec = tracecmd_read_data(src->h, cpu)) {
			char *page = tracecmd_record_page(src->h, rec);
			char *at = tracecmd_record_offset(src->h, rec);
			unsigned long long off;

			if (!page || !at || at < page) {
				tracecmd_free_record(rec);
				fprintf(stderr, "fl-tracegen: %s: libtracecmd gives no page for a record of CPU %d\n",
					file, cpu);
				return -1;
			}
			off = rec->offset - (unsigned long long)(at - page);
			if (off != last) {
				unsigned char *p;

				if (src->npages[cpu] == cap) {
					cap = cap ? 2 * cap : 64;
					p = realloc(src->pages[cpu], cap * (size_t)src->page_size);
					if (!p) {
						tracecmd_free_record(rec);
						goto nomem;
					}
					src->pages[cpu] = p;
				}
				memcpy(src->pages[cpu] + src->npages[cpu]++ * (size_t)src->page_size,
				       page, (size_t)src->page_size);
				last = off;
			}
			tracecmd_free_record(rec);
		}
		for (i = 0; i < src->npages[cpu]; i++)
			if (tg_page_walk(src->pages[cpu] + i * (size_t)src->page_size,
					 src->page_size, 0, note, &a) < 0) {
				fprintf(stderr, "fl-tracegen: %s: malformed ring-buffer page %zu of CPU %d\n",
					file, i, cpu);
				return -1;
			}
	}
	if (!src->s.fairlab_records) {
		fprintf(stderr, "fl-tracegen: %s: no fairlab records\n", file);
		return -1;
	}
	return 0;
nomem:
	fprintf(stderr, "fl-tracegen: out of memory loading %s\n", file);
	return -1;
}

struct rewrite_arg {
	const struct source *src;
	const struct tg_copy *c;
};

static void rewrite(unsigned char *data, int len, uint64_t ts, void *arg)
{
	struct rewrite_arg *a = arg;

	(void)ts;
	tg_rewrite(&a->src->f, &a->src->s, a->c, data, len);
}

/* Writes output CPU @ocpu's data (copy k = ocpu / ncpu, every r) to @path. */
static int write_cpu(const struct source *src, int ocpu, long copies, long reps,
		     bool same_groups, uint64_t span, const char *path)
{
	int k = ocpu / src->ncpu, cpu = ocpu % src->ncpu;
	size_t ps = (size_t)src->page_size, i;
	unsigned char *buf = malloc(ps);
	FILE *f = fopen(path, "w");
	long r;
	int ret = -1;

	if (!buf || !f) {
		fprintf(stderr, "fl-tracegen: %s: %s\n", path, strerror(errno));
		goto out;
	}
	for (r = 0; r < reps; r++) {
		struct tg_copy c = {
			.cpu_off = (int64_t)k * src->ncpu,
			.node_off = (int64_t)k * (src->s.max_node + 1),
			.group = same_groups ? (uint64_t)k :
				 (uint64_t)r * (uint64_t)copies + (uint64_t)k,
			/* repetition r's reads follow r-1's: nr stays consecutive */
			.nr_off = src->s.min_nr[cpu] ?
				  (uint64_t)r * (src->s.max_nr[cpu] - src->s.min_nr[cpu] + 1) : 0,
			.seq_off = (uint64_t)r * src->s.max_seq,
			.t_off = (uint64_t)r * span,
		};
		struct rewrite_arg a = { src, &c };

		for (i = 0; i < src->npages[cpu]; i++) {
			memcpy(buf, src->pages[cpu] + i * ps, ps);
			tg_page_walk(buf, src->page_size, c.t_off, rewrite, &a);
			if (fwrite(buf, ps, 1, f) != 1) {
				fprintf(stderr, "fl-tracegen: %s: %s\n", path, strerror(errno));
				goto out;
			}
		}
	}
	ret = 0;
out:
	if (f && fclose(f) && !ret) {
		fprintf(stderr, "fl-tracegen: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	free(buf);
	return ret;
}

static long parse_count(const char *opt, const char *arg, long max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);	/* 1e8 as well as 100000000 */
	if (errno || end == arg || *end || v < 1 || v > (double)max || v != (double)(long)v) {
		fprintf(stderr, "fl-tracegen: --%s: not a whole number in 1..%ld: %s\n", opt, max, arg);
		exit(2);
	}
	return (long)v;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "cpu-copies", required_argument, NULL, 'k' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "records", required_argument, NULL, 'n' },
	{ "same-groups", no_argument, NULL, 'g' },
	{ "tmpdir", required_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	const char *out = NULL, *tmpdir = NULL, *clock;
	long copies = 1, reps = 1, want = 0, nout = 0, i;
	int version = 7, quiet = 0, opt, ret = 1;
	bool same_groups = false;
	struct source src = { 0 };
	struct tracecmd_output *oh = NULL;
	char **files = NULL, *dir = NULL, clockopt[64];
	uint64_t span;
	double t0 = now(), t1;
	struct stat st;

	while ((opt = getopt_long(argc, argv, "o:f:k:r:n:gt:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'f':
			if (!strcmp(optarg, "v6"))
				version = 6;
			else if (!strcmp(optarg, "v7"))
				version = 7;
			else {
				fprintf(stderr, "fl-tracegen: --format: v6 or v7, not %s\n", optarg);
				return 2;
			}
			break;
		case 'k': copies = parse_count("cpu-copies", optarg, 4096); break;
		case 'r': reps = parse_count("repeat", optarg, 1L << 20); break;
		case 'n': want = parse_count("records", optarg, 1L << 40); break;
		case 'g': same_groups = true; break;
		case 't': tmpdir = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !out) {
		fprintf(stderr, "fl-tracegen: %s\n", !out ? "--output is required" :
			"one SOURCE trace.dat is required");
		usage(stderr);
		return 2;
	}
	if (load(&src, argv[optind]))
		goto done;
	if (want) {
		uint64_t per = src.s.records * (uint64_t)copies;

		reps = (long)(((uint64_t)want + per - 1) / per);
		if (reps > (1L << 20)) {
			fprintf(stderr, "fl-tracegen: --records %ld needs %ld repetitions of the source (more than %ld)\n",
				want, reps, 1L << 20);
			goto done;
		}
	}
	nout = copies * src.ncpu;
	if (nout > 65536) {
		fprintf(stderr, "fl-tracegen: %ld CPUs: too many (65536 at most)\n", nout);
		goto done;
	}
	/* the next repetition starts one mean interval after the last record */
	span = src.s.last_ts - src.s.first_ts +
	       (src.s.last_ts - src.s.first_ts) / src.s.records + 1;
	if (!tmpdir) {
		char *slash;

		dir = strdup(out);
		slash = dir ? strrchr(dir, '/') : NULL;
		if (slash)
			*slash = 0;
		tmpdir = !dir ? "." : slash ? (slash == dir ? "/" : dir) : ".";
	}
	files = calloc((size_t)nout, sizeof(*files));
	if (!files)
		goto done;
	for (i = 0; i < nout; i++) {
		if (asprintf(&files[i], "%s/.fl-tracegen.%d.cpu%ld", tmpdir, (int)getpid(), i) < 0) {
			files[i] = NULL;
			goto done;
		}
		if (write_cpu(&src, (int)i, copies, reps, same_groups, span, files[i]))
			goto done;
	}
	t1 = now();
	oh = tracecmd_copy(src.h, out, TRACECMD_FILE_CMD_LINES_STATE, version,
			   version == 7 ? "zstd" : "none");
	if (!oh) {
		fprintf(stderr, "fl-tracegen: %s: libtracecmd could not start the file (version %d)\n",
			out, version);
		goto done;
	}
	tracecmd_set_quiet(oh, true);	/* no per-CPU summary on stdout */
	/* the source's trace clock ("mono" for fairlab recordings), as recorded */
	clock = tracecmd_get_trace_clock(src.h);
	if (!clock)
		clock = "local";
	tracecmd_set_out_clock(oh, clock);
	snprintf(clockopt, sizeof(clockopt), "[%s]", clock);
	if (!tracecmd_add_option(oh, TRACECMD_OPTION_TRACECLOCK_ID, (int)strlen(clockopt) + 1, clockopt) ||
	    tracecmd_append_cpu_data(oh, (int)nout, files) < 0) {
		fprintf(stderr, "fl-tracegen: %s: libtracecmd could not write the CPU data\n", out);
		tracecmd_output_close(oh);
		unlink(out);
		goto done;
	}
	tracecmd_output_close(oh);
	if (stat(out, &st)) {
		fprintf(stderr, "fl-tracegen: %s: %s\n", out, strerror(errno));
		goto done;
	}
	if (!quiet)
		fprintf(stderr, "fl-tracegen: %s: %" PRIu64 " records (%" PRIu64 " fairlab) on %ld CPUs, %ld x the source's %d CPUs, %ld repetitions of %.3f s%s; %.1f MB (trace.dat v%d%s); per-CPU data %.1f s, file %.1f s\n",
			out, src.s.records * (uint64_t)copies * (uint64_t)reps,
			src.s.fairlab_records * (uint64_t)copies * (uint64_t)reps,
			nout, copies, src.ncpu, reps, (double)span / 1e9,
			same_groups ? ", the same groups in every repetition (-g)" : "",
			(double)st.st_size / 1e6, version, version == 7 ? " zstd" : "",
			t1 - t0, now() - t1);
	ret = 0;
done:
	for (i = 0; files && i < nout; i++) {
		if (files[i])
			unlink(files[i]);
		free(files[i]);
	}
	free(files);
	free(dir);
	for (i = 0; src.pages && i < src.ncpu; i++)
		free(src.pages[i]);
	free(src.pages);
	free(src.npages);
	free(src.s.min_nr);
	free(src.s.max_nr);
	if (src.h)
		tracecmd_close(src.h);
	return ret;
}
