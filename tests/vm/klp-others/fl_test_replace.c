// SPDX-License-Identifier: GPL-2.0
/* Atomic replace, no fairlab state: see klp_test.c. */
#define FL_TEST_REPLACE
#include "klp_test.c"
