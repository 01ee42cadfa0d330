#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The parallel decoder after a fault or a stall in libtraceevent
# (tools/reader/pardecode.c, tools/test/test_pardecode.c): the run's error,
# what is left on purpose kept reachable (LeakSanitizer at exit reports no
# leak), and a stalled thread that comes back touching only memory that is
# still there.  ASan+UBSan build; the fault it provokes on purpose prints
# nothing of ours.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-pardecode
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
exec "$bin" 2>/dev/null
