// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's side of a recording (see live.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "live.h"
#include "policy.h"
#include "served.h"
#include "secureboot.h"

#define MOD_DIR		"/sys/module"
#define PARAM_DIR	"/sys/module/fairlab/parameters"
#define KLP_DIR		"/sys/kernel/livepatch"
#define LP_DIR		KLP_DIR "/fairlab"
#define FL_SYSFS	"/sys/kernel/fairlab"
#define LOAD_HINT	"insmod fairlab_trace.ko; insmod fairlab.ko (built by `make`, in build/kmod/<release>/module/)"

const char *fl_knob_kind(enum fl_knob k)
{
	return k == FL_KNOB_IDLEST ? "idlest" : "tg";
}

const char *fl_sysroot(void)
{
	const char *r = getenv("FAIRLAB_SYSROOT");

	return r ? r : "";
}

const char *fl_sys_path(char *buf, size_t len, const char *abs)
{
	snprintf(buf, len, "%s%s", fl_sysroot(), abs);
	return buf;
}

/* @abs under the system root, in a buffer of its own per call site */
#define SYS(abs) fl_sys_path((char[4096]){ 0 }, 4096, abs)

static const char *param_path(enum fl_knob k)
{
	static char buf[4096];

	return fl_sys_path(buf, sizeof(buf), k == FL_KNOB_IDLEST ?
			   PARAM_DIR "/idlest_policy" : PARAM_DIR "/tg_policy");
}

int fl_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* Writes @s to a sysfs file in one write(); 0 or -errno. */
static int write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(s, f) == EOF || fflush(f))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

const char *fl_tracefs(void)
{
	static char buf[4096];

	if (!access(SYS("/sys/kernel/tracing/events"), F_OK))
		return fl_sys_path(buf, sizeof(buf), "/sys/kernel/tracing");
	if (!access(SYS("/sys/kernel/debug/tracing/events"), F_OK))
		return fl_sys_path(buf, sizeof(buf), "/sys/kernel/debug/tracing");
	return NULL;
}

int fl_live_check(void)
{
	char buf[64], path[4200];
	const char *tfs;
	int i;

	/* in the order of what a user fixes first: who, kernel, modules */
	if (geteuid() != 0) {
		fl_error("recording needs root (tracefs, the fairlab sysfs files): run it with sudo");
		return -1;
	}
	if (access(SYS(KLP_DIR), F_OK)) {
		fl_error("this kernel, %s, has no livepatch support (no " KLP_DIR "): fairlab is a livepatch and needs CONFIG_LIVEPATCH=y, as in Debian's own builds",
			 fl_running_release());
		return -1;
	}
	if (!fl_served_check(fl_running_release()))
		return -1;
	if (access(SYS(MOD_DIR "/fairlab_trace"), F_OK)) {
		fl_error("fairlab_trace.ko is not loaded (no " MOD_DIR "/fairlab_trace): " LOAD_HINT);
		fl_secureboot_explain();
		return -1;
	}
	if (access(SYS(MOD_DIR "/fairlab"), F_OK) || access(SYS(PARAM_DIR), F_OK)) {
		fl_error("fairlab.ko is not loaded (no " MOD_DIR "/fairlab): " LOAD_HINT);
		fl_secureboot_explain();
		return -1;
	}
	if (fl_read_line(SYS(LP_DIR "/enabled"), buf, sizeof(buf)) || strcmp(buf, "1")) {
		fl_error("the fairlab livepatch is not enabled (" LP_DIR "/enabled): unload it (rmmod fairlab) and load it again: " LOAD_HINT);
		return -1;
	}
	/* the kernel retries the transition once a second: give it 15 s */
	for (i = 0; i <= 150; i++) {
		int err = fl_read_line(SYS(LP_DIR "/transition"), buf, sizeof(buf));

		if (err) {
			fl_error("cannot read " LP_DIR "/transition: %s", strerror(-err));
			return -1;
		}
		if (!strcmp(buf, "0"))
			break;
		if (i == 150) {
			fl_error("the fairlab livepatch transition is not done after 15 s (" LP_DIR "/transition reads 1): some task has not been patched yet; wait and retry, and see dmesg");
			return -1;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	}
	tfs = fl_tracefs();
	if (!tfs) {
		fl_error("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/fairlab", tfs);
	if (access(path, F_OK)) {
		fl_error("%s is missing: fairlab_trace.ko is loaded but its events are not in tracefs (dmesg says why)", path);
		return -1;
	}
	return 0;
}

int fl_policy_check(enum fl_knob k, const char *policy, const char *what)
{
	struct fl_tg_policy p;
	char names[512];
	size_t n = 0;
	u32 id;

	if (!strchr(policy, '\n') &&
	    !(k == FL_KNOB_IDLEST ? fl_idlest_policy_parse(policy, &id) :
				    fl_tg_policy_parse(policy, &p)))
		return 0;
	/* the names and ranges fairlab.ko accepts, from the same tables */
	names[0] = '\0';
	if (k == FL_KNOB_IDLEST) {
		for (id = 0; id < FL_IDLEST_NR_POLICIES; id++)
			n += snprintf(names + n, sizeof(names) - n, "%s%s", id ? ", " : "",
				      fl_idlest_policy_names[id]);
	} else {
		for (id = 0; id < FL_TG_NR_POLICIES; id++) {
			const struct fl_tg_policy_desc *d = &fl_tg_policy_descs[id];

			n += snprintf(names + n, sizeof(names) - n, "%s%s", id ? ", " : "", d->name);
			if (d->has_arg)
				n += snprintf(names + n, sizeof(names) - n, "[:%u..%u]", d->min, d->max);
		}
	}
	fl_error("%s: '%s' is not a%s %s policy (%s)", what, policy,
		 k == FL_KNOB_IDLEST ? "n" : "", k == FL_KNOB_IDLEST ? "idlest" : "tg", names);
	return -1;
}

int fl_policy_get(enum fl_knob k, char *buf, size_t len)
{
	int err = fl_read_line(param_path(k), buf, len);

	if (err) {
		fl_error("cannot read %s: %s", param_path(k), strerror(-err));
		return -1;
	}
	return 0;
}

int fl_policy_set(enum fl_knob k, const char *policy)
{
	char line[128];
	int err;

	if (snprintf(line, sizeof(line), "%s\n", policy) >= (int)sizeof(line)) {
		fl_error("policy '%s' is too long", policy);
		return -1;
	}
	err = write_str(param_path(k), line);
	if (err) {
		fl_error("fairlab.ko refused %s_policy '%s' (%s): dmesg says why",
			 fl_knob_kind(k), policy, strerror(-err));
		return -1;
	}
	return 0;
}

static const char *layout_path(void)
{
	static char buf[4096];

	return fl_sys_path(buf, sizeof(buf), PARAM_DIR "/tg_layout");
}

/* A fairlab.ko from before tg_layout has no such parameter: say so. */
static void layout_error(const char *what, int err)
{
	if (err == -ENOENT && !access(fl_sys_path((char[4096]){ 0 }, 4096, PARAM_DIR), F_OK))
		fl_error("%s: this fairlab.ko has no tg_layout parameter (a build from before tg_layout): load one built from this source",
			 layout_path());
	else
		fl_error("cannot %s %s: %s", what, layout_path(), strerror(-err));
}

int fl_layout_get(char *buf, size_t len)
{
	int err = fl_read_line(layout_path(), buf, len);

	if (err)
		layout_error("read", err);
	return err ? -1 : 0;
}

int fl_layout_set(const char *layout)
{
	char line[128];
	int err;

	if (snprintf(line, sizeof(line), "%s\n", layout) >= (int)sizeof(line)) {
		fl_error("tg_layout '%s' is too long", layout);
		return -1;
	}
	if (access(layout_path(), F_OK)) {
		layout_error("write", -errno);
		return -1;
	}
	err = write_str(layout_path(), line);
	if (err) {
		fl_error("fairlab.ko refused tg_layout '%s' (%s): dmesg says why", layout, strerror(-err));
		return -1;
	}
	return 0;
}

static int trigger(const char *file)
{
	char rel[128], path[4096];
	int err;

	snprintf(rel, sizeof(rel), FL_SYSFS "/%s", file);
	fl_sys_path(path, sizeof(path), rel);
	err = write_str(path, "1\n");
	if (err) {
		fl_error("writing 1 to %s failed: %s", path, strerror(-err));
		return -1;
	}
	return 0;
}

int fl_live_describe(void)
{
	return trigger("describe");
}

int fl_live_audit(void)
{
	return trigger("audit_emit");
}
