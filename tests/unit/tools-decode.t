#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The decoder's tg_audit snap_ns (tools/reader/decode.c,
# tools/test/test_decode.c): read when the format has it and the clock is
# mono, ignored otherwise; formats parsed by libtraceevent, records built
# by hand.  ASan+UBSan build.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-decode
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$bin"
