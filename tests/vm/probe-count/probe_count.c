// SPDX-License-Identifier: GPL-2.0
/*
 * probe_count: count how often given kernel instructions execute, for the
 * VM tests (tests/vm/scenarios/surface-writes.guest.sh).
 *
 *   insmod probe_count.ko sites=update_load_avg+0x3ae,attach_entity_cfs_rq+0x5c
 *   cat /sys/kernel/debug/probe_count/hits      # "SITE HITS" per line
 *
 * A kprobe per site.  Why not /sys/kernel/tracing/kprobe_events: trace_kprobe
 * refuses any address inside a function ftrace cannot trace ("Could not
 * probe notrace function"), and a static inline the compiler kept out of
 * line (update_load_avg on Debian 6.1) is exactly such a function.
 * register_kprobe() itself has no such rule.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#define PC_MAX_SITES 32

static char *sites;
module_param(sites, charp, 0400);
MODULE_PARM_DESC(sites, "comma-separated FUNC+0xOFFSET list (at most 32)");

struct pc_site {
	struct kprobe kp;
	char name[KSYM_NAME_LEN + 24];
	atomic_long_t hits;
};

static struct pc_site pc_sites[PC_MAX_SITES];
static unsigned int pc_nsites;
static struct dentry *pc_dir;

static int pc_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_long_inc(&container_of(kp, struct pc_site, kp)->hits);
	return 0;
}

static int pc_hits_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < pc_nsites; i++)
		seq_printf(m, "%s %ld\n", pc_sites[i].name,
			   atomic_long_read(&pc_sites[i].hits));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pc_hits);

/* "func+0xoff" -> kp.symbol_name, kp.offset */
static int pc_parse(struct pc_site *s, char *tok)
{
	char *plus = strchr(tok, '+');
	unsigned int off = 0;

	if (strscpy(s->name, tok, sizeof(s->name)) < 0)
		return -E2BIG;
	if (plus) {
		*plus = '\0';
		if (kstrtouint(plus + 1, 0, &off))
			return -EINVAL;
	}
	if (!*tok)
		return -EINVAL;
	s->kp.symbol_name = tok;
	s->kp.offset = off;
	s->kp.pre_handler = pc_pre;
	return 0;
}

static void pc_unregister(void)
{
	while (pc_nsites)
		unregister_kprobe(&pc_sites[--pc_nsites].kp);
}

static int __init pc_init(void)
{
	char *tok, *rest = sites;
	int ret;

	if (!sites || !*sites) {
		pr_err("no sites= given\n");
		return -EINVAL;
	}
	while ((tok = strsep(&rest, ",")) != NULL) {
		struct pc_site *s;

		if (!*tok)
			continue;
		if (pc_nsites == PC_MAX_SITES) {
			pr_err("more than %d sites\n", PC_MAX_SITES);
			ret = -E2BIG;
			goto fail;
		}
		s = &pc_sites[pc_nsites];
		ret = pc_parse(s, tok);
		if (ret) {
			pr_err("bad site \"%s\": expected FUNC+0xOFFSET\n", tok);
			goto fail;
		}
		ret = register_kprobe(&s->kp);
		if (ret) {
			pr_err("cannot probe %s: %d\n", s->name, ret);
			goto fail;
		}
		pc_nsites++;
	}
	pc_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("hits", 0400, pc_dir, NULL, &pc_hits_fops);
	pr_info("%u sites probed\n", pc_nsites);
	return 0;
fail:
	pc_unregister();
	return ret;
}

static void __exit pc_exit(void)
{
	debugfs_remove_recursive(pc_dir);
	pc_unregister();
}

module_init(pc_init);
module_exit(pc_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fairlab test helper: kprobe hit counts of given instructions");
