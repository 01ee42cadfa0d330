// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the decoder's optional fields (tools/reader/decode.c):
 * tg_audit's snap_ns, and tg_read's tg_layout fields (at the end).  For snap_ns:
 * formats parsed by libtraceevent as a recording would hold them, with
 * and without the field, and records built by hand.  snap_ns is used
 * only when the recording's clock is mono (the clock it is taken in).
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "../../analysis/test/tap.h"

#define COMMON								\
	"format:\n"							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"	\
	"\tfield:u64 seq;\toffset:8;\tsize:8;\tsigned:0;\n"		\
	"\tfield:u64 tg;\toffset:16;\tsize:8;\tsigned:0;\n"		\
	"\tfield:s64 tg_load_avg;\toffset:24;\tsize:8;\tsigned:1;\n"	\
	"\tfield:s64 sum_contrib;\toffset:32;\tsize:8;\tsigned:1;\n"	\
	"\tfield:u64 sum_load;\toffset:40;\tsize:8;\tsigned:0;\n"

/* fairlab_trace.ko before snap_ns, and after (the field last). */
static const char old_format[] =
	"name: tg_audit\nID: 700\n" COMMON
	"\nprint fmt: \"seq=%llu tg=%llu\", REC->seq, REC->tg\n";
static const char new_format[] =
	"name: tg_audit\nID: 700\n" COMMON
	"\tfield:u64 snap_ns;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\nprint fmt: \"seq=%llu tg=%llu snap_ns=%llu\", REC->seq, REC->tg, REC->snap_ns\n";

/* A tg_audit record: seq 3, group 17, tg_load_avg -5, snapshot at 1000. */
static void make_record(unsigned char *buf, struct tep_record *rec, int size)
{
	unsigned short type = 700;
	unsigned long long seq = 3, tg = 17, sum_load = 9, snap = 1000;
	long long tla = -5, sum = -5;

	memset(buf, 0, 56);
	memcpy(buf, &type, 2);
	memcpy(buf + 8, &seq, 8);
	memcpy(buf + 16, &tg, 8);
	memcpy(buf + 24, &tla, 8);
	memcpy(buf + 32, &sum, 8);
	memcpy(buf + 40, &sum_load, 8);
	memcpy(buf + 48, &snap, 8);
	memset(rec, 0, sizeof(*rec));
	rec->ts = 1500;
	rec->cpu = 2;
	rec->size = size;
	rec->data = buf;
}

/* Decodes the record under @format recorded with @clock; 1 on success. */
static int decode(const char *format, const char *clock, int size,
		  struct fa_event *ev, struct fl_decoder *d)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char buf[64];
	struct tep_record rec;
	char err[256];
	int got;

	if (tep)	/* records built in the host's byte order */
		tep_set_file_bigendian(tep, (enum tep_endian)tep_is_local_bigendian(tep));
	if (!tep || tep_parse_event(tep, format, strlen(format), "fairlab")) {
		ok(0, "libtraceevent parses the format");
		return -2;
	}
	if (fl_decoder_init(d, tep, err, sizeof(err))) {
		ok(0, "decoder init: %s", err);
		tep_free(tep);
		return -2;
	}
	fl_decoder_audit_clock(d, clock);
	make_record(buf, &rec, size);
	memset(ev, 0xa5, sizeof(*ev));
	got = fl_decode(d, &rec, ev);
	tep_free(tep);
	return got;
}

/*
 * tg_read with tg_layout's fields (the reader's domain, s16, and
 * cache_hit) and without them: split_dom is 1 + the domain, 0 for -1
 * (tg->load_avg alone) or no field.
 */
#define RD_COMMON							\
	"format:\n"							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"	\
	"\tfield:u64 tg;\toffset:8;\tsize:8;\tsigned:0;\n"		\
	"\tfield:s64 tg_load_avg;\toffset:16;\tsize:8;\tsigned:1;\n"	\
	"\tfield:u64 load;\toffset:24;\tsize:8;\tsigned:0;\n"		\
	"\tfield:u64 load_avg;\toffset:32;\tsize:8;\tsigned:0;\n"	\
	"\tfield:u64 contrib;\toffset:40;\tsize:8;\tsigned:0;\n"	\
	"\tfield:u64 tg_shares;\toffset:48;\tsize:8;\tsigned:0;\n"	\
	"\tfield:s64 shares;\toffset:56;\tsize:8;\tsigned:1;\n"	\
	"\tfield:u64 nr;\toffset:64;\tsize:8;\tsigned:0;\n"		\
	"\tfield:int cfs_cpu;\toffset:72;\tsize:4;\tsigned:1;\n"

static const char rd_old_format[] =
	"name: tg_read\nID: 701\n" RD_COMMON
	"\nprint fmt: \"tg=%llu\", REC->tg\n";
static const char rd_new_format[] =
	"name: tg_read\nID: 701\n" RD_COMMON
	"\tfield:s16 domain;\toffset:76;\tsize:2;\tsigned:1;\n"
	"\tfield:u8 cache_hit;\toffset:78;\tsize:1;\tsigned:0;\n"
	"\nprint fmt: \"tg=%llu domain=%d\", REC->tg, REC->domain\n";

/* Decodes a tg_read of group 17 on cfs_cpu 3, domain @dom, @hit; 1 on success. */
static int decode_rd(const char *format, short dom, unsigned char hit,
		     struct fa_event *ev)
{
	struct tep_handle *tep = tep_alloc();
	unsigned short type = 701;
	unsigned long long tg = 17;
	unsigned char buf[80];
	struct fl_decoder d;
	struct tep_record rec;
	char err[256];
	int cpu = 3, got;

	if (tep)
		tep_set_file_bigendian(tep, (enum tep_endian)tep_is_local_bigendian(tep));
	if (!tep || tep_parse_event(tep, format, strlen(format), "fairlab") ||
	    fl_decoder_init(&d, tep, err, sizeof(err))) {
		ok(0, "tg_read format parsed and taken");
		if (tep)
			tep_free(tep);
		return -2;
	}
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &type, 2);
	memcpy(buf + 8, &tg, 8);
	memcpy(buf + 72, &cpu, 4);
	memcpy(buf + 76, &dom, 2);
	buf[78] = hit;
	memset(&rec, 0, sizeof(rec));
	rec.size = sizeof(buf);
	rec.data = buf;
	memset(ev, 0xa5, sizeof(*ev));
	got = fl_decode(&d, &rec, ev);
	tep_free(tep);
	return got;
}

static void test_tg_read_domain(void)
{
	struct fa_event ev;

	is_u64((unsigned long long)decode_rd(rd_new_format, 1, 1, &ev), 1, "tg_read, domain 1: decoded");
	is_u64(ev.u.tg_read.split_dom, 2, "tg_read, domain 1: split_dom 2");
	ok(ev.u.tg_read.cache_hit, "tg_read, domain 1: a cache hit");
	is_u64(ev.u.tg_read.cfs_cpu, 3, "tg_read, domain 1: the other fields as before");
	decode_rd(rd_new_format, -1, 0, &ev);
	is_u64(ev.u.tg_read.split_dom, 0, "tg_read, domain -1 (tg->load_avg): split_dom 0");
	ok(!ev.u.tg_read.cache_hit, "tg_read, domain -1: no hit");
	is_u64((unsigned long long)decode_rd(rd_old_format, 1, 1, &ev), 1, "tg_read, old format: decoded");
	is_u64(ev.u.tg_read.split_dom, 0, "tg_read, old format: split_dom 0");
	ok(!ev.u.tg_read.cache_hit, "tg_read, old format: no hit");
	is_u64(ev.u.tg_read.tg, 17, "tg_read, old format: tg");
}

int main(void)
{
	struct fl_decoder d;
	struct fa_event ev;
	int got;

	got = decode(new_format, "mono", 56, &ev, &d);
	is_u64((unsigned long long)got, 1, "snap_ns, mono: a tg_audit record");
	ok(d.has_snap_ns, "snap_ns, mono: the format has snap_ns");
	ok(ev.u.tg_audit.has_snap, "snap_ns, mono: the snapshot time is used");
	is_u64(ev.u.tg_audit.snap_ns, 1000, "snap_ns, mono: snap_ns read");
	is_u64(ev.ts, 1500, "snap_ns, mono: the record keeps its own time");
	is_s64(ev.u.tg_audit.tg_load_avg, -5, "snap_ns, mono: the other fields as before");
	is_u64(ev.u.tg_audit.seq, 3, "snap_ns, mono: seq");

	got = decode(new_format, "local", 56, &ev, &d);
	is_u64((unsigned long long)got, 1, "snap_ns, local clock: decoded");
	ok(!ev.u.tg_audit.has_snap, "snap_ns, local clock: not comparable, not used");

	got = decode(new_format, "mono", 48, &ev, &d);
	is_s64(got, -1, "snap_ns in the format, a record without it: too short, rejected");

	got = decode(old_format, "mono", 48, &ev, &d);
	is_u64((unsigned long long)got, 1, "old format: decoded");
	ok(!d.has_snap_ns, "old format: no snap_ns");
	ok(!ev.u.tg_audit.has_snap, "old format: placed at the record's time");
	is_u64(ev.u.tg_audit.tg, 17, "old format: tg");
	test_tg_read_domain();
	printf("# %d failed\n", tap_failed);
	return tap_failed != 0;
}
