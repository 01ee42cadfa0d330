#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Placement what-if unit tests (analysis/test/test_idlest.c): hand-made
# pick_idlest sequences with hand-computed calls and disagreements, built
# with ASan+UBSan.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-idlest
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$bin"
