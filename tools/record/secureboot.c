// SPDX-License-Identifier: GPL-2.0
/*
 * Secure Boot, lockdown and module signature enforcement (secureboot.h).
 *
 *  - efivarfs SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c: 4 bytes of
 *    attributes, then the value (1 = on);  when efivarfs is not mounted
 *    and the root is the real one, `mokutil --sb-state` if installed;
 *  - /sys/kernel/security/lockdown: "none [integrity] confidentiality",
 *    the mode in brackets; integrity and confidentiality refuse unsigned
 *    modules;
 *  - /sys/module/module/parameters/sig_enforce: Y when signatures are
 *    enforced (module.sig_enforce=1, or set by Secure Boot).
 * Signing fairlab.ko with an enrolled MOK key: docs/secure-boot.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "secureboot.h"

#define SB_VAR "sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define LOCKDOWN "sys/kernel/security/lockdown"
#define SIG_ENFORCE "sys/module/module/parameters/sig_enforce"
#define SB_HOWTO "sign it with a Machine Owner Key as DKMS does (docs/secure-boot.md) or turn Secure Boot off"

/* Up to @len bytes of @root/@rel; their count, or -1 if unreadable. */
static int read_file(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	n = fread(buf, 1, len, f);
	fclose(f);
	return (int)n;
}

/* 1 on, 0 off, -1 not known (no EFI variable, no mokutil). */
static int secure_boot(const char *root, int real_root)
{
	unsigned char v[5];
	char line[256];
	int on = -1;
	FILE *p;

	if (read_file(root, SB_VAR, (char *)v, sizeof(v)) == 5)
		return v[4] == 1;
	if (!real_root)
		return -1;
	p = popen("mokutil --sb-state 2>/dev/null", "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, "SecureBoot enabled"))
			on = 1;
		else if (strstr(line, "SecureBoot disabled") && on < 0)
			on = 0;
	pclose(p);
	return on;
}

/* The lockdown mode in brackets ("none", "integrity"...), or "" if none. */
static void lockdown_mode(const char *root, char *mode, size_t len)
{
	char buf[128], *open, *close;
	int n = read_file(root, LOCKDOWN, buf, sizeof(buf) - 1);

	mode[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close && (size_t)(close - open - 1) < len) {
		memcpy(mode, open + 1, (size_t)(close - open - 1));
		mode[close - open - 1] = '\0';
	}
}

enum fl_sb_verdict fl_secureboot(const char *root, char *msg, size_t len)
{
	const char *env = getenv("FAIRLAB_SYSROOT");
	char mode[32], sig[4];
	int sb;

	if (!root)
		root = env && *env ? env : "/";
	sb = secure_boot(root, !strcmp(root, "/"));
	lockdown_mode(root, mode, sizeof(mode));
	if (sb == 1) {
		snprintf(msg, len, "Secure Boot is on%s%s%s: this kernel loads only signed modules and fairlab.ko is not signed; " SB_HOWTO,
			 *mode ? " (lockdown: " : "", mode, *mode ? ")" : "");
		return FL_SB_SIGNED_ONLY;
	}
	if (*mode && strcmp(mode, "none")) {
		snprintf(msg, len, "the kernel is locked down (%s, /%s): it loads only signed modules and fairlab.ko is not signed; sign it with a Machine Owner Key as DKMS does (docs/secure-boot.md)",
			 mode, LOCKDOWN);
		return FL_SB_SIGNED_ONLY;
	}
	if (read_file(root, SIG_ENFORCE, sig, 1) == 1 && sig[0] == 'Y') {
		snprintf(msg, len, "module signatures are enforced (module.sig_enforce=1): fairlab.ko is not signed; sign it as DKMS does (docs/secure-boot.md)");
		return FL_SB_SIGNED_ONLY;
	}
	snprintf(msg, len, "Secure Boot %s, lockdown %s, signatures not enforced: unsigned modules load",
		 sb == 0 ? "off" : "not reported (no EFI variable)",
		 *mode ? mode : "not reported");
	return FL_SB_UNSIGNED_OK;
}

void fl_secureboot_explain(void)
{
	char msg[512];

	if (fl_secureboot(NULL, msg, sizeof(msg)) == FL_SB_SIGNED_ONLY)
		fl_error("%s", msg);
}
