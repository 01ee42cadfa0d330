#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of tg-layout: the plugin (build/lib/plugin_fairlab.so, make
# tools-all) names the layouts of the guest's policy_switch records of
# kind 4 and prints tg_update's domain; fairlab report still reads the
# recordings; on split.dat (fairlab record under node:1000) report's split
# layout counts equal a count of trace-cmd's own text:
#  - the layout is named from the first policy_switch of kind 4 on (the
#    describe fairlab record writes once tracing is on); domain records
#    before it are "unlabelled" (written tg_update and tg_read records);
#  - after it: domain writes = tg_update records with written=1 and a
#    domain (>= 0); reads of the sum = tg_read records with a domain; hits
#    = those with cache_hit=1.
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
[ -x "$top/build/fairlab" ] || { echo "not ok - tg-layout.host: build/fairlab missing"; exit 1; }
if [ ! -s "$dir/split.dat" ]; then
	echo "not ok - tg-layout.host: split.dat missing"
	exit 1
fi
"$top/build/fairlab" report --json "$dir/split.dat" >"$dir/split.report.json" 2>"$dir/split.report.err"
t "fairlab report --json split.dat" $?
"$top/build/fairlab" report "$dir/split.dat" >"$dir/split.report.txt" 2>&1
grep -E 'split layout|domain counter|sum of the domains|read cache hits' "$dir/split.report.txt" |
	sed 's/^/# report: /'
trace-cmd report -i "$dir/split.dat" >"$dir/split.txt" 2>/dev/null
# field VALUE of NAME= on a trace-cmd report line
awk 'function f(name,   v) { v = $0; if (!sub(".* " name "=", "", v)) return ""; sub(/ .*/, "", v); return v }
	/ policy_switch: +kind=4 / { lab = 1 }
	/ tg_update: / { d = f("domain"); if (d == "" || d < 0 || f("written") != 1) next
		if (lab) w++; else u++ }
	/ tg_read: / { d = f("domain"); if (d == "" || d < 0) next
		if (!lab) { u++; next }
		r++; if (f("cache_hit") == 1) h++ }
	END { printf "%d %d %d %d\n", w, r, h, u }' "$dir/split.txt" >"$dir/split.count"
python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["total"]
def find(o):
    if isinstance(o, dict):
        if "split_layout" in o:
            return o["split_layout"]
        for v in o.values():
            x = find(v)
            if x is not None:
                return x
    return None
s = find(t) or {}
print(s.get("writes_n", 0), s.get("reads_n", 0), s.get("cache_hits_n", 0), s.get("unlabelled_n", 0))
' "$dir/split.report.json" >"$dir/split.report.count" 2>>"$dir/split.report.err"
read -r cw cr ch cu <"$dir/split.count"
read -r rw rr rh ru <"$dir/split.report.count"
echo "# split.dat: trace-cmd text: domain writes $cw, reads $cr, hits $ch, unlabelled $cu; report: $rw, $rr, $rh, $ru"
[ "${cw:-0}" -gt 0 ] && [ "${cr:-0}" -gt 0 ] && [ "${ch:-0}" -gt 0 ]
t "split.dat holds domain writes ($cw), reads ($cr) and cache hits ($ch)" $?
[ "$cw $cr $ch $cu" = "$rw $rr $rh $ru" ]
t "report's split counts (writes reads hits unlabelled: $rw $rr $rh $ru) = trace-cmd's text ($cw $cr $ch $cu)" $?
exit $rc
