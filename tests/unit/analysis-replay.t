#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What-if replay unit tests (analysis/test/test_replay.c): synthetic record
# sequences with hand-computed answers.  Run once per way the replay can
# be threaded (FAIRLAB_THREADS): on one thread (1), the policies split
# over two (2), every policy on a replay thread fed through a ring (ring);
# each must give the hand-computed answers, built with ASan+UBSan, and
# the threaded two again built with ThreadSanitizer, which fails the run
# on a data race between the engine's thread and the replay's.
top=$(cd "$(dirname "$0")/../.." && pwd)
for b in asan tsan; do
	if [ ! -x "$top/build/$b/test-replay" ]; then
		echo "not ok - build/$b/test-replay is built (run make)"
		exit 1
	fi
done
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:exitcode=66
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
rc=0
# ThreadSanitizer's shadow memory needs the address layout without the
# high mmap randomization of newer kernels: without ASLR (setarch -R).
norand=
command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null &&
	norand="setarch $(uname -m) -R"
for run in asan:1 asan:2 asan:ring tsan:2 tsan:ring; do
	b=${run%:*} t=${run#*:}
	pre=
	[ "$b" = tsan ] && pre=$norand
	FAIRLAB_THREADS=$t $pre "$top/build/$b/test-replay" >"$out" 2>&1
	s=$?
	sed "s/^\(ok\|not ok\) - /\1 - $b, FAIRLAB_THREADS=$t: /" "$out"
	if [ $s -ne 0 ]; then
		echo "not ok - $b, FAIRLAB_THREADS=$t: test-replay exited with status $s"
		rc=1
	fi
done
exit $rc
