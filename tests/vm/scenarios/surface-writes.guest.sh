#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Does vmlinux's own code still write tg->load_avg while fairlab is patched?
# A kprobe goes on every instruction that writes tg->load_avg, as listed
# for the running build in its module/port/*/builds.tsv line (shipped as
# /fairlab/build/writes by run-scenario.sh), else ("write FUNC+0xOFF"
# lines) in module/port/<major.minor>/surface.txt of the port's own build
# (scripts/surface.py; FUNC+0xOFF survives KASLR).
# The same workload, reaching every path that writes (fork/exec, cgroup
# moves, cpu.weight writes, cpu.max throttling, CPU hotplug, autogroups,
# fair <-> RT class switches), runs three times:
#   1. unpatched: every probe must fire;
#   2. fairlab patched (transition done): no probe may fire;
#   3. unpatched again: every probe must fire again.
# Hit counts per probe and phase go to $FL_OUT/surface-hits.txt.
#
#   tests/vm/run-scenario.sh --smp 4 tests/vm/scenarios/surface-writes.guest.sh
#
# fairlab-vm: --smp 4 --mem 1024 --timeout 400
# fairlab-files: module/port/*/surface.txt /usr/bin/chrt
# fairlab-files: build/probe-count/@KREL@/probe_count.ko
. "$FL_LIB"
CG=/sys/fs/cgroup
: "${FL_SURFACE_SECS:=8}"

krel=$(uname -r)
port=$(echo "$krel" | cut -d. -f1,2)
# the offsets are those of one build: the host ships this build's, and
# port_surface checks the surface is this kernel's
if [ -s /fairlab/build/writes ]; then
	from="its line of module/port/$port/builds.tsv"
	cp /fairlab/build/writes /tmp/writes
else
	from=module/port/$port/surface.txt
	surface=$(port_surface) || die "no patch surface for this build"
	awk '$1 == "write" { print $2 }' "$surface" >/tmp/writes
fi
nw=$(wc -l </tmp/writes)
[ "$nw" -gt 0 ] || die "$from lists no write"
log "kernel $krel: $nw write sites from $from"

# ------------------------------------------------------------------ probes
# probe_count.ko (tests/vm/probe-count): a kprobe per site, hits in debugfs.
# Not kprobe_events: trace_kprobe refuses addresses inside notrace
# functions, and a writer can be one (update_load_avg on 6.1).
sites=$(tr '\n' ',' </tmp/writes)
load_mod "/fairlab/build/probe-count/$krel/probe_count.ko" "sites=${sites%,}" || exit 1
HITS=/sys/kernel/debug/probe_count/hits
check "probe_count lists the $nw sites" test "$(wc -l <$HITS)" = "$nw"

# hits: "SITE COUNT" lines (cumulative since the module was loaded)
hits() { cat "$HITS"; }

# ------------------------------------------------------------------ workload
mkdir -p $CG/a && echo +cpu >$CG/a/cgroup.subtree_control &&
	mkdir -p $CG/a/b $CG/a/c $CG/d || die "cannot build the cgroup tree"
cat >/tmp/loop.sh <<'EOF'
end=$(( $(date +%s) + $1 )); shift
while [ "$(date +%s)" -lt $end ]; do "$@" >/dev/null 2>&1; done
EOF
# burn.sh PIDFILE: a CPU burner that says who it is (cg_run's & gives the
# pid of a subshell, not of the burner)
cat >/tmp/burn.sh <<'EOF'
echo $$ >"$1"
while :; do :; done
EOF
ncpu=$(nproc)

# workload SECS: every path that writes tg->load_avg, in non-root groups
# (writes for the root group are skipped by the kernel)
workload() {
	s=$1
	# fork/exec (enqueue/dequeue/attach on fork, exec balancing)
	cg_run a/b sh /tmp/loop.sh "$s" hackbench -g 2 -f 3 -l 20 &
	cg_run a/c sh /tmp/loop.sh "$s" /bin/true &
	# cpu.max throttling: a burner in d, limited to 10 ms per 50 ms
	echo "10000 50000" >$CG/d/cpu.max
	rm -f /tmp/thr.pid /tmp/mv.pid
	cg_run d sh /tmp/burn.sh /tmp/thr.pid &
	# autogroups: new sessions in the root cgroup
	setsid sh /tmp/loop.sh "$s" /bin/true &
	setsid sh /tmp/loop.sh "$s" sh -c 'sleep 0.01' &
	# a burner moved between groups (task_change_group / detach / attach),
	# switched fair -> RT -> fair (switched_from/to_fair).  SCHED_RR, not
	# FIFO: on PREEMPT_RT the per-CPU ktimers and rcuc threads are
	# SCHED_FIFO 1, and a FIFO 1 burner on their CPU never lets them run:
	# the soft timer of the sleep that would switch it back never fires
	# (an RCU stall, then the scenario's timeout, on 6.12.117+deb12-rt);
	# RR gives way to them at the end of each time slice
	cg_run a/b sh /tmp/burn.sh /tmp/mv.pid &
	wait_for 10 test -s /tmp/mv.pid && wait_for 10 test -s /tmp/thr.pid ||
		not_ok "workload" "burners did not start"
	mv=$(cat /tmp/mv.pid)
	thr=$(cat /tmp/thr.pid)
	end=$(( $(date +%s) + s ))
	n=0 ncl=0 nhp=0
	while [ "$(date +%s)" -lt "$end" ]; do
		for g in a/c d a/b; do
			echo $mv >$CG/$g/cgroup.procs 2>/dev/null
			sleep 0.1
		done
		for _ in 1 2 3; do
			chrt -r -p 1 $mv >/dev/null 2>&1 && ncl=$((ncl + 1))
			sleep 0.02
			chrt -o -p 0 $mv >/dev/null 2>&1
		done
		# cpu.weight writes (reweight: __sched_group_set_shares)
		echo $(( (n % 4) * 50 + 20 )) >$CG/a/b/cpu.weight
		echo $(( 220 - (n % 4) * 50 )) >$CG/a/c/cpu.weight
		# CPU hotplug: one CPU (not 0) off and on again
		if [ "$ncpu" -gt 1 ]; then
			c=$(( n % (ncpu - 1) + 1 ))
			echo 0 >/sys/devices/system/cpu/cpu$c/online 2>/dev/null &&
				nhp=$((nhp + 1))
			sleep 0.1
			echo 1 >/sys/devices/system/cpu/cpu$c/online 2>/dev/null
		fi
		n=$((n + 1))
	done
	kill -KILL $mv $thr 2>/dev/null
	wait 2>/dev/null
	# idle for a moment: blocked load decays (update_blocked_averages)
	sleep 1
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ "$(cat "$c")" = 1 ] || echo 1 >"$c"
	done
	log "workload: $n rounds: cgroup moves, reweights; $ncl switches to SCHED_RR, $nhp CPU offlines"
	[ "$ncl" -gt 0 ] || not_ok "workload" "chrt never switched the burner to SCHED_RR"
	[ "$nhp" -gt 0 ] || [ "$ncpu" = 1 ] || not_ok "workload" "no CPU went offline"
}

# phase NAME: run the workload, store per-probe hits of this phase in
# /tmp/hits.NAME ("wN COUNT" lines)
phase() {
	hits >/tmp/before
	workload "$FL_SURFACE_SECS"
	hits >/tmp/after
	awk 'NR == FNR { b[$1] = $2; next } { print $1, $2 - b[$1] }' \
		/tmp/before /tmp/after >"/tmp/hits.$1"
}

# hits_of NAME SITE: hits of SITE in phase NAME
hits_of() { awk -v w="$2" '$1 == w { print $2 }' "/tmp/hits.$1"; }

# expect NAME fire|silent: one line per probe
expect() {
	while read -r site; do
		h=$(hits_of "$1" "$site")
		case $2 in
		fire) check "$1: $site fires (${h:-no} hits)" test "${h:-0}" -gt 0 ;;
		silent) assert_eq "$1: $site silent" 0 "${h:-missing}" ;;
		esac
	done </tmp/writes
}

log "t=$(cut -d' ' -f1 /proc/uptime) phase 1: unpatched"
phase unpatched
expect unpatched fire

load_mod fairlab_trace || exit 1
load_lp fairlab || exit 1
log "t=$(cut -d' ' -f1 /proc/uptime) phase 2: patched"
# silence must come from the replacements running instead, not from an
# idle workload: fairlab's own tg_update attempts must grow meanwhile
attempts() { awk '$1 == "site" { s += $3 } END { print s + 0 }' /sys/kernel/fairlab/stats; }
a0=$(attempts)
phase patched
a1=$(attempts)
check "patched: fairlab's replacements ran ($((a1 - a0)) tg_update attempts)" test "$a1" -gt "$a0"
expect patched silent
disable_lp fairlab
unload_mod fairlab
unload_mod fairlab_trace

log "t=$(cut -d' ' -f1 /proc/uptime) phase 3: unpatched again"
phase unpatched-again
expect unpatched-again fire

{
	echo "# tg->load_avg write sites of $krel ($from): hits per phase"
	printf '%-48s %12s %12s %16s\n' "site" "unpatched" "patched" "unpatched-again"
	while read -r site; do
		printf '%-48s %12s %12s %16s\n' "$site" "$(hits_of unpatched "$site")" \
			"$(hits_of patched "$site")" "$(hits_of unpatched-again "$site")"
	done </tmp/writes
} | tee "$FL_OUT/surface-hits.txt" | sed 's/^/# /'

unload_mod probe_count
assert_dmesg_lacks "WARNING|BUG|Oops"
assert_taint_ok
