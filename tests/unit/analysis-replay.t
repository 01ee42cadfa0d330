#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What-if replay unit tests (analysis/test/test_replay.c): synthetic record
# sequences with hand-computed answers, built with ASan+UBSan.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-replay
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$bin"
