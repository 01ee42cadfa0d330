// SPDX-License-Identifier: GPL-2.0
/*
 * What the port files share from vmlinux: the static calls of vmcalls.h,
 * and fl_p612 (fair_inline.h), with the tables that resolve them.
 *
 * Each static call starts NULL (a call would return at once);
 * fl_resolve_symbols() updates it to the resolved address before anything
 * is patched.
 */
#include "fair_inline.h"

struct fl_port612 fl_p612;

const struct fl_symreq fl_syms_shared[] = {
	/* data: a per-CPU variable (its kallsyms value is the per-CPU offset) */
	FL_SYM(fl_p612.cpufreq_update_util_data, cpufreq_update_util_data),
	{ }
};

#define FL_VM_DEFINE(sym, type)	DEFINE_STATIC_CALL_NULL(fl_vm_##sym, type);
FL_VM_CALLS(FL_VM_DEFINE)

/*
 * #sym here, before compat.h's renames (raw_spin_rq_lock_nested) could
 * expand it: the table needs the vmlinux name.
 */
#define FL_VM_SYMREQ(sym, type)	FL_SYM_CALL(fl_vm_##sym, #sym),
const struct fl_symreq fl_syms_calls[] = {
	FL_VM_CALLS(FL_VM_SYMREQ)
	{ }
};
