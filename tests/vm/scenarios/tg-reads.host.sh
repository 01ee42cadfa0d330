#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of tg-reads: over reads.dat, per reading CPU (the record's CPU),
#  - the records with stats-before < nr <= stats-after are exactly
#    stats-after - stats-before (traced reads == counted reads);
#  - the nr of each CPU's records run without gap or repeat;
#  - every record's shares == calc_group_shares() of its fields:
#    clamp(tg_shares * load / (tg_load_avg - contrib + load), 2, tg_shares);
#  - fairlab report (the analyzer) counts as many reads, no gap in nr, no
#    shares it disputes, a known (finite) shares error, and modeled line
#    transfers by writes at least as many as writer switches.
#   tg-reads.host.sh ARTIFACT_DIR
set -uo pipefail
dir=${1:?usage: tg-reads.host.sh ARTIFACT_DIR}
rc=0
trace-cmd report -i "$dir/reads.dat" 2>/dev/null | grep ' tg_read: ' >"$dir/reads.txt"
n=$(wc -l <"$dir/reads.txt")
if [ "$n" -eq 0 ]; then
	echo "not ok - tg-reads.host: no tg_read record in reads.dat"
	exit 1
fi
awk -v B="$dir/stats-before.txt" -v A="$dir/stats-after.txt" '
function field(k,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
BEGIN {
	while ((getline l < B) > 0) { split(l, f, " ")
		if (f[1] == "tg_read" && f[2] ~ /^cpu/) b[substr(f[2], 4) + 0] = f[3] }
	while ((getline l < A) > 0) { split(l, f, " ")
		if (f[1] == "tg_read" && f[2] ~ /^cpu/) a[substr(f[2], 4) + 0] = f[3] }
}
{
	match($0, /\[[0-9]+\]/)
	cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
	nr = field("nr") + 0
	if ((cpu in last) && nr != last[cpu] + 1) gaps[cpu]++
	last[cpu] = nr
	recs[cpu]++
	if (nr > b[cpu] && nr <= a[cpu]) inwin[cpu]++
	tgs = field("tg_shares") + 0; load = field("load") + 0
	w = field("tg_load_avg") - field("contrib") + load
	s = tgs * load
	if (w != 0) s = int(s / w)
	if (s < 2) s = 2
	if (s > tgs) s = tgs
	if (s != field("shares") + 0) {
		bad++
		if (bad <= 3) print "# shares mismatch (expected " s "): " $0
	}
}
END {
	rc = 0
	for (c in a) {
		want = a[c] - b[c]
		got = inwin[c] + 0
		ok = got == want && want > 0
		printf "%s - tg-reads.host: cpu%d traced reads in the window %d == counted %d - %d = %d\n",
			ok ? "ok" : "not ok", c, got, a[c], b[c], want
		if (!ok) rc = 1
		ok = !(c in gaps)
		printf "%s - tg-reads.host: cpu%d nr of its %d records consecutive (%d gaps)\n",
			ok ? "ok" : "not ok", c, recs[c], gaps[c]
		if (!ok) rc = 1
	}
	printf "%s - tg-reads.host: shares == calc_group_shares() of the fields in %d records (%d differ)\n",
		bad ? "not ok" : "ok", NR, bad
	if (bad) rc = 1
	exit rc
}' "$dir/reads.txt" || rc=1

TOP=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
fl=$TOP/build/fairlab
if ! "$fl" report --json "$dir/reads.dat" >"$dir/report.json" 2>"$dir/report.err"; then
	echo "not ok - tg-reads.host: fairlab report failed: $(head -1 "$dir/report.err")"
	exit 1
fi
python3 - "$dir/report.json" "$n" <<'EOP' || rc=1
import json, math, sys
m = json.load(open(sys.argv[1]))["total"]["metrics"]
n = int(sys.argv[2])
def check(ok, what):
    print("%s - tg-reads.host: %s" % ("ok" if ok else "not ok", what))
    return ok
r = [check(m["reads_n"] == n, "report: reads_n %s == %d tg_read records" % (m["reads_n"], n)),
     check(m["read_gaps_n"] == 0, "report: no gap in any CPU's nr (%s)" % m["read_gaps_n"]),
     check(m["read_mismatch_n"] == 0, "report: no shares disputed (%s)" % m["read_mismatch_n"]),
     check(m["shares_err_rel_mean_pct"] is not None and
           math.isfinite(m["shares_err_rel_mean_pct"]) and
           m["shares_err_rel_max_pct"] >= m["shares_err_rel_mean_pct"] >= 0,
           "report: shares error mean %s%% <= max %s%%" % (m["shares_err_rel_mean_pct"],
                                                           m["shares_err_rel_max_pct"])),
     # a writer switch finds the previous writer holding the line: every
     # switch is a write transfer; reads add transfers of their own
     check(round(m["coh_transfers_n"] * (1 - m["coh_by_read_pct"] / 100)) >= m["switches_n"] > 0
           and m["coh_by_read_pct"] > 0,
           "report: modeled transfers %s (%.1f%% by reads) cover the %s writer switches"
           % (m["coh_transfers_n"], m["coh_by_read_pct"], m["switches_n"]))]
sys.exit(0 if all(r) else 1)
EOP

# The unpatch recorded: one policy_switch of kind unpatch (FL_KIND_UNPATCH,
# 2), named by the plugin; the analyzer counts what the kernel's own
# functions published after it apart from records missed.
u=$dir/unpatch.dat
n=$(trace-cmd report -N -i "$u" 2>/dev/null | grep -c -E ' policy_switch: +kind=2 ')
if [ "$n" = 1 ]; then
	echo "ok - tg-reads.host: unpatch.dat holds one policy_switch of kind unpatch"
else
	echo "not ok - tg-reads.host: unpatch.dat holds $n policy_switch records of kind unpatch, not 1"
	rc=1
fi
# (a file, not a pipe into grep -q: under pipefail, trace-cmd's SIGPIPE
# would fail the test)
TRACEEVENT_PLUGIN_DIR=$TOP/build/lib trace-cmd report -i "$u" >"$dir/unpatch.txt" 2>/dev/null
if grep -q -E ' policy_switch: +kind=unpatch old=stock new=stock' "$dir/unpatch.txt"; then
	echo "ok - tg-reads.host: the plugin names it (kind=unpatch old=stock new=stock)"
else
	echo "not ok - tg-reads.host: the plugin does not print kind=unpatch old=stock new=stock"
	rc=1
fi
if ! "$fl" report --json "$u" >"$dir/unpatch.json" 2>"$dir/unpatch.err"; then
	echo "not ok - tg-reads.host: fairlab report of unpatch.dat failed: $(head -1 "$dir/unpatch.err")"
	exit 1
fi
python3 - "$dir/unpatch.json" "$dir/unpatch.err" <<'EOP' || rc=1
import json, sys
t = json.load(open(sys.argv[1]))["total"]
m, a = t["metrics"], t["audit"]
err = open(sys.argv[2]).read()
def check(ok, what):
    print("%s - tg-reads.host: %s" % ("ok" if ok else "not ok", what))
    return ok
r = [check(m["contrib_jumps_n"] == 0,
           "unpatch: no record missed (%s; after the unpatch began, %s contrib jumps: the kernel's own publishes)"
           % (m["contrib_jumps_n"], m["unpatch_jumps_n"])),
     check(a["windows_n"] > 0 and a["window_mismatch_n"] == 0,
           "unpatch: %s audit windows, none short of writes (%s; %s ending after the unpatch began)"
           % (a["windows_n"], a["window_mismatch_n"], a["window_unpatch_n"])),
     check("missing from the recording" not in err,
           "unpatch: no warning of missing records")]
sys.exit(0 if all(r) else 1)
EOP
exit $rc
