#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What fairlab record and experiment check before they touch anything, and
# fairlab reset, on a made-up system root (FAIRLAB_SYSROOT: the tool reads
# sys/, proc/sys/kernel/osrelease and run/ under it; processes are real):
#  - the refusals in their order: no /sys/kernel/livepatch, a release no
#    port serves (naming the nearest series' served builds, which the tool
#    was built with from module/port/*/builds.tsv or kernel.conf), then
#    each module, the patch, tracefs;
#  - reset: restores the policy the state file saved, stops a leftover
#    trace-cmd (and only a process that is still trace-cmd), refuses while
#    the recording that owns the state runs, says what it did each time.
# In the VM, tests/vm/scenarios/record-safety.guest.sh does it for real.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$tmp"' EXIT
out=$tmp/out err=$tmp/err
root=$tmp/root
export FAIRLAB_SYSROOT=$root
mkdir -p "$root/proc/sys/kernel" "$root/sys/kernel" "$root/sys/module"

# the served builds, as the tool was built to know them
served() {	# SERIES: its served releases, space-separated
	if [ -f "$top/module/port/$1/builds.tsv" ]; then
		awk -F'\t' '!/^#/ && $3 == "served" { printf "%s%s", n++ ? " " : "", $1 }' \
			"$top/module/port/$1/builds.tsv"
	else
		sed -n 's/^KREL=//p' "$top/module/port/$1/kernel.conf"
	fi
}
# SERIES: how the tool names them: the versions grouped by the flavours
# each is served in, "V, V (amd64, cloud-amd64, rt-amd64); V (amd64)"
grouped() {
	served "$1" | tr ' ' '\n' | awk '
		{ v = $0; sub(/-(cloud-|rt-)?amd64$/, "", v); f = substr($0, length(v) + 2)
		  if (!(v in fl)) order[n++] = v
		  fl[v] = fl[v] " " f }
		END {
			for (i = 0; i < n; i++) {
				v = order[i]; s = ""
				for (j = 1; j <= 3; j++) {
					x = j == 1 ? "amd64" : j == 2 ? "cloud-amd64" : "rt-amd64"
					if (index(fl[v] " ", " " x " ")) s = s (s == "" ? "" : ", ") x
				}
				if (!(s in list)) sets[ns++] = s
				list[s] = list[s] (list[s] == "" ? "" : ", ") v
			}
			for (i = 0; i < ns; i++)
				printf "%s%s (%s)", i ? "; " : "", list[sets[i]], sets[i]
		}'
}
# FILE with the tool's wrapped lines (continued by 6 spaces) joined
unwrap() {
	awk '/^      [^ ]/ { sub(/^ +/, ""); line = line " " $0; next }
	     { if (NR > 1) print line; line = $0 } END { if (NR) print line }' "$1"
}
s61=$(served 6.1)
g61=$(grouped 6.1) g612=$(grouped 6.12)
first61=${s61%% *}

# refused RE NAME: record and experiment both exit 1 with RE on stderr,
# nothing written
refused() {
	_re=$1
	for c in "record -d 1 -o $tmp/r.dat" "experiment --policies stock -d 1 -o $tmp/exp"; do
		run_fl "$out" "$err" $c; s=$?
		check "${c%% *}: $2: exit 1, says /$1/" \
			eval 'test $s = 1 && grep -Eq -- "$_re" "$err" && test ! -e $tmp/r.dat -a ! -e $tmp/exp'
	done
}

echo "$first61" >"$root/proc/sys/kernel/osrelease"
refused "this kernel, $first61, has no livepatch support \(no /sys/kernel/livepatch\)" \
	"no /sys/kernel/livepatch, before the port"
mkdir -p "$root/sys/kernel/livepatch"
echo 6.5.0-27-generic >"$root/proc/sys/kernel/osrelease"
refused "this kernel, 6.5.0-27-generic, has no fairlab port" "an Ubuntu release"
check "the nearest series of 6.5 is 6.1, its served builds named: $g61" \
	eval 'unwrap "$err" | grep -qxF "  served builds of the nearest series (6.1): $g61"'
check "the nearest series' builds wrapped before column 80" \
	eval '! awk "length > 79" "$err" | grep -q "served builds\|^      "'
echo 6.19.3-200.fc43.x86_64 >"$root/proc/sys/kernel/osrelease"
refused "this kernel, 6.19.3-200.fc43.x86_64, has no fairlab port" "a Fedora release"
check "the nearest series of 6.19 is 6.12, its served builds named: $g612" \
	eval 'unwrap "$err" | grep -qxF "  served builds of the nearest series (6.12): $g612"'
run_fl "$out" "$err" --version
check "--version names every series' served builds and that this kernel has no port" \
	eval 'unwrap "$out" | grep -qxF "  6.1: $g61" && unwrap "$out" | grep -qxF "  6.12: $g612" && grep -q "6.19.3-200.fc43.x86_64, has no port" "$out"'
check "--version's list of builds wrapped before column 80" \
	eval '! awk "length > 79" "$out" | grep -q "^  6\.\|^      "'

echo "$first61" >"$root/proc/sys/kernel/osrelease"
refused "fairlab_trace.ko is not loaded.*insmod fairlab_trace.ko" "a served build without the modules"
mkdir -p "$root/sys/module/fairlab_trace"
refused "fairlab.ko is not loaded" "without fairlab.ko"
P=$root/sys/module/fairlab/parameters
mkdir -p "$P" "$root/sys/kernel/livepatch/fairlab"
echo 0 >"$root/sys/kernel/livepatch/fairlab/enabled"
refused "livepatch is not enabled" "the patch disabled"
echo 1 >"$root/sys/kernel/livepatch/fairlab/enabled"
echo 0 >"$root/sys/kernel/livepatch/fairlab/transition"
refused "tracefs is not mounted" "no tracefs"

# ---- fairlab reset
state=$root/run/fairlab/state
run_fl "$out" "$err" reset; s=$?
check "reset with no state file: exit 0, nothing to undo" \
	eval 'test $s = 0 && grep -q "nothing to undo" "$out"'

# a process named NAME (argv[0]) that SIGINT ends, like trace-cmd
spawn() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp("sleep", [sys.argv[1], "300"])' "$1" &
	pids="$pids $!"
	disown $!
	for _i in $(seq 100); do	# until it has exec'd
		[ "$(tr '\0' ' ' </proc/$!/cmdline 2>/dev/null)" = "$1 300 " ] && return
		sleep 0.05
	done
}
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' /proc/$1/status 2>/dev/null; }

mkdir -p "$root/run/fairlab"
echo relative:8 >"$P/tg_policy"
spawn trace-cmd; rec=$!
spawn sleep; other=$!
spawn fairlab; owner=$!
# a dead owner: a pid no process has (the highest one, above pid_max)
dead=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
printf '# test\nowner %d\nknob tg\npolicy nonzero\nrecorder %d\noutput /x/rec.dat\n' $dead $rec >"$state"
run_fl "$out" "$err" reset; s=$?
sed 's/^/# /' "$out" "$err"
check "reset after a killed recording: exit 0" test $s = 0
check "reset: tg_policy restored to the saved nonzero, and says so" \
	eval 'test "$(cat "$P/tg_policy")" = nonzero && grep -q "tg_policy restored to nonzero (it was relative:8)" "$out"'
check "reset: the leftover trace-cmd (pid $rec) stopped, and says so" \
	eval '! alive $rec && grep -q "stopped the leftover trace-cmd (pid $rec) with SIGINT; it wrote /x/rec.dat" "$out"'
check "reset: the state file is gone" test ! -e "$state"
run_fl "$out" "$err" reset; s=$?
check "a second reset: nothing to undo" eval 'test $s = 0 && grep -q "nothing to undo" "$out"'

printf 'owner %d\nknob idlest\npolicy nr_running\nrecorder %d\noutput /x/rec.dat\n' $dead $other >"$state"
echo stock >"$P/idlest_policy"
run_fl "$out" "$err" reset; s=$?
check "reset: a recorder pid that is no longer trace-cmd is left alone, and it says so" \
	eval 'test $s = 0 && alive $other && grep -q "pid $other is now .sleep., not the recording.s trace-cmd: left alone" "$out"'
check "reset: idlest_policy restored to nr_running" test "$(cat "$P/idlest_policy")" = nr_running

# a recording that switched tg_layout too (fairlab experiment POLICY/LAYOUT)
echo relative:8 >"$P/tg_policy"
echo node:1000 >"$P/tg_layout"
printf 'owner %d\nknob tg\npolicy stock\nlayout global\n' $dead >"$state"
run_fl "$out" "$err" reset; s=$?
check "reset: tg_policy and tg_layout restored (stock, global), and says so" \
	eval 'test $s = 0 && test "$(cat "$P/tg_policy")" = stock && test "$(cat "$P/tg_layout")" = global &&
	      grep -q "tg_layout restored to global (it was node:1000)" "$out" && test ! -e "$state"'
rm "$P/tg_layout"
echo relative:8 >"$P/tg_policy"
printf 'owner %d\nknob tg\npolicy stock\nlayout global\n' $dead >"$state"
run_fl "$out" "$err" reset; s=$?
check "reset: a layout to restore on a fairlab.ko without tg_layout: exit 1, says so, state kept" \
	eval 'test $s = 1 && grep -q "this fairlab.ko has no tg_layout parameter" "$err" && test -e "$state"'
rm -f "$state"
echo nonzero >"$P/tg_policy"

printf 'owner %d\nknob tg\npolicy stock\n' $owner >"$state"
run_fl "$out" "$err" reset; s=$?
check "reset while the owning recording (pid $owner, a fairlab) runs: exit 1, says so, state kept" \
	eval 'test $s = 1 && grep -q "a fairlab recording (pid $owner) is running" "$err" && test -e "$state" && test "$(cat "$P/tg_policy")" = nonzero'

printf 'owner %d\nknob tg\npolicy stock\n' $dead >"$state"
rm -rf "$root/sys/module/fairlab"
run_fl "$out" "$err" reset; s=$?
check "reset without fairlab.ko: exit 0, nothing to restore, state removed" \
	eval 'test $s = 0 && grep -q "fairlab.ko is not loaded: nothing to restore" "$out" && test ! -e "$state"'

echo "garbage line" >"$state"
run_fl "$out" "$err" reset; s=$?
check "reset on a file that is not a state file: exit 1, says so, leaves it" \
	eval 'test $s = 1 && grep -q "not a fairlab state file" "$err" && test -e "$state"'
run_fl "$out" "$err" reset extra; s=$?
check "reset takes no arguments: exit 2" test $s = 2
tap_end
