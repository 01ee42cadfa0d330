// SPDX-License-Identifier: GPL-2.0
/*
 * Policy lists for `fairlab whatif` (see whatif_policies.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fa_engine.h"
#include "fa_replay.h"
#include "whatif_policies.h"

/*
 * About ten points each across the useful range of every parameterised
 * policy; with the five without an argument, the defaults and
 * "recorded", 50 policies.
 */
const char *const fl_whatif_default_sweeps[] = {
	"relative:2..1024x2",
	"fixed:1..16384x4",
	"log2:1..4096x4",
	"ratelimit:125..64000x2",
	"budget:1..64x2",
	NULL,
};

const char *fl_whatif_label(const struct fl_tg_policy *p, char *buf, size_t n)
{
	if (p->id == FA_REPLAY_RECORDED) {
		snprintf(buf, n, "recorded");
		return buf;
	}
	return fa_tg_policy_label(p, buf, n);
}

const char *fl_whatif_label_lay(const struct fl_tg_policy *p,
				const struct fa_layout *lay, char *buf, size_t n)
{
	fl_whatif_label(p, buf, n);
	fa_layout_suffix(lay, buf, n);
	return buf;
}

int fl_plist_add(struct fl_policy_list *l, const struct fl_tg_policy *p, bool *oom)
{
	static const struct fa_layout global = { FA_LAYOUT_GLOBAL, 0 };

	return fl_plist_add_lay(l, p, &global, false, oom);
}

int fl_plist_add_lay(struct fl_policy_list *l, const struct fl_tg_policy *p,
		     const struct fa_layout *lay, bool named, bool *oom)
{
	u32 i;

	for (i = 0; i < l->n; i++)
		if (l->p[i].id == p->id && l->p[i].arg == p->arg &&
		    fa_layout_same(&l->lay[i], lay))
			return 0;
	if (l->n == FL_WHATIF_MAX_POLICIES) {
		fl_error("more than %d policies", FL_WHATIF_MAX_POLICIES);
		return -1;
	}
	if (l->n == l->cap) {
		u32 cap = l->cap ? l->cap * 2 : 64;
		struct fl_tg_policy *np = realloc(l->p, cap * sizeof(*np));
		struct fa_layout *nl;
		bool *nn;

		if (np)
			l->p = np;
		nl = np ? realloc(l->lay, cap * sizeof(*nl)) : NULL;
		if (nl)
			l->lay = nl;
		nn = nl ? realloc(l->named, cap * sizeof(*nn)) : NULL;
		if (!nn) {
			*oom = true;
			fl_error("out of memory");
			return -1;
		}
		l->named = nn;
		l->cap = cap;
	}
	l->p[l->n] = *p;
	l->lay[l->n] = *lay;
	l->named[l->n++] = named;
	return 0;
}

static int add_defaults(struct fl_policy_list *l, bool *oom)
{
	struct fl_tg_policy p;
	u32 id;

	for (id = 0; id < FL_TG_NR_POLICIES; id++) {
		p.id = id;
		p.arg = fl_tg_policy_descs[id].has_arg ? fl_tg_policy_descs[id].def : 0;
		if (fl_plist_add(l, &p, oom))
			return -1;
	}
	return 0;
}

/* A copy of @list for strtok_r(); NULL after saying so (*@oom set). */
static char *dup_list(const char *list, bool *oom)
{
	char *copy = strdup(list);

	if (!copy) {
		*oom = true;
		fl_error("out of memory");
	}
	return copy;
}

int fl_plist_parse(struct fl_policy_list *l, const char *list, bool *oom)
{
	const struct fl_tg_policy rec = { .id = FA_REPLAY_RECORDED };
	char *copy = dup_list(list, oom), *tok, *save = NULL;
	struct fl_tg_policy p;
	int ret = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *slash = strchr(tok, '/');
		struct fa_layout lay;

		if (slash) {
			*slash = '\0';
			if (fa_layout_parse(slash + 1, &lay)) {
				fl_error("--policy: '%s' is not a layout (global, node[:REFRESH_US], llc[:REFRESH_US])",
					 slash + 1);
				ret = -1;
			} else if (!strcmp(tok, "recorded")) {
				ret = fl_plist_add_lay(l, &rec, &lay, true, oom);
			} else if (strchr(tok, '\n') || fl_tg_policy_parse(tok, &p)) {
				fl_error("--policy: '%s' is not a tg policy", tok);
				ret = -1;
			} else {
				ret = fl_plist_add_lay(l, &p, &lay, true, oom);
			}
		} else if (!strcmp(tok, "recorded"))
			ret = fl_plist_add(l, &rec, oom);
		else if (!strcmp(tok, "all"))
			ret = add_defaults(l, oom);
		else if (strchr(tok, '\n') || fl_tg_policy_parse(tok, &p)) {
			fl_error("--policy: '%s' is not a tg policy (stock, force, nonzero, relative[:1..4096], turner1, turner2, fixed[:0..1048576], log2[:0..65536], ratelimit[:1..1000000], budget[:1..100], recorded, all)",
				 tok);
			ret = -1;
		} else {
			ret = fl_plist_add(l, &p, oom);
		}
	}
	if (!ret && !l->n) {
		fl_error("--policy: empty list");
		ret = -1;
	}
	free(copy);
	return ret;
}

/* Decimal u32 at *s, advancing it; -1 when there is none. */
static int take_u32(const char **s, u32 *out)
{
	char *end;
	unsigned long v;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v > 0xffffffffUL)
		return -1;
	*out = (u32)v;
	*s = end;
	return 0;
}

int fl_plist_sweep(struct fl_policy_list *l, const char *spec, bool *oom)
{
	const char *colon = strchr(spec, ':'), *s;
	const struct fl_tg_policy_desc *d = NULL;
	u32 id, from, to, step = 0, factor = 2;
	struct fl_tg_policy p;
	u64 v;

	for (id = 0; colon && id < FL_TG_NR_POLICIES; id++) {
		d = &fl_tg_policy_descs[id];
		if (strlen(d->name) == (size_t)(colon - spec) &&
		    !strncmp(d->name, spec, (size_t)(colon - spec)))
			break;
	}
	if (!colon || id == FL_TG_NR_POLICIES) {
		fl_error("--sweep '%s': expected NAME:FROM..TO[*STEP|xFACTOR] with NAME one of relative, fixed, log2, ratelimit, budget",
			 spec);
		return -1;
	}
	if (!d->has_arg) {
		fl_error("--sweep '%s': %s takes no argument", spec, d->name);
		return -1;
	}
	s = colon + 1;
	if (take_u32(&s, &from) || strncmp(s, "..", 2))
		goto bad;
	s += 2;
	if (take_u32(&s, &to))
		goto bad;
	if (*s == '*') {
		s++;
		if (take_u32(&s, &step) || !step)
			goto bad;
	} else if (*s == 'x') {
		s++;
		if (take_u32(&s, &factor) || factor < 2)
			goto bad;
	}
	if (*s)
		goto bad;
	if (from > to || from < d->min || to > d->max) {
		fl_error("--sweep '%s': need %u <= FROM <= TO <= %u (%s)", spec,
			 d->min, d->max, d->unit);
		return -1;
	}
	p.id = id;
	for (v = from; v <= to; v = step ? v + step : (v ? v * factor : 1)) {
		p.arg = (u32)v;
		if (fl_plist_add(l, &p, oom))
			return -1;
	}
	return 0;
bad:
	fl_error("--sweep '%s': expected NAME:FROM..TO[*STEP|xFACTOR] (integers, STEP >= 1, FACTOR >= 2)",
		 spec);
	return -1;
}

int fl_plist_default(struct fl_policy_list *l, bool *oom)
{
	const struct fl_tg_policy rec = { .id = FA_REPLAY_RECORDED };
	int i;

	if (fl_plist_add(l, &rec, oom) || add_defaults(l, oom))
		return -1;
	for (i = 0; fl_whatif_default_sweeps[i]; i++)
		if (fl_plist_sweep(l, fl_whatif_default_sweeps[i], oom))
			return -1;
	return 0;
}

int fl_plist_layouts(struct fl_policy_list *l, const char *list, bool *oom)
{
	struct fl_policy_list out = { 0 };
	struct fa_layout lay[16];
	char *copy = dup_list(list, oom), *tok, *save = NULL;
	u32 nl = 0, i, k;
	int ret = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (nl == sizeof(lay) / sizeof(lay[0])) {
			fl_error("--layout: more than %zu layouts", sizeof(lay) / sizeof(lay[0]));
			ret = -1;
		} else if (fa_layout_parse(tok, &lay[nl])) {
			fl_error("--layout: '%s' is not a layout (global, node[:REFRESH_US], llc[:REFRESH_US], REFRESH_US <= %u)",
				 tok, FA_LAYOUT_MAX_REFRESH_US);
			ret = -1;
		} else {
			nl++;
		}
	}
	free(copy);
	if (!ret && !nl) {
		fl_error("--layout: empty list");
		ret = -1;
	}
	for (i = 0; i < l->n && !ret; i++) {
		if (l->named[i]) {
			ret = fl_plist_add_lay(&out, &l->p[i], &l->lay[i], true, oom);
			continue;
		}
		for (k = 0; k < nl && !ret; k++)
			ret = fl_plist_add_lay(&out, &l->p[i], &lay[k], true, oom);
	}
	if (ret) {
		fl_plist_free(&out);
		return -1;
	}
	fl_plist_free(l);
	*l = out;
	return 0;
}

void fl_plist_free(struct fl_policy_list *l)
{
	free(l->lay);
	free(l->named);
	free(l->p);
	memset(l, 0, sizeof(*l));
}
