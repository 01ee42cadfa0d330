/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizes of the replaced functions in Debian 6.1.0-57-amd64, as kallsyms
 * reports them ("name+0x0/SIZE" in sprint_symbol, /proc/kallsyms deltas),
 * read in the VM: tests/vm/scenarios/port-sizes.guest.sh prints them.
 */
#ifndef FAIRLAB_PORT_SIZES_H
#define FAIRLAB_PORT_SIZES_H

#define FL_SIZE_find_idlest_group	0x8b0

#endif /* FAIRLAB_PORT_SIZES_H */
