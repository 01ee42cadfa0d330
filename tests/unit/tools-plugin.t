#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# plugin_fairlab.so: with it, `trace-cmd report` prints policy, site, group
# type and task group names instead of numbers, for the same records; and
# `make -C tools install` puts it where libtraceevent looks (its system
# plugin directory) and fairlab on sudo's path (PREFIX/bin, /usr/local).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
plugin=$top/build/lib/plugin_fairlab.so
if [ ! -f "$plugin" ]; then
	not_ok "$plugin is built (run make)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ref=$DATA/analyzer-numa.dat

trace-cmd report -N -i "$ref" >"$tmp/plain" 2>/dev/null
TRACEEVENT_PLUGIN_DIR=$top/build/lib trace-cmd report -i "$ref" >"$tmp/named" 2>"$tmp/err"
check "trace-cmd report loads the plugin without complaint" \
	eval '! grep -q -i "plugin" "$tmp/err"'

# events SYSTEM FILE: number of lines of each fairlab event
count() { grep -c " $1: " "$2"; }
same=1
for ev in tg_update pick_idlest policy_switch tg_info cpu_topology tg_audit; do
	[ "$(count $ev "$tmp/plain")" = "$(count $ev "$tmp/named")" ] || same=0
done
check "the same records with and without the plugin" test $same = 1

# has NAME REGEX: some line of the named report matches, none of the plain one
has() {
	if grep -q -E "$2" "$tmp/named" && ! grep -q -E "$2" "$tmp/plain"; then
		ok "plugin prints $1"
	else
		not_ok "plugin prints $1 ($2)"
		grep -m2 -E " ${3:-tg_update}: " "$tmp/named" | sed 's/^/#   /'
	fi
}
has "call sites by name" " tg_update: .* site=enqueue_entity "
has "written/skipped" " tg_update: .* (written|skipped) tg_load_avg="
has "tg policies with their argument" " tg_update: .* policy=relative:8 "
has "cgroup task groups" " tg_update: +tg=cgroup-[0-9]+ "
has "since the last publish" " tg_update: .* since=([0-9]+ns|never) "
has "pick_idlest group types and verdict" " pick_idlest: .* type=[a-z_]+/[a-z_]+ .* (picked|kept) policy=(stock|nr_running)" pick_idlest
has "policy switches by name" " policy_switch: +kind=tg old=stock new=relative:8" policy_switch
has "idlest policy switches by name" " policy_switch: +kind=idlest old=stock new=nr_running" policy_switch
has "tg_info with named ids" " tg_info: +tg=cgroup-[0-9]+ parent=cgroup-1 level=1 name=/a" tg_info
has "the audited error" " tg_audit: .* error=-?[0-9]+" tg_audit
# find_idlest_group()'s "no idlest group yet" avg_load (UINT_MAX) is no load
has "no idlest group's avg_load as none" " pick_idlest: +idlest_cpu=-1 .* avg_load=none/[0-9]+ " pick_idlest
check "plugin never prints the UINT_MAX sentinel as a load" \
	eval '! grep -q "avg_load=4294967295" "$tmp/named"'

# Task group ids are decimal everywhere: the kernel's trace formats (what
# trace-cmd report prints without the plugin), the audit file, the plugin
# and fairlab report.
hex=$(grep -n -E '(tg|parent)=%ll[xX]' "$top/module/fairlab_trace_events.h")
check "trace formats print task group ids in decimal${hex:+ (not: $hex)}" test -z "$hex"
ids_report=$("$top/build/fairlab" report --csv --table=groups "$ref" 2>/dev/null |
	awk -F, 'NR > 1 && $6 < 4611686018427387904 { print $6 }' | sort -u)
missing=
for id in $ids_report; do grep -q " tg=cgroup-$id " "$tmp/named" || missing="$missing $id"; done
check "fairlab report's group ids are the plugin's (decimal)${missing:+, not:$missing}" \
	test -n "$ids_report" -a -z "$missing"

# install into a scratch root: the plugin in libtraceevent's own plugin
# directory, fairlab in /usr/local/bin (on sudo's path), its scripts, man
# pages and completion under /usr/local/share
root=$tmp/root
plugdir=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
make -s -C "$top/tools" install DESTDIR="$root" >"$tmp/make.log" 2>&1; s=$?
check "make -C tools install DESTDIR=...: exit 0" test $s = 0
check "plugin installed in $plugdir" test -f "$root$plugdir/plugin_fairlab.so"
check "fairlab installed in /usr/local/bin" test -x "$root/usr/local/bin/fairlab"
check "experiment's scripts installed in /usr/local/share/fairlab" \
	test -x "$root/usr/local/share/fairlab/analyze.sh" -a -f "$root/usr/local/share/fairlab/verdict.awk"
check "man pages installed in /usr/local/share/man/man1" test -f "$root/usr/local/share/man/man1/fairlab-report.1"
check "bash completion installed" test -f "$root/usr/local/share/bash-completion/completions/fairlab"
TRACEEVENT_PLUGIN_DIR=$root$plugdir trace-cmd report -i "$ref" >"$tmp/inst.txt" 2>/dev/null
check "trace-cmd report uses the installed plugin" grep -q " site=enqueue_entity " "$tmp/inst.txt"
tap_end
