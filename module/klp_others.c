// SPDX-License-Identifier: GPL-2.0
/*
 * fairlab never stacks on another livepatch.  The port check compares
 * release, version string and function sizes, none of which change when
 * another livepatch already replaces one of the functions fairlab
 * replaces; fairlab would then run on top of it with the plain 6.1.192
 * body and silently undo that patch's change.  So the pre-patch callback
 * (klp_mutex held, nothing patched yet) refuses when any function fairlab
 * replaces is already replaced, naming the other patch and the function.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/livepatch.h>
#include "fairlab.h"

/* kernel/livepatch/core.c: the enabled patches; resolved by symbols.c. */
struct list_head *fl_klp_patches;

/* Does @self replace the vmlinux function @name? (also klp_later.c) */
bool fl_klp_replaces(struct klp_patch *self, const char *name)
{
	struct klp_object *obj;
	struct klp_func *f;

	klp_for_each_object(self, obj) {
		if (obj->name)
			continue;
		klp_for_each_func(obj, f)
			if (!strcmp(f->old_name, name))
				return true;
	}
	return false;
}

/* Under klp_mutex (a pre-patch callback), so the list cannot change. */
int fl_klp_check_others(struct klp_patch *self)
{
	struct klp_object *obj;
	struct klp_patch *p;
	struct klp_func *f;
	int bad = 0;

	list_for_each_entry(p, fl_klp_patches, list) {
		if (p == self)
			continue;
		klp_for_each_object(p, obj) {
			if (obj->name)		/* a module's function */
				continue;
			klp_for_each_func(obj, f) {
				/* a nop of an atomic replace restores the original */
				if (f->nop || !fl_klp_replaces(self, f->old_name))
					continue;
				pr_err("livepatch %s already replaces %s: refusing to load (fairlab would undo its change)\n",
				       p->mod->name, f->old_name);
				bad++;
			}
		}
	}
	return bad ? -EBUSY : 0;
}
