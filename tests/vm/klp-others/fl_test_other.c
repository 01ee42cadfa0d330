// SPDX-License-Identifier: GPL-2.0
/* Without atomic replace: see klp_test.c. */
#include "klp_test.c"
