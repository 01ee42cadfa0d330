// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving the vmlinux symbols the 6.1 port needs, and refusing any
 * kernel that is not the build the port was written for.
 *
 * kallsyms_lookup_name() is not exported on 6.1; a kprobe registered on it
 * reports its address.  klp relocations would be the upstream way, but
 * need klp-convert, which is not available out of tree on 6.1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/static_call.h>
#include <linux/utsname.h>
#include "port.h"
#include "fairlab.h"

struct fl_vmlinux fl_vm;
struct balance_callback *fl_balance_push_callback;	/* see compat.h */

static unsigned long (*fl_kallsyms_lookup_name)(const char *name);

static const struct fl_symreq fl_syms_core[] = {
	FL_SYM(fl_vm.runqueues, runqueues),
	FL_SYM(fl_vm.root_task_group, root_task_group),
	FL_SYM(fl_vm.sysctl_sched_features, sysctl_sched_features),
	FL_SYM(fl_vm.cfs_bandwidth_used, __cfs_bandwidth_used),
	FL_SYM(fl_vm.sched_schedstats, sched_schedstats),
	FL_SYM(fl_vm.sched_asym_cpucapacity, sched_asym_cpucapacity),
	FL_SYM(fl_vm.sched_energy_present, sched_energy_present),
	FL_SYM(fl_vm.sched_numa_balancing, sched_numa_balancing),
	FL_SYM(fl_vm.select_rq_mask, select_rq_mask),
	FL_SYM(fl_vm.task_groups, task_groups),
	FL_SYM(fl_vm.sd_llc_id, sd_llc_id),
	{ "balance_push_callback", (void **)&fl_balance_push_callback },
	FL_SYM(fl_kernfs_create_file, __kernfs_create_file),	/* audit.c */
	FL_SYM(fl_klp_patches, klp_patches),			/* klp_others.c */
	FL_SYM(fl_klp_mutex, klp_mutex),			/* klp_later.c */
	{ }
};

/* What sched.h's rq_lock*() inlines call: the vmlinux functions (vmcalls.h). */
void fl_raw_spin_rq_lock_nested(struct rq *rq, int subclass)
{
	FL_VM(raw_spin_rq_lock_nested)(rq, subclass);
}

void fl_raw_spin_rq_unlock(struct rq *rq)
{
	FL_VM(raw_spin_rq_unlock)(rq);
}

unsigned long fl_lookup_name(const char *name)
{
	return fl_kallsyms_lookup_name ? fl_kallsyms_lookup_name(name) : 0;
}

static int fl_find_kallsyms_lookup_name(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	int ret = register_kprobe(&kp);

	if (ret < 0) {
		pr_err("cannot find kallsyms_lookup_name (register_kprobe: %d)\n",
		       ret);
		return ret;
	}
	fl_kallsyms_lookup_name = (void *)kp.addr;
	unregister_kprobe(&kp);
	return 0;
}

static int fl_resolve_table(const struct fl_symreq *t)
{
	int missing = 0;

	for (; t->name; t++) {
		unsigned long addr = fl_lookup_name(t->name);

		if (!addr) {
			pr_err("symbol %s not found in this kernel\n", t->name);
			missing++;
			continue;
		}
		if (t->call)	/* a static call: now a direct call to @addr */
			__static_call_update(t->call, t->tramp, (void *)addr);
		else
			*t->addr = (void *)addr;
	}
	return missing ? -ENOENT : 0;
}

int fl_resolve_symbols(void)
{
	const struct fl_symreq *const *tab;
	int ret;

	ret = fl_resolve_table(fl_syms_core);
	for (tab = fl_port_symtabs; *tab; tab++)
		if (fl_resolve_table(*tab))
			ret = -ENOENT;
	return ret;
}

/* Size of a vmlinux function from kallsyms ("name+0x0/0xSIZE"). */
static unsigned long fl_symbol_size(unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];
	char *slash;
	unsigned long size;

	sprint_symbol(buf, addr);
	slash = strrchr(buf, '/');
	if (!slash || kstrtoul(slash + 1, 0, &size))
		return 0;
	/* sprint_symbol appends " [module]" only for modules: not here. */
	return size;
}

/*
 * The port mirrors one exact build: same release, same version string
 * (which carries the Debian package version and build date), and the same
 * size of every function it replaces.  Anything else is refused before a
 * single function is patched.
 */
int fl_check_port(void)
{
	const struct new_utsname *u = init_utsname();
	const struct fl_port_func *f;
	int bad = 0;

	if (strcmp(u->release, FL_PORT_RELEASE) ||
	    strcmp(u->version, FL_PORT_VERSION)) {
		pr_err("this port is for kernel %s %s; running %s %s: refusing to load\n",
		       FL_PORT_RELEASE, FL_PORT_VERSION, u->release,
		       u->version);
		return -ENODEV;
	}
	if (fl_find_kallsyms_lookup_name())
		return -ENODEV;
	for (f = fl_port_funcs; f->name; f++) {
		unsigned long addr = fl_lookup_name(f->name);
		unsigned long size = addr ? fl_symbol_size(addr) : 0;

		if (size != f->size) {
			pr_err("%s: expected size %#lx, found %#lx: kernel build differs from the port, refusing to load\n",
			       f->name, f->size, size);
			bad++;
		}
	}
	return bad ? -ENODEV : 0;
}
