#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The decoding guard (tools/reader/guard.c, tools/test/test_guard.c): faults
# inside libtraceevent and decoding stalls become errors, faults in our
# own code still crash.  Then the parallel decoder after such a fault or
# stall on one of its threads (tools/reader/pardecode.c,
# tools/test/test_pardecode.c): the run's error, what is left on purpose
# kept reachable (LeakSanitizer at exit reports no leak), and a stalled
# thread that comes back touching only memory that is still there.
# ASan+UBSan builds; the crashes they provoke on purpose print sanitizer
# reports, kept out of the output.
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
for t in guard pardecode; do
	bin=$top/build/asan/test-$t
	if [ ! -x "$bin" ]; then
		echo "not ok - $bin is built (run make)"
		rc=1
		continue
	fi
	"$bin" 2>/dev/null || rc=1
done
exit $rc
