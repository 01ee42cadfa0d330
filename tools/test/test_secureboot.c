// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the Secure Boot detector (tools/record/secureboot.c) against fake
 * sysfs/efivarfs trees: Secure Boot on and off, lockdown, enforced
 * signatures, no EFI at all, and the FAIRLAB_SYSROOT override.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "secureboot.h"
#include "../../analysis/test/tap.h"

#define SB_REL "sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"

static char base[] = "/tmp/fl-sb-XXXXXX";

/* mkdir -p of @path's parent directories, then @len bytes of @data. */
static void put(const char *root, const char *rel, const void *data, size_t len)
{
	char path[4096], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

/* A fake root @name under base: Secure Boot byte @sb (-1: no variable). */
static const char *tree(const char *name, int sb, const char *lockdown,
			const char *sig_enforce)
{
	static char root[4096];
	unsigned char var[5] = { 0x06, 0x00, 0x00, 0x00, 0 };

	snprintf(root, sizeof(root), "%s/%s", base, name);
	mkdir(root, 0755);
	if (sb >= 0) {
		var[4] = (unsigned char)sb;
		put(root, SB_REL, var, sizeof(var));
	}
	if (lockdown)
		put(root, "sys/kernel/security/lockdown", lockdown, strlen(lockdown));
	if (sig_enforce)
		put(root, "sys/module/module/parameters/sig_enforce", sig_enforce,
		    strlen(sig_enforce));
	return root;
}

int main(void)
{
	char msg[512];
	const char *r;
	int v;

	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	r = tree("on", 1, "none [integrity] confidentiality\n", "Y\n");
	v = fl_secureboot(r, msg, sizeof(msg));
	is_u64(v, FL_SB_SIGNED_ONLY, "Secure Boot on: only signed modules");
	ok(strstr(msg, "Secure Boot is on (lockdown: integrity)") &&
	   strstr(msg, "docs/secure-boot.md"), "its line says so and where to read: %s", msg);

	r = tree("off", 0, "[none] integrity confidentiality\n", "N\n");
	v = fl_secureboot(r, msg, sizeof(msg));
	is_u64(v, FL_SB_UNSIGNED_OK, "Secure Boot off: unsigned modules load");
	ok(strstr(msg, "Secure Boot off, lockdown none") != NULL, "its line: %s", msg);

	r = tree("lockdown", 0, "none integrity [confidentiality]\n", NULL);
	v = fl_secureboot(r, msg, sizeof(msg));
	is_u64(v, FL_SB_SIGNED_ONLY, "Secure Boot off, lockdown on: only signed modules");
	ok(strstr(msg, "locked down (confidentiality") != NULL, "its line: %s", msg);

	r = tree("enforce", 0, NULL, "Y\n");
	v = fl_secureboot(r, msg, sizeof(msg));
	is_u64(v, FL_SB_SIGNED_ONLY, "module.sig_enforce=1: only signed modules");

	r = tree("bios", -1, NULL, NULL);
	v = fl_secureboot(r, msg, sizeof(msg));
	is_u64(v, FL_SB_UNSIGNED_OK, "no EFI, no lockdown file: unsigned modules load");
	ok(strstr(msg, "not reported") != NULL, "its line: %s", msg);

	/* the variable's 5th byte, not its attributes, is the value */
	r = tree("attrs", 0, NULL, NULL);
	put(r, SB_REL, "\x01\x01\x01\x01\x00", 5);
	is_u64(fl_secureboot(r, msg, sizeof(msg)), FL_SB_UNSIGNED_OK,
	       "attribute bytes set, value 0: off");

	/* FAIRLAB_SYSROOT points the detector at a tree */
	r = tree("on", 1, NULL, NULL);
	setenv("FAIRLAB_SYSROOT", r, 1);
	is_u64(fl_secureboot(NULL, msg, sizeof(msg)), FL_SB_SIGNED_ONLY,
	       "FAIRLAB_SYSROOT=<on tree>: only signed modules");
	setenv("FAIRLAB_SYSROOT", tree("off", 0, NULL, NULL), 1);
	is_u64(fl_secureboot(NULL, msg, sizeof(msg)), FL_SB_UNSIGNED_OK,
	       "FAIRLAB_SYSROOT=<off tree>: unsigned modules load");

	snprintf(msg, sizeof(msg), "rm -rf '%s'", base);
	if (system(msg) != 0)
		fprintf(stderr, "cannot remove %s\n", base);
	return tap_done();
}
