#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fairlab never holds more than one run-queue lock: every rq lock the
# module itself takes goes through lockhold.c's fl_rq_hold_begin(), which
# counts the locks held at once (stats: lockhold_locks, asserted 1 in the
# audit-bigsmp and tg-manygroups VM scenarios), and nothing takes every
# CPU's lock in a loop any more.  A source-level check: it fails when a
# file of module/ takes an rq lock (rq_lock*, raw_spin_rq_lock*,
# double_rq_lock, __rq_lockp, rq->__lock) outside lockhold.c, or when
# the old all-CPUs lock (fl_rq_lock_all) comes back.  The replacements of
# kernel functions that take one rq lock themselves, as the kernel does
# (one at a time, released before the next), are listed below with their
# count of sites, so that a new site fails too.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
n=0
t() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		printf '%s\n' "$2" | sed 's/^/#   /'
		fail=1
	fi
}
fail=0
t "no fl_rq_lock_all/fl_rq_unlock_all in module/" \
	"$(grep -rnE 'fl_rq_(un)?lock_all' module || true)"
# comments are stripped (lines starting with * or //) before matching
hits=$(grep -rnE '(^|[^_a-z])(rq_lock(_irq|_irqsave)?|raw_spin_rq_lock(_irq|_irqsave|_nested)?|double_rq_lock|double_lock_balance|__rq_lockp|_task_rq_lock|task_rq_lock)[[:space:]]*\(|->__lock\b' \
	module --include='*.c' --include='*.h' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|//|/\*)' |
	grep -vE '^module/lockhold\.c:' |
	# __sched_group_set_shares(): each CPU's rq lock in turn, as 6.1/6.12
	grep -vE '^module/port/shared/sched_group_set_shares\.h:[0-9]+:[[:space:]]*rq_lock_irqsave\(rq, &rf\);$' |
	# update_blocked_averages(): the one rq it balances, as 6.1/6.12
	grep -vE '^module/port/6\.1/blocked\.c:[0-9]+:[[:space:]]*rq_lock_irqsave\(rq, &rf\);$' |
	grep -vE '^module/port/6\.12/blocked\.c:[0-9]+:[[:space:]]*rq_lock_irqsave\(rq, &rf\);$' |
	grep -vE '^module/symbols\.c:.*fl_raw_spin_rq_lock_nested|^module/port/[^:]*/compat\.h:' || true)
t "rq locks taken only in module/lockhold.c (fl_rq_hold_begin)" "$hits"
for f in module/port/shared/sched_group_set_shares.h module/port/6.1/blocked.c \
	module/port/6.12/blocked.c; do
	c=$(grep -cE '^[[:space:]]*rq_lock_irqsave\(' "$f")
	if [ "$c" = 1 ]; then t "$f: the kernel's one rq_lock_irqsave() site" ""
	else t "$f: the kernel's one rq_lock_irqsave() site" "$c sites"; fi
done
cnt=$(grep -cE 'rq_lock_irqsave\(' module/lockhold.c)
if [ "$cnt" = 1 ]; then t "lockhold.c takes one rq lock per hold" ""
else t "lockhold.c takes one rq lock per hold" "rq_lock_irqsave appears $cnt times"; fi
echo "1..$n"
exit $fail
