// SPDX-License-Identifier: GPL-2.0
/*
 * The contention term of the coherence model (see fa_cont.h).
 */
#include "fa_cont.h"

double fa_cont_window(double n, double lat, double w)
{
	double s, rho, batch, wait;

	if (n <= 0 || lat <= 0)
		return 0;
	s = lat / n;
	rho = w > 0 ? lat / w : 1;
	batch = (n - 1) * s / 2;
	if (rho >= 1) {
		wait = batch;
	} else {
		wait = rho * s / (2 * (1 - rho));
		if (wait > batch)
			wait = batch;
	}
	return lat + n * wait;
}

void fa_cont_close(struct fa_cont_line *l, struct fa_cont_sum *s, u64 w, double k)
{
	if (!l->win)
		return;
	s->ns += fa_cont_window(l->n, l->lat, (double)w);
	s->scaled_ns += fa_cont_window(k * l->n, k * l->lat, (double)w);
	l->win = 0;
	l->n = 0;
	l->lat = 0;
}

void fa_cont_add(struct fa_cont_line *l, struct fa_cont_sum *s, u64 w, double k,
		 u64 ts, double lat)
{
	u64 win = (w ? ts / w : 0) + 1;

	if (l->win != win) {
		fa_cont_close(l, s, w, k);
		l->win = win;
	}
	l->n++;
	l->lat += lat;
}
