#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A rate limit of one publish per cfs_rq per ms stays exact across a
# switch: every publish stamps its cfs_rq's publish time, also one made
# by a rule that reads no clock (force, here untraced: fl_tg_update()'s
# fast path) and the resync's, each with the clock read at that publish.
# On 6.12 the limit is 6.12.117's own (stock: sched_clock_cpu() against
# cfs_rq->last_update_tg_load_avg); 6.1.192 has none, and the limit is
# fairlab's ratelimit (1000 us, on the module's table of publish times).
#  - force, untraced, for 6 s under the tg-* load (running until the
#    recording ends); then recording starts:
#    the first traced attempt of each cfs_rq that had published before reads
#    since_ns from the fast path's last stamp, well under the 6 s that an
#    unstamped fast path would leave (the stamp of the patch or of the
#    cfs_rq's birth): at least 3/4 of them under 1 s;
#  - then a switch to the limiting policy, recorded: no publish it decides
#    (sites other than resync 15 and clear_tg_load_avg 16) comes less than
#    1 ms after the previous publish of its cfs_rq (any site), by the
#    records' times (mono clock, us; 100 us allowed for the stamp being
#    sched_clock_cpu() and taken a little before the record).
# tsc=reliable: without it 6.1 finds the vCPUs' TSCs unsynchronized under
# TCG and runs sched_clock_cpu() unstable, a per-CPU clock that lags the
# records' mono clock by up to a tick and then jumps, so that no record
# time bounds an interval by the clock the limit reads (6.12 marks the
# same TSCs stable and is left as it is).
# fairlab-vm: --smp 4 --mem 2048 --timeout 300 --append=tsc=reliable
# fairlab-files: tests/vm/tg-check/workload.sh
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
FL_TRACE_BUF_KB=${RS_BUF_KB:-65536}
# the limiting policy and its id (enum fl_tg_policy)
case $(uname -r) in
6.1.*) lim=ratelimit:1000 lim_id=8 ;;
*) lim=stock lim_id=0 ;;
esac

load_mod fairlab_trace || exit 1
load_lp fairlab tg_policy=force || exit 1
tg_autogroup_on
tg_tree
# until the recording is over: under TCG trace-cmd may take many seconds
# to start, and a load of fixed length can end before it does
tg_load_until /tmp/stamp.stop
sleep 6
record_start stamp -e fairlab:tg_update -e fairlab:policy_switch || exit 1
sleep 1
check "switch to $lim while recording" sh -c "echo $lim > $TGP"
sleep 3
record_stop stamp
touch /tmp/stamp.stop
tg_wait 60
trace-cmd report -i "$FL_OUT/stamp.dat" 2>/dev/null |
	grep -E ' (tg_update|policy_switch): ' >/tmp/stamp.txt
# one line per record: "ts kind key written since policy site vcpu" (vcpu:
# the CPU that ran the code and wrote the record)
awk '{
	ts = ""; c = ""; for (i = 1; i <= NF; i++) {
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i; sub(/:$/, "", ts) }
		if (c == "" && $i ~ /^\[[0-9]+\]$/) { c = $i; gsub(/[][]/, "", c) } }
	delete v; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) v[kv[1]] = kv[2]
	if ($0 ~ / policy_switch: /) { print ts, "switch", v["kind"], 0, 0, 0, 0, c; next }
	print ts, "update", v["tg"] "/" v["cfs_cpu"], v["written"], v["since_ns"], v["policy"], v["site"], c
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
# The limit after the switch: the time from the previous publish of the
# cfs_rq (any site) to a publish the limit decided.  A record's time is
# not its publish's: under TCG a vCPU can stall, for tens of ms, between
# reading the clock it decides and stamps by and writing the record.  So
# the interval is bounded from above by the two records the publishes lie
# between: the previous publish happened after the record its vCPU wrote
# before it (lo), the limited one before its own record.  A violation is
# a limited publish whose record comes less than 900 us after lo: it was
# surely less than 900 us after the previous publish (100 us allowed for
# the clocks: sched_clock_cpu() decides, the records are on mono).  Pairs
# whose records alone are under 900 us apart are counted and logged too,
# with the previous publish's policy and site and the limited one's own
# since_ns, the interval by the kernel's clock.
awk -v lim="$lim_id" '{ l = ($8 in prev) ? prev[$8] : -1; prev[$8] = $1 }
	$2 == "switch" && $3 == 0 { sw = 1; next } $2 != "update" || $4 != 1 { next }
	{ if (sw && $6 == lim && $7 != 15 && $7 != 16 && ($3 in last)) { n++
		d = ($1 - last[$3]) * 1e6; b = lo[$3] < 0 ? 1e9 : ($1 - lo[$3]) * 1e6
		if (d < 900) { near++
			printf "close records: %s %.0fus (%.0fus after lo) after policy %s site %s; since_ns %s\n", $3, d, b, lpol[$3], lsite[$3], $5 }
		if (b < 900) { bad++; if (!ex) ex = $3 " " b "us" } }
	  last[$3] = $1; lo[$3] = l; lpol[$3] = $6; lsite[$3] = $7 }
	END { printf "%d %d %d %s\n", n, near, bad, ex }' "$FL_OUT/stamp-lines.txt" >"$FL_OUT/stamp-check.txt"
grep '^close records: ' "$FL_OUT/stamp-check.txt" | head -20 | while read -r l; do log "$l"; done
set -- $(tail -1 "$FL_OUT/stamp-check.txt")
log "$lim after force: $1 publishes, $2 with records under 900 us after the previous publish's"
check "$lim after force: $1 publishes, none < 1 ms after its cfs_rq's previous one ($3${4:+, first: $4 $5})" \
	test "$1" -gt 0 -a "$3" -eq 0
# 6.1's table of publish times: an evicted cfs_rq looks never published
log "pubtime evictions: $(awk '$1 == "pubtime_evictions" { print $3 }' /sys/kernel/fairlab/stats)"
echo stock >$TGP
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
