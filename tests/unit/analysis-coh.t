#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Coherence model unit tests: hand-worked read and write sequences on one
# tg->load_avg line and their modeled cost (analysis/test/test_coh.c), and
# on the per-domain lines of the split layouts (test_layout.c), built
# with ASan+UBSan (any sanitizer finding aborts the run).
top=$(cd "$(dirname "$0")/../.." && pwd)
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
st=0
for t in coh layout; do
	bin=$top/build/asan/test-$t
	if [ ! -x "$bin" ]; then
		echo "not ok - $bin is built (run make)"
		st=1
		continue
	fi
	"$bin" || st=1
done
exit $st
