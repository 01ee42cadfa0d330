#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The decoding guard (tools/reader/guard.c, tools/test/test_guard.c): faults
# inside libtraceevent and decoding stalls become errors, faults in our
# own code still crash.  ASan+UBSan build; the crashes it provokes on
# purpose print sanitizer reports, kept out of the output.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-guard
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
exec "$bin" 2>/dev/null
