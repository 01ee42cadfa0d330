#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The reader on real recordings from the VM harness (tests/data/):
#  - trace.dat v7 zstd (as recorded), v6 and v7 uncompressed (trace-cmd
#    convert) give the same figures;
#  - per task group attempts and writes, per CPU attempts and the
#    pick_idlest verdicts equal what `trace-cmd report` prints for the same
#    file (no plugins: the events' own print format);
#  - what the file says about itself (version, compression, clock) and the
#    warnings a lossy, local-clock recording deserves;
#  - the engine on its own thread (tools/reader/pipe.h, the default) reports
#    byte for byte what it reports fed inline (FAIRLAB_THREADS=0), and
#    reading page by page (tools/reader/pages.h, the default) what reading
#    record by record with tracecmd_iterate_events() does (FAIRLAB_PAGES=0).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
make_flavours
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# csv_rows FILE TABLE: the CSV rows of the whole recording (segment "all"
# when there are several segments, else segment 0), without the file column
csv_rows() {
	"$FAIRLAB" report --csv --table="$2" "$1" 2>/dev/null >"$tmp/csv"
	if grep -q '^[^,]*,all,' "$tmp/csv"; then
		grep '^[^,]*,all,' "$tmp/csv"
	else
		grep '^[^,]*,0,' "$tmp/csv"
	fi | cut -d, -f2-
}

# col NAME: index of column NAME in the header of $tmp/csv (after cut -f2-)
col() {
	head -1 "$tmp/csv" | cut -d, -f2- | tr ',' '\n' | grep -n -x "$1" | cut -d: -f1
}

for name in analyzer-numa analyzer-local-lossy; do
	z=$DATA/$name.dat v6=$WORK/$name.v6.dat raw=$WORK/$name.v7raw.dat

	# ---- the same figures from every flavour ----
	for t in summary groups cpus sites idlest hist; do
		"$FAIRLAB" report --csv --table=$t "$z" 2>/dev/null | cut -d, -f2- >"$tmp/z"
		"$FAIRLAB" report --csv --table=$t "$v6" 2>/dev/null | cut -d, -f2- >"$tmp/v6"
		"$FAIRLAB" report --csv --table=$t "$raw" 2>/dev/null | cut -d, -f2- >"$tmp/raw"
		check "$name: table $t identical from v7 zstd, v6 and v7 uncompressed" \
			eval 'test -s "$tmp/z" && cmp -s "$tmp/z" "$tmp/v6" && cmp -s "$tmp/z" "$tmp/raw"'
	done
	"$FAIRLAB" report --json "$z" >"$tmp/zj" 2>/dev/null
	"$FAIRLAB" report --json "$v6" >"$tmp/v6j" 2>/dev/null
	check "$name: v7 zstd recognised" eval 'grep -q "\"file_version\": 7" "$tmp/zj" && grep -q "\"compression\": \"zstd\"" "$tmp/zj"'
	check "$name: v6 recognised" eval 'grep -q "\"file_version\": 6" "$tmp/v6j" && grep -q "\"compression\": null" "$tmp/v6j"'

	# ---- cross-check against trace-cmd report ----
	trace-cmd report -N -i "$z" 2>/dev/null >"$tmp/text"
	awk '
	function field(re,   v) {
		if (!match($0, re)) return ""
		v = substr($0, RSTART, RLENGTH); sub(/^[^=]*=/, "", v); sub(/ $/, "", v)
		return v
	}
	/ tg_update: / {
		tg = field(" tg=[0-9a-f]+ "); att[tg]++
		if (field(" written=[0-9]+ ") != "0") wr[tg]++
		match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
		catt[cpu]++
	}
	/ pick_idlest: / { np++; if (field(" picked=[0-9]+ ") != "0") pk++ }
	/ (tg_update|pick_idlest|policy_switch|tg_info|cpu_topology|tg_audit): / { nf++ }
	END {
		for (t in att) printf "tg %s %d %d\n", t, att[t], wr[t] + 0
		for (c in catt) printf "cpu %d %d\n", c, catt[c]
		printf "pick %d %d\n", np, pk + 0
		printf "records %d\n", nf
	}' "$tmp/text" | sort >"$tmp/expect"

	{
		csv_rows "$z" groups >/dev/null
		ic=$(col id) ia=$(col attempts_n) iw=$(col writes_n)
		csv_rows "$z" groups | while IFS=, read -r -a f; do
			[ "${f[$((ia - 1))]}" -gt 0 ] &&
				printf 'tg %x %d %d\n' "${f[$((ic - 1))]}" "${f[$((ia - 1))]}" "${f[$((iw - 1))]}"
		done
		csv_rows "$z" cpus >/dev/null
		ic=$(col cpu) ia=$(col attempts_n)
		csv_rows "$z" cpus | while IFS=, read -r -a f; do
			[ "${f[$((ia - 1))]}" -gt 0 ] && printf 'cpu %d %d\n' "${f[$((ic - 1))]}" "${f[$((ia - 1))]}"
		done
		csv_rows "$z" idlest >/dev/null
		id=$(col decisions_n) ip=$(col picked_n)
		csv_rows "$z" idlest | awk -F, -v d="$id" -v p="$ip" \
			'{ nd += $d; np += $p } END { printf "pick %d %d\n", nd, np }'
		csv_rows "$z" summary >/dev/null
		ir=$(col records_n)
		csv_rows "$z" summary | awk -F, -v r="$ir" '{ printf "records %d\n", $r }'
	} | sort >"$tmp/got"
	ng=$(grep -c '^tg ' "$tmp/expect")
	if cmp -s "$tmp/expect" "$tmp/got" && [ "$ng" -gt 0 ]; then
		ok "$name: per-group attempts/writes ($ng groups), per-CPU attempts, pick_idlest verdicts and record count equal trace-cmd report's"
	else
		not_ok "$name: figures differ from trace-cmd report's"
		diff "$tmp/expect" "$tmp/got" | head -20 | sed 's/^/#   /'
	fi
done

# ---- audit windows against trace-cmd report ----
# For each group, consecutive tg_audit records: tg->load_avg's move, and
# the sum and number of the written deltas of its tg_update records in
# between.  These recordings carry no snap_ns: audits are placed at their
# records' times (ns timestamps: -t).
z=$DATA/analyzer-numa.dat
trace-cmd report -N -t -i "$z" 2>/dev/null | awk '
	function field(re,   v) {
		if (!match($0, re)) return ""
		v = substr($0, RSTART, RLENGTH); sub(/^[^=]*=/, "", v); sub(/ $/, "", v)
		return v
	}
	/ tg_update: / && field(" written=[0-9]+ ") != "0" {
		tg = field(" tg=[0-9a-f]+ "); sum[tg] += field(" delta=-?[0-9]+ "); n[tg]++
	}
	/ tg_audit: / {
		tg = field(" tg=[0-9a-f]+ "); tla = field(" tg_load_avg=-?[0-9]+ ")
		if (tg in last)
			printf "win %s %d %d %d\n", tg, tla - last[tg], sum[tg] - base[tg], n[tg] - nbase[tg]
		last[tg] = tla; base[tg] = sum[tg]; nbase[tg] = n[tg]
	}' | while read -r w tg d s n; do
		# ids: hex in these recordings' formats, decimal in fairlab's (64 bits: bash)
		printf '%s %d %s %s %s\n' "$w" "0x$tg" "$d" "$s" "$n"
	done | sort >"$tmp/expect"
"$FAIRLAB" report --csv --table=audit_windows "$z" 2>/dev/null >"$tmp/csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "win %s %d %d %d\n", $c["id"], $c["tla_delta_load"], $c["written_load"], $c["writes_n"] }' \
	"$tmp/csv" | sort >"$tmp/got"
nw=$(wc -l <"$tmp/expect")
if [ "$nw" -gt 0 ] && cmp -s "$tmp/expect" "$tmp/got"; then
	ok "analyzer-numa: $nw audit windows (d tg->load_avg, written deltas, writes) equal trace-cmd report's"
else
	not_ok "analyzer-numa: audit windows differ from trace-cmd report's"
	diff "$tmp/expect" "$tmp/got" | head -10 | sed 's/^/#   /'
fi
check "analyzer-numa: without snap_ns in its format, every audit window is placed by record time" \
	eval 'test $(awk -F, "NR > 1" "$tmp/csv" | wc -l) = $nw &&
	      test $(grep -c ",record$" "$tmp/csv") = $nw'

# ---- warnings ----
"$FAIRLAB" report "$DATA/analyzer-numa.dat" >/dev/null 2>"$tmp/err"; s=$?
check "analyzer-numa: no warning but that audits are placed approximately (no snap_ns)" \
	eval 'test $s = 0 && grep -q "carry no snap_ns" "$tmp/err" && test $(wc -l <"$tmp/err") = 1'
"$FAIRLAB" report "$DATA/analyzer-local-lossy.dat" >"$tmp/out" 2>"$tmp/err"; s=$?
check "lossy: exit 0 (warnings are not errors)" test $s = 0
check "lossy: lost events reported on stderr" grep -q "events lost in the ring buffer" "$tmp/err"
# the saved statistics count the same 4129 losses the records mark: one
# warning for one fact
n=$(grep -o -E "[0-9]+ events lost in the ring buffer" "$tmp/err" | grep -o -E "^[0-9]+")
check "lossy: the one loss warned once, not again from the saved statistics (${n:-?} events)" \
	eval 'test -n "$n" && test $(grep -c -w -- "$n" "$tmp/err") = 1'
check "lossy: local trace clock reported" grep -q "trace clock 'local' is not global" "$tmp/err"
check "lossy: warnings repeated in the text report" grep -q "warning: .*events lost" "$tmp/out"
"$FAIRLAB" report --json "$DATA/analyzer-local-lossy.dat" >"$tmp/out" 2>/dev/null
check "lossy: lost events counted in the JSON" \
	eval 'grep -q "\"lost_n\": [1-9]" "$tmp/out" && grep -q "\"clock_global\": false" "$tmp/out"'

# ---- the pipeline and the page-by-page reading change nothing ----
for f in "$DATA/analyzer-numa.dat" "$DATA/analyzer-local-lossy.dat" \
	 "$WORK/analyzer-numa.v6.dat" "$WORK/analyzer-local-lossy.v7raw.dat"; do
	same=1 pages=1
	for fmt in --json --csv --top=0; do
		"$FAIRLAB" report $fmt "$f" >"$tmp/thr" 2>"$tmp/thr.err"
		FAIRLAB_THREADS=0 "$FAIRLAB" report $fmt "$f" >"$tmp/inl" 2>"$tmp/inl.err"
		cmp -s "$tmp/thr" "$tmp/inl" && cmp -s "$tmp/thr.err" "$tmp/inl.err" &&
			test -s "$tmp/thr" || same=0
		FAIRLAB_PAGES=0 FAIRLAB_THREADS=0 "$FAIRLAB" report $fmt "$f" >"$tmp/rec" 2>"$tmp/rec.err"
		cmp -s "$tmp/thr" "$tmp/rec" && cmp -s "$tmp/thr.err" "$tmp/rec.err" || pages=0
	done
	check "$(basename "$f"): report identical read page by page and record by record" \
		test $pages = 1
	"$FAIRLAB" plot --gnuplot=true --bin=10 -o "$tmp/pt" "$f" >/dev/null 2>&1
	FAIRLAB_THREADS=0 "$FAIRLAB" plot --gnuplot=true --bin=10 -o "$tmp/pi" "$f" >/dev/null 2>&1
	for t in "$tmp"/pt/*.tsv; do
		cmp -s "$t" "$tmp/pi/$(basename "$t")" || same=0
	done
	check "$(basename "$f"): report and plot series identical with the engine on its own thread and inline" \
		test $same = 1
done
tap_end
