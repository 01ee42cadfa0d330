#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 6.12.117's rate limit (one publish per cfs_rq per ms, by
# cfs_rq->last_update_tg_load_avg) stays exact across a switch: a publish
# made by a rule that reads no clock (force, here untraced: fl_tg_update()'s
# fast path) stamps the cfs_rq as the kernel's own publish would.
#  - force, untraced, for 6 s under the tg-* load; then recording starts:
#    the first traced attempt of each cfs_rq that had published before reads
#    since_ns from the fast path's last stamp, well under the 6 s that an
#    unstamped fast path would leave (the stamp of the patch or of the
#    cfs_rq's birth): at least 3/4 of them under 1 s;
#  - then a switch to stock, recorded: no publish decided by stock (sites
#    other than resync 15 and clear_tg_load_avg 16) comes less than 1 ms
#    after the previous publish of its cfs_rq (any site), by the records'
#    times (mono clock, us; 100 us allowed for the stamp being
#    sched_clock_cpu() and taken a little before the record).
# fairlab-kernels: 6.12
# fairlab-vm: --smp 4 --mem 2048 --timeout 300
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
FL_TRACE_BUF_KB=${RS_BUF_KB:-65536}

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=force || exit 1
tg_autogroup_on
tg_tree
tg_load 20
sleep 6
record_start stamp -e fairlab:tg_update -e fairlab:policy_switch || exit 1
sleep 1
check "switch to stock while recording" sh -c "echo stock > $TGP"
sleep 3
record_stop stamp
tg_wait 60
trace-cmd report -i "$FL_OUT/stamp.dat" 2>/dev/null |
	grep -E ' (tg_update|policy_switch): ' >/tmp/stamp.txt
# one line per record: "ts kind key written since policy site"
awk '{
	ts = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i; sub(/:$/, "", ts) }
	delete v; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) v[kv[1]] = kv[2]
	if ($0 ~ / policy_switch: /) { print ts, "switch", v["kind"], 0, 0, 0, 0; next }
	print ts, "update", v["tg"] "/" v["cfs_cpu"], v["written"], v["since_ns"], v["policy"], v["site"]
}' /tmp/stamp.txt >"$FL_OUT/stamp-lines.txt"
log "$(wc -l <"$FL_OUT/stamp-lines.txt") records"
# first traced attempt of each busy cfs_rq, before the switch
set -- $(awk '$2 == "switch" && $3 == 0 { sw = 1 } $2 != "update" || sw { next }
	{ n[$3]++; if (!($3 in first)) first[$3] = $5 }
	END { for (k in n) if (first[k] != 18446744073709551615) {
		b++; if (first[k] < 1000000000) q++ }
		printf "%d %d", b, q }' "$FL_OUT/stamp-lines.txt")
busy=$1 fresh=$2
log "cfs_rqs: $busy, first since_ns under 1 s: $fresh"
check "fast-path publishes stamped: $fresh of $busy cfs_rqs first read a stamp under 1 s old" \
	test "$busy" -gt 0 -a $((fresh * 4)) -ge $((busy * 3))
# stock after the switch: ms since the previous publish of the cfs_rq
set -- $(awk '$2 == "switch" && $3 == 0 { sw = 1; next } $2 != "update" || $4 != 1 { next }
	{ if (sw && $6 == 0 && $7 != 15 && $7 != 16 && ($3 in last)) { n++; d = ($1 - last[$3]) * 1e6
		if (d < 900) { bad++; if (!ex) ex = $3 " " d "us" } }
	  last[$3] = $1 }
	END { printf "%d %d %s", n, bad, ex }' "$FL_OUT/stamp-lines.txt")
check "stock after force: $1 publishes, none < 1 ms after its cfs_rq's previous one ($2${3:+, first: $3 $4})" \
	test "$1" -gt 0 -a "$2" -eq 0
echo stock >$TGP
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
