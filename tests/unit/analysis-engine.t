#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Statistics engine unit tests (analysis/test/test_engine.c): synthetic record
# sequences with hand-computed answers, built with ASan+UBSan (any
# sanitizer finding aborts the run, which counts as a failure).
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-engine
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$bin"
