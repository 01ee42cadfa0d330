/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairlab.ko's klp system state, for livepatches loaded after it.
 *
 * fairlab's policies may hold back part of each cfs_rq's load from
 * tg->load_avg; fairlab publishes it when it is unpatched (post_unpatch).
 * A livepatch with atomic replace (.replace = true) takes fairlab's place
 * without running any of fairlab's callbacks, so klp refuses it unless it
 * declares this state (klp_is_patch_compatible(): "a cumulative livepatch
 * must handle all already modified states").  One that declares it should
 * call the handover's publish() from its post_patch callback, while
 * fairlab.ko is still pinned by klp:
 *
 *	static struct klp_state states[] = {
 *		{ .id = FAIRLAB_KLP_STATE_ID, .version = FAIRLAB_KLP_STATE_VERSION },
 *		{ }
 *	};
 *	static void post_patch(struct klp_object *obj)
 *	{
 *		struct klp_state *s = klp_get_prev_state(FAIRLAB_KLP_STATE_ID);
 *		struct fairlab_klp_handover *h = s ? s->data : NULL;
 *
 *		if (h)
 *			h->publish();
 *	}
 */
#ifndef FAIRLAB_KLP_H
#define FAIRLAB_KLP_H

#define FAIRLAB_KLP_STATE_ID		0x666c6162UL	/* "flab" */
#define FAIRLAB_KLP_STATE_VERSION	1

struct fairlab_klp_handover {
	/* publish what fairlab held back; process context, may sleep */
	void (*publish)(void);
};

#endif /* FAIRLAB_KLP_H */
