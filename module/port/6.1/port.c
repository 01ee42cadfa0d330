// SPDX-License-Identifier: GPL-2.0
/*
 * What the 6.1 port replaces, and the vmlinux symbols it needs.
 *
 * Sizes are those kallsyms reports on Debian 6.1.0-57-amd64; fl_check_port()
 * refuses to load when any differs (a different build inlines differently,
 * and a replacement written for one build is wrong for another).
 */
#include "port.h"
#include "sizes.h"

const struct fl_port_func fl_port_funcs[] = {
	/* update_pick_idlest() is inlined here (idlest.c) */
	{ "find_idlest_group", FL_SIZE_find_idlest_group, fl_find_idlest_group },
	/* tg surface: every copy of update_tg_load_avg() (pelt.c et al.) */
	{ }
};

const struct fl_symreq *const fl_port_symtabs[] = {
	fl_syms_idlest,
	NULL
};
