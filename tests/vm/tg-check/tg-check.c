// SPDX-License-Identifier: GPL-2.0
/*
 * tg-check: host-side checks of a fairlab recording (trace.dat) for the tg
 * VM scenarios (tests/vm/scenarios/tg-*).  Reads the file with
 * libtracecmd, without plugins, and prints TAP-like "ok - " / "not ok - "
 * lines; exits 1 if any check failed, 2 on usage or read errors.
 *
 *   tg-check [options] FILE.dat
 *
 *   --complete          audit-pair completeness: for every pair of
 *                       consecutive audits and every group present in the
 *                       second, tg_load_avg(2) - tg_load_avg(1) (0 for a
 *                       group born in between) == sum of the written deltas
 *                       recorded in between, exactly.  Each group's row
 *                       is placed in time by its snap_ns (the time its
 *                       batch was read with every rq lock held: no
 *                       tg_update can straddle it; the recording must use
 *                       the mono clock, trace-cmd record -C mono): the
 *                       group's written records with a timestamp below
 *                       snap_ns are in that snapshot.
 *   --min-pairs N       at least N audit pairs (default 1)
 *   --rules             every attempt's "written" against the policy rule,
 *                       twice: the kernel's own fl_tg_decide() (policy.c,
 *                       linked in) and an independent re-statement of the
 *                       rules in README.md's "Policies" table; resync records (site 15) must be
 *                       written with delta != 0, clear_tg_load_avg records
 *                       (site 16, CPU offline, 6.8+) written with load 0
 *                       and delta = -contrib: neither is a decision.
 *   --need POL,...      these canonical policies must have attempts
 *   --more 'A>B'        policy A writes more than policy B per attempt
 *                       (per second of its segments is printed too)
 *   --ratelimit         every written record under ratelimit:US has
 *                       since_ns >= US*1000, and consecutive writes of one
 *                       (tg, cfs_cpu) are >= US*1000 apart in trace time
 *                       (minus --gap-slack NS, default 4 ms), for the
 *                       pairs --gap-check local|all|note selects (see the
 *                       note on clocks at check_ratelimit())
 *   --table             print the per-policy table
 *   --kernel RELEASE    the recording's kernel (uname -r, e.g.
 *                       6.12.117+deb12-amd64): stock is that kernel's own
 *                       rule (see stock_gate_for()); default 6.1's
 *
 * Lost events make every check meaningless: any missed-events mark or
 * buffer overrun in the file is a failure, never a skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>
#include "policy.h"

struct upd {
	u64 ts, tg, load, contrib, since;
	s64 delta, tla;
	u32 arg;
	s32 cfs_cpu;
	u16 nr_cpus;
	u8 site, policy, written, cpu;
};

struct aud {
	u64 ts, seq, tg;
	s64 tla, sum_contrib;
	u64 sum_load, snap;
};

struct sw {
	u64 ts;
	u32 old_arg, new_arg;
	u8 kind, old_id, new_id;
};

struct info {
	u64 tg, parent;
	u32 level;
};

#define VEC(T) struct { T *v; size_t n, cap; }
#define PUSH(vec, x) do {						\
	if ((vec).n == (vec).cap) {					\
		(vec).cap = (vec).cap ? 2 * (vec).cap : 4096;		\
		(vec).v = realloc((vec).v, (vec).cap * sizeof(*(vec).v)); \
		if (!(vec).v) { perror("realloc"); exit(2); }		\
	}								\
	(vec).v[(vec).n++] = (x);					\
} while (0)

static VEC(struct upd) U;
static VEC(struct aud) A;
static VEC(struct sw) S;
static VEC(struct info) INFO;
static u64 missed, missed_unknown, unsorted;
static u64 last_ts;
static int failed;

static struct tep_handle *tep;
static struct tep_event *ev_upd, *ev_aud, *ev_sw, *ev_info;
static struct tep_format_field *f_upd[12], *f_aud[7], *f_sw[5], *f_info[3];
/* tg_audit rows flagged checked=0 (no exact cut), left out of every check */
static size_t aud_unchecked;

static void ok(const char *fmt, ...)
{
	va_list ap;

	printf("ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void nok(const char *fmt, ...)
{
	va_list ap;

	printf("not ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed = 1;
}

static void note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static struct tep_format_field *field(struct tep_event *e, const char *name)
{
	struct tep_format_field *f = tep_find_field(e, name);

	if (!f) {
		fprintf(stderr, "tg-check: event %s has no field %s\n",
			e->name, name);
		exit(2);
	}
	return f;
}

static u64 num(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	tep_read_number_field(f, r->data, &v);
	return v;
}

static const char *const upd_fields[12] = {
	"tg", "load", "contrib", "delta", "tg_load_avg", "since_ns", "arg",
	"cfs_cpu", "nr_cpus", "site", "policy", "written",
};

static void setup_events(void)
{
	static const char *const aud_fields[7] = {
		"seq", "tg", "tg_load_avg", "sum_contrib", "sum_load", "snap_ns",
		"checked" };
	static const char *const sw_fields[5] = {
		"kind", "old_policy", "old_arg", "new_policy", "new_arg" };
	static const char *const info_fields[3] = { "tg", "parent", "level" };
	int i;

	ev_upd = tep_find_event_by_name(tep, "fairlab", "tg_update");
	ev_aud = tep_find_event_by_name(tep, "fairlab", "tg_audit");
	ev_sw = tep_find_event_by_name(tep, "fairlab", "policy_switch");
	ev_info = tep_find_event_by_name(tep, "fairlab", "tg_info");
	if (ev_upd)
		for (i = 0; i < 12; i++)
			f_upd[i] = field(ev_upd, upd_fields[i]);
	if (ev_aud) {
		for (i = 0; i < 6; i++)
			f_aud[i] = field(ev_aud, aud_fields[i]);
		/* newer fairlab.ko only */
		f_aud[6] = tep_find_field(ev_aud, aud_fields[6]);
	}
	if (ev_sw)
		for (i = 0; i < 5; i++)
			f_sw[i] = field(ev_sw, sw_fields[i]);
	if (ev_info)
		for (i = 0; i < 3; i++)
			f_info[i] = field(ev_info, info_fields[i]);
}

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu,
		     void *arg)
{
	int id;

	(void)h;
	(void)arg;
	if (r->missed_events > 0)
		missed += (u64)r->missed_events;
	else if (r->missed_events < 0)
		missed_unknown++;
	if (r->ts < last_ts)
		unsorted++;
	last_ts = r->ts;
	id = tep_data_type(tep, r);
	if (ev_upd && id == ev_upd->id) {
		struct upd u;

		u.ts = r->ts;
		u.cpu = (u8)cpu;
		u.tg = num(f_upd[0], r);
		u.load = num(f_upd[1], r);
		u.contrib = num(f_upd[2], r);
		u.delta = (s64)num(f_upd[3], r);
		u.tla = (s64)num(f_upd[4], r);
		u.since = num(f_upd[5], r);
		u.arg = (u32)num(f_upd[6], r);
		u.cfs_cpu = (s32)(u32)num(f_upd[7], r);
		u.nr_cpus = (u16)num(f_upd[8], r);
		u.site = (u8)num(f_upd[9], r);
		u.policy = (u8)num(f_upd[10], r);
		u.written = (u8)num(f_upd[11], r);
		PUSH(U, u);
	} else if (ev_aud && id == ev_aud->id) {
		struct aud a = {
			.ts = r->ts, .seq = num(f_aud[0], r),
			.tg = num(f_aud[1], r), .tla = (s64)num(f_aud[2], r),
			.sum_contrib = (s64)num(f_aud[3], r),
			.sum_load = num(f_aud[4], r),
			.snap = num(f_aud[5], r),
		};
		if (f_aud[6] && !num(f_aud[6], r))
			aud_unchecked++;
		else
			PUSH(A, a);
	} else if (ev_sw && id == ev_sw->id) {
		struct sw s = {
			.ts = r->ts, .kind = (u8)num(f_sw[0], r),
			.old_id = (u8)num(f_sw[1], r),
			.old_arg = (u32)num(f_sw[2], r),
			.new_id = (u8)num(f_sw[3], r),
			.new_arg = (u32)num(f_sw[4], r),
		};
		PUSH(S, s);
	} else if (ev_info && id == ev_info->id) {
		struct info i = { num(f_info[0], r), num(f_info[1], r),
				  (u32)num(f_info[2], r) };
		PUSH(INFO, i);
	}
	return 0;
}

/* ------------------------------------------------------------ helpers */

static const char *pname(u32 id, u32 arg)
{
	static char buf[8][40];
	static int k;
	struct fl_tg_policy p = { id, arg };
	char *b = buf[k++ & 7];

	if (id >= FL_TG_NR_POLICIES)
		snprintf(b, 40, "policy#%u:%u", id, arg);
	else
		fl_tg_policy_format(&p, b, 40);
	return b;
}

static int cmp_upd_ts(const void *a, const void *b)
{
	const struct upd *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_aud_ts(const void *a, const void *b)
{
	const struct aud *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static const struct info *find_info(u64 tg)
{
	size_t i;

	for (i = INFO.n; i-- > 0;)
		if (INFO.v[i].tg == tg)
			return &INFO.v[i];
	return NULL;
}

/* --------------------------------------------------- (a) completeness */

struct audit {
	u64 seq, t_first, snap_lo, snap_hi;
	size_t first, n;	/* range in A (sorted by ts, grouped by seq) */
};

/* A written delta, for sums per group over a time window. */
struct wd {
	u64 tg, ts;
	s64 delta;
};

static int cmp_wd(const void *a, const void *b)
{
	const struct wd *x = a, *y = b;

	if (x->tg != y->tg)
		return x->tg < y->tg ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_aud_tg(const void *a, const void *b)
{
	const struct aud *x = a, *y = b;

	return x->tg < y->tg ? -1 : x->tg > y->tg;
}

/* First index in W[lo, hi) of group tg with ts >= t (W sorted by tg, ts). */
static size_t wd_lower(const struct wd *w, size_t n, u64 tg, u64 t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w[mid].tg < tg || (w[mid].tg == tg && w[mid].ts < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The row of group tg in audit a (its rows sorted by tg), or NULL. */
static const struct aud *aud_find(const struct audit *a, u64 tg)
{
	struct aud key = { .tg = tg };

	return bsearch(&key, &A.v[a->first], a->n, sizeof(key), cmp_aud_tg);
}

static void check_complete(unsigned int min_pairs)
{
	VEC(struct audit) au = { 0 };
	VEC(struct wd) W = { 0 };
	size_t i, j, pairs = 0, checked = 0, born = 0, auto_n = 0, deep = 0,
		vanished = 0, bad = 0, inv_bad = 0, inv_rows = 0;
	u64 nwritten = 0;

	if (!ev_aud || !f_aud[5]) {
		nok("complete: recording lacks %s", !ev_aud ?
		    "fairlab:tg_audit" : "the snap_ns field of fairlab:tg_audit");
		return;
	}
	qsort(A.v, A.n, sizeof(*A.v), cmp_aud_ts);
	/* group audit rows by seq (consecutive in time), then sort by tg */
	for (i = 0; i < A.n; i = j) {
		struct audit a = { A.v[i].seq, A.v[i].ts, ~0ULL, 0, i, 0 };

		for (j = i; j < A.n && A.v[j].seq == a.seq; j++) {
			a.snap_lo = A.v[j].snap < a.snap_lo ? A.v[j].snap : a.snap_lo;
			a.snap_hi = A.v[j].snap > a.snap_hi ? A.v[j].snap : a.snap_hi;
		}
		a.n = j - i;
		PUSH(au, a);
	}
	for (i = 0; i < au.n; i++) {
		if (au.v[i].snap_hi > au.v[i].t_first || !au.v[i].snap_lo) {
			nok("complete: audit seq %" PRIu64 ": snap_ns %" PRIu64
			    "..%" PRIu64 " not before its records (%" PRIu64
			    "): not recorded with -C mono?", au.v[i].seq,
			    au.v[i].snap_lo, au.v[i].snap_hi, au.v[i].t_first);
			return;
		}
		if (i && au.v[i].snap_lo <= au.v[i - 1].snap_hi) {
			nok("complete: audits %" PRIu64 " and %" PRIu64 " overlap in time",
			    au.v[i - 1].seq, au.v[i].seq);
			return;
		}
	}
	/* invariant in every audit */
	for (i = 0; i < A.n; i++) {
		inv_rows++;
		if (A.v[i].tla != A.v[i].sum_contrib && inv_bad++ < 3)
			note("audit seq %" PRIu64 " tg %" PRIx64 ": tg_load_avg %" PRId64
			     " != sum_contrib %" PRId64, A.v[i].seq, A.v[i].tg,
			     A.v[i].tla, A.v[i].sum_contrib);
	}
	if (aud_unchecked)
		note("%zu audit rows flagged unchecked (no exact cut) left out",
		     aud_unchecked);
	if (inv_bad)
		nok("invariant: %zu of %zu audit rows have tg_load_avg != sum_contrib",
		    inv_bad, inv_rows);
	else
		ok("invariant: tg_load_avg == sum_contrib in all %zu rows of %zu audits",
		   inv_rows, au.n);
	for (i = 0; i < au.n; i++)
		qsort(&A.v[au.v[i].first], au.v[i].n, sizeof(*A.v), cmp_aud_tg);

	for (i = 0; i < U.n; i++)
		if (U.v[i].written) {
			struct wd w = { U.v[i].tg, U.v[i].ts, U.v[i].delta };

			PUSH(W, w);
		}
	if (W.n)
		qsort(W.v, W.n, sizeof(*W.v), cmp_wd);
	for (i = 0; i + 1 < au.n; i++) {
		const struct audit *a1 = &au.v[i], *a2 = &au.v[i + 1];
		size_t wbad = 0, wchecked = 0;
		u64 wn = 0;

		for (j = a2->first; j < a2->first + a2->n; j++) {
			const struct aud *r2 = &A.v[j], *r1 = aud_find(a1, r2->tg);
			const struct info *in;
			size_t lo, hi, l;
			s64 want, got = 0;

			/*
			 * The group's written deltas between its two snapshots;
			 * a group missing from the first was born after that
			 * walk began (groups join task_groups at its head),
			 * so all of its deltas before the second count.
			 */
			lo = r1 ? wd_lower(W.v, W.n, r2->tg, r1->snap) :
				  wd_lower(W.v, W.n, r2->tg, 0);
			hi = wd_lower(W.v, W.n, r2->tg, r2->snap);
			for (l = lo; l < hi; l++)
				got += W.v[l].delta;
			wn += hi - lo;
			want = r2->tla - (r1 ? r1->tla : 0);
			wchecked++;
			born += !r1;
			auto_n += !!(r2->tg & FL_TG_AUTOGROUP_FLAG);
			in = find_info(r2->tg);
			deep += in && in->level >= 3;
			if (want != got && wbad++ < 5)
				note("audits %" PRIu64 "->%" PRIu64 " tg %" PRIx64
				     ": tg_load_avg %" PRId64 " -> %" PRId64
				     " (%+" PRId64 "), traced written deltas %+" PRId64
				     " in %zu records%s",
				     a1->seq, a2->seq, r2->tg,
				     r1 ? r1->tla : 0, r2->tla, want, got,
				     hi - lo, r1 ? "" : " (born in between)");
		}
		for (j = a1->first; j < a1->first + a1->n; j++)
			vanished += !aud_find(a2, A.v[j].tg);
		note("audits %" PRIu64 " -> %" PRIu64 ": %.3f s, %" PRIu64
		     " written records, %zu groups checked, %zu differ",
		     a1->seq, a2->seq, (a2->snap_lo - a1->snap_lo) / 1e9, wn,
		     wchecked, wbad);
		pairs++;
		checked += wchecked;
		bad += wbad;
		nwritten += wn;
	}
	note("%zu group checks: %zu autogroup, %zu at cgroup level >= 3, %zu born "
	     "between audits; %zu groups vanished between audits (not checkable)",
	     checked, auto_n, deep, born, vanished);
	if (pairs < min_pairs)
		nok("complete: %zu audit pairs, want >= %u", pairs, min_pairs);
	else if (!checked || !nwritten)
		nok("complete: nothing to check (%zu groups, %" PRIu64 " writes)",
		    checked, nwritten);
	else if (bad)
		nok("complete: %zu of %zu group checks: delta tg->load_avg between "
		    "audits != sum of traced written deltas", bad, checked);
	else
		ok("complete: delta tg->load_avg == sum of traced written deltas, "
		   "exactly, for all %zu group checks over %zu audit pairs "
		   "(%" PRIu64 " written records)", checked, pairs, nwritten);
	if (!auto_n)
		nok("complete: no autogroup was checked");
	if (!deep)
		nok("complete: no group at cgroup level 3 was checked (tg_info recorded?)");
	free(W.v);
	free(au.v);
}

/* ----------------------------------------------------------- (b) rules */

/*
 * stock's time gate in us on the recording's kernel, from its release
 * alone (not from the module): Linux 6.7 (1528c661c24b, "sched/fair:
 * Ratelimit update to tg->load_avg") made update_tg_load_avg() return
 * while sched_clock_cpu() - cfs_rq->last_update_tg_load_avg < NSEC_PER_MSEC;
 * 6.1.192 has no gate, 6.12.117 has it (both read in Debian's sources).
 * A stock record must carry this gate as its argument.
 */
static u32 stock_gate_us;

static int stock_gate_for(const char *release, u32 *gate_us)
{
	unsigned int major, minor;

	if (sscanf(release, "%u.%u", &major, &minor) != 2)
		return -1;
	*gate_us = major > 6 || (major == 6 && minor >= 7) ? 1000 : 0;
	return 0;
}

/*
 * The rules of README.md's "Policies" table, stated again without policy.c, over the
 * recorded fields (tg_load_avg before = after - written delta), in
 * multiplicative form: for y > 0, |d| > floor(x / y)  <=>  |d| * y > x.
 */
static int indep_decide(const struct upd *u, s64 tla_before)
{
	typedef unsigned __int128 u128;
	u128 ad = u->delta < 0 ? (u128)(-(__int128)u->delta) : (u128)u->delta;
	u128 c = u->contrib, nr = u->nr_cpus ? u->nr_cpus : 1;
	int forced = u->site == FL_SITE_BLOCKED_DIRECT;
	unsigned int lg = 0, n = u->nr_cpus;

	switch (u->policy) {
	case FL_TG_STOCK:		/* 6.7+: not within 1 ms of the last; |d| > contrib/64 */
		if (stock_gate_us && u->since != FL_SINCE_NEVER &&
		    u->since < (u64)stock_gate_us * 1000)
			return 0;
		return ad * 64 > c;
	case FL_TG_FORCE:		/* every attempt */
		return 1;
	case FL_TG_NONZERO:		/* d != 0 */
		return u->delta != 0;
	case FL_TG_RELATIVE:		/* |d| > contrib/N */
		return ad * u->arg > c;
	case FL_TG_TURNER1:		/* |d| > contrib/(8(1+forced)) */
		return ad * (forced ? 16 : 8) > c;
	case FL_TG_TURNER2:		/* divisor forced ? nr_cpus : 8 */
		return ad * (forced ? nr : 8) > c;
	case FL_TG_FIXED:		/* |d| > T */
		return ad > u->arg;
	case FL_TG_LOG2:		/* |d| > B(1+ilog2(nr_cpus)) */
		while (n > 1) {
			n >>= 1;
			lg++;
		}
		return ad > (u128)u->arg * (1 + lg);
	case FL_TG_RATELIMIT:		/* not within US us of the last, then stock */
		if (u->since != FL_SINCE_NEVER && u->since < (u64)u->arg * 1000)
			return 0;
		return ad * 64 > c;
	case FL_TG_BUDGET:		/* |d| > E% of tg_load_avg / nr_cpus */
		if (tla_before <= 0)
			return u->delta != 0;
		return ad * 100 * nr > (u128)tla_before * u->arg;
	}
	return -1;
}

struct pstat {
	u64 attempts, writes, resync, bad_kernel, bad_indep, bad_delta, bad_gate;
	u64 segs_ns;
	int nsegs;
};

#define NPOL 64
static struct { u32 id, arg; struct pstat s; } pols[NPOL];
static int npols;

static struct pstat *pstat(u32 id, u32 arg)
{
	int i;

	for (i = 0; i < npols; i++)
		if (pols[i].id == id && pols[i].arg == arg)
			return &pols[i].s;
	if (npols == NPOL) {
		fprintf(stderr, "tg-check: too many policies\n");
		exit(2);
	}
	pols[npols].id = id;
	pols[npols].arg = arg;
	return &pols[npols++].s;
}

static void count_segments(void)
{
	size_t i;
	u64 end = U.n ? U.v[U.n - 1].ts : 0;
	struct sw *last = NULL;

	/* segment = from a tg policy_switch to the next one; the policy in
	 * force when the recording starts counts from the first record */
	for (i = 0; i < S.n && S.v[i].kind != FL_KIND_TG; i++)
		;
	if (U.n && (i == S.n || U.v[0].ts < S.v[i].ts)) {
		struct pstat *p = pstat(U.v[0].policy, U.v[0].arg);
		u64 e = i < S.n ? S.v[i].ts : end;

		p->segs_ns += e - U.v[0].ts;
		p->nsegs++;
	}
	for (i = 0; i < S.n; i++) {
		if (S.v[i].kind != FL_KIND_TG)
			continue;
		if (last) {
			struct pstat *p = pstat(last->new_id, last->new_arg);

			p->segs_ns += S.v[i].ts - last->ts;
			p->nsegs++;
		}
		last = &S.v[i];
	}
	if (last && end > last->ts) {
		struct pstat *p = pstat(last->new_id, last->new_arg);

		p->segs_ns += end - last->ts;
		p->nsegs++;
	}
}

static void check_rules(void)
{
	size_t i;
	u64 resync_bad = 0, n = 0, nclear = 0, clear_bad = 0;
	int k;

	for (i = 0; i < U.n; i++) {
		const struct upd *u = &U.v[i];
		struct pstat *p = pstat(u->policy, u->arg);
		s64 before = u->tla - (u->written ? u->delta : 0);
		struct fl_tg_policy pol = { u->policy, u->arg };
		struct fl_tg_input in = {
			.delta = u->delta, .contrib = u->contrib,
			.tg_load_avg = before, .since_ns = u->since,
			.nr_cpus = u->nr_cpus, .site = u->site,
		};
		int want_k, want_i;

		if (u->delta != (s64)(u->load - u->contrib))
			p->bad_delta++;
		if (u->site == FL_SITE_RESYNC) {
			p->resync++;
			if (!u->written || !u->delta)
				if (resync_bad++ < 3)
					note("resync record not written or delta 0: tg %" PRIx64
					     " cpu %d delta %" PRId64 " written %u",
					     u->tg, u->cfs_cpu, u->delta, u->written);
			continue;
		}
		if (u->site == FL_SITE_CLEAR_TG_LOAD_AVG) {
			/* CPU offline: the whole contrib withdrawn, no decision */
			nclear++;
			if ((!u->written || u->load || u->delta != -(s64)u->contrib) &&
			    clear_bad++ < 3)
				note("clear_tg_load_avg record not a write of load 0: tg %" PRIx64
				     " cpu %d load %" PRIu64 " contrib %" PRIu64 " delta %" PRId64
				     " written %u", u->tg, u->cfs_cpu, u->load, u->contrib,
				     u->delta, u->written);
			continue;
		}
		n++;
		p->attempts++;
		p->writes += u->written;
		if (u->policy == FL_TG_STOCK && u->arg != stock_gate_us)
			p->bad_gate++;
		want_k = fl_tg_decide(&pol, &in);
		want_i = indep_decide(u, before);
		if (want_k != u->written && p->bad_kernel++ < 3)
			note("%s: kernel decided written=%u, policy.c says %d: tg %" PRIx64
			     " cfs_cpu %d load %" PRIu64 " contrib %" PRIu64 " delta %" PRId64
			     " tg_load_avg %" PRId64 " since %" PRIu64 " site %u nr_cpus %u",
			     pname(u->policy, u->arg), u->written, want_k, u->tg,
			     u->cfs_cpu, u->load, u->contrib, u->delta, u->tla,
			     u->since, u->site, u->nr_cpus);
		if (want_i != u->written && p->bad_indep++ < 3)
			note("%s: kernel decided written=%u, independent rule says %d: tg %" PRIx64
			     " delta %" PRId64 " contrib %" PRIu64 " tg_load_avg-before %" PRId64
			     " since %" PRIu64 " site %u nr_cpus %u",
			     pname(u->policy, u->arg), u->written, want_i, u->tg,
			     u->delta, u->contrib, before, u->since, u->site,
			     u->nr_cpus);
	}
	for (k = 0; k < npols; k++) {
		struct pstat *p = &pols[k].s;
		const char *nm = pname(pols[k].id, pols[k].arg);

		if (!p->attempts)
			continue;
		if (p->bad_gate)
			nok("rules %s: %" PRIu64 " of %" PRIu64 " attempts recorded with a "
			    "gate other than the kernel's %u us", nm, p->bad_gate,
			    p->attempts, stock_gate_us);
		if (p->bad_kernel || p->bad_indep)
			nok("rules %s: of %" PRIu64 " attempts, %" PRIu64 " disagree with "
			    "fl_tg_decide(), %" PRIu64 " with the independent rule",
			    nm, p->attempts, p->bad_kernel, p->bad_indep);
		else
			ok("rules %s: all %" PRIu64 " attempts (%" PRIu64 " written) follow "
			   "the rule (fl_tg_decide and independent)", nm,
			   p->attempts, p->writes);
		if (p->bad_delta)
			nok("rules %s: %" PRIu64 " records with delta != load - contrib",
			    nm, p->bad_delta);
	}
	if (!n)
		nok("rules: no tg_update attempts recorded");
	if (resync_bad)
		nok("rules: %" PRIu64 " resync records not written (or delta 0)",
		    resync_bad);
	else {
		u64 r = 0;

		for (k = 0; k < npols; k++)
			r += pols[k].s.resync;
		ok("rules: all %" PRIu64 " resync records are written, delta != 0", r);
	}
	if (clear_bad)
		nok("rules: %" PRIu64 " of %" PRIu64 " clear_tg_load_avg records are not "
		    "written with load 0, delta = -contrib", clear_bad, nclear);
	else
		ok("rules: all %" PRIu64 " clear_tg_load_avg records are written with "
		   "load 0, delta = -contrib", nclear);
}

static int parse_pol(const char *s, u32 *id, u32 *arg)
{
	struct fl_tg_policy p;

	if (fl_tg_policy_parse(s, &p))
		return -1;
	*id = p.id;
	/* "stock" is the kernel's rule: recorded with the kernel's gate */
	*arg = p.id == FL_TG_STOCK ? stock_gate_us : p.arg;
	return 0;
}

static void print_table(void)
{
	int k;

	note("%-18s %10s %10s %8s %8s %10s %10s", "policy", "attempts",
	     "writes", "w/att", "seg_s", "att/s", "writes/s");
	for (k = 0; k < npols; k++) {
		struct pstat *p = &pols[k].s;
		double sec = p->segs_ns / 1e9;

		note("%-18s %10" PRIu64 " %10" PRIu64 " %8.4f %8.3f %10.0f %10.0f",
		     pname(pols[k].id, pols[k].arg), p->attempts, p->writes,
		     p->attempts ? (double)p->writes / p->attempts : 0, sec,
		     sec > 0 ? p->attempts / sec : 0, sec > 0 ? p->writes / sec : 0);
	}
}

static void check_more(const char *spec)
{
	char a[48], *b;
	u32 ia, aa, ib, ab;
	struct pstat *pa, *pb;
	double ra, rb, qa, qb;

	snprintf(a, sizeof(a), "%s", spec);
	b = strchr(a, '>');
	if (!b) {
		fprintf(stderr, "tg-check: --more A>B\n");
		exit(2);
	}
	*b++ = '\0';
	if (parse_pol(a, &ia, &aa) || parse_pol(b, &ib, &ab)) {
		fprintf(stderr, "tg-check: --more %s: bad policy\n", spec);
		exit(2);
	}
	pa = pstat(ia, aa);
	pb = pstat(ib, ab);
	if (!pa->attempts || !pb->attempts || !pa->segs_ns || !pb->segs_ns) {
		nok("more %s: no records or segment of %s or %s", spec, a, b);
		return;
	}
	ra = pa->writes / (pa->segs_ns / 1e9);
	rb = pb->writes / (pb->segs_ns / 1e9);
	qa = (double)pa->writes / pa->attempts;
	qb = (double)pb->writes / pb->attempts;
	/*
	 * Per second is only reported: under TCG the attempt rate of one
	 * workload swings by 2x between segments with the host's load, so
	 * writes per attempt is the fair comparison.
	 */
	note("%s vs %s: %.0f vs %.0f writes/s (%.0f vs %.0f attempts/s)", a, b,
	     ra, rb, pa->attempts / (pa->segs_ns / 1e9),
	     pb->attempts / (pb->segs_ns / 1e9));
	if (qa > qb)
		ok("%s writes more than %s per attempt: %.4f > %.4f", a, b, qa, qb);
	else
		nok("%s writes more than %s per attempt: %.4f <= %.4f", a, b, qa, qb);
}

/* ------------------------------------------------------- (c) ratelimit */

struct lastw {
	u64 tg;
	s32 cpu;
	u32 arg;
	u64 ts;
	int used;
	int exec_cpu;
};

struct rlstat {
	u32 arg;
	u64 n, since_bad, gap_bad, pairs, never_bad, gated, attempts;
	u64 lpairs, lgap_bad, lmin_gap, raw_bad;
	u64 min_since, min_gap;
	s64 maxdiff, mindiff;
};

/*
 * Clocks.  since_ns comes from sched_clock_cpu(cfs_cpu) at the decision
 * (as 6.7's update_tg_load_avg() does).  With a stable TSC that is the
 * same time base as the trace clocks; under TCG the kernel marks
 * sched_clock unstable and sched_clock_cpu() becomes a per-CPU filtered
 * clock, clamped to [tick time, tick time + TICK_NSEC]: when a vCPU's
 * tick comes late it stalls, then jumps.  Measured in a mono-clock trace
 * it can be milliseconds (a whole tick and more when the vCPU is starved)
 * off, so a mono trace gap between two writes is no proof either way.
 *
 * --gap-check local (record with -C perf: the trace clock is then
 * local_clock() = sched_clock_cpu(this CPU), the policy's own clock):
 * pairs of consecutive writes of one cfs_rq that both ran on the cfs_rq's
 * CPU are in one clock domain; their trace gap must be >= the interval
 * minus --gap-slack.  Even there the stamps are not the decision's clock
 * reads (they come a little later, and a stalled-then-jumping clock or the
 * ring buffer's handling of nested events can put two writes of one rq-lock
 * section, microseconds apart, at one timestamp while since_ns differs by
 * a millisecond): use one tick (TICK_NSEC, 4 ms at HZ=250) as the slack;
 * intervals shorter than twice the slack are reported, not asserted.
 * Other pairs, and every pair with --gap-check note, are only reported.
 * --gap-check all: every pair must pass (same-clock recordings only).
 */
static int gap_mode = 1;	/* 0 note, 1 local, 2 all */

static void check_ratelimit(u64 slack)
{
	size_t cap = 1 << 16, i, s;
	struct lastw *t = calloc(cap, sizeof(*t));
	struct rlstat rl[8], *r;
	int nrl = 0, k;

	if (!t) {
		perror("calloc");
		exit(2);
	}
	for (i = 0; i < U.n; i++) {
		const struct upd *u = &U.v[i];
		u64 lim;

		if (u->policy != FL_TG_RATELIMIT || FL_SITE_NO_DECISION(u->site))
			continue;
		for (k = 0; k < nrl && rl[k].arg != u->arg; k++)
			;
		if (k == nrl) {
			if (nrl == 8)
				continue;
			memset(&rl[nrl], 0, sizeof(rl[nrl]));
			rl[nrl].arg = u->arg;
			rl[nrl].min_since = rl[nrl].min_gap = ~0ULL;
			rl[nrl].lmin_gap = ~0ULL;
			nrl++;
		}
		r = &rl[k];
		lim = (u64)u->arg * 1000;
		r->attempts++;
		if (!u->written) {
			/* held back by the time gate alone */
			u64 ad = u->delta < 0 ? -(u64)u->delta : (u64)u->delta;

			if (u->since < lim && ad > u->contrib / 64)
				r->gated++;
			continue;
		}
		r->n++;
		s = (size_t)(((u->tg * 31 + (u64)u->cfs_cpu) * 0x9E3779B97F4A7C15ULL) >> 24) % cap;
		while (t[s].used && (t[s].tg != u->tg || t[s].cpu != u->cfs_cpu ||
				     t[s].arg != u->arg))
			s = (s + 1) % cap;
		if (u->since != FL_SINCE_NEVER) {
			if (u->since < r->min_since)
				r->min_since = u->since;
			if (u->since < lim && r->since_bad++ < 3)
				note("ratelimit:%u: written with since_ns %" PRIu64 " < %" PRIu64
				     ": tg %" PRIx64 " cfs_cpu %d", u->arg, u->since,
				     lim, u->tg, u->cfs_cpu);
		}
		if (t[s].used) {
			u64 gap = u->ts - t[s].ts;
			int local = t[s].exec_cpu == u->cfs_cpu &&
				    u->cpu == u->cfs_cpu;

			r->pairs++;
			if (u->ts < t[s].ts)
				gap = 0;
			if (gap < r->min_gap)
				r->min_gap = gap;
			if (u->since == FL_SINCE_NEVER) {
				if (r->never_bad++ < 3)
					note("ratelimit:%u: tg %" PRIx64 " cfs_cpu %d written "
					     "with since_ns = never, %" PRIu64 " ns after its "
					     "previous write", u->arg, u->tg, u->cfs_cpu, gap);
			} else {
				s64 d = (s64)gap - (s64)u->since;

				if (d > r->maxdiff)
					r->maxdiff = d;
				if (d < r->mindiff)
					r->mindiff = d;
			}
			if (gap + slack < lim)
				r->gap_bad++;
			if (gap < lim)
				r->raw_bad++;
			if (local) {
				r->lpairs++;
				if (gap < r->lmin_gap)
					r->lmin_gap = gap;
			}
			if (gap + slack < lim && (gap_mode == 2 || (gap_mode == 1 && local)) &&
			    r->lgap_bad++ < 3)
				note("ratelimit:%u: tg %" PRIx64 " cfs_cpu %d written twice "
				     "%" PRIu64 " ns apart in trace time (since_ns %" PRIu64
				     ", CPUs %d then %d)", u->arg, u->tg, u->cfs_cpu, gap,
				     u->since, t[s].exec_cpu, u->cpu);
		}
		t[s].used = 1;
		t[s].tg = u->tg;
		t[s].cpu = u->cfs_cpu;
		t[s].arg = u->arg;
		t[s].ts = u->ts;
		t[s].exec_cpu = u->cpu;
	}
	free(t);
	if (!nrl)
		nok("ratelimit: no ratelimit records");
	for (k = 0; k < nrl; k++) {
		r = &rl[k];
		note("ratelimit:%u: %" PRIu64 " attempts, %" PRIu64 " writes, %" PRIu64
		     " held back by the time gate alone; %" PRIu64 " consecutive "
		     "write pairs per (tg, cfs_cpu): min since_ns %" PRIu64
		     ", min trace gap %" PRIu64 " ns, trace gap - since_ns in [%"
		     PRId64 ", %" PRId64 "] ns", r->arg, r->attempts, r->n, r->gated,
		     r->pairs, r->min_since, r->min_gap, r->mindiff, r->maxdiff);
		if (!r->n) {
			nok("ratelimit:%u: no written records", r->arg);
			continue;
		}
		if (r->since_bad)
			nok("ratelimit:%u: %" PRIu64 " of %" PRIu64 " writes with since_ns "
			    "< %u us", r->arg, r->since_bad, r->n, r->arg);
		else
			ok("ratelimit:%u: all %" PRIu64 " writes have since_ns >= %u us",
			   r->arg, r->n, r->arg);
		if (r->never_bad)
			nok("ratelimit:%u: %" PRIu64 " writes treated as a first publish "
			    "(since_ns = never) although the cfs_rq had published "
			    "before", r->arg, r->never_bad);
		note("ratelimit:%u: trace gaps: %" PRIu64 " of %" PRIu64 " pairs < %u us "
		     "(%" PRIu64 " < that - %" PRIu64 " ns slack; all pairs, mixed clock "
		     "domains); %" PRIu64 " pairs ran both writes on the cfs_rq's CPU "
		     "(min gap %" PRIu64 " ns)", r->arg, r->raw_bad, r->pairs, r->arg,
		     r->gap_bad, slack, r->lpairs, r->lmin_gap);
		if (gap_mode == 0)
			continue;
		if ((u64)r->arg * 1000 <= 2 * slack) {
			note("ratelimit:%u: interval within twice the clock uncertainty "
			     "(slack %" PRIu64 " ns): trace gaps reported, not asserted "
			     "(since_ns above is the exact check)", r->arg, slack);
			continue;
		}
		if (!(gap_mode == 2 ? r->pairs : r->lpairs)) {
			nok("ratelimit:%u: no cfs_rq wrote twice: the trace-gap check "
			    "is empty", r->arg);
			continue;
		}
		r->lgap_bad = gap_mode == 2 ? r->gap_bad : r->lgap_bad;
		if (r->lgap_bad)
			nok("ratelimit:%u: %" PRIu64 " consecutive writes of one cfs_rq < %u us "
			    "apart in trace time (%s pairs, slack %" PRIu64 " ns)", r->arg,
			    r->lgap_bad, r->arg, gap_mode == 2 ? "all" : "same-CPU", slack);
		else
			ok("ratelimit:%u: all %" PRIu64 " %s consecutive writes of one cfs_rq "
			   ">= %u us apart in trace time (min %" PRIu64 " ns, slack %" PRIu64
			   " ns)", r->arg, gap_mode == 2 ? r->pairs : r->lpairs,
			   gap_mode == 2 ? "" : "same-CPU", r->arg,
			   gap_mode == 2 ? r->min_gap : r->lmin_gap, slack);
	}
}

/* ---------------------------------------------------------------- main */

static void usage(void)
{
	fprintf(stderr, "usage: tg-check [--complete] [--min-pairs N] [--rules] "
		"[--need P,...] [--more A>B]... [--ratelimit] [--gap-check local|all|note]\n"
		"\t[--gap-slack NS] "
		"[--table] [--kernel RELEASE] FILE.dat\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int do_complete = 0, do_rules = 0, do_rl = 0, do_table = 0, i;
	unsigned int min_pairs = 1;
	const char *need = NULL, *more[8], *file = NULL;
	int nmore = 0;
	u64 slack = 4000000;	/* TICK_NSEC at HZ=250 */
	struct tracecmd_input *h;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--complete"))
			do_complete = 1;
		else if (!strcmp(argv[i], "--rules"))
			do_rules = 1;
		else if (!strcmp(argv[i], "--ratelimit"))
			do_rl = 1;
		else if (!strcmp(argv[i], "--table"))
			do_table = 1;
		else if (!strcmp(argv[i], "--min-pairs") && i + 1 < argc)
			min_pairs = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--gap-check") && i + 1 < argc) {
			i++;
			gap_mode = !strcmp(argv[i], "note") ? 0 :
				   !strcmp(argv[i], "all") ? 2 : 1;
		} else if (!strcmp(argv[i], "--gap-slack") && i + 1 < argc)
			slack = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
			if (stock_gate_for(argv[++i], &stock_gate_us)) {
				fprintf(stderr, "tg-check: --kernel %s: not a release\n",
					argv[i]);
				exit(2);
			}
		} else if (!strcmp(argv[i], "--need") && i + 1 < argc)
			need = argv[++i];
		else if (!strcmp(argv[i], "--more") && i + 1 < argc && nmore < 8)
			more[nmore++] = argv[++i];
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else
			usage();
	}
	if (!file)
		usage();

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		printf("not ok - tg-check: cannot open %s\n", file);
		return 2;
	}
	tep = tracecmd_get_tep(h);
	setup_events();
	if (!ev_upd) {
		printf("not ok - tg-check: %s has no fairlab:tg_update format\n", file);
		return 2;
	}
	if (tracecmd_iterate_events(h, NULL, 0, on_record, NULL) < 0) {
		printf("not ok - tg-check: reading %s failed\n", file);
		return 2;
	}
	note("%s: %zu tg_update, %zu tg_audit, %zu policy_switch, %zu tg_info "
	     "records", file, U.n, A.n, S.n, INFO.n);
	if (unsorted) {
		note("%" PRIu64 " records out of time order: sorting", unsorted);
		qsort(U.v, U.n, sizeof(*U.v), cmp_upd_ts);
	}
	if (missed || missed_unknown)
		nok("no lost events: %" PRIu64 " events lost, %" PRIu64
		    " unknown-size losses: the recording is incomplete", missed,
		    missed_unknown);
	else
		ok("no lost events in %s", file);

	count_segments();
	if (do_complete)
		check_complete(min_pairs);
	if (do_rules)
		check_rules();
	else {
		size_t k;

		for (k = 0; k < U.n; k++) {
			struct pstat *p = pstat(U.v[k].policy, U.v[k].arg);

			if (FL_SITE_NO_DECISION(U.v[k].site)) {
				p->resync += U.v[k].site == FL_SITE_RESYNC;
				continue;
			}
			p->attempts++;
			p->writes += U.v[k].written;
		}
	}
	if (need) {
		char buf[512], *tok, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", need);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			u32 id, arg;

			if (parse_pol(tok, &id, &arg)) {
				fprintf(stderr, "tg-check: --need %s: bad policy\n", tok);
				return 2;
			}
			if (pstat(id, arg)->attempts)
				ok("policy %s has %" PRIu64 " recorded attempts", tok,
				   pstat(id, arg)->attempts);
			else
				nok("policy %s has recorded attempts", tok);
		}
	}
	if (do_table)
		print_table();
	for (i = 0; i < nmore; i++)
		check_more(more[i]);
	if (do_rl)
		check_ratelimit(slack);
	tracecmd_close(h);
	return failed;
}
