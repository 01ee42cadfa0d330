#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Coherence model unit tests (analysis/test/test_coh.c): hand-worked read
# and write sequences on one tg->load_avg line and their modeled cost,
# built with ASan+UBSan (any sanitizer finding aborts the run).
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-coh
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$bin"
