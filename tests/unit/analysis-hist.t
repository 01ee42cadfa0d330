#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of the engine's histogram and error accumulator
# (analysis/test/test_hist.c): bucket tiling, percentiles and time
# weighting on hand-computed values, built with ASan+UBSan (any sanitizer
# finding aborts the run, which counts as a failure).
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-hist
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$bin"
