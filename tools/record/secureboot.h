/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Will this kernel load an unsigned fairlab.ko?  Not with Secure Boot on
 * (Debian's kernel then enforces module signatures and locks down), nor
 * with lockdown or module.sig_enforce=1 otherwise.  Read from sysfs and
 * efivarfs under a root directory: "/" unless FAIRLAB_SYSROOT names
 * another (a test's fake tree).
 */
#ifndef FL_SECUREBOOT_H
#define FL_SECUREBOOT_H

#include <stddef.h>

enum fl_sb_verdict {
	FL_SB_UNSIGNED_OK,	/* nothing seen that refuses unsigned modules */
	FL_SB_SIGNED_ONLY,	/* only signed modules load */
};

/*
 * The verdict, with one line in @msg (no newline) saying what was seen
 * and, for FL_SB_SIGNED_ONLY, what to do; @root NULL: FAIRLAB_SYSROOT or "/".
 */
enum fl_sb_verdict fl_secureboot(const char *root, char *msg, size_t len);

/* At a "fairlab.ko is not loaded" error: the line, if only signed load. */
void fl_secureboot_explain(void);

#endif /* FL_SECUREBOOT_H */
