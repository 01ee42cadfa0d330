#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Real recordings for the analyzer (tools/fairlab): one trace.dat of the
# fairlab:* events with everything the analyzer reports on.  While
# recording: fairlab.ko is loaded (policy_switch at load, tg_info and
# cpu_topology, an audit), a fork-heavy workload runs in a cgroup tree
# (a/b, a/c) and in autogroups under tg policy stock, then relative:8 with
# idlest policy nr_running, then budget:5; an audit is emitted and the
# patch is disabled (a last audit).  So the file holds three policy
# segments, every event type, and, with --numa, cross-node writer switches.
# Before, /out/plain.dat records sched_process_fork only (no fairlab event
# formats at all).
#
#   tests/vm/run-scenario.sh --smp 4 --numa tests/vm/scenarios/analyzer-data.guest.sh
#
# gives build/vm/analyzer-data/analyzer.dat; tests/data/regenerate.sh
# makes the committed test data from it.  Knobs (--append):
#   FL_DATA_SECS=N     workload seconds per policy (default 1; the
#                      analyzer benchmark records with more)
#   FL_DATA_RECORDS=N  end each policy's workload early, once the module
#                      has counted N update attempts in all (its stats
#                      file), split evenly over the policies: a recording
#                      of about N tg_update records however fast the
#                      emulated machine runs; FL_DATA_SECS is then a cap
#   FL_DATA_CLOCK=C    trace clock (default mono; local makes the
#                      recording the analyzer must warn about)
#   FL_DATA_PAUSE=1    stop the recorder during the first workload: with a
#                      tiny FL_TRACE_BUF_KB and FL_ALLOW_LOST=1
#                      (tests/vm/README.md) the recording loses events
#   FL_DATA_GROUPS=N   N more cgroups a/gI, each running hackbench too:
#   FL_DATA_DEPTH=D    ... in a chain of D more levels below a/gI (a
#                      wakeup attempts an update at every level), so that
#                      update attempts grow with groups x depth x CPUs (the
#                      analyzer benchmark's millions of records)
#   FL_DATA_COMPRESSION=C  trace-cmd record --compression C (none: no
#                      compression work in the slow guest; default: trace-cmd's)
#   FL_DATA_CHECK=0    skip counting the records with trace-cmd report in
#                      the guest (minutes for millions of records under TCG)
#   FL_DATA_POLICIES=stock,force,...  instead of stock, relative:8 and
#                      budget:5: one workload under each tg policy listed
#                      (the what-if replay's exactness data)
. "$FL_LIB"
: "${FL_DATA_SECS:=1}"
: "${FL_DATA_CLOCK:=mono}"
: "${FL_DATA_PAUSE:=0}"
: "${FL_DATA_GROUPS:=0}"
: "${FL_DATA_DEPTH:=0}"
: "${FL_DATA_COMPRESSION:=}"
: "${FL_DATA_CHECK:=1}"
: "${FL_DATA_POLICIES:=}"
: "${FL_DATA_RECORDS:=0}"

# leaf I: the cgroup (path below /sys/fs/cgroup) of extra group I
leaf() {
	_p=a/g$1
	_d=0
	while [ "$_d" -lt "$FL_DATA_DEPTH" ]; do
		_p=$_p/n$_d
		_d=$((_d + 1))
	done
	echo "$_p"
}
CG=/sys/fs/cgroup
P=/sys/module/fairlab/parameters

# /tmp/loop.sh SECS CMD...: run CMD over and over until SECS have passed
# or /tmp/fl-stop exists (FL_DATA_RECORDS reached)
cat >/tmp/loop.sh <<'EOF'
end=$(( $(date +%s) + $1 )); shift
while [ "$(date +%s)" -lt $end ] && [ ! -e /tmp/fl-stop ]; do
	"$@" >/dev/null 2>&1
done
EOF

# attempts: update attempts the module has counted since it was loaded
attempts() {
	awk '$1 == "tg_policy" { n += $3 } END { print n + 0 }' \
		/sys/kernel/fairlab/stats
}

# recorder_signal SIG: send SIG to `trace-cmd record` (pid saved by
# record_start in /tmp/fl-record-NAME.pid) and to its per-CPU readers
recorder_signal() {
	_rp=$(cat /tmp/fl-record-analyzer.pid)
	for _d in /proc/[0-9]*; do
		[ "$(awk '{ print $4 }' "$_d/stat" 2>/dev/null)" = "$_rp" ] &&
			kill "-$1" "${_d#/proc/}" 2>/dev/null
	done
	kill "-$1" "$_rp"
}

# workload SECS [ATTEMPTS]: forks, wakeups and exits in both leaves and
# in autogroups, for SECS or until the module has counted ATTEMPTS update
# attempts (waits for its own jobs only: the recorder runs in the
# background too)
workload() {
	rm -f /tmp/fl-stop
	_watch=
	if [ -n "${2:-}" ]; then
		# polled once a second: overshoots by a second of records at most
		( while [ "$(attempts)" -lt "$2" ]; do sleep 1; done
		  : >/tmp/fl-stop ) &
		_watch=$!
	fi
	cg_run a/b sh /tmp/loop.sh "$1" hackbench -g 2 -f 2 -l 20 &
	_w1=$!
	# stress-ng in runs of at most 5 s, so that it too stops at fl-stop
	_sn=$(( $1 < 5 ? $1 : 5 ))
	cg_run a/c sh /tmp/loop.sh "$1" stress-ng --fork 2 -t "${_sn}s" -q &
	_w2=$!
	setsid sh /tmp/loop.sh "$1" /bin/true &
	_w3=$!
	_ws=
	_i=1
	while [ "$_i" -le "$FL_DATA_GROUPS" ]; do
		cg_run "$(leaf $_i)" sh /tmp/loop.sh "$1" hackbench -g 1 -f 2 -l 100 &
		_ws="$_ws $!"
		_i=$((_i + 1))
	done
	wait $_w1 $_w2 $_w3 $_ws
	[ -n "$_watch" ] && kill "$_watch" 2>/dev/null
	rm -f /tmp/fl-stop
	return 0
}

# target K N: the attempts at which the K-th of N workloads stops
# (nothing without FL_DATA_RECORDS: each runs FL_DATA_SECS)
target() {
	[ "$FL_DATA_RECORDS" -gt 0 ] && echo $((FL_DATA_RECORDS * $1 / $2))
	return 0
}

# trace-cmd stores /proc/kallsyms in the file (megabytes); the fairlab
# events hold no addresses, so it gets an empty one while recording.
: >/tmp/no-kallsyms
if mount -o bind /tmp/no-kallsyms /proc/kallsyms 2>/dev/null; then
	kallsyms_hidden=1
else
	log "cannot hide /proc/kallsyms: the recording will be larger"
fi

# A recording without fairlab events (fairlab_trace.ko not loaded yet):
# the analyzer must refuse it.
record_start plain -e sched:sched_process_fork
/bin/true; /bin/true
record_stop plain

load_mod fairlab_trace || exit 1
mkdir -p $CG/a && echo +cpu >$CG/a/cgroup.subtree_control &&
	mkdir -p $CG/a/b $CG/a/c || die "cannot build the cgroup tree"
i=1
while [ "$i" -le "$FL_DATA_GROUPS" ]; do
	# every level but the leaf delegates the cpu controller
	p=a/g$i
	mkdir -p "$CG/$p" || die "cannot create cgroup $p"
	for n in $(leaf $i | cut -d/ -f3- | tr / ' '); do
		echo +cpu >"$CG/$p/cgroup.subtree_control" &&
			mkdir -p "$CG/$p/$n" || die "cannot create cgroup $p/$n"
		p=$p/$n
	done
	i=$((i + 1))
done

# the last -C wins over record_start's -C mono
record_start analyzer -C "$FL_DATA_CLOCK" \
	${FL_DATA_COMPRESSION:+--compression "$FL_DATA_COMPRESSION"} -e fairlab
if [ -n "$FL_DATA_POLICIES" ]; then
	load_lp fairlab tg_policy=${FL_DATA_POLICIES%%,*} || exit 1
	npol=$(echo "$FL_DATA_POLICIES" | tr , '\n' | wc -l)
	k=0
	for pol in $(echo "$FL_DATA_POLICIES" | tr , ' '); do
		k=$((k + 1))
		check "tg_policy $pol" sh -c "echo $pol > $P/tg_policy"
		workload "$FL_DATA_SECS" $(target $k "$npol")
	done
else
	load_lp fairlab tg_policy=stock || exit 1
	[ "$FL_DATA_PAUSE" = 1 ] && recorder_signal STOP
	workload "$FL_DATA_SECS" $(target 1 3)
	[ "$FL_DATA_PAUSE" = 1 ] && recorder_signal CONT
	check "tg_policy relative:8" sh -c "echo relative:8 > $P/tg_policy"
	check "idlest_policy nr_running" sh -c "echo nr_running > $P/idlest_policy"
	workload "$FL_DATA_SECS" $(target 2 3)
	check "tg_policy budget:5" sh -c "echo budget:5 > $P/tg_policy"
	workload "$FL_DATA_SECS" $(target 3 3)
fi
log "update attempts counted by the module: $(attempts)"
check "audit emitted" sh -c "echo 1 > /sys/kernel/fairlab/audit_emit"
disable_lp fairlab
record_stop analyzer
[ -n "${kallsyms_hidden:-}" ] && umount /proc/kallsyms

if [ "$FL_DATA_CHECK" = 1 ]; then
	trace-cmd report -i "$FL_OUT/analyzer.dat" 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(tg_update|tg_read|pick_idlest|policy_switch|tg_info|cpu_topology|tg_audit):$/) n[$i]++ }
		     END { for (e in n) print e, n[e] }' >"$FL_OUT/analyzer.counts.txt"
	for ev in tg_update tg_read pick_idlest policy_switch tg_info cpu_topology tg_audit; do
		n=$(awk -v e="$ev:" '$1 == e { print $2 }' "$FL_OUT/analyzer.counts.txt")
		check "recording holds $ev records (${n:-0})" test "${n:-0}" -gt 0
	done
fi

unload_mod fairlab
unload_mod fairlab_trace
assert_taint_ok
