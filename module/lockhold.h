/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockhold.c: one CPU's rq lock held for one bounded batch (after port.h,
 * which brings struct rq and struct rq_flags).
 */
#ifndef FAIRLAB_LOCKHOLD_H
#define FAIRLAB_LOCKHOLD_H

struct fl_rq_hold {
	struct rq *rq;
	struct rq_flags rf;
	u64 t0;
	unsigned int locks;	/* rq locks fairlab held once this one was */
};

void fl_rq_hold_begin(struct fl_rq_hold *h, int cpu);
void fl_rq_hold_end(struct fl_rq_hold *h, unsigned int kind,
		    unsigned int groups);

#endif /* FAIRLAB_LOCKHOLD_H */
