#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host half of idlest-verdicts: decode the guest's trace.dat with
# trace-cmd report and re-derive every pick_idlest verdict from its
# recorded statistics with an independent implementation of the rules
# (6.1 update_pick_idlest and the two alternative tie-breaks).
set -u
dir=$1
dat=$dir/verdicts.dat
[ -s "$dat" ] || { echo "not ok - verdicts.dat missing"; exit 1; }
trace-cmd report -i "$dat" 2>/dev/null | awk '
/pick_idlest:/ {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[2] == "") continue
		v[kv[1]] = kv[2]
	}
	split(v["type"], t, "/"); split(v["idle_cpus"], ic, "/")
	split(v["util"], u, "/"); split(v["nr_running"], nr, "/")
	split(v["avg_load"], al, "/"); split(v["max_cap"], mc, "/")
	pol = v["policy"]; got = v["picked"]
	# t[1], ic[1]... = current idlest; t[2]... = candidate group
	if (t[2] < t[1]) want = 1
	else if (t[2] > t[1]) want = 0
	else if (t[2] == 5 || t[2] == 1) want = (al[1] > al[2])
	else if (t[2] == 3 || t[2] == 4) want = 0
	else if (t[2] == 2) want = (mc[1] < mc[2])
	else if (ic[1] != ic[2]) want = (ic[2] > ic[1])
	else if (pol == 0) want = (u[1] > u[2])
	else if (pol == 1) want = 0
	else if (pol == 2) want = (nr[1] > nr[2])
	else want = -1
	n[pol]++
	if (t[1] == t[2] && t[2] == 0 && ic[1] == ic[2]) ties[pol]++
	if (want != got) { bad[pol]++; if (bad[pol] <= 3) print "# mismatch: " $0 }
}
END {
	name[0] = "stock"; name[1] = "idle_cpus"; name[2] = "nr_running"
	fail = 0
	for (p = 0; p <= 2; p++) {
		if (n[p] > 0) printf "ok - pick_idlest records under %s: %d (%d has_spare ties)\n", name[p], n[p], ties[p]
		else { printf "not ok - no pick_idlest records under %s\n", name[p]; fail = 1 }
		if (bad[p] > 0) { printf "not ok - %d verdicts under %s disagree with its rule\n", bad[p], name[p]; fail = 1 }
		else if (n[p] > 0) printf "ok - every verdict under %s follows its rule\n", name[p]
	}
	exit fail
}'
