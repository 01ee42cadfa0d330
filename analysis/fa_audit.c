// SPDX-License-Identifier: GPL-2.0
/*
 * tg_audit records: the invariant check of each snapshot, and audit
 * windows (fa_engine.h): does tg->load_avg move between two audits of a
 * group by the sum of the deltas its traced writes added?
 *
 * Placing a snapshot: fairlab.ko reads each group as one consistent cut
 * at its snap_ns (module/audit.c), then writes one record per group; a
 * row it could not prove exact (checked=0) is counted and skipped.  tg_update records between the snapshot
 * (snap_ns) and an audit record have already been counted when the record
 * arrives; the write log (fa_engine_int.h) takes them back out.  Without
 * snap_ns the snapshot is placed at the record's time (approximate).
 */
#include <stdlib.h>

#include "fa_engine_int.h"

void fa_audit_free(struct fa_engine *e)
{
	free(e->wlog.ent);
	e->wlog.ent = NULL;
}

int fa_audit_note_write(struct fa_engine *e, u32 i, s64 delta)
{
	struct fa_wlog *w = &e->wlog;
	struct fa_tg *g = &e->tgtab.tg[i];
	struct fa_wlog_ent *x;

	g->written_sum = add_w(g->written_sum, delta);
	g->written_n++;
	if (!w->ent) {
		w->ent = malloc(FA_WLOG_N * sizeof(*w->ent));
		if (!w->ent)
			return -1;
	}
	if (w->n == FA_WLOG_N) {	/* full: the oldest goes */
		w->dropped = true;
		w->dropped_ts = w->ent[w->head].ts;
		w->head = (w->head + 1) % FA_WLOG_N;
		w->n--;
	}
	x = &w->ent[(w->head + w->n) % FA_WLOG_N];
	x->ts = e->now;
	x->delta = delta;
	x->tg = i;
	w->n++;
	return 0;
}

/*
 * Group @i's written sum and count as they stood at time @t (writes at
 * @t count as before it).  False when writes after @t may have left the
 * log already: then the figures are those of the oldest logged time.
 */
static bool written_at(const struct fa_engine *e, u32 i, u64 t,
		       s64 *sum, u64 *n)
{
	const struct fa_wlog *w = &e->wlog;
	const struct fa_tg *g = &e->tgtab.tg[i];
	u32 k;

	*sum = g->written_sum;
	*n = g->written_n;
	for (k = w->n; k > 0; k--) {
		const struct fa_wlog_ent *x = &w->ent[(w->head + k - 1) % FA_WLOG_N];

		if (x->ts <= t)
			return true;
		if (x->tg == i) {
			*sum = sub_w(*sum, x->delta);
			(*n)--;
		}
	}
	return !w->dropped || w->dropped_ts <= t;
}

int fa_on_tg_audit(struct fa_engine *e, const struct fa_event *ev)
{
	const struct fa_tg_audit *a = &ev->u.tg_audit;
	struct fa_segment *s = &e->seg;
	s64 exact = sub_w(a->tg_load_avg, (s64)a->sum_load);
	struct fa_audit_window win;
	bool placed = a->has_snap && a->snap_ns <= e->now;
	u64 t = placed ? a->snap_ns : e->now, n;
	s64 i = fa_tgtab_get(&e->tgtab, a->tg), sum;
	struct fa_tg *g;
	u64 d;

	if (i < 0)
		return -1;
	if (a->unchecked) {	/* no cut: neither checked nor a window end */
		s->audit_unchecked++;
		return 0;
	}
	g = &e->tgtab.tg[i];
	s->audits++;
	if (a->tg_load_avg != a->sum_contrib)
		s->audit_violations++;
	if (abs_w(exact) > s->audit_max_abs_err)
		s->audit_max_abs_err = abs_w(exact);
	if (!g->timed) {
		s->audit_untracked++;
	} else {
		d = abs_w(sub_w(g->err, exact));
		if (d > s->audit_max_track)
			s->audit_max_track = d;
	}

	/* Where the snapshot lies among the writes. */
	if (!a->has_snap)
		s->audit_at_record++;
	else if (!placed)
		s->audit_unplaced++;	/* a snapshot after its own record */
	if (!written_at(e, (u32)i, t, &sum, &n)) {
		if (placed)
			s->audit_unplaced++;
		placed = false;
	}
	if (g->audited) {
		win = (struct fa_audit_window){
			.tg = a->tg,
			.seq_from = g->audit_seq, .seq_to = a->seq,
			.t_from = g->audit_t, .t_to = t,
			.tla_from = g->audit_tla, .tla_to = a->tg_load_avg,
			.written = sub_w(sum, g->audit_written),
			.writes = n - g->audit_written_n,
			.exact = placed && g->audit_exact,
			.unpatch = e->unpatching,
		};
		s->audit_windows++;
		if (sub_w(win.tla_to, win.tla_from) != win.written) {
			if (win.unpatch)
				s->audit_window_unpatch++;	/* untraced by design */
			else
				s->audit_window_mismatch++;
		}
		if (e->cfg.on_audit_window)
			e->cfg.on_audit_window(&win, e->cfg.arg);
	}
	g->audited = true;
	g->audit_exact = placed;
	g->audit_seq = a->seq;
	g->audit_t = t;
	g->audit_tla = a->tg_load_avg;
	g->audit_written = sum;
	g->audit_written_n = n;
	return 0;
}
