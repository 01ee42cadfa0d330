#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The build matrix (make check-builds): for each kernel build, download it
# (scripts/fetch-build.sh: image, headers, source), build its modules,
# boot its own image and run the smoke scenario, and the coverage scenario
# (surface-writes: a kprobe on every tg->load_avg write site fires
# unpatched, never patched) where its write sites are known (its
# builds.tsv line names them, or it is a port's own build).
#
#   tests/vm/check-builds.sh [-j N] [KREL...]
#
# Default: every build a port serves (module/port/*/kernel.conf and the
# "served" lines of module/port/*/builds.tsv), the series taken in turn
# (one build of each, then the next of each), so a run cut short has
# reached every series.  While one build's VMs run, the next build is
# downloaded and its modules built (the host's other core).  With -j N
# (or FAIRLAB_BUILD_JOBS=N; default 1) N workers take builds from one
# queue in that order, each with its own VMs and its own preparation of
# the next build, for a host with N VM slots and cores to match.  Prints a
# progress line with an ETA after each build and a table at the end
# (build, smoke and coverage verdicts with their seconds, the seconds
# FAIRLAB_VM_WRAPPER kept them waiting, the build's seconds in all:
# download, module builds, VM runs and waits), then one line per failure
# naming its log; exits 1 if any step failed.  Logs and VM artifacts go
# to build/check-builds/<release>/ (FAIRLAB_CHECK_BUILDS_OUT: another
# directory).
#
# Each step is bounded (FAIRLAB_FETCH_TIMEOUT, default 1200 s for the
# downloads, 900 s for the module build; the scenarios have their own).
# When the cache's file system has less than FAIRLAB_MIN_FREE_GB (default
# 8) GB free after a build, what this run downloaded and unpacked for that
# build is deleted again (never what was there before).
#
# Environment: FAIRLAB_VM_WRAPPER, a command each VM run is started
# through (e.g. a limiter of concurrent VMs); CACHE as for
# scripts/fetch-build.sh.
#
# examples:
#   make check-builds
#   make check-builds JOBS=2
#   make check-builds BUILDS="6.1.0-57-cloud-amd64 6.12.117+deb12-cloud-amd64"
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. scripts/ports.sh
CACHE=${CACHE:-$top/.cache}
export CACHE

jobs=${FAIRLAB_BUILD_JOBS:-1}
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sed -n '3,42p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-j) [ $# -ge 2 ] || { echo "check-builds: -j needs a number" >&2; exit 2; }; jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--) shift; break ;;
	-*) echo "check-builds: unknown option $1 (try --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $jobs in ''|*[!0-9]*|0) echo "check-builds: -j wants a positive number of workers, not '$jobs'" >&2; exit 2 ;; esac
builds=("$@")
if [ ${#builds[@]} -eq 0 ]; then
	# round robin over the ports' lists: the i-th build of each port in turn
	mapfile -t builds < <(for p in $(fl_ready_ports); do fl_served "$p" | awk -v p="$p" '{ print NR "\t" p "\t" $0 }'; done |
		sort -t "$(printf '\t')" -k1,1n -s | cut -f3)
fi
[ ${#builds[@]} -gt 0 ] || { echo "check-builds: no served build" >&2; exit 1; }

fetch_tmo=${FAIRLAB_FETCH_TIMEOUT:-1200}
min_free=${FAIRLAB_MIN_FREE_GB:-8}
read -r -a wrap <<<"${FAIRLAB_VM_WRAPPER:-}"
outroot=${FAIRLAB_CHECK_BUILDS_OUT:-$top/build/check-builds}
mkdir -p "$outroot"
say() { printf 'check-builds: %s\n' "$*"; }
rowfmt='%-28s %-12s %9s %-12s %12s %9s %9s'
# timed VERDICT SECS: "ok (312s)", or the verdict alone when the step did not run
timed() { if [ "$2" = - ]; then echo "$1"; else echo "$1 (${2}s)"; fi; }

# the cache entries of one build, to tell what this run added: its own
# packages (linux-image-KREL, linux-headers-KREL) and their unpacked trees,
# never what another build or another user of the cache fetched meanwhile
entries() {
	ls -d "$CACHE"/deb/*-"$1"_*.deb "$CACHE/kernel-$1" "$CACHE/headers-$1" 2>/dev/null | sort
}

# scenario KREL NAME: run tests/vm/scenarios/NAME.guest.sh on the build's
# own image with its "# fairlab-vm:" options (run-scenario.sh reads them);
# sets $verdict (ok/FAIL, by its exit status), $vsecs (its seconds) and
# $vwait (the seconds before FAIRLAB_VM_WRAPPER let it start, e.g. waiting
# for a free VM slot)
scenario() {
	local k=$1 s=tests/vm/scenarios/$2.guest.sh t t1 tf=$outroot/$1/.$2.started
	t=$(date +%s)
	rm -f "$tf"
	# the scenario notes when it starts, inside the wrapper
	# shellcheck disable=SC2016
	if ${wrap[@]+"${wrap[@]}"} sh -c 'date +%s >"$0"; exec "$@"' "$tf" \
		tests/vm/run-scenario.sh --kernel "$k" \
		--out "$outroot/$k/$2" "$s" >"$outroot/$k/$2.log" 2>&1; then
		verdict=ok
	else
		verdict=FAIL
		fails+=("$k: $2: $(grep -m1 '^not ok' "$outroot/$k/$2.log" || echo "no 'not ok' line") (${outroot#"$top"/}/$k/$2.log)")
	fi
	t1=$(cat "$tf" 2>/dev/null) || t1=$t
	vwait=$((t1 - t)) vsecs=$(( $(date +%s) - t1 ))
	bwait=$((bwait + vwait))
}

# prep KREL: what a build needs before its VMs (download, modules, the
# probe module where the coverage scenario runs), into build/check-builds/
# KREL/: prep.out holds "smoke cov" verdicts so far ("- -": ready), the
# failure lines, and the seconds it took.  Runs in the background for the
# next build while this one's VMs run, so the host's second core compiles
# while the first emulates.
prep() {
	local k=$1 d=$outroot/$1 t0 why sm=- cv=- msg=
	t0=$(date +%s)
	rm -rf "$d" && mkdir -p "$d"
	entries "$k" >"$d/.before"
	why=$(fl_refusal "$k")
	if [ -n "$why" ]; then
		sm=refused msg="$k: not served: $why"
		say "$msg"
	elif ! timeout "$fetch_tmo" scripts/fetch-build.sh "$k" image headers source >"$d/fetch.log" 2>&1; then
		sm="FAIL(fetch)" msg="$k: fetch: $(tail -n1 "$d/fetch.log") (${d#"$top"/}/fetch.log)"
	elif ! timeout 900 scripts/build-kmod.sh "$k" >"$d/build.log" 2>&1; then
		sm="FAIL(build)" msg="$k: module build: $(tail -n1 "$d/build.log") (${d#"$top"/}/build.log)"
	elif [ -n "$(fl_build_writes "$k")" ] || [ -n "$(fl_port_of "$k")" ]; then
		KREL=$k timeout 900 tests/vm/build-probe-module.sh >"$d/probe-build.log" 2>&1 ||
			cv="FAIL(build)" msg="$k: probe module build: $(tail -n1 "$d/probe-build.log") (${d#"$top"/}/probe-build.log)"
	else
		cv=none
	fi
	printf '%s %s %s\n%s\n' "$sm" "$cv" "$(( $(date +%s) - t0 ))" "$msg" >"$d/prep.out.tmp"
	mv "$d/prep.out.tmp" "$d/prep.out"
}

t_start=$(date +%s)
n=${#builds[@]}
[ "$jobs" -le "$n" ] || jobs=$n
# the queue: the index of the next build nobody has taken, under a lock;
# progress: a line per finished build (its name), appended by its worker
run=$outroot/.run.$$
rm -rf "$run" && mkdir -p "$run" && echo 0 >"$run/next" || exit 1
trap 'rm -rf "$run"' EXIT

# claim: the index of the next build in the queue, or nothing when empty
claim() {
	local i
	{
		flock 9
		i=$(cat "$run/next")
		echo $((i + 1)) >"$run/next"
	} 9>"$run/lock"
	[ "$i" -lt "$n" ] && echo "$i"
}

# build KREL: its VM runs (its preparation is done), then its row, its
# failures and its wait into build/check-builds/KREL/ for the table, and
# the progress line
build() {
	local k=$1 d=$outroot/$1 t0 smoke=- cov=- ssecs=- csecs=- psecs=0 msg before secs free el ndone eta
	t0=$(date +%s)
	bwait=0 fails=()
	{ read -r smoke cov psecs; read -r msg; } <"$d/prep.out" || { smoke="FAIL(prep)" msg="$k: no prep result"; }
	before=$(cat "$d/.before" 2>/dev/null)
	[ -n "$msg" ] && fails+=("$msg")
	if [ "$smoke" = - ]; then
		scenario "$k" smoke
		smoke=$verdict ssecs=$vsecs
		if [ "$cov" = - ]; then
			scenario "$k" surface-writes
			cov=$verdict csecs=$vsecs
		fi
	fi
	[ "$cov" = none ] && cov=-
	case "$smoke $cov" in *FAIL*|*refused*) echo 1 >"$d/failed" ;; *) echo 0 >"$d/failed" ;; esac
	# its own seconds: its preparation (overlapping the previous build's
	# VMs) and its VM runs with their waits
	secs=$(( $(date +%s) - t0 + psecs ))
	# shellcheck disable=SC2059
	printf "$rowfmt\n" "$k" "$smoke" "$ssecs" "$cov" "$csecs" "$bwait" "$secs" >"$d/row"
	echo "$bwait" >"$d/waited"
	printf '%s\n' ${fails[@]+"${fails[@]}"} >"$d/fails"

	# disk: drop what this run fetched for this build when space is short
	free=$(df -P -k "$CACHE/" | awk 'NR == 2 { print int($4 / 1048576) }')
	if [ "$free" -lt "$min_free" ]; then
		comm -13 <(echo "$before") <(entries "$k") | while read -r e; do
			case $e in */linux-source-*) continue ;; esac
			rm -rf "$e"
		done
		say "$k: ${free} GB free (< $min_free): removed what this run downloaded for it"
	fi

	# the rate so far over all workers, for what is left
	ndone=$({
		flock 9
		echo "$k" >>"$run/done"
		wc -l <"$run/done"
	} 9>"$run/lock")
	el=$(( $(date +%s) - t_start ))
	eta=$(( el * (n - ndone) / ndone ))
	say "[$ndone/$n] $k: smoke $(timed "$smoke" "$ssecs"), coverage $(timed "$cov" "$csecs"), ${secs}s in all (${bwait}s of it waiting for a VM); $((n - ndone)) left, ETA $(date -u -d "@$(( $(date +%s) + eta ))" +%H:%M:%S) UTC (~$((eta / 60)) min)"
}

# worker: builds from the queue until it is empty, the next one's
# download and modules while this one's VMs run
worker() {
	local cur next prep_pid
	trap - EXIT
	cur=$(claim) || return 0
	prep "${builds[$cur]}" &
	prep_pid=$!
	while [ -n "$cur" ]; do
		wait "$prep_pid"
		next=$(claim) || next=
		if [ -n "$next" ]; then
			prep "${builds[$next]}" &
			prep_pid=$!
		fi
		build "${builds[$cur]}"
		cur=$next
	done
}

[ "$jobs" -gt 1 ] && say "$n builds on $jobs workers"
pids=()
for ((w = 0; w < jobs; w++)); do
	worker &
	pids+=($!)
done
wait "${pids[@]}"

total=$(( $(date +%s) - t_start ))
failed=0 waited=0 fails=()
echo
# shellcheck disable=SC2059
printf "$rowfmt\n" "build" "smoke" "smoke (s)" "coverage" "coverage (s)" "wait (s)" "total (s)"
for k in "${builds[@]}"; do
	d=$outroot/$k
	if [ -s "$d/row" ] && [ -s "$d/failed" ]; then
		cat "$d/row"
		failed=$((failed + $(cat "$d/failed")))
		waited=$((waited + $(cat "$d/waited" 2>/dev/null || echo 0)))
		mapfile -t -O "${#fails[@]}" fails < <(grep -v '^$' "$d/fails" 2>/dev/null)
	else
		# shellcheck disable=SC2059
		printf "$rowfmt\n" "$k" "FAIL(lost)" - - - - -
		failed=$((failed + 1))
		fails+=("$k: its worker left no result (${d#"$top"/}/)")
	fi
done
echo "# $n builds, $((n - failed)) clean, $failed failed; $jobs worker(s); started $(date -u -d "@$t_start" '+%Y-%m-%d %H:%M') UTC, ${total}s in all (${waited}s waiting for a VM; logs: ${outroot#"$top"/}/)"
for f in ${fails[@]+"${fails[@]}"}; do echo "# FAILED $f"; done
[ "$failed" -eq 0 ]
