#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of tg-layout: the plugin (build/lib/plugin_fairlab.so, make
# tools-all) names the layouts of the guest's policy_switch records of
# kind 4 and prints tg_update's domain; fairlab report still reads the
# recordings (new fields ignored).
#   tg-layout.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: tg-layout.host.sh ARTIFACT_DIR}
top=$(cd "$(dirname "$0")/../../.." && pwd)
rc=0
t() {
	if [ "$2" = 0 ]; then echo "ok - tg-layout.host: $1"
	else echo "not ok - tg-layout.host: $1"; rc=1; fi
}
if [ ! -f "$top/build/lib/plugin_fairlab.so" ]; then
	echo "ok - tg-layout.host: plugin not built (make tools-all): its checks skipped"
	exit 0
fi
TRACEEVENT_PLUGIN_DIR=$top/build/lib trace-cmd report -i "$dir/switches.dat" \
	>"$dir/switches.named.txt" 2>/dev/null
grep -q -E ' policy_switch: +kind=layout old=global new=llc$' "$dir/switches.named.txt"
t "plugin: kind=layout old=global new=llc" $?
grep -q -E ' policy_switch: +kind=layout old=llc new=node:1000$' "$dir/switches.named.txt"
t "plugin: kind=layout old=llc new=node:1000" $?
TRACEEVENT_PLUGIN_DIR=$top/build/lib trace-cmd report -i "$dir/fields.dat" \
	>"$dir/fields.named.txt" 2>/dev/null
grep -q -E ' tg_update: .* domain=[0-9]+$' "$dir/fields.named.txt"
t "plugin: tg_update domain=N" $?
if [ -x "$top/build/fairlab" ]; then
	"$top/build/fairlab" report "$dir/fields.dat" >"$dir/fields.report.txt" 2>&1
	t "fairlab report reads fields.dat" $?
fi
exit $rc
