# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# fairlab guest test library (busybox ash), in the style of the kernel's
# tools/testing/selftests/livepatch/functions.sh.  Source it from a scenario:
#
#   . "$FL_LIB"
#
# Reporting: ok NAME / not_ok NAME REASON print TAP-like lines on the console
# and record them in $FL_RESULTS; /init fails the run if any "not ok" was
# recorded, the scenario exits non-zero, or the kernel got tainted W/D/L/B.
# Every wait is bounded.  Functions return 0/1; assert_* and the load/unload
# helpers also print ok/not_ok lines themselves (NAME defaults to a
# description of the check).

: "${FL_RESULTS:=/tmp/fl-results}"
: "${FL_OUT:=/out}"
: "${FL_MODDIR:=/fairlab/module}"
: "${FL_LP_TIMEOUT:=15}"	# seconds for a livepatch transition
: "${FL_TRACE_BUF_KB:=8192}"	# trace-cmd record -b (per CPU, KB)
FL_LIVEPATCH=/sys/kernel/livepatch
FL_TRACING=/sys/kernel/tracing

# ------------------------------------------------------------------ reporting

log() { echo "# $*"; }

ok() {
	echo "ok - $1"
	echo "ok - $1" >>"$FL_RESULTS"
	return 0
}

# not_ok NAME REASON...
not_ok() {
	_n=$1; shift
	echo "not ok - $_n${*:+: $*}"
	echo "not ok - $_n${*:+: $*}" >>"$FL_RESULTS"
	return 1
}

# skip NAME REASON: a TAP "ok ... # SKIP" line (counts as passed).
skip() {
	_n=$1; shift
	ok "$_n # SKIP $*"
}

# die REASON: record a failure and end the scenario.
die() {
	not_ok "${FL_TEST:-scenario}" "$*"
	exit 1
}

# check NAME CMD...: ok if CMD succeeds, not_ok otherwise.
check() {
	_n=$1; shift
	if "$@"; then ok "$_n"; else not_ok "$_n" "command failed: $*"; fi
}

# ------------------------------------------------------------------ waiting

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds or
# SECONDS pass.  Returns CMD's last status (0 = condition met).
wait_for() {
	_deadline=$(( $1 * 10 )); shift
	_i=0
	while ! "$@"; do
		_i=$((_i + 1))
		[ $_i -ge $_deadline ] && return 1
		sleep 0.1
	done
	return 0
}

# file_is FILE VALUE: FILE's content equals VALUE (for wait_for).
file_is() { [ -r "$1" ] && [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }

# ------------------------------------------------------------------ asserts

# assert_eq NAME EXPECTED ACTUAL
assert_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected '$2', got '$3'"; fi
}

# assert_sysfs FILE EXPECTED [NAME]
assert_sysfs() {
	_v=$(cat "$1" 2>&1)
	assert_eq "${3:-$1 = $2}" "$2" "$_v"
}

# dmesg_mark: later assert_dmesg_* only look at messages after this point.
dmesg_mark() {
	FL_DMESG_MARK="fairlab-mark-$$-$(date +%s)-${FL_MARKN:=0}"
	FL_MARKN=$((FL_MARKN + 1))
	echo "$FL_DMESG_MARK" >/dev/kmsg
}

# dmesg since the last dmesg_mark (whole log without a mark)
dmesg_since() {
	if [ -n "${FL_DMESG_MARK:-}" ]; then
		dmesg | sed -n "/$FL_DMESG_MARK/,\$p" | sed 1d
	else
		dmesg
	fi
}

# assert_dmesg_has REGEX [NAME]   (grep -E, since the last dmesg_mark)
assert_dmesg_has() {
	if dmesg_since | grep -qE -- "$1"; then
		ok "${2:-dmesg has '$1'}"
	else
		not_ok "${2:-dmesg has '$1'}" "no match in dmesg"
	fi
}

# assert_dmesg_lacks REGEX [NAME]
# Known kernel bugs' warnings are left out (guest/strip-known-warnings).
FL_STRIP_KNOWN=/fairlab/tests/vm/guest/strip-known-warnings
assert_dmesg_lacks() {
	_m=$(dmesg_since | "$FL_STRIP_KNOWN" | grep -E -- "$1" | head -1)
	if [ -z "$_m" ]; then
		ok "${2:-dmesg lacks '$1'}"
	else
		not_ok "${2:-dmesg lacks '$1'}" "found: $_m"
	fi
}

# expect_fail NAME ERR_REGEX CMD...: CMD must fail and its stderr/stdout
# must match ERR_REGEX (e.g. "File exists", "Invalid argument",
# "Device or resource busy").  For "echo X > file" use
#   expect_fail NAME 'Invalid argument' sh -c 'echo X > file'
expect_fail() {
	_n=$1; _re=$2; shift 2
	if _o=$("$@" 2>&1); then
		not_ok "$_n" "'$*' succeeded, expected failure /$_re/"
	elif echo "$_o" | grep -qE -- "$_re"; then
		ok "$_n"
	else
		not_ok "$_n" "'$*' failed with '$_o', expected /$_re/"
	fi
}

# taint: current taint letters (e.g. "OEK"); taint_ok: none of W D L B.
taint() {
	_t=$(cat /proc/sys/kernel/tainted); _b=0; _l=
	for _c in P F S R M B U D A W C I O E L K X T; do
		[ $(( (_t >> _b) & 1 )) = 1 ] && _l="$_l$_c"
		_b=$((_b + 1))
	done
	echo "$_l"
}
# taint_unexplained: the taint letters, without a W that only known kernel
# warnings explain (guest/strip-known-warnings says which, on stderr).
taint_unexplained() {
	_l=$(taint)
	case $_l in
	*W*)	dmesg | "$FL_STRIP_KNOWN" --only-known && _l=$(echo "$_l" | tr -d W) ;;
	esac
	echo "$_l"
}
assert_taint_ok() {
	_l=$(taint_unexplained)
	case $_l in
	*[WDLB]*) not_ok "${1:-taint}" "kernel tainted $_l" ;;
	*) ok "${1:-taint} ($_l)" ;;
	esac
}

# ------------------------------------------------------------------ modules

# _ko NAME|PATH: path of a module file
_ko() {
	case $1 in
	*/*|*.ko) echo "$1" ;;
	*) echo "$FL_MODDIR/$1.ko" ;;
	esac
}
_modname() { basename "$1" .ko | tr - _; }

has_mod() { [ -f "$(_ko "$1")" ]; }
mod_loaded() { [ -d "/sys/module/$(_modname "$1")" ]; }

# load_mod NAME|PATH [PARAMS...]: insmod; ok/not_ok "load NAME".
load_mod() {
	_f=$(_ko "$1"); _m=$(_modname "$1"); shift
	[ -f "$_f" ] || { not_ok "load $_m" "$_f not in the initramfs"; return 1; }
	if _o=$(insmod "$_f" "$@" 2>&1); then
		ok "load $_m"
	else
		not_ok "load $_m" "insmod: $_o"
	fi
}

# load_lp NAME|PATH [PARAMS...]: insmod a livepatch, wait (FL_LP_TIMEOUT s)
# until /sys/kernel/livepatch/NAME/enabled is 1 and transition is 0.
load_lp() {
	_m=$(_modname "$1")
	load_mod "$@" || return 1
	if wait_for "$FL_LP_TIMEOUT" file_is "$FL_LIVEPATCH/$_m/transition" 0 &&
		file_is "$FL_LIVEPATCH/$_m/enabled" 1; then
		ok "patch $_m"
	else
		not_ok "patch $_m" "transition not done in ${FL_LP_TIMEOUT}s" \
			"(enabled=$(cat "$FL_LIVEPATCH/$_m/enabled" 2>&1)" \
			"transition=$(cat "$FL_LIVEPATCH/$_m/transition" 2>&1))"
	fi
}

# disable_lp NAME: echo 0 > enabled, wait until the livepatch directory
# disappears (unpatch complete).
disable_lp() {
	_m=$(_modname "$1")
	if ! _o=$(sh -c "echo 0 > $FL_LIVEPATCH/$_m/enabled" 2>&1); then
		not_ok "disable $_m" "$_o"
		return 1
	fi
	if wait_for "$FL_LP_TIMEOUT" eval "[ ! -d $FL_LIVEPATCH/$_m ]"; then
		ok "disable $_m"
	else
		not_ok "disable $_m" "still in transition after ${FL_LP_TIMEOUT}s" \
			"(transition=$(cat "$FL_LIVEPATCH/$_m/transition" 2>&1))"
	fi
}

# unload_mod NAME: rmmod, wait until /sys/module/NAME is gone.
unload_mod() {
	_m=$(_modname "$1")
	if ! _o=$(rmmod "$_m" 2>&1); then
		not_ok "unload $_m" "rmmod: $_o"
		return 1
	fi
	if wait_for 10 eval "[ ! -d /sys/module/$_m ]"; then
		ok "unload $_m"
	else
		not_ok "unload $_m" "/sys/module/$_m still present after 10s"
	fi
}

# unload_lp NAME: disable_lp + unload_mod
unload_lp() { disable_lp "$1" && unload_mod "$1"; }

# assert_audit_exact NAME: /sys/kernel/fairlab/audit (a snapshot, each
# group read as one exact cut, one rq lock at a time: module/audit.c)
# shows tg->load_avg == sum of contribs for every group, every row checked
# (column 6, when the module prints it), and at least one group.
assert_audit_exact() {
	if ! cat /sys/kernel/fairlab/audit >/tmp/fl-audit.txt 2>/tmp/fl-audit.err; then
		not_ok "$1" "audit read failed: $(cat /tmp/fl-audit.err)"
		return 1
	fi
	_r=$(awk '!/^#/ { n++; if ($2 != $3 || $6 == "0") { bad++; if (!m) m = $0 } }
		END { printf "%d %d %s", n, bad, m }' /tmp/fl-audit.txt)
	set -- "$1" $_r
	if [ "$3" = 0 ] && [ "$2" -gt 0 ]; then
		ok "$1 ($2 groups exact)"
	else
		_n=$1 _rows=$2 _bad=$3; shift 3
		not_ok "$_n" "$_bad of $_rows groups differ or are unchecked, first: $*"
	fi
}

# site_stat SITE [attempts|writes]: a site's count in
# /sys/kernel/fairlab/stats ("site NAME ATTEMPTS WRITES"; default: writes),
# empty when the module is not loaded.
site_stat() {
	awk -v s="$1" -v c="${2:-writes}" '$1 == "site" && $2 == s {
		print (c == "attempts" ? $3 : $4) }' /sys/kernel/fairlab/stats 2>/dev/null
}

# assert_replace_refused KO: a livepatch with atomic replace that does not
# declare fairlab's klp state (module/fairlab_klp.h) is refused by klp
# (EINVAL, its "not compatible" line) while fairlab stays enabled.
assert_replace_refused() {
	dmesg_mark
	expect_fail "atomic replace without fairlab's state refused" \
		'Invalid argument' insmod "$1"
	assert_dmesg_has "$(_modname "$1").*not compatible with the already installed livepatches" \
		"klp says the replace is not compatible"
	assert_sysfs $FL_LIVEPATCH/fairlab/enabled 1 "fairlab still enabled"
}

# ------------------------------------------------------------------ the port

# port_surface: the running kernel's module/port/<major.minor>/surface.txt
# (ship it with "# fairlab-files: module/port/*/surface.txt"), after
# checking that it was generated from this very build.
port_surface() {
	_ps=/fairlab/module/port/$(uname -r | cut -d. -f1,2)/surface.txt
	[ -f "$_ps" ] || { echo "no $_ps for kernel $(uname -r)" >&2; return 1; }
	[ "$(sed -n 's/^# linux_banner: //p' "$_ps")" = "$(cat /proc/version)" ] ||
		{ echo "$_ps is for another build" >&2; return 1; }
	echo "$_ps"
}

# port_roots REGEX: the vmlinux functions the port replaces ("root" lines
# of its surface) whose "holds:" list matches REGEX (awk ERE), e.g.
# update_pick_idlest for the idlest path.  Names differ between kernels
# (6.1's find_idlest_group is 6.12's sched_balance_find_dst_group).
port_roots() {
	_ps=$(port_surface) || return 1
	awk -v re="$1" '$1 == "root" { h = $0; sub(/.*holds: /, "", h)
		if (h ~ re) print $2 }' "$_ps"
}

# ------------------------------------------------------------------ workloads

# cg_create NAME [CPU_WEIGHT]: a cgroup under /sys/fs/cgroup (cpu enabled).
cg_create() {
	mkdir -p "/sys/fs/cgroup/$1" || return 1
	[ -z "${2:-}" ] || echo "$2" >"/sys/fs/cgroup/$1/cpu.weight"
}

# cg_run NAME CMD...: run CMD (foreground) inside cgroup NAME.
cg_run() {
	_cg=$1; shift
	sh -c 'echo $$ > "/sys/fs/cgroup/$0/cgroup.procs" && exec "$@"' "$_cg" "$@"
}

# cg_kill NAME: SIGKILL every process in cgroup NAME (cgroup.kill, 5.14+)
# and wait (10 s at most) until it holds none.  Killing the PID of a
# backgrounded cg_run is not enough: that is the shell running cg_run,
# and the command it started lives on.
cg_kill() {
	echo 1 >"/sys/fs/cgroup/$1/cgroup.kill" &&
		wait_for 10 eval "[ -z \"\$(cat /sys/fs/cgroup/$1/cgroup.procs)\" ]"
}

# run_as_user CMD...: run CMD as the unprivileged user "fl" (uid 1000),
# e.g. run_as_user stress-ng --exec 2 -t 5s.  Combine with cg_run:
#   cg_run grp run_as_user stress-ng ...
run_as_user() {
	_q=
	for _a in "$@"; do
		_q="$_q '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	su -s /bin/sh fl -c "cd /tmp && exec $_q"
}

# ------------------------------------------------------------------ tracing

# record_start NAME [TRACE-CMD-RECORD-ARGS...]: background
#   trace-cmd record -C mono -b $FL_TRACE_BUF_KB -o $FL_OUT/NAME.dat ARGS
# (ARGS default: -e fairlab).  Output goes to $FL_OUT/NAME.record.log.
# Returns once recording has started (bounded, 20 s).
record_start() {
	_n=$1; shift
	[ $# -gt 0 ] || set -- -e fairlab
	trace-cmd record -C mono -b "$FL_TRACE_BUF_KB" -o "$FL_OUT/$_n.dat" "$@" \
		>"$FL_OUT/$_n.record.log" 2>&1 </dev/null &
	_rp=$!
	echo $_rp >"/tmp/fl-record-$_n.pid"
	# trace-cmd's stdout is block-buffered here ("Hit Ctrl^C" shows up only
	# at exit): recording has begun once the per-CPU files exist.
	if wait_for 20 eval "[ -e '$FL_OUT/$_n.dat.cpu0' ] || ! kill -0 $_rp 2>/dev/null" &&
		kill -0 $_rp 2>/dev/null; then
		ok "record $_n started"
	else
		not_ok "record $_n started" "$(tail -3 "$FL_OUT/$_n.record.log" | tr '\n' ' ')"
	fi
}

# record_stop NAME: SIGINT the recorder, wait (bounded: FL_RECORD_STOP_SECS,
# default 30 s; trace-cmd merges its per-CPU files into the .dat then,
# which for the GB of make bench-analyzer takes minutes under TCG), then check
# the file's buffer statistics (trace-cmd report --stat, kept in
# $FL_OUT/NAME.stat.txt) for lost events: sets FL_LOST to their count;
# FL_ALLOW_LOST=1 turns a loss into a log line instead of a failure.
record_stop() {
	_n=$1
	_p=$(cat "/tmp/fl-record-$_n.pid" 2>/dev/null)
	[ -n "$_p" ] || { not_ok "record $_n" "record_start $_n not called"; return 1; }
	kill -INT "$_p" 2>/dev/null
	if ! wait_for "${FL_RECORD_STOP_SECS:-30}" eval "! kill -0 $_p 2>/dev/null"; then
		kill -KILL "$_p" 2>/dev/null
		not_ok "record $_n" "trace-cmd did not stop in ${FL_RECORD_STOP_SECS:-30}s"
		return 1
	fi
	wait "$_p" 2>/dev/null
	rm -f "/tmp/fl-record-$_n.pid"
	# Kernel buffer statistics stored in the file (trace-cmd 3.1 does not
	# print them at record exit): overrun, commit overrun and dropped
	# events mean lost events.  "entries" left in the buffer are normal here.
	trace-cmd report --stat -i "$FL_OUT/$_n.dat" >"$FL_OUT/$_n.stat.txt" 2>&1
	FL_LOST=$(awk -F: '/^overrun:|^commit overrun:|^dropped events:/ { s += $2 }
		END { print s + 0 }' "$FL_OUT/$_n.stat.txt")
	if [ ! -s "$FL_OUT/$_n.dat" ]; then
		not_ok "record $_n" "no $FL_OUT/$_n.dat: $(tail -3 "$FL_OUT/$_n.record.log" | tr '\n' ' ')"
	elif [ "$FL_LOST" != 0 ] && [ "${FL_ALLOW_LOST:-0}" != 1 ]; then
		not_ok "record $_n" "$FL_LOST events lost (raise FL_TRACE_BUF_KB or memory)"
	else
		[ "$FL_LOST" = 0 ] || log "record $_n: $FL_LOST events lost (allowed)"
		ok "record $_n ($(du -k "$FL_OUT/$_n.dat" | cut -f1) KB)"
	fi
}
