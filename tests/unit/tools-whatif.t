#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fairlab whatif (ASan+UBSan build) on the real recordings of tests/data:
#  - exact on its own policy: replayed as recorded ("recorded": each record
#    under its own policy and argument), every decision is the recorded one
#    and the figures are fairlab report's, to the last printed digit;
#  - analyzer-policies.dat holds records of every tg policy, so that holds
#    for each of them; analyzer-numa.dat adds NUMA nodes and idlest records;
#  - the command line: --policy, --sweep, --cost, formats, usage errors.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out err=$tmp/err

# the figures compared, as the JSON outputs print them (%.12g)
keys="attempts_n writes_n switches_n xnode_switches_n reads_n coh_transfers_n coh_cost_ns_per_s shares_err_max_pct shares_err_mean_pct shares_err_p50_pct shares_err_p99_pct shares_err_rel_max_pct shares_err_rel_mean_pct shares_err_rel_p99_pct err_max_load err_mean_load err_p99_load err_rel_mean_pct writes_per_s diverged_n"
nkeys=19	# all but diverged_n, which report has not
# after ANCHOR: "key value" for each of $keys, its first occurrence after
# the line holding ANCHOR (the writers print one member per line)
after() {
	awk -v anchor="$1" -v keys="$keys" '
		BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		index($0, anchor) { on = 1; next }
		on && match($0, /"[a-z_0-9]+": /) {
			key = substr($0, RSTART + 1, RLENGTH - 4)
			if (key in want && !(key in got)) {
				v = substr($0, RSTART + RLENGTH); sub(/,$/, "", v); got[key] = v
			}
		}
		END { for (i = 1; i <= n; i++) if (k[i] in got) print k[i], got[k[i]] }'
}
figures_report() { "$FAIRLAB" report --json "$1" 2>/dev/null | after '"total": {'; }
figures_whatif() { "$FAIRLAB" whatif --json --rel --policy="$2" "$1" 2>/dev/null | after '"policies": ['; }

ref=$DATA/analyzer-numa.dat
for f in "$ref" "$DATA/analyzer-policies.dat" "$DATA"/tree3-*.dat; do
	name=$(basename "$f")
	if [ ! -s "$f" ]; then
		not_ok "$name present (tests/data/regenerate.sh)"
		continue
	fi
	figures_report "$f" >"$tmp/rep"
	figures_whatif "$f" recorded >"$tmp/wi"
	check "$name: replayed as recorded, no decision differs" grep -qx "diverged_n 0" "$tmp/wi"
	# analyzer-policies.dat holds tg_read records: the reads' shares error
	# and transfers are among the figures compared, not null
	[ "$name" = analyzer-policies.dat ] &&
		check "$name: holds reads, the shares error replayed ($(grep -E '^(reads_n|shares_err_rel_mean_pct) ' "$tmp/wi" | tr '\n' ' '))" \
			eval 'grep -qE "^reads_n [1-9]" "$tmp/wi" && grep -qE "^shares_err_rel_mean_pct [0-9]" "$tmp/wi"'
	if [ "$(wc -l <"$tmp/rep")" = $nkeys ] && grep -v diverged "$tmp/wi" | cmp -s - "$tmp/rep"; then
		ok "$name: replayed figures = fairlab report's ($(tr '\n' ' ' <"$tmp/rep"))"
	else
		not_ok "$name: replayed figures differ from fairlab report's"
		diff "$tmp/rep" "$tmp/wi" | sed 's/^/#   /'
	fi
done

# tree3-stock.dat: 6.12.117, where stock is the kernel's own 1 ms rate
# limit (tg_update arg 1000), on a 3-level tree with a CPU taken offline and
# back every 0.5 s: its clear_tg_load_avg publishes (site 16, since_ns not
# recorded) break each cfs_rq's since_ns chain.  ratelimit:1000 is the same
# rule: replayed under it, every attempt must be decided as recorded, the
# gate read on the sched_clock rebuilt from since_ns (on the trace clock,
# 113 of its 8645 decisions would differ), and the figures stock's own.
f=$DATA/tree3-stock.dat
n_clear=$(trace-cmd report -i "$f" 2>/dev/null | grep -c ' tg_update: .* site=16 ')
figures_whatif "$f" recorded >"$tmp/wi"
figures_whatif "$f" ratelimit:1000 >"$tmp/wr"
check "tree3-stock.dat: $n_clear clear_tg_load_avg publishes (CPU offline) among its records" test "$n_clear" -gt 0
check "tree3-stock.dat: ratelimit:1000 decides every attempt as the kernel's own 1 ms gate did ($(grep diverged "$tmp/wr"))" \
	grep -qx "diverged_n 0" "$tmp/wr"
check "tree3-stock.dat: ratelimit:1000's figures are stock's ($(grep -E '^(attempts_n|writes_n) ' "$tmp/wr" | tr '\n' ' '))" \
	cmp -s "$tmp/wi" "$tmp/wr"
# one ms less or more moves decisions: the gate is read, not bypassed
n999=$("$FAIRLAB" whatif --csv --policy=ratelimit:500,ratelimit:2000 "$f" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s = s " " $(c["diverged_n"]) } END { print s }')
check "tree3-stock.dat: ratelimit:500 and :2000 diverge from the 1 ms gate (diverged:$n999)" \
	eval 'set -- $n999; test "${1:-0}" -gt 0 -a "${2:-0}" -gt 0'

# --shared-miss=nearest: a read miss on a Shared line is a transfer from
# the nearest holder, in report and in whatif alike (more transfers than
# under the default, on a recording with reads)
f=$DATA/analyzer-policies.dat
"$FAIRLAB" report --json --shared-miss=nearest "$f" 2>/dev/null | after '"total": {' >"$tmp/rep"
"$FAIRLAB" whatif --json --rel --shared-miss=nearest --policy=recorded "$f" 2>/dev/null |
	after '"policies": [' >"$tmp/wi"
n_free=$(figures_report "$f" | awk '$1 == "coh_transfers_n" { print $2 }')
n_near=$(awk '$1 == "coh_transfers_n" { print $2 }' "$tmp/rep")
check "--shared-miss=nearest: whatif as recorded = report ($n_near transfers, $n_free by default)" \
	eval 'grep -v diverged "$tmp/wi" | cmp -s - "$tmp/rep" && test "$n_near" -gt "$n_free"'
run_fl "$out" "$err" whatif --shared-miss=some "$f"; s=$?
check "--shared-miss=some: a usage error" eval 'test $s = 2 && grep -q "not free or nearest" "$err"'

# without --rel, the same figures but the relative error (null)
"$FAIRLAB" whatif --json --policy=recorded "$ref" 2>/dev/null | after '"policies": [' >"$tmp/norel"
figures_whatif "$ref" recorded | grep -v err_rel_mean_pct >"$tmp/rel"
check "without --rel: the same figures, relative error null" \
	eval 'grep -qx "err_rel_mean_pct null" "$tmp/norel" && grep -v err_rel_mean_pct "$tmp/norel" | cmp -s - "$tmp/rel"'

# the default 50 policies replayed in two halves on two threads (a
# helper thread, fa_forkjoin.c; FAIRLAB_THREADS=2 starts it whatever the
# cores), and all of them on a replay thread fed through a ring, the
# segment closes queued behind their records (fa_replay_ring.c;
# FAIRLAB_THREADS=ring): the same figures as on one thread
# (FAIRLAB_THREADS=0), and as run by default; "recorded" among them
# still the report's.  analyzer-numa.dat places its CPUs as it goes (the
# ring drained before a topology change).
for f in "$ref" "$DATA/analyzer-policies.dat" "$DATA/analyzer-numa.dat"; do
	name=$(basename "$f")
	FAIRLAB_THREADS=2 "$FAIRLAB" whatif --csv --rel "$f" >"$tmp/two" 2>/dev/null
	FAIRLAB_THREADS=ring "$FAIRLAB" whatif --csv --rel "$f" >"$tmp/ring" 2>/dev/null
	"$FAIRLAB" whatif --csv --rel "$f" >"$tmp/dflt" 2>/dev/null
	FAIRLAB_THREADS=0 "$FAIRLAB" whatif --csv --rel "$f" >"$tmp/one" 2>/dev/null
	check "$name: 50 policies on two threads = on one ($(($(wc -l <"$tmp/one") - 1)) rows)" \
		eval '[ "$(wc -l <"$tmp/one")" -gt 40 ] && cmp -s "$tmp/one" "$tmp/two"'
	check "$name: 50 policies on a replay thread fed through a ring = on one" \
		cmp -s "$tmp/one" "$tmp/ring"
	check "$name: 50 policies as run by default ($(nproc) CPUs) = on one" \
		cmp -s "$tmp/one" "$tmp/dflt"
	FAIRLAB_THREADS=auto "$FAIRLAB" whatif --csv --rel "$f" >"$tmp/auto" 2>/dev/null
	check "$name: 50 policies, the helper tried as it goes (FAIRLAB_THREADS=auto) = on one" \
		cmp -s "$tmp/one" "$tmp/auto"
	"$FAIRLAB" whatif --json --rel "$f" 2>/dev/null | after '"policy": "recorded"' >"$tmp/wi"
	figures_report "$f" >"$tmp/rep"
	check "$name: recorded among 50 policies: no decision differs, the report's figures" \
		eval 'grep -qx "diverged_n 0" "$tmp/wi" && grep -v diverged "$tmp/wi" | cmp -s - "$tmp/rep"'
done

# unasked, the ring with 3 CPUs the process may run on or more
# (FA_FJ_MIN_CPUS, fa_fj_ring_wanted()), else one thread;
# FAIRLAB_THREADS=ring the ring whatever the CPUs, 2 the two halves, 1 one
# thread
thr() { FAIRLAB_PROFILE=1 "$@" whatif "$ref" 2>&1 >/dev/null |
	sed -n 's/^fairlab profile: the replay of [0-9]* policies on \([0-9]*\) thread.*/\1/p'; }
ring() { FAIRLAB_PROFILE=1 "$@" whatif "$ref" 2>&1 >/dev/null |
	grep -c '^fairlab profile: every policy on a replay thread fed through a ring: the engine.s thread waited [0-9.]* s for it, the replay thread [0-9.]* s for records'; }
check "the replay on 1 CPU: 1 thread ($(thr taskset -c 0 "$FAIRLAB"))" \
	test "$(thr taskset -c 0 "$FAIRLAB")" = 1
check "the replay on 1 CPU, FAIRLAB_THREADS=2: 2 threads, not the ring" \
	test "$(thr env FAIRLAB_THREADS=2 taskset -c 0 "$FAIRLAB")" = 2 -a \
	"$(ring env FAIRLAB_THREADS=2 taskset -c 0 "$FAIRLAB")" = 0
check "the replay on 1 CPU, FAIRLAB_THREADS=ring: the ring, its waits profiled" \
	test "$(thr env FAIRLAB_THREADS=ring taskset -c 0 "$FAIRLAB")" = 2 -a \
	"$(ring env FAIRLAB_THREADS=ring taskset -c 0 "$FAIRLAB")" = 1
check "the replay with FAIRLAB_THREADS=1: 1 thread" \
	test "$(thr env FAIRLAB_THREADS=1 "$FAIRLAB")" = 1
if [ "$(nproc)" -ge 3 ]; then
	check "the replay on $(nproc) CPUs: the ring" test "$(ring "$FAIRLAB")" = 1
	check "the replay on 2 of $(nproc) CPUs: 1 thread" \
		test "$(thr taskset -c 0,1 "$FAIRLAB")" = 1
else
	check "the replay on $(nproc) CPUs: 1 thread" test "$(thr "$FAIRLAB")" = 1
fi

# unasked, the helper is tried as the replay goes (fa_replay_batch.c:
# choose()): RP_TRY = 8 full batches of 2,048 records on both threads,
# then 8 on one, then the faster way for 56, and again; asked for
# (FAIRLAB_THREADS=2), always both.  A file of 44 k records or more
# (fl-tracegen -k 1: 4 CPUs) has the 17 full batches both trials need.
gen=${FL_TRACEGEN:-$top/build/asan/fl-tracegen}
batches() { FAIRLAB_PROFILE=1 "$@" 2>&1 >/dev/null |
	sed -n 's/^fairlab profile: full replay batches: \([0-9]*\) on both threads, \([0-9]*\) on one .*/\1 \2/p'; }
if [ -x "$gen" ] && "$gen" -q -k 1 -n 60000 -f v6 "$DATA/analyzer-policies.dat" -o "$tmp/g60k.dat"; then
	read -r two one <<<"$(batches env FAIRLAB_THREADS=auto "$FAIRLAB" whatif "$tmp/g60k.dat")"
	check "FAIRLAB_THREADS=auto: both ways tried, at least 8 full batches each (${two:-?} on both threads, ${one:-?} on one)" \
		test "${two:-0}" -ge 8 -a "${one:-0}" -ge 8
	read -r two2 one2 <<<"$(batches env FAIRLAB_THREADS=2 "$FAIRLAB" whatif "$tmp/g60k.dat")"
	check "FAIRLAB_THREADS=2: every full batch on both threads (${two2:-?}, ${one2:-?} on one), as many as tried (${two:-?} + ${one:-?})" \
		test "${one2:-x}" = 0 -a "${two2:-0}" = "$(( ${two:-0} + ${one:-0} ))"
	"$FAIRLAB" whatif --csv "$tmp/g60k.dat" >"$tmp/g1" 2>/dev/null
	FAIRLAB_THREADS=auto "$FAIRLAB" whatif --csv "$tmp/g60k.dat" >"$tmp/ga" 2>/dev/null
	check "FAIRLAB_THREADS=auto on $(($(wc -l <"$tmp/g1") - 1)) policies of 60 k records: the output as run by default" \
		eval '[ "$(wc -l <"$tmp/g1")" -gt 40 ] && cmp -s "$tmp/g1" "$tmp/ga"'
	# more slots handed over than the ring has (full batches and closes)
	FAIRLAB_THREADS=1 "$FAIRLAB" whatif --csv --rel "$tmp/g60k.dat" >"$tmp/g1r" 2>/dev/null
	FAIRLAB_THREADS=ring "$FAIRLAB" whatif --csv --rel "$tmp/g60k.dat" >"$tmp/gr" 2>/dev/null
	check "FAIRLAB_THREADS=ring on 60 k records: the output as on one thread" \
		eval '[ "$(wc -l <"$tmp/g1r")" -gt 40 ] && cmp -s "$tmp/g1r" "$tmp/gr"'
else
	not_ok "$gen made a 60 k-record file (make -C tools all)"
fi

# the policies dealt out to processes that each read the file (--procs,
# whatif_shards.c): the same output whatever their number, on the
# committed zstd recordings and on an uncompressed one
procs() { FAIRLAB_PROFILE=1 "$@" 2>&1 >/dev/null |
	sed -n 's/^fairlab profile: the [0-9]* policies in \([0-9]*\) processes, each reading the file.*/\1/p'; }
for f in "$ref" "$DATA/analyzer-policies.dat" "$tmp/g60k.dat"; do
	name=$(basename "$f")
	"$FAIRLAB" whatif --csv --rel "$f" >"$tmp/p1" 2>"$tmp/p1.err"
	for n in 2 3 5; do
		"$FAIRLAB" whatif --procs=$n --csv --rel "$f" >"$tmp/pn" 2>"$tmp/pn.err"
		check "$name: 50 policies in $n processes = in one, warnings too ($(($(wc -l <"$tmp/p1") - 1)) rows)" \
			eval '[ "$(wc -l <"$tmp/p1")" -gt 40 ] && cmp -s "$tmp/p1" "$tmp/pn" && cmp -s "$tmp/p1.err" "$tmp/pn.err"'
	done
	"$FAIRLAB" whatif --procs=4 --json --policy=recorded,stock,budget:5 --layout=global,node,node:1000 --contention=10 "$f" >"$tmp/pj4" 2>/dev/null
	"$FAIRLAB" whatif --json --policy=recorded,stock,budget:5 --layout=global,node,node:1000 --contention=10 "$f" >"$tmp/pj1" 2>/dev/null
	check "$name: 9 policies under layouts, contention term, JSON: 4 processes = 1" \
		eval '[ -s "$tmp/pj1" ] && cmp -s "$tmp/pj1" "$tmp/pj4"'
done
check "--procs=3: 3 processes" test "$(procs "$FAIRLAB" whatif --procs=3 "$ref")" = 3
check "--procs=5 on 3 policies: 3 processes" \
	test "$(procs "$FAIRLAB" whatif --procs=5 --policy=stock,force,nonzero "$ref")" = 3
check "unasked: one process" test -z "$(procs "$FAIRLAB" whatif "$ref")"
if [ -s "$tmp/g60k.dat" ]; then
	# a process killed under way: named, and the run fails
	"$FAIRLAB" whatif --procs=2 --rel "$tmp/g60k.dat" >/dev/null 2>"$tmp/kerr" &
	pid=$!
	child=
	for _ in $(seq 2000); do
		child=$(awk '{ print $1 }' "/proc/$pid/task/$pid/children" 2>/dev/null)
		[ -n "$child" ] && break
	done
	[ -n "$child" ] && kill -9 "$child"
	wait "$pid"
	rc=$?
	check "a replay process killed: exit 1 ($rc), named with its signal" \
		eval '[ -n "$child" ] && [ "$rc" = 1 ] && grep -q "replay process of policy share 2 of 2 failed (killed by signal 9" "$tmp/kerr"'
fi

# every policy really is in analyzer-policies.dat, with its decisions
pol=$DATA/analyzer-policies.dat
if [ -s "$pol" ]; then
	"$FAIRLAB" report --csv --table=tg_policies "$pol" 2>/dev/null >"$tmp/tp"
	for p in stock force nonzero relative:8 turner1 turner2 fixed:16 log2:8 ratelimit:1000 budget:5; do
		n=$(awk -F, -v p="$p" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$(c["segment"]) != "all" && $(c["tg_policy"]) == p { n += $(c["attempts_n"]) }
			END { print n + 0 }' "$tmp/tp")
		check "analyzer-policies.dat: $p decided ${n:-0} attempts, replayed exactly above" \
			test "${n:-0}" -gt 0
	done
fi

# ---- the default run: 50 policies, a frontier -----------------------------
"$FAIRLAB" whatif --json "$ref" >"$out" 2>"$err"; s=$?
check "default: exit 0, no sanitizer report" eval 'test $s = 0 && ! grep -qE "$SAN_REPORT" "$err"'
n=$(grep -c '"policy": ' "$out")
check "default: 50 policies ($n)" test "$n" = 50
# dominated COST_KEY < CSV: "wrong: P" for each replayed policy whose
# frontier mark is not "no other has both a lower or equal COST_KEY and
# mean |E|, one lower"; "empty frontier" when none is on it
dominated() {
	awk -F, -v k="$1" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["policy"]) != "recorded" { n++; p[n] = $(c["policy"]); w[n] = $(c[k]) + 0
			e[n] = $(c["err_mean_load"]) + 0; f[n] = $(c["frontier"]) }
		END {
			for (i = 1; i <= n; i++) {
				dom = 0
				for (j = 1; j <= n; j++)
					if (j != i && w[j] <= w[i] && e[j] <= e[i] && (w[j] < w[i] || e[j] < e[i])) dom = 1
				if (dom == (f[i] == "*")) print "wrong:", p[i]
				front += !dom
			}
			if (!front) print "empty frontier"
		}'
}
# the frontier from the CSV: exactly the replayed policies no other dominates
"$FAIRLAB" whatif --csv "$ref" 2>/dev/null | dominated writes_n >"$tmp/dom"
check "frontier = the replayed policies no other dominates" test ! -s "$tmp/dom"
"$FAIRLAB" whatif --csv --policy=stock,recorded --sweep=relative:4..16x2 "$ref" >"$out" 2>"$err"; s=$?
check "--csv: header and 5 rows (stock, recorded, relative:4, 8, 16)" \
	eval 'test $s = 0 && head -1 "$out" | grep -q "^file,policy,attempts_n" && test $(wc -l <"$out") = 6'
"$FAIRLAB" whatif --policy=stock --sweep=fixed:0..64*32 "$ref" >"$out" 2>&1; s=$?
check "--sweep with *STEP: fixed:0, 32, 64" \
	eval 'test $s = 0 && grep -q " fixed:0 " "$out" && grep -q " fixed:32 " "$out" && grep -q " fixed:64 " "$out"'
if command -v gnuplot >/dev/null; then
	"$FAIRLAB" whatif --policy=all -o "$tmp/plot" "$ref" >"$out" 2>"$err"; s=$?
	check "-o DIR: whatif.png and whatif.svg" eval 'test $s = 0 -a -s "$tmp/plot/whatif.png" -a -s "$tmp/plot/whatif.svg"'
fi

# the frontier on the modeled cost (--cost=modeled) on each machine: the
# cost column is report's coh_cost_ns_per_s for that machine, and the
# frontier the policies no other dominates on it
for m in spr milan; do
	"$FAIRLAB" whatif --csv --cost=modeled --machine=$m "$ref" >"$tmp/m.csv" 2>"$err"; s=$?
	"$FAIRLAB" report --json --machine=$m "$ref" 2>/dev/null | after '"total": {' >"$tmp/rep"
	want=$(awk '$1 == "coh_cost_ns_per_s" { print $2 }' "$tmp/rep")
	{
		awk -F, -v want="$want" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			# the CSV prints 4 decimals
			$(c["policy"]) == "recorded" { d = $(c["coh_cost_ns_per_s"]) - want; if (d < 0) d = -d
				if (d > 0.0001) print "recorded cost", $(c["coh_cost_ns_per_s"]), "!= report", want }' "$tmp/m.csv"
		dominated coh_cost_ns_per_s <"$tmp/m.csv"
	} >"$tmp/dom"
	check "--cost=modeled --machine=$m: report's cost as recorded ($want ns/s), frontier = the undominated" \
		eval 'test $s = 0 -a -n "$want" && test ! -s "$tmp/dom"'
done
# without reads in the recording, --error=shares has no error to rank: a
# warning, no frontier
"$FAIRLAB" whatif --json --error=shares --policy=stock,force "$ref" >"$out" 2>"$err"; s=$?
check "--error=shares on a recording without reads: a warning, an empty frontier" \
	eval 'test $s = 0 && grep -q "no tg_read records" "$err" && grep -q "\"frontier\": \[\]" "$out"'

# ---- layouts (--layout, POLICY/LAYOUT) ---------------------------------------
# --layout=global is the recording's own layout: every figure of the
# policies table as without --layout (its first 25 CSV fields: file and
# the 24 columns), the layout columns after them
pol=recorded,stock,relative:8,budget:5
for f in "$ref" "$DATA/analyzer-policies.dat" "$DATA"/tree3-*.dat; do
	name=$(basename "$f")
	"$FAIRLAB" whatif --csv --policy=$pol "$f" >"$tmp/plain" 2>/dev/null
	"$FAIRLAB" whatif --csv --policy=$pol --layout=global "$f" >"$tmp/glob" 2>/dev/null
	check "$name: --layout=global: the policies' figures as without --layout" \
		eval 'test -s "$tmp/plain" && cut -d, -f1-25 "$tmp/glob" | cmp -s - "$tmp/plain"'
done
# one node, one LLC (analyzer-local-lossy.dat, --smp 2): a split layout
# has one domain, whose counter is the global one: the same figures
f=$DATA/analyzer-local-lossy.dat
"$FAIRLAB" whatif --csv --policy=stock,budget:5 --layout=global,node,llc "$f" 2>/dev/null |
	awk -F, 'NR > 1 { s = ""; for (i = 3; i <= 24; i++) s = s " " $i
		for (i = 27; i <= 31; i++) s = s " " $i; print s }' |
	sort | uniq -c >"$tmp/one"
check "one node, one LLC: node and llc replay as global ($(awk '{ print $1 }' "$tmp/one" | tr '\n' ' '))" \
	eval 'test "$(wc -l <"$tmp/one")" = 2 && ! grep -vq "^ *3 " "$tmp/one"'
# two nodes (analyzer-numa.dat: writes, no reads): under node every
# write stays on its node's line: no cross-node transfer; stock decides
# without tg->load_avg, so its writes are global's
"$FAIRLAB" whatif --csv --policy=stock --layout=global,node "$ref" >"$out" 2>"$err"; s=$?
check "analyzer-numa.dat: stock/node: no cross-node transfer, global's writes ($(cut -d, -f2,4,29 "$out" | tr '\n' ' '))" \
	eval 'test $s = 0 && awk -F, "NR == 2 { w = \$4; x = \$29 } NR == 3 && \$2 == \"stock/node\" && \$4 == w && \$29 == 0 && x > 0 { ok = 1 } END { exit !ok }" "$out"'
# reads (analyzer-policies.dat): stock's shares error under node is
# global's (the same sums); with a read cache, hits, and a stale sum
f=$DATA/analyzer-policies.dat
"$FAIRLAB" whatif --csv --policy=stock,stock/node,stock/node:100000 "$f" >"$out" 2>"$err"; s=$?
check "analyzer-policies.dat: stock/node's shares error is stock's; node:100000 hits its cache" \
	eval 'test $s = 0 && awk -F, "NR == 2 { e = \$14 } NR == 3 { n = \$14; l = \$32 } NR == 4 { h = \$33; c = \$14 } END { exit !(e == n && l > 0 && h > 0 && c > e) }" "$out"'
check "analyzer-policies.dat: POLICY/LAYOUT names ($(cut -d, -f2,26 "$out" | tr '\n' ' '))" \
	eval 'cut -d, -f2,26 "$out" | tr "\n" " " | grep -qx "policy,layout stock,global stock/node,node stock/node:100000,node:100000 "'
"$FAIRLAB" whatif --policy=stock,relative:8 --layout=node,llc:1000 "$f" >"$out" 2>"$err"; s=$?
check "--layout=node,llc:1000 with 2 policies: 4 rows, policy-major" \
	eval 'test $s = 0 && grep -E "^ +[a-z:0-9]+/[a-z:0-9]+ +[0-9]" "$out" | sed -E "s/^ +//; s/ .*//" | tr "\n" " " | grep -qx "stock/node stock/llc:1000 relative:8/node relative:8/llc:1000 "'

# the contention term: at the recording's own CPUs per node (4 CPUs, 2
# nodes: 2) the scale is 1 and the scaled cost is the contended one, which
# is at least the idle cost; the idle cost is the table's
"$FAIRLAB" whatif --json --policy=stock --layout=global,node --contention=10 --scale-cpus=2 "$f" >"$out" 2>"$err"; s=$?
check "--contention --scale-cpus=2 on 2 CPUs per node: scale 1, scaled = contended >= idle" \
	eval 'test $s = 0 && grep -q "\"scale\": 1," "$out" && awk "/\"idle_ns_per_s\"/ { i = \$2 + 0 } /\"contended_ns_per_s\"/ { c = \$2 + 0 } /\"contended_scaled_ns_per_s\"/ { n++; if (\$2 + 0 != c || c < i) bad = 1 } END { exit bad || n != 2 }" "$out"'
# the CSV's contention columns are the JSON section's figures, row by row,
# with and without layouts; without --contention the CSV has none
for lay in "--layout=global,node:1000" ""; do
	"$FAIRLAB" whatif --json --policy=stock,relative:8 $lay --contention=10 --scale-cpus=8 "$f" >"$out" 2>"$err"; s=$?
	"$FAIRLAB" whatif --csv --policy=stock,relative:8 $lay --contention=10 --scale-cpus=8 "$f" >"$out.csv" 2>>"$err" || s=1
	check "--csv --contention ${lay:-(no layout)}: contended columns as JSON's ($(awk -F, 'NR > 1 { printf "%s ", $NF }' "$out.csv"))" \
		eval 'test $s = 0 && awk -F, "FNR == NR { v = \$0; sub(/.*: /, \"\", v); if (/\"contended_ns_per_s\"/) c[++n] = v + 0; if (/\"contended_scaled_ns_per_s\"/) d[++m] = v + 0; next }
			FNR == 1 { ok = \$(NF - 1) == \"coh_cost_contended_ns_per_s\" && \$NF == \"coh_cost_contended_scaled_ns_per_s\"; next }
			{ r++; if (\$(NF - 1) - c[r] > 0.05 || c[r] - \$(NF - 1) > 0.05 || \$NF - d[r] > 0.05 || d[r] - \$NF > 0.05 || \$NF + 0 <= 0) ok = 0 }
			END { exit !(ok && r == n && n == m && n >= 2) }" "$out" "$out.csv"'
done
"$FAIRLAB" whatif --csv --policy=stock "$f" >"$out.csv" 2>"$err"
check "--csv without --contention: no contention column" \
	eval '! head -n 1 "$out.csv" | grep -q contended'
"$FAIRLAB" whatif --policy=stock --layout=global,node --contention=10 "$f" >"$out" 2>"$err"; s=$?
check "--contention: a verdict per split layout at 112 CPUs/node" \
	eval 'test $s = 0 && grep -q "x56.00 CPUs" "$out" && grep -c "^   at 112 CPUs/node: stock/node .*the split is" "$out" | grep -qx 1'

# ---- usage errors exit 2 ---------------------------------------------------
for args in "" "--policy=stok $ref" "--layout=numa $ref" "--layout=global:5 $ref" \
	"--layout=node:x $ref" "--layout= $ref" "--layout=node:10000001 $ref" \
	"--policy=stock/numa $ref" "--policy=stok/node $ref" "--contention=0 $ref" \
	"--scale-cpus=112 $ref" "--contention=10 --scale-cpus=0 $ref" "--contention=1x $ref" "--policy=relative:0 $ref" "--sweep=relative:0..8 $ref" \
	"--sweep=stock:1..2 $ref" "--sweep=fixed:8..4 $ref" "--sweep=fixed:1..8x1 $ref" \
	"--sweep=fixed:1..8*0 $ref" "--sweep=fixed:1..2y $ref" "--cost=money $ref" \
	"--machine=m1 $ref" "--error=rel $ref" "--procs=0 $ref" "--procs=65 $ref" \
	"--procs=two $ref" "--json --csv $ref" "$ref $ref" "--no-such $ref"; do
	run_fl "$out" "$err" whatif $args; s=$?
	check "whatif $args: exit 2 with a message" eval 'test $s = 2 -a -s "$err"'
done
run_fl "$out" "$err" whatif --help; s=$?
check "whatif --help: exit 0, examples and units" \
	eval 'test $s = 0 && grep -q "^examples:" "$out" && grep -q "(load" "$out"'
run_fl "$out" "$err" whatif "$tmp/none.dat"; s=$?
check "whatif of a missing file: exit 1" test $s = 1
# unknown is unknown everywhere: a recording cut after its cpu_topology
# records places no CPU on a node; report prints null cross-node switches,
# and whatif the same, for "recorded" and for any other policy
if trace-cmd split -i "$DATA/analyzer-policies.dat" -o "$tmp/cut.dat" 12 13 >/dev/null 2>&1 &&
	[ -s "$tmp/cut.dat.1" ]; then
	rep_x=$(figures_report "$tmp/cut.dat.1" | awk '$1 == "xnode_switches_n" { print $2 }')
	wi_x=$("$FAIRLAB" whatif --json --policy=recorded,force "$tmp/cut.dat.1" 2>/dev/null |
		awk '/"xnode_switches_n"/ { v = $2; sub(/,$/, "", v); printf "%s ", v }')
	check "cut without cpu_topology: report and whatif print null cross-node switches (report $rep_x, whatif $wi_x)" \
		test "$rep_x $wi_x" = "null null null "
else
	not_ok "trace-cmd split cuts analyzer-policies.dat"
fi
tap_end
