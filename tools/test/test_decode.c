// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the decoder's tg_audit snap_ns (tools/reader/decode.c):
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
	printf("# %d failed\n", tap_failed);
	return tap_failed != 0;
}
