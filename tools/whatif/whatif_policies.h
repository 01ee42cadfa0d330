/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy list of `fairlab whatif`: names as the kernel parses them
 * (fl_tg_policy_parse()), "recorded", and sweeps of a policy's argument.
 */
#ifndef FL_WHATIF_POLICIES_H
#define FL_WHATIF_POLICIES_H

#include "fa_layout.h"
#include "policy.h"

/* More are refused: a typo in a sweep should not take hours. */
#define FL_WHATIF_MAX_POLICIES 4096

/*
 * Policy i under layout lay[i] (fa_layout.h; global unless named
 * "POLICY/LAYOUT", named[i], or --layout expands it: fl_plist_layouts()).
 */
struct fl_policy_list {
	u32 n, cap;
	struct fl_tg_policy *p;
	struct fa_layout *lay;
	bool *named;
};

/*
 * Appends (skipping policies already listed).  Each returns 0, or -1
 * after printing why (a usage error, or out of memory: *oom set).
 */
int fl_plist_add(struct fl_policy_list *l, const struct fl_tg_policy *p, bool *oom);
/* The same under layout @lay; @named: the list named it so ("stock/node"). */
int fl_plist_add_lay(struct fl_policy_list *l, const struct fl_tg_policy *p,
		     const struct fa_layout *lay, bool named, bool *oom);
/*
 * "stock,relative:8,recorded,all,stock/node:1000": all = every policy at
 * its default; POLICY/LAYOUT one under a layout.
 */
int fl_plist_parse(struct fl_policy_list *l, const char *list, bool *oom);
/* "relative:2..64x2", "fixed:0..64*8", "ratelimit:250..8000" (x2). */
int fl_plist_sweep(struct fl_policy_list *l, const char *spec, bool *oom);
/*
 * --layout=LIST ("global,node,llc:1000"): every policy of @l not named
 * with a layout replayed under each layout of @list instead (policy-major
 * order).  0, or -1 after printing why.
 */
int fl_plist_layouts(struct fl_policy_list *l, const char *list, bool *oom);
/* recorded, every policy at its default, and the default sweeps. */
int fl_plist_default(struct fl_policy_list *l, bool *oom);
void fl_plist_free(struct fl_policy_list *l);

/* The default sweeps, for --help. */
extern const char *const fl_whatif_default_sweeps[];

/* "recorded" for FA_REPLAY_RECORDED, else fa_tg_policy_label(). */
const char *fl_whatif_label(const struct fl_tg_policy *p, char *buf, size_t n);
/* The same, "/LAYOUT" added under a split layout (global: no suffix). */
const char *fl_whatif_label_lay(const struct fl_tg_policy *p,
				const struct fa_layout *lay, char *buf, size_t n);

#endif /* FL_WHATIF_POLICIES_H */
