#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The livepatch life cycle with exact sysfs checks: load with
# a policy, transition, runtime switches read back, rmmod refused while
# enabled, disable, unload, reload with defaults.
# fairlab-files: module/port/*/surface.txt
. "$FL_LIB"
LP=$FL_LIVEPATCH/fairlab
P=/sys/module/fairlab/parameters
# the function holding update_pick_idlest(): find_idlest_group on 6.1,
# sched_balance_find_dst_group on 6.12
IDLEST=$(port_roots update_pick_idlest) || die "no patch surface"
[ "$(echo "$IDLEST" | wc -w)" = 1 ] || die "not one idlest root: '$IDLEST'"

load_mod fairlab_trace || exit 1
dmesg_mark
load_lp fairlab idlest_policy=idle_cpus || exit 1
assert_sysfs $LP/enabled 1
assert_sysfs $LP/transition 0
check "$IDLEST is patched" test -d "$LP/vmlinux/$IDLEST,1"
assert_sysfs $P/idlest_policy idle_cpus
assert_sysfs $P/tg_policy stock
assert_eq "taint has K (livepatch)" K "$(taint | tr -cd K)"
check "/sys/kernel/fairlab/stats readable" test -r /sys/kernel/fairlab/stats
assert_eq "audit is root-only" "-r--------" "$(ls -l /sys/kernel/fairlab/audit | cut -c1-10)"

for p in nr_running stock idle_cpus nr_running; do
	check "switch idlest_policy to $p" sh -c "echo $p > $P/idlest_policy"
	assert_sysfs $P/idlest_policy $p
done
# forks so that the idlest root runs patched
hackbench -g 2 -f 4 -l 20 >/dev/null 2>&1
n=$(awk '$1 == "idlest_policy" && $2 == "nr_running" { print $3 }' /sys/kernel/fairlab/stats)
check "patched $IDLEST decided under nr_running ($n)" test "${n:-0}" -gt 0

expect_fail "rmmod refused while enabled" "Resource temporarily unavailable|busy|EAGAIN|in use" rmmod fairlab
disable_lp fairlab
check "fairlab still loaded after disable" mod_loaded fairlab
unload_mod fairlab
check "/sys/kernel/fairlab removed" test ! -e /sys/kernel/fairlab
check "/sys/kernel/livepatch/fairlab removed" test ! -e $LP

load_lp fairlab || exit 1
assert_sysfs $P/idlest_policy stock "default idlest_policy is stock"
assert_sysfs $P/tg_policy stock "default tg_policy is stock"
unload_lp fairlab
unload_mod fairlab_trace
assert_dmesg_lacks "WARNING|BUG|Oops"
assert_taint_ok
