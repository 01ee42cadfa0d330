#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad idlest_policy values at insmod and through sysfs are
# refused with EINVAL and one dmesg line; the old policy stays.
. "$FL_LIB"
P=/sys/module/fairlab/parameters/idlest_policy
BAD="Stock STOCK idle nr-running 0 1 42 nr_running:1 stock_ idle_cpus,stock"
LONG=$(printf 'x%.0s' $(seq 1 300))

load_mod fairlab_trace || exit 1
# busybox insmod retries with init_module after finit_module fails, so
# there is one attempt or two: each must log exactly one line of ours
# (the kernel adds its own "invalid for parameter" line per attempt).
for v in $BAD "" "$LONG" '"stock extra"'; do
	s=$(echo "$v" | cut -c1-20)
	dmesg_mark
	expect_fail "insmod idlest_policy='$s' refused" \
		"Invalid|invalid" insmod "$FL_MODDIR/fairlab.ko" "idlest_policy=$v"
	check "fairlab not loaded after bad '$s'" sh -c "! test -d /sys/module/fairlab"
	ours=$(dmesg_since | grep -c 'fairlab: invalid idlest_policy')
	attempts=$(dmesg_since | grep -c "invalid for parameter .idlest_policy")
	check "one dmesg line per attempt for '$s' ($ours/$attempts)" \
		test "$ours" -ge 1 -a "$ours" = "$attempts"
done

load_lp fairlab idlest_policy=nr_running || exit 1
for v in $BAD "" "$LONG" "stock extra" " stock"; do
	dmesg_mark
	expect_fail "sysfs '$(echo "$v" | cut -c1-20)' -> EINVAL" "Invalid argument" \
		sh -c "echo '$v' > $P"
	assert_sysfs $P nr_running "policy kept after '$(echo "$v" | cut -c1-20)'"
	n=$(dmesg_since | grep -c 'fairlab: invalid idlest_policy')
	assert_eq "one dmesg line for sysfs '$(echo "$v" | cut -c1-20)'" 1 "$n"
done
# The dmesg line names the value and the accepted ones.
dmesg_mark
sh -c "echo Stock > $P" 2>/dev/null
assert_dmesg_has 'invalid idlest_policy "Stock": expected one of stock idle_cpus nr_running'
# A trailing newline (echo) is accepted, nothing else is.
check "echo with newline accepted" sh -c "echo stock > $P"
assert_sysfs $P stock
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
