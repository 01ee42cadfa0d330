#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel side of tg_layout=global|node|llc[:REFRESH_US]
# (module/layout.h), in make check and in make check-layout.
# On 2 NUMA nodes (one socket, so one LLC, each), with the tg-* load:
#  - bad values refused, at insmod and through sysfs, with EINVAL and one
#    "invalid tg_layout" line per sysfs write, the layout kept;
#  - every layout (global node llc node:1000) under several tg policies:
#    the audit exact after every switch (tg_load_avg == sum_contrib, and
#    tg_load_avg == global + sum_domains), every group split (with 0 left
#    in tg->load_avg) under node/llc, none under global;
#  - read-cache hits counted under node:1000;
#  - the recording: one policy_switch of kind 4 per switch and one for a
#    describe; tg_update writes into domains, tg_read cache hits;
#  - `fairlab record` under node:1000, as a user records (describe, so the
#    layout is named): split.dat, whose split counts fairlab report must
#    give as the host counts them from trace-cmd's text (host half);
#  - an unpatch while split leaves tg->load_avg == sum of contribs (and no
#    group split); insmod with tg_layout=llc splits once patched.
# fairlab-vm: --smp 4 --numa --mem 2048 --timeout 420
# fairlab-files: tests/vm/tg-check/workload.sh build/fairlab
. "$FL_LIB"
. /fairlab/tests/vm/tg-check/workload.sh
L=/sys/module/fairlab/parameters/tg_layout
KO=$FL_MODDIR/fairlab.ko
OURS='fairlab: invalid tg_layout'
FL_TRACE_BUF_KB=${TG_BUF_KB:-32768}
POLICIES="stock relative:8 budget:5 ratelimit:1000"
LAYOUTS="node llc node:1000 global"

# audit_layout NAME SPLIT: the audit file, every row an exact cut with
# tg_load_avg == sum_contrib == global + sum_domains; SPLIT 1: every group
# split (groups made after the switch excepted: at least one split, and
# tg->load_avg 0 in every split row); SPLIT 0: no group split.
audit_layout() {
	if ! cat $FLK/audit >/tmp/la.txt 2>/tmp/la.err; then
		not_ok "$1" "audit read failed: $(cat /tmp/la.err)"
		return 1
	fi
	_r=$(awk '!/^#/ { n++
		if ($2 != $3 || $6 != 1 || $2 != $8 + $9) { bad++; if (!m) m = $0 }
		if ($7 == 1) { s++; if ($8 != 0) { g++; if (!m) m = $0 } } }
		END { printf "%d %d %d %d %s", n, bad, s, g, m }' /tmp/la.txt)
	set -- "$1" "$2" $_r
	_n=$1 _want=$2 _rows=$3 _bad=$4 _split=$5 _glob=$6; shift 6
	if [ "$_rows" -gt 0 ] && [ "$_bad" = 0 ] && [ "$_glob" = 0 ] &&
		{ { [ "$_want" = 1 ] && [ "$_split" -gt 0 ]; } ||
		  { [ "$_want" = 0 ] && [ "$_split" = 0 ]; }; }; then
		ok "$_n ($_rows groups exact, $_split split)"
	else
		not_ok "$_n" "$_rows rows, $_bad not exact, $_split split (want split=$_want), $_glob split with tg->load_avg != 0; first: $*"
	fi
}
switch_layout() {
	if echo "$1" >$L 2>/dev/null && [ "$(cat $L)" = "$1" ]; then
		return 0
	fi
	not_ok "tg_layout $1" "rejected or read back as $(cat $L)"
	return 1
}
hits() { awk '$1 == "layout_cache" && $2 == "hits" { print $3 }' $FLK/stats; }

load_mod fairlab_trace || exit 1

# 1. refusals
for v in numa global:5 node:10000001; do
	dmesg_mark
	expect_fail "insmod tg_layout=$v refused" 'Invalid argument' \
		insmod "$KO" "tg_layout=$v"
	check "insmod tg_layout=$v: our line" \
		test "$(dmesg_since | grep -c "$OURS")" -ge 1
done
check "fairlab not loaded after refusals" test ! -d /sys/module/fairlab
load_lp fairlab tg_policy=stock || exit 1
assert_sysfs $L global "tg_layout reads global by default"
for v in numa NODE Node global:5 global:0 node: node:x node:-1 node:+5 \
	node:01 node:10000001 node:4294967296 llc:1000x llc:: node:1000:1 \
	'node ' ' llc' '' aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; do
	dmesg_mark
	expect_fail "tg_layout='$v' refused" 'Invalid argument' \
		sh -c "echo '$v' > $L"
	assert_eq "tg_layout='$v': one dmesg line" 1 \
		"$(dmesg_since | grep -c "$OURS")"
done
assert_sysfs $L global "tg_layout kept (global) after the refusals"
audit_layout "audit exact before any switch" 0

# 2. every layout under every policy, with load: a load that runs until
# told to stop, not for a guessed time (the audits under load take longer
# on some kernels; a 6.12 run once recorded part 3 after a timed load had
# ended: 42 tg_update records, 3 tg_read, no cache hit)
tg_autogroup_on
tg_tree
tg_load_until /tmp/tg-stop2
sleep 1
h0=$(hits); hc=0
for p in $POLICIES; do
	echo "$p" >$TGP || not_ok "tg_policy $p" "rejected"
	for l in $LAYOUTS; do
		switch_layout "$l" || continue
		w=1; [ "$l" = global ] && w=0
		audit_layout "$p, $l: audit after the switch" $w
		h1=$(hits)
		sleep 1
		audit_layout "$p, $l: audit while in force" $w
		[ "$l" = node:1000 ] && hc=$((hc + $(hits) - h1))
	done
done
log "layout_cache hits: $h0 before, $(hits) after; $hc under node:1000"
check "read-cache hits under node:1000 ($hc)" test "$hc" -gt 0
grep '^layout' $FLK/stats | sed 's/^/# stats: /'
assert_eq "stats: layout global in force" "layout global 0 0" \
	"$(grep '^layout ' $FLK/stats)"
touch /tmp/tg-stop2
tg_wait 90

# 3. under a fresh load, again until told to stop
tg_load_until /tmp/tg-stop3
sleep 1

# 3. the recording: switches and a describe (their own recording, so that
# none is lost to a busy buffer), then domains and cache hits
record_start switches -e fairlab:policy_switch || exit 1
sleep 1
for l in llc node:1000 global; do switch_layout "$l"; sleep 0.5; done
echo 1 >$FLK/describe
sleep 1
record_stop switches
trace-cmd report -i "$FL_OUT/switches.dat" >/tmp/sw.txt 2>/dev/null
cp /tmp/sw.txt "$FL_OUT/switches.txt"
check "kind 4: global -> llc" grep -q -E ' policy_switch: +kind=4 old=0:0 new=2:0$' /tmp/sw.txt
check "kind 4: llc -> node:1000" grep -q -E ' policy_switch: +kind=4 old=2:0 new=1:1000$' /tmp/sw.txt
check "kind 4: node:1000 -> global" grep -q -E ' policy_switch: +kind=4 old=1:1000 new=0:0$' /tmp/sw.txt
assert_eq "kind 4 records: 3 switches and the describe's" 4 \
	"$(grep -c -E ' policy_switch: +kind=4 ' /tmp/sw.txt)"
check "describe: global in force (old == new)" \
	grep -q -E ' policy_switch: +kind=4 old=0:0 new=0:0$' /tmp/sw.txt

echo relative:8 >$TGP
switch_layout node:1000
h1=$(hits)
FL_ALLOW_LOST=1 record_start fields -e fairlab:tg_update -e fairlab:tg_read || exit 1
sleep 2
FL_ALLOW_LOST=1 record_stop fields
log "layout_cache hits during the fields recording: $(( $(hits) - h1 ))"
trace-cmd report -i "$FL_OUT/fields.dat" >/tmp/fields.txt 2>/dev/null
# domain as printed: a 16-bit -1 some path shows as 65535 is counted apart
awk '/ tg_update: / { d = $0; sub(/.* domain=/, "", d); sub(/ .*/, "", d)
		if (d == "-1") ug++; else if (d == "65535") bad++; else if (d >= 0 && d < 2) ud++; else bad++ }
	/ tg_read: / { d = $0; sub(/.* domain=/, "", d); sub(/ .*/, "", d)
		h = $0; sub(/.* cache_hit=/, "", h); sub(/ .*/, "", h)
		if (d == "65535") bad++; else if (d >= 0 && d < 2) rd++
		if (h == 1) rh++ }
	END { printf "%d %d %d %d %d\n", ud, ug, rd, rh, bad }' /tmp/fields.txt >/tmp/fields.cnt
read -r ud ug rd rh bad </tmp/fields.cnt
log "tg_update into a domain $ud, into tg->load_avg $ug; tg_read in a domain $rd, cache hits $rh; unreadable domains $bad"
check "tg_update records write into domains 0-1 ($ud)" test "${ud:-0}" -gt 0
check "tg_read records read in domains 0-1 ($rd)" test "${rd:-0}" -gt 0
check "tg_read records of cache hits ($rh)" test "${rh:-0}" -gt 0
assert_eq "no domain printed out of range" 0 "${bad:-0}"

# 3b. fairlab record, as a user runs it, with node:1000 in force: its
# describe names the layout, so fairlab report can model every record on
# the domain lines (checked on the host against an independent count)
if PATH=/fairlab/build:$PATH fairlab record --policy relative:8 -d 2 \
	-o "$FL_OUT/split.dat" >/tmp/split.out 2>/tmp/split.err; then
	ok "fairlab record under node:1000: $(cat /tmp/split.out)"
else
	not_ok "fairlab record under node:1000" "$(cat /tmp/split.out /tmp/split.err)"
fi
assert_sysfs $L node:1000 "fairlab record left tg_layout as it was"
touch /tmp/tg-stop3
tg_wait 90
audit_layout "node:1000 after the load" 1

# 4. unpatch while split: the pre-unpatch fold leaves tg->load_avg exact
switch_layout llc
audit_layout "llc before the unpatch" 1
disable_lp fairlab
audit_layout "after the unpatch: tg->load_avg == sum of contribs, nothing split" 0
assert_sysfs $L global "tg_layout reads global once unpatched"
unload_mod fairlab

# 5. insmod with tg_layout=llc: split once patched
load_lp fairlab tg_layout=llc tg_policy=ratelimit:1000 || exit 1
assert_sysfs $L llc "tg_layout=llc at insmod reads back"
grep '^layout' $FLK/stats | sed 's/^/# stats: /'
check "stats: llc in force, groups with blocks" \
	grep -q -E '^layout llc [1-9][0-9]* [1-9]' $FLK/stats
audit_layout "insmod tg_layout=llc: audit" 1
switch_layout global
audit_layout "llc -> global: audit" 0
unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
