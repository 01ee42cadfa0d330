#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fairlab whatif --idlest on real recordings (tests/data/idlest-smt-*.dat,
# make demo's idlest VM: 8 vCPUs, 4 cores x 2 SMT threads, aim9-style exec
# and fork loops under stock and idle_cpus): its calls, choice calls and
# disagreements per policy must equal those of an independent
# implementation of the definition (awk over `trace-cmd report`), the
# recorded policy must reproduce every picked flag and every recorded
# pick, and the others must disagree somewhere (the MC domain offers
# 3 candidate groups of 2 CPUs).
top=$(cd "$(dirname "$0")/../.." && pwd)
fl=$top/build/fairlab
tmp=$(mktemp -d "${TMPDIR:-/tmp}/whatif-idlest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fail=1; }
[ -x "$fl" ] || { echo "not ok - $fl is built (run make)"; exit 1; }
command -v trace-cmd >/dev/null || { echo "not ok - trace-cmd is installed (make deps)"; exit 1; }

# The definition (fairlab whatif --idlest --help), written again: per CPU,
# a record with idlest_cpu=-1 opens a call unless the open one is
# consistent and has picked nothing yet; the idlest side must chain; each
# policy starts from the sentinel and takes candidates as policy.c's
# fl_idlest_decide() would.  Prints "policy calls choice differ" and
# "mismatches N".
independent() {
	trace-cmd report -N -i "$1" 2>/dev/null | awk '
	function dec(p, it, ii, iu, inr, ia, im, gt, gi, gu, gnr, ga, gm) {
		if (gt < it) return 1
		if (gt > it) return 0
		if (gt == 5 || gt == 1) return ia > ga		# overloaded, fully_busy
		if (gt == 3 || gt == 4) return 0		# asym_packing, imbalanced
		if (gt == 2) return im < gm			# misfit_task
		if (ii > gi) return 0				# has_spare: idle CPUs first
		if (ii < gi) return 1
		if (p == 1) return 0				# idle_cpus: the first stays
		if (p == 2) return inr > gnr			# nr_running
		return iu > gu					# stock: group_util
	}
	function startcall(c, good,   p) {
		open[c] = 1; cons[c] = good; n[c] = 0; rhas[c] = 0
		for (p = 0; p < 3; p++) phas[c, p] = 0
	}
	function closecall(c,   p) {
		if (!open[c]) return
		open[c] = 0
		if (!cons[c]) return
		calls++
		if (n[c] >= 2) choice++
		for (p = 0; p < 3; p++)
			if (phas[c, p] != rhas[c] || (rhas[c] && pcpu[c, p] != rcpu[c])) differ[p]++
	}
	/ pick_idlest: / {
		c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c); c += 0
		for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2]
		split(f["type"], ty, "/"); split(f["idle_cpus"], id, "/"); split(f["util"], ut, "/")
		split(f["nr_running"], nr, "/"); split(f["avg_load"], al, "/"); split(f["max_cap"], mc, "/")
		ic = f["idlest_cpu"] + 0; gc = f["group_cpu"] + 0; pk = f["picked"] + 0; po = f["policy"] + 0
		if (dec(po, ty[1]+0, id[1]+0, ut[1]+0, nr[1]+0, al[1]+0, mc[1]+0, ty[2]+0, id[2]+0, ut[2]+0, nr[2]+0, al[2]+0, mc[2]+0) != pk)
			mism++
		if (ic == -1) {
			if (!open[c] || rhas[c] || !cons[c]) { closecall(c); startcall(c, 1) }
		} else if (!open[c])
			startcall(c, 0)
		want = rhas[c] ? rcpu[c] : -1
		wst = rhas[c] ? rst[c] : "5 0 0 0 4294967295 0"
		if (ic != want || ty[1] " " id[1] " " ut[1] " " nr[1] " " al[1] " " mc[1] != wst) cons[c] = 0
		n[c]++
		gst = ty[2] " " id[2] " " ut[2] " " nr[2] " " al[2] " " mc[2]
		for (p = 0; p < 3; p++) {
			split(phas[c, p] ? pst[c, p] : "5 0 0 0 4294967295 0", s, " ")
			if (dec(p, s[1]+0, s[2]+0, s[3]+0, s[4]+0, s[5]+0, s[6]+0, ty[2]+0, id[2]+0, ut[2]+0, nr[2]+0, al[2]+0, mc[2]+0)) {
				phas[c, p] = 1; pcpu[c, p] = gc; pst[c, p] = gst
			}
		}
		if (pk) { rhas[c] = 1; rcpu[c] = gc; rst[c] = gst }
	}
	END {
		for (c in open) closecall(c)
		split("stock idle_cpus nr_running", name, " ")
		for (p = 0; p < 3; p++) printf "%s %d %d %d\n", name[p + 1], calls, choice, differ[p] + 0
		printf "mismatches %d\n", mism + 0
	}'
}

for pol in stock idle_cpus; do
	f=$top/tests/data/idlest-smt-$pol.dat
	if ! "$fl" whatif --idlest --csv "$f" >"$tmp/$pol.csv" 2>"$tmp/$pol.err"; then
		nok "$pol: fairlab whatif --idlest --csv ran ($(head -1 "$tmp/$pol.err"))"
		continue
	fi
	independent "$f" >"$tmp/$pol.ind"
	# file,policy,calls,choice,differ,...
	awk -F, 'NR > 1 { print $2, $3, $4, $5 }' "$tmp/$pol.csv" >"$tmp/$pol.got"
	echo "mismatches $("$fl" whatif --idlest --json "$f" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["mismatches_n"])')" >>"$tmp/$pol.got"
	if [ -s "$tmp/$pol.ind" ] && cmp -s "$tmp/$pol.got" "$tmp/$pol.ind"; then
		ok "$pol recording: calls, choice calls, disagreements per policy and mismatches as recomputed independently ($(tr '\n' ';' <"$tmp/$pol.got"))"
	else
		nok "$pol recording: fairlab [$(tr '\n' ';' <"$tmp/$pol.got")] != independent [$(tr '\n' ';' <"$tmp/$pol.ind")]"
	fi
	own=$(awk -v p="$pol" '$1 == p { print $4 }' "$tmp/$pol.got")
	[ "$own" = 0 ] && ok "$pol recording: replayed under $pol, every recorded pick is reproduced" ||
		nok "$pol recording: $own calls differ under its own policy"
	grep -q '^mismatches 0$' "$tmp/$pol.got" && ok "$pol recording: the self-check finds no mismatch" ||
		nok "$pol recording: self-check mismatches"
	others=$(awk -v p="$pol" '$1 != p && $1 != "mismatches" && $4 > 0' "$tmp/$pol.got" | wc -l)
	# (under idle_cpus, nr_running rarely differs: both keep the first
	# group of a tie, and sum_nr_running is mostly 0 on both sides)
	[ "$others" -ge 1 ] && ok "$pol recording: another policy disagrees on some calls ($others)" ||
		nok "$pol recording: no other policy disagrees"
	[ ! -s "$tmp/$pol.err" ] && ok "$pol recording: no warning (every call consistent)" ||
		nok "$pol recording: warnings: $(head -1 "$tmp/$pol.err")"
done

# the differing calls by group type: only has_spare ties can differ
"$fl" whatif --idlest --csv --by-type "$top/tests/data/idlest-smt-stock.dat" >"$tmp/types.csv" 2>/dev/null
if awk -F, 'NR > 1 { n++; if ($3 != "has_spare" || $4 != "has_spare") bad++ } END { exit !(n > 0 && !bad) }' "$tmp/types.csv"; then
	ok "--by-type: every differing pick is has_spare against has_spare"
else
	nok "--by-type: $(tr '\n' ';' <"$tmp/types.csv")"
fi
# the by-type rows add up to differ
a=$(awk -F, 'NR > 1 { s[$2] += $5 } END { for (p in s) print p, s[p] }' "$tmp/types.csv" | sort)
b=$(awk -F, 'NR > 1 && $5 > 0 { print $2, $5 }' "$tmp/stock.csv" | sort)
[ -n "$a" ] && [ "$a" = "$b" ] && ok "--by-type rows add up to each policy's differ" ||
	nok "--by-type sums [$a] != differ [$b]"

# usage
"$fl" whatif --idlest --by-type "$top/tests/data/idlest-smt-stock.dat" >/dev/null 2>&1
[ $? = 2 ] && ok "--by-type without --csv: exit 2" || nok "--by-type without --csv did not exit 2"
"$fl" whatif --idlest >/dev/null 2>&1
[ $? = 2 ] && ok "no FILE: exit 2" || nok "no FILE did not exit 2"
"$fl" whatif --idlest "$top/tests/data/tree3-stock.dat" >/dev/null 2>&1
[ $? = 0 ] && ok "a recording whose calls hold no choice: exit 0" || nok "tree3-stock.dat failed"
"$fl" whatif --idlest --help | grep -q 'fairlab whatif --idlest' && ok "--help has examples" ||
	nok "--help"
exit $fail
