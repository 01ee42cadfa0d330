#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tg_layout switched back and forth under a fork/exec load, with
# SLUB's debugging on (poison, red zones, sanity checks), opt-in: make
# check-layout runs it beside tg-layout (tests/run.sh --vm-only
# tg-layout-churn alone).  Every switch builds a new layout's blocks and frees
# the old one's after a grace period (module/layout.c): a write into a
# freed block would overwrite SLUB's poison, which SLUB reports ("Poison
# overwritten", taint B) when the object is checked or handed out again.
# A make demo-scale VM once died of a double fault in kmem_cache_alloc
# from copy_process after stock/node:100000 then global: this hunts that.
#  - 60 switches through node:100000 global llc node:1000 node global,
#    the tg policy changing beside them, 0.3 s apart, under load; the
#    audit exact every 10 switches;
#  - then slabinfo validation of every kmalloc cache (SLUB's own walk of
#    each object's poison and red zones), and no SLUB report in dmesg.
# fairlab-vm: --smp 4 --numa --mem 2048 --timeout 600 --append slub_debug=FZPU
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
L=/sys/module/fairlab/parameters/tg_layout
LAYOUTS="node:100000 global llc node:1000 node global"
POLICIES="stock ratelimit:1000 relative:8 budget:5"

check "slub_debug on the command line" grep -q 'slub_debug=FZPU' /proc/cmdline
load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=stock || exit 1
tg_autogroup_on
tg_tree
dmesg_mark
tg_load_until /tmp/churn-stop
sleep 1
n=0 bad=0
for round in 1 2 3 4 5 6 7 8 9 10; do
	set -- $POLICIES
	shift $(( (round - 1) % 4 ))
	echo "$1" >$TGP 2>/dev/null || bad=$((bad + 1))
	for l in $LAYOUTS; do
		if ! echo "$l" >$L 2>/dev/null || [ "$(cat $L)" != "$l" ]; then
			bad=$((bad + 1))
		fi
		n=$((n + 1))
		sleep 0.3
	done
	assert_audit_exact "round $round ($1): audit exact after $n switches"
done
assert_eq "every layout switch taken ($n)" 0 "$bad"
touch /tmp/churn-stop
tg_wait 120
grep '^layout' $FLK/stats | sed 's/^/# stats: /'
echo global >$L
unload_lp fairlab
unload_mod fairlab_trace
# SLUB's validation of every cache that has a validate file (debug caches)
v=0
for f in /sys/kernel/slab/kmalloc-*/validate; do
	[ -e "$f" ] || continue
	echo 1 >"$f" 2>/dev/null && v=$((v + 1))
done
log "validated $v kmalloc caches"
check "kmalloc caches validated ($v)" test "$v" -gt 0
sleep 1
dmesg_since >/tmp/churn-dmesg.txt
cp /tmp/churn-dmesg.txt "$FL_OUT/dmesg-churn.txt"
r=$(grep -c -E 'BUG kmalloc|Poison overwritten|Redzone|Object corrupt|Freepointer corrupt|slab_out_of_bounds|general protection|double fault' /tmp/churn-dmesg.txt)
grep -E 'BUG |Poison|Redzone|corrupt' /tmp/churn-dmesg.txt | head -5 | sed 's/^/# dmesg: /'
assert_eq "no SLUB or fault report in dmesg" 0 "$r"
assert_taint_ok
