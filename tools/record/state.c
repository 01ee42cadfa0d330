// SPDX-License-Identifier: GPL-2.0
/*
 * The state file of a running recording, and fairlab reset (see state.h).
 *
 * One "key value" per line: owner PID, knob tg|idlest, policy P, layout L
 * (the tg_layout to restore, when the recording switches it), recorder
 * PID, output FILE.  Written whole to a temporary file and renamed, so a
 * crash leaves the old version or the new one, never half of one.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "state.h"

#define STATE_DIR	"/run/fairlab"
#define STATE_FILE	STATE_DIR "/state"

struct state {
	pid_t owner;
	enum fl_knob knob;
	bool has_policy;
	char policy[128];
	bool has_layout;
	char layout[64];
	pid_t recorder;
	char out[4096];
};

/* this process's own state, while it records */
static struct state cur;
static bool active;

const char *fl_state_path(void)
{
	static char buf[4096];

	return fl_sys_path(buf, sizeof(buf), STATE_FILE);
}

static int save(const struct state *s)
{
	char tmp[4200], dir[4096];
	FILE *f;

	fl_sys_path(dir, sizeof(dir), "/run");
	mkdir(dir, 0755);
	fl_sys_path(dir, sizeof(dir), STATE_DIR);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fl_error("cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", fl_state_path());
	f = fopen(tmp, "w");
	if (!f) {
		fl_error("cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "# a fairlab recording runs; if this process is gone, `fairlab reset` undoes what it left\n");
	fprintf(f, "owner %d\n", (int)s->owner);
	if (s->has_policy)
		fprintf(f, "knob %s\npolicy %s\n", fl_knob_kind(s->knob), s->policy);
	if (s->has_layout)
		fprintf(f, "layout %s\n", s->layout);
	if (s->recorder)
		fprintf(f, "recorder %d\noutput %s\n", (int)s->recorder, s->out);
	if (fclose(f) || rename(tmp, fl_state_path())) {
		fl_error("cannot write %s: %s", fl_state_path(), strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* 1 read, 0 no file, -1 unreadable or malformed (printed) */
static int load(struct state *s)
{
	char line[4300] = "", key[32], val[4200];
	FILE *f = fopen(fl_state_path(), "r");

	memset(s, 0, sizeof(*s));
	if (!f) {
		if (errno == ENOENT)
			return 0;
		fl_error("cannot read %s: %s", fl_state_path(), strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (sscanf(line, "%31s %4199[^\n]", key, val) != 2)
			break;
		if (!strcmp(key, "owner"))
			s->owner = atoi(val);
		else if (!strcmp(key, "recorder"))
			s->recorder = atoi(val);
		else if (!strcmp(key, "knob") && (!strcmp(val, "tg") || !strcmp(val, "idlest")))
			s->knob = strcmp(val, "tg") ? FL_KNOB_IDLEST : FL_KNOB_TG;
		else if (!strcmp(key, "policy") && strlen(val) < sizeof(s->policy))
			s->has_policy = true, strcpy(s->policy, val);
		else if (!strcmp(key, "layout") && strlen(val) < sizeof(s->layout))
			s->has_layout = true, strcpy(s->layout, val);
		else if (!strcmp(key, "output"))
			snprintf(s->out, sizeof(s->out), "%.4000s", val);
		else
			break;
		line[0] = '\0';
	}
	fclose(f);
	if (!line[0] && s->owner > 0 && s->recorder >= 0)
		return 1;
	fl_error("%s: not a fairlab state file%s%s%s: remove it if no recording runs",
		 fl_state_path(), line[0] ? " (line '" : "", line, line[0] ? "')" : "");
	return -1;
}

/* The base name of @pid's argv[0] ("" if the process is gone). */
static const char *proc_name(pid_t pid, char *buf, size_t len)
{
	char path[64];
	const char *slash;
	FILE *f;
	size_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return buf;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		memmove(buf, slash + 1, strlen(slash));
	return buf;
}

static bool gone(pid_t pid, double secs)
{
	long i;

	for (i = 0; i <= secs * 50; i++) {
		if (kill(pid, 0) && errno == ESRCH)
			return true;
		nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
	}
	return false;
}

/* Stops a leftover trace-cmd the way a recording does: SIGINT (it writes
 * its file and resets tracefs), then SIGKILL.  Its whole group when it
 * leads one (its per-CPU readers are in it). */
static void stop_recorder(FILE *f, const struct state *s)
{
	char name[256];
	pid_t target;

	if (!strcmp(proc_name(s->recorder, name, sizeof(name)), "")) {
		fprintf(f, "fairlab reset: trace-cmd (pid %d) is already gone\n", (int)s->recorder);
		return;
	}
	if (strcmp(name, "trace-cmd")) {
		fprintf(f, "fairlab reset: pid %d is now '%s', not the recording's trace-cmd: left alone\n",
			(int)s->recorder, name);
		return;
	}
	target = getpgid(s->recorder) == s->recorder ? -s->recorder : s->recorder;
	kill(target, SIGINT);
	if (gone(s->recorder, 60)) {
		fprintf(f, "fairlab reset: stopped the leftover trace-cmd (pid %d) with SIGINT; it wrote %s (no closing audit)\n",
			(int)s->recorder, s->out);
		return;
	}
	kill(target, SIGKILL);
	gone(s->recorder, 5);
	fprintf(f, "fairlab reset: killed the leftover trace-cmd (pid %d), which did not stop within 60 s of SIGINT; %s is incomplete and tracefs may still trace (trace-cmd reset clears it)\n",
		(int)s->recorder, s->out);
}

/* 0 restored or nothing to restore, -1 failed (printed) */
static int restore_policy(FILE *f, const struct state *s)
{
	char now[128], param[4096];

	fl_sys_path(param, sizeof(param), "/sys/module/fairlab/parameters");
	if (access(param, F_OK)) {
		fprintf(f, "fairlab reset: fairlab.ko is not loaded: nothing to restore (%s_policy went with it)\n",
			fl_knob_kind(s->knob));
		return 0;
	}
	if (fl_policy_get(s->knob, now, sizeof(now)))
		return -1;
	if (!strcmp(now, s->policy)) {
		fprintf(f, "fairlab reset: %s_policy is already %s\n", fl_knob_kind(s->knob), s->policy);
		return 0;
	}
	if (fl_policy_set(s->knob, s->policy))
		return -1;
	fprintf(f, "fairlab reset: %s_policy restored to %s (it was %s)\n",
		fl_knob_kind(s->knob), s->policy, now);
	return 0;
}

/* The same for tg_layout; 0 restored or nothing to restore, -1 failed */
static int restore_layout(FILE *f, const struct state *s)
{
	char now[64], param[4096];

	fl_sys_path(param, sizeof(param), "/sys/module/fairlab/parameters");
	if (access(param, F_OK)) {
		fprintf(f, "fairlab reset: fairlab.ko is not loaded: nothing to restore (tg_layout went with it)\n");
		return 0;
	}
	if (fl_layout_get(now, sizeof(now)))
		return -1;
	if (!strcmp(now, s->layout)) {
		fprintf(f, "fairlab reset: tg_layout is already %s\n", s->layout);
		return 0;
	}
	if (fl_layout_set(s->layout))
		return -1;
	fprintf(f, "fairlab reset: tg_layout restored to %s (it was %s)\n", s->layout, now);
	return 0;
}

int fl_reset(FILE *f, bool quiet)
{
	struct state s;
	char name[256];
	int r = load(&s);

	if (r <= 0) {
		if (!r && !quiet)
			fprintf(f, "fairlab reset: nothing to undo (no %s: every recording ended cleanly)\n",
				fl_state_path());
		return r;
	}
	if (s.owner != getpid() && !strcmp(proc_name(s.owner, name, sizeof(name)), "fairlab")) {
		fl_error("a fairlab recording (pid %d) is running (%s): wait for it, or stop it with kill -INT %d",
			 (int)s.owner, fl_state_path(), (int)s.owner);
		return -1;
	}
	if (geteuid() != 0) {
		fl_error("%s: a recording (pid %d) did not end cleanly; undoing it needs root: sudo fairlab reset",
			 fl_state_path(), (int)s.owner);
		return -1;
	}
	fprintf(f, "fairlab reset: the recording of pid %d did not end cleanly (%s):\n",
		(int)s.owner, fl_state_path());
	if (s.recorder)
		stop_recorder(f, &s);
	if (s.has_policy && restore_policy(f, &s))
		return -1;
	if (s.has_layout && restore_layout(f, &s))
		return -1;
	if (unlink(fl_state_path())) {
		fl_error("cannot remove %s: %s", fl_state_path(), strerror(errno));
		return -1;
	}
	fflush(f);
	return 0;
}

int fl_state_begin(enum fl_knob k, const char *policy)
{
	memset(&cur, 0, sizeof(cur));
	cur.owner = getpid();
	cur.knob = k;
	if (policy) {
		cur.has_policy = true;
		snprintf(cur.policy, sizeof(cur.policy), "%s", policy);
	}
	if (save(&cur))
		return -1;
	active = true;
	return 0;
}

int fl_state_layout(const char *layout)
{
	if (!active)
		return 0;
	cur.has_layout = true;
	snprintf(cur.layout, sizeof(cur.layout), "%s", layout);
	return save(&cur);
}

void fl_state_recorder(pid_t pid, const char *out)
{
	char cwd[2048];

	if (!active)
		return;
	cur.recorder = pid;
	/* reset may run elsewhere: name the file in full */
	if (out[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(cur.out, sizeof(cur.out), "%s/%s", cwd, out);
	else
		snprintf(cur.out, sizeof(cur.out), "%s", out);
	if (save(&cur))
		fl_warn("fairlab reset will not know of trace-cmd (pid %d)", (int)pid);
}

void fl_state_end(void)
{
	if (active && unlink(fl_state_path()) && errno != ENOENT)
		fl_warn("cannot remove %s: %s", fl_state_path(), strerror(errno));
	active = false;
}
