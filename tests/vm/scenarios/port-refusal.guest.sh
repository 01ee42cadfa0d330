#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Issues 2 (d) and 3 (f): fairlab.ko refuses a kernel that is not the one
# its port was written for, says what it expected and what it found, and
# patches nothing.  The two modules are copies of fairlab.ko built by
# tests/vm/build-refusal-modules.sh to expect another release and another
# size of find_idlest_group; the real module then still loads.
# fairlab-files: build/refusal/fairlab-release.ko build/refusal/fairlab-size.ko
. "$FL_LIB"
R=/fairlab/build/refusal

load_mod fairlab_trace || exit 1

dmesg_mark
expect_fail "release mismatch refused" "No such device" insmod $R/fairlab-release.ko
assert_dmesg_has 'fairlab: this port is for kernel 6.1.0-99-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 \(2026-11-26\); running 6.1.0-57-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 \(2026-11-26\): refusing to load' \
	"release mismatch: dmesg names expected and found"
check "nothing patched after release mismatch" test ! -e $FL_LIVEPATCH/fairlab
check "no module after release mismatch" test ! -e /sys/module/fairlab
assert_eq "no livepatch registered after release mismatch" "" "$(ls $FL_LIVEPATCH)"

dmesg_mark
expect_fail "size mismatch refused" "No such device" insmod $R/fairlab-size.ko
assert_dmesg_has 'fairlab: find_idlest_group: expected size 0x8c0, found 0x8b0: kernel build differs from the port, refusing to load' \
	"size mismatch: dmesg names expected and found"
check "nothing patched after size mismatch" test ! -e $FL_LIVEPATCH/fairlab
check "no module after size mismatch" test ! -e /sys/module/fairlab
assert_eq "no livepatch registered after size mismatch" "" "$(ls $FL_LIVEPATCH)"

# (The kernel taints K when it reads a livepatch module's modinfo, before
# init runs: taint cannot tell whether anything was patched.)

# The genuine module, same sources, loads and patches.
load_lp fairlab || exit 1
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
