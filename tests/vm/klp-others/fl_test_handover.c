// SPDX-License-Identifier: GPL-2.0
/* Atomic replace with fairlab's state and handover: see klp_test.c. */
#define FL_TEST_REPLACE
#define FL_TEST_HANDOVER
#include "klp_test.c"
