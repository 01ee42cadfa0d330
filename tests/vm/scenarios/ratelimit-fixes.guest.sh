#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The rate-limit fixes after 6.7, on 6.12.117's own scheduler
# (nothing patched: the figures are the kernel's, from
# /sys/kernel/debug/sched/debug, which prints the cfs_rqs on each CPU's
# leaf list).
#
# "sched/fair: Fix unfairness caused by stalled tg_load_avg_contrib when
# the last task migrates out": 6.7's rate limit can skip the publish that
# would remove a cfs_rq's contribution when its last task leaves within
# 1 ms of the previous publish; before the fix, cfs_rq_is_decayed() then
# took the cfs_rq off the leaf list, nothing visited it again, and
# tg->load_avg kept its contribution for ever.  6.12.117 contains the fix
# (its cfs_rq_is_decayed() keeps a cfs_rq with a contribution listed).
#
# Provoked here: a CPU hog in group rl moved between CPU 0 and CPU 1 200
# times (each move empties one cfs_rq of rl, often inside the window of
# its last publish), then ended on CPU 1 and killed.  A sleeper in rl on
# CPU 0 keeps CPU 0's cfs_rq of rl listed, so that tg->load_avg stays
# visible, and a hog in the root group keeps CPU 0's ticks updating the
# blocked load of idle CPU 1.  Since every publish moves tg->load_avg and
# a contribution together, tg->load_avg - sum(listed contributions) is the
# contribution of unlisted cfs_rqs: the stale error the bug left.  With the
# fix it is 0 once CPU 1's cfs_rq has left the list.  (Whether the last
# leave fell inside the window is up to timing: the count of samples where
# the fix visibly kept a cfs_rq listed says whether this run provoked it;
# without the fix, a run that did would fail here.)
#
# fairlab-kernels: 6.12
# fairlab-vm: --smp 2 --timeout 240
. "$FL_LIB"

D=/sys/kernel/debug/sched/debug
check "sched debug file" test -r $D || exit 1

# rl_stats: "tg_load_avg listed_contrib_sum listed cpu1_listed cpu1_load cpu1_contrib"
# for group /rl (tg_load_avg as CPU 0's block prints it; -1 when unlisted)
rl_stats() {
	awk '
		BEGIN { tg = -1 }
		/^cfs_rq\[[0-9]+\]:/ {
			in_rl = ($1 ~ /:\/rl$/); cpu = $1; sub(/^cfs_rq\[/, "", cpu); sub(/\].*/, "", cpu)
			if (in_rl) { n++; if (cpu == 1) c1 = 1 }
			next
		}
		in_rl && $1 == ".load_avg" && cpu == 1 { l1 = $3 }
		in_rl && $1 == ".tg_load_avg_contrib" { contrib += $3; if (cpu == 1) k1 = $3 }
		in_rl && $1 == ".tg_load_avg" && cpu == 0 { tg = $3 }
		END { printf "%d %d %d %d %d %d\n", tg, contrib, n, c1, l1, k1 }' $D
}

# spawn PIDFILE CGROUP CPU LOOP: LOOP pinned to CPU in CGROUP, in the
# background; its own pid (not a wrapper's) in PIDFILE
spawn() {
	cg_run "$2" sh -c 'echo $$ >"$0"; exec taskset -c "$1" sh -c "$2"' \
		"$1" "$3" "$4" >/dev/null 2>&1 </dev/null &
	wait_for 10 test -s "$1" || die "cannot start $4"
}

cg_create rl || die "cannot create cgroup rl"
spawn /tmp/hog.pid . 0 'while :; do :; done'
spawn /tmp/sleeper.pid rl 0 'while :; do sleep 0.05; done'
spawn /tmp/t.pid rl 1 'while :; do :; done'
hog=$(cat /tmp/hog.pid)
sleeper=$(cat /tmp/sleeper.pid)
t=$(cat /tmp/t.pid)
sleep 1
set -- $(rl_stats)
log "rl running: tg_load_avg=$1 sum contrib=$2 listed=$3"
check "rl listed on both CPUs while it runs" test "$3" = 2
check "rl's load is published while it runs" test "$1" -gt 0

i=0
while [ $i -lt 200 ]; do
	taskset -p -c 0 $t >/dev/null
	taskset -p -c 1 $t >/dev/null
	i=$((i + 1))
done
kill $t
wait_for 10 eval "! kill -0 $t 2>/dev/null" || die "rl's hog did not end"

# Up to 60 s, 0.1 s apart: until CPU 1's cfs_rq of rl has left the list and
# tg->load_avg equals CPU 0's contribution.  Counted on the way: samples
# where CPU 1's cfs_rq had decayed to load 0 but stayed listed because its
# contribution was not yet published (what the fix keeps).
s=0
done_at=
kept=0
while [ $s -lt 600 ]; do
	set -- $(rl_stats)
	[ "$4" = 1 ] && [ "$5" = 0 ] && [ "$6" != 0 ] && kept=$((kept + 1))
	[ $((s % 20)) = 0 ] && log "t=$((s / 10)).$((s % 10)) s: tg_load_avg=$1 listed contrib=$2 stale=$(($1 - $2)) cpu1: listed=$4 load_avg=$5 contrib=$6"
	if [ "$4" != 1 ] && [ "$1" -ge 0 ] && [ "$1" = "$2" ]; then
		done_at=$s
		break
	fi
	sleep 0.1
	s=$((s + 1))
done
kill $hog $sleeper
log "samples with CPU 1's cfs_rq kept listed at load 0 for its contribution: $kept"
if [ -n "$done_at" ]; then
	ok "no stale contribution: CPU 1's cfs_rq of rl left the list after $((done_at / 10)).$((done_at % 10)) s, tg_load_avg = listed contributions = $1"
else
	not_ok "no stale contribution" "after 60 s: tg_load_avg=$1 listed contrib=$2 (stale $(($1 - $2))), cpu1 listed=$4"
fi
assert_taint_ok
