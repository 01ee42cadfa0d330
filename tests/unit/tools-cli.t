#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The fairlab CLI (ASan+UBSan build) on good and bad input: help and usage
# errors, and files that are missing, empty, not trace.dat, truncated,
# corrupt, or recorded without fairlab events must give a clear message on
# stderr and exit 1 -- never a crash, a sanitizer report or a hang.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
make_flavours
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out err=$tmp/err
ref=$DATA/analyzer-numa.dat

# ---- command line ------------------------------------------------------
run_fl "$out" "$err"; s=$?
check "no command: usage on stderr, exit 2" test $s = 2 -a -s "$err"
run_fl "$out" "$err" frobnicate; s=$?
check "unknown command: exit 2" eval 'test $s = 2 && grep -q "unknown command" "$err"'
for cmd in report compare plot; do
	run_fl "$out" "$err" $cmd --help; s=$?
	check "$cmd --help: exit 0 with examples and units" \
		eval 'test $s = 0 && grep -q "^examples:" "$out" && grep -q "$cmd" "$out"'
	run_fl "$out" "$err" help $cmd; s=$?
	check "help $cmd = $cmd --help" eval 'test $s = 0 && grep -q "^usage: fairlab $cmd" "$out"'
	run_fl "$out" "$err" $cmd --no-such-option; s=$?
	check "$cmd: unknown option exits 2" test $s = 2
done
run_fl "$out" "$err" report --json --csv "$ref"; s=$?
check "report --json --csv: exit 2" eval 'test $s = 2 && grep -q "exclude" "$err"'
run_fl "$out" "$err" report --table=nope --csv "$ref"; s=$?
check "report --table of no table: exit 2" test $s = 2
run_fl "$out" "$err" report --table=groups "$ref"; s=$?
check "report --table without --csv: exit 2, says why" \
	eval 'test $s = 2 && grep -q -- "--table.*needs --csv" "$err" && ! test -s "$out"'
run_fl "$out" "$err" report --json --table=groups "$ref"; s=$?
check "report --json --table: exit 2" test $s = 2
# --machine: the headline modeled cost is that machine's row of the table
# (each row pinned on a hand-worked sequence in analysis-coh.t); the
# default is spr; another name is a usage error
for m in "" spr milan; do
	run_fl "$out" "$err" report --json ${m:+--machine=$m} "$ref"; s=$?
	got=$(awk -F': ' '/"coh_cost_ns_per_s"/ { gsub(/,/, "", $2); print $2; exit }' "$out")
	want=$(awk -F': ' -v k="\"coh_cost_${m:-spr}_ns_per_s\"" '$1 ~ k { gsub(/,/, "", $2); print $2; exit }' "$out")
	check "report --machine=${m:-(default)}: coh_cost_ns_per_s = coh_cost_${m:-spr}_ns_per_s ($got)" \
		eval 'test $s = 0 -a -n "$got" && test "$got" = "$want"'
done
run_fl "$out" "$err" report --machine=milan "$ref"; s=$?
check "report --machine=milan: the text names the machine" \
	eval 'test $s = 0 && grep -q "modeled cost (--machine), 2-socket EPYC Milan" "$out"'
for cmd in report compare whatif; do
	run_fl "$out" "$err" $cmd --machine=vax "$ref" "$ref"; s=$?
	check "$cmd --machine=vax: exit 2, lists the machines" \
		eval 'test $s = 2 && grep -q "spr" "$err" && grep -q "milan" "$err"'
done
run_fl "$out" "$err" compare --machine=milan --csv "$ref" "$ref"; s=$?
check "compare --machine=milan: the headline cost row" \
	eval 'test $s = 0 && grep -q "^coh_cost_ns_per_s," "$out"'
run_fl "$out" "$err" report --csv --top=3 "$ref"; s=$?
check "report --csv --top: exit 2 (--top is for text)" \
	eval 'test $s = 2 && grep -q -- "--top" "$err"'
run_fl "$out" "$err" compare "$ref" -- "$ref" -- "$ref"; s=$?
check "compare A -- B -- C: exit 2, '--' twice" \
	eval 'test $s = 2 && grep -q "given twice" "$err" && ! test -s "$out"'
run_fl "$out" "$err" compare "$ref" -- "$ref" --json; s=$?
check "compare A -- B --json: exit 2, an option after '--'" \
	eval 'test $s = 2 && grep -q "options go before" "$err" && ! test -s "$out"'
run_fl "$out" "$err" report "$ref" "$ref"; s=$?
check "report takes one file: exit 2" test $s = 2
run_fl "$out" "$err" compare "$ref"; s=$?
check "compare with one file: exit 2" eval 'test $s = 2 && grep -q "BASE" "$err"'
run_fl "$out" "$err" plot "$ref"; s=$?
check "plot without -o: exit 2" eval 'test $s = 2 && grep -q -- "-o DIR" "$err"'

# ---- unreadable files ----------------------------------------------------
# expect_error NAME REGEX FILE: report exits 1 with REGEX on stderr, no sanitizer
expect_error() {
	run_fl "$out" "$err" report "$3"; _s=$?
	if [ $_s = 1 ] && grep -q -E "$2" "$err" && ! grep -q -E "$SAN_REPORT" "$err"; then
		ok "$1"
	else
		not_ok "$1: exit $_s"
		sed 's/^/#   /' "$err" | head -5
	fi
}
expect_error "missing file" "No such file" "$tmp/none.dat"
: >"$tmp/empty.dat"
expect_error "empty file" "empty file" "$tmp/empty.dat"
expect_error "directory" "is a directory" "$tmp"
# a FIFO blocks open() until a writer comes: refused before it is opened
# (timeout: without the check, report hangs for ever)
mkfifo "$tmp/fifo.dat"
timeout 20 "$FAIRLAB" report "$tmp/fifo.dat" >"$out" 2>"$err"; s=$?
check "FIFO: refused at once, not opened (exit $s)" \
	eval 'test $s = 1 && grep -q "not a regular file" "$err"'
for cmd in compare plot; do
	timeout 20 "$FAIRLAB" $cmd $([ $cmd = plot ] && echo "-o $tmp/fifo-plots") \
		"$tmp/fifo.dat" "$tmp/fifo.dat" >"$out" 2>"$err"; s=$?
	check "FIFO: $cmd refuses it too (exit $s)" \
		eval 'test $s = 1 && grep -q "not a regular file" "$err"'
done
rm -f "$tmp/fifo.dat"
printf 'hello\n' >"$tmp/text.dat"
expect_error "text file" "not a trace-cmd data file" "$tmp/text.dat"
head -c 5 "$ref" >"$tmp/short.dat"
expect_error "5-byte file" "not a trace-cmd data file" "$tmp/short.dat"
expect_error "recording without fairlab events" "no fairlab:\\* event formats" "$DATA/sched-only.dat"
expect_error "v6 recording without fairlab events" "no fairlab:\\* event formats" \
	"$WORK/sched-only.v6.dat"

# truncations of every flavour at 10 points: a clear error (exit 1), or,
# when the cut falls where no data is lost, a report (exit 0)
for f in "$ref" "$WORK/analyzer-numa.v6.dat" "$WORK/analyzer-numa.v7raw.dat"; do
	size=$(stat -c %s "$f")
	bad=0
	for pct in 1 3 10 25 40 55 70 85 95 99; do
		head -c $((size * pct / 100)) "$f" >"$tmp/cut.dat"
		timeout 120 "$FAIRLAB" report --json "$tmp/cut.dat" >"$out" 2>"$err"; s=$?
		if ! { [ $s = 1 ] && grep -q "truncated or corrupt" "$err"; } &&
		   ! { [ $s = 0 ] && ! grep -q -E "$SAN_REPORT" "$err"; }; then
			bad=$((bad + 1))
			note "$(basename "$f") cut at $pct%: exit $s: $(head -c 300 "$err")"
		fi
	done
	check "$(basename "$f"): 10 truncations, each a clear error or a report" test $bad = 0
done

# byte corruption: 40 deterministic variants per flavour (1 to 16 bytes
# overwritten at pseudo-random places); exit 0 or 1, nothing else
corrupt() { # SRC DST SEED: copy SRC with bytes overwritten
	cp "$1" "$2"
	local size n seed=$3 i pos
	size=$(stat -c %s "$1")
	n=$(( (seed % 4) * 5 + 1 ))
	for ((i = 0; i < n; i++)); do
		seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
		pos=$(( seed % size ))
		printf "\\x$(printf %02x $(( (seed >> 8) & 255 )))" |
			dd of="$2" bs=1 seek=$pos conv=notrunc status=none
	done
}
for f in "$ref" "$WORK/analyzer-numa.v6.dat" "$WORK/analyzer-numa.v7raw.dat"; do
	bad=0 errs=0
	for seed in $(seq 1 40); do
		corrupt "$f" "$tmp/bad.dat" $((seed * 7919))
		timeout 120 "$FAIRLAB" report --json "$tmp/bad.dat" >"$out" 2>"$err"; s=$?
		if [ $s != 0 ] && [ $s != 1 ] || grep -q -E "$SAN_REPORT" "$err"; then
			bad=$((bad + 1))
			cp "$tmp/bad.dat" "$WORK/crash-$(basename "$f" .dat)-$seed.dat"
			note "$(basename "$f") seed $seed: exit $s: $(grep -m3 -E 'ERROR|error' "$err")"
		fi
		[ $s = 1 ] && errs=$((errs + 1))
	done
	check "$(basename "$f"): 40 corruptions, no crash ($errs refused)" test $bad = 0
done

# A ring-buffer page crafted to make libtraceevent's kbuffer loop: the
# first event of CPU 0's first page (page header: 8-byte timestamp, 8-byte
# commit) rewritten.  A data event whose length word is -4 ends where it
# starts: kbuffer returns it again and again; a padding event of length -4
# makes kbuffer spin without returning anything.  Either must end in an
# error within the stall allowance (FAIRLAB_STALL_SECS=2, x6 at open).
v6=$WORK/analyzer-numa.v6.dat
page=$(trace-cmd report --stat -i "$v6" 2>/dev/null |
	awk '/^CPU0 data recorded at offset=/ { sub(/.*offset=/, ""); print; exit }')
page=$((page))
if [ "$page" -gt 0 ]; then
	# patch FILE OFFSET HEXBYTES...
	patch() { _f=$1 _o=$2; shift 2; printf "$(printf '\\x%s' "$@")" |
		dd of="$_f" bs=1 seek="$_o" conv=notrunc status=none; }
	cp "$v6" "$tmp/repeat.dat"
	patch "$tmp/repeat.dat" $((page + 16)) 00 00 00 00 fc ff ff ff
	start=$(date +%s)
	timeout 120 "$FAIRLAB" report "$tmp/repeat.dat" >"$out" 2>"$err"; s=$?
	check "record re-read forever: exit 1 with a message ($(($(date +%s) - start)) s)" \
		eval 'test $s = 1 && grep -q -E "more records than|no progress" "$err"'
	cp "$v6" "$tmp/spin.dat"
	patch "$tmp/spin.dat" $((page + 16)) 1d 00 00 00 fc ff ff ff
	start=$(date +%s)
	timeout 120 "$FAIRLAB" report "$tmp/spin.dat" >"$out" 2>"$err"; s=$?
	check "padding spun on forever: exit 1 with a message ($(($(date +%s) - start)) s)" \
		eval 'test $s = 1 && grep -q "no progress" "$err"'
else
	not_ok "CPU0 data offset of $v6 from trace-cmd report --stat"
fi

# ---- recordings cut with trace-cmd split ----------------------------------
# last_ts FILE [EVENT]: timestamp (s) of the last record (of fairlab:EVENT)
last_ts() {
	trace-cmd report -i "$1" 2>/dev/null |
		awk -v ev="${2:-}" 'match($0, / [0-9]+\.[0-9]+: [a-z_]+:/) {
			split(substr($0, RSTART + 1, RLENGTH - 2), a, ": ")
			if (ev == "" || a[2] == ev) t = a[1] } END { print t }'
}
# split_from FILE START OUT: the records from START (s) on, as trace-cmd split cuts them
split_from() {
	(cd "$tmp" && trace-cmd split -i "$1" -o split.dat "$2" >/dev/null 2>&1) &&
		mv "$tmp/split.dat.1" "$3"
}

# Cut after the cpu_topology records: nodes unknown, so cross-node figures
# are unknown (with a warning), never 0 -- nor -100% in compare.
t=$(last_ts "$ref" cpu_topology)
if [ -n "$t" ] && split_from "$ref" "$(awk -v t="$t" 'BEGIN { printf "%.6f", t + 0.000001 }')" \
	"$tmp/notopo.dat"; then
	run_fl "$out" "$err" report "$tmp/notopo.dat"; s=$?
	check "no cpu_topology: report warns that nodes are unknown" \
		eval 'test $s = 0 && grep -q "no cpu_topology record places" "$err"'
	# (segment 0 has writer switches: unknown; a segment without any has 0)
	check "no cpu_topology: cross-node switches 'unknown', not 0" \
		eval 'grep -m1 "cross-node switches (n)" "$out" | grep -q "unknown$"'
	run_fl "$out" "$err" report --csv --table=cpus "$tmp/notopo.dat"
	check "no cpu_topology: CPU nodes empty in CSV, not -1" \
		eval '! grep -q ",-1," "$out" && awk -F, "NR > 1 && \$6 != \"\" { bad++ } END { exit bad }" "$out"'
	run_fl "$out" "$err" compare "$ref" "$tmp/notopo.dat"; s=$?
	check "no cpu_topology: compare says unknown, not -100%" \
		eval 'test $s = 0 && grep -q "unknown *xnode_switches_n$" "$out" &&
		      ! grep "xnode_switches" "$out" | grep -q -- "-100"'
	# whatif, replaying as recorded, says what report says: unknown (null)
	# where report does, and the same transfers, all of unknown distance
	keys='"(xnode_switches_n|coh_transfers_n|coh_cost_ns_per_s)"'
	"$FAIRLAB" report --json "$tmp/notopo.dat" 2>/dev/null |
		awk '/^  "total": \{/ { on = 1 } on' | grep -E "$keys" | tr -d ' ,' |
		awk -F: '!($1 in seen) { seen[$1]; print }' >"$tmp/rep"
	"$FAIRLAB" whatif --json --policy=recorded "$tmp/notopo.dat" 2>/dev/null |
		grep -E "$keys" | tr -d ' ,' >"$tmp/wi"
	check "no cpu_topology: whatif as recorded = report: $(tr '\n' ' ' <"$tmp/rep")" \
		eval 'test "$(wc -l <"$tmp/rep")" = 3 && grep -qx "\"xnode_switches_n\":null" "$tmp/rep" &&
		      cmp -s "$tmp/rep" "$tmp/wi"'
else
	not_ok "a recording cut after its cpu_topology records (trace-cmd split)"
fi

# Cut after the last record: the fairlab formats, no record.  report says
# so; compare and plot refuse it (no rows of 'new', no gnuplot errors).
t=$(last_ts "$ref")
if [ -n "$t" ] && split_from "$ref" "$(awk -v t="$t" 'BEGIN { printf "%.6f", t + 1 }')" \
	"$tmp/norec.dat"; then
	run_fl "$out" "$err" report "$tmp/norec.dat"; s=$?
	check "no records: report says the recording holds no fairlab records" \
		eval 'test $s = 0 && grep -q "no fairlab records" "$out" && grep -q "holds no fairlab records" "$err"'
	run_fl "$out" "$err" compare "$ref" "$tmp/norec.dat"; s=$?
	check "no records: compare exits 1 saying so, no rows" \
		eval 'test $s = 1 && grep -q "holds no fairlab records" "$err" && ! grep -q " new " "$out"'
	run_fl "$out" "$err" plot -o "$tmp/norec-plots" "$tmp/norec.dat"; s=$?
	check "no records: plot exits 1 saying so, draws nothing" \
		eval 'test $s = 1 && grep -q "holds no fairlab records" "$err" &&
		      ! grep -q -i gnuplot "$err" && ! ls "$tmp/norec-plots"/*.png 2>/dev/null'
else
	not_ok "a recording cut after its last record (trace-cmd split)"
fi

# ---- good files ------------------------------------------------------------
run_fl "$out" "$err" report "$ref"; s=$?
check "report: exit 0, stderr only the audit placement warning (no snap_ns in this recording)" \
	eval 'test $s = 0 && test $(wc -l <"$err") = 1 && grep -q "carry no snap_ns" "$err"'
check "report: audit windows table" grep -q "^  Audit windows:" "$out"
check "report: a segment per policy" eval 'grep -q "Segment 3: tg policy budget:5, idlest policy nr_running" "$out"'
check "report: column headers carry units" eval 'grep -q "writes(1/s)" "$out" && grep -q "|E|mean(load)" "$out"'
run_fl "$out" "$err" report --json "$ref"; s=$?
if command -v python3 >/dev/null; then
	check "report --json: valid JSON with 4 segments and a total" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["segments"]) == 4 and d["total"]["metrics"]["attempts_n"] > 0' "$out"
fi
if command -v python3 >/dev/null; then
	# without tg_read records the coherence model sees writes only, but
	# for budget's own reads of tg->load_avg at each decision: a transfer
	# is then exactly a writer switch (a write by another CPU) in every
	# segment of another policy, and budget's segment has more
	check "report --json: without reads, modeled transfers == writer switches, per segment but budget's (more)" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); ss=d["segments"]; m=lambda s: s["metrics"]; b=[s for s in ss if s["tg_policy"].startswith("budget")]; assert all(m(s)["coh_transfers_n"] == m(s)["switches_n"] and m(s)["reads_n"] is None for s in ss if s not in b) and len(b) == 1 and m(b[0])["coh_transfers_n"] > m(b[0])["switches_n"] > 0' "$out"
fi
for t in summary groups cpus sites tg_policies idlest hist audit_windows; do
	run_fl "$out" "$err" report --csv --table=$t "$ref"; s=$?
	cols=$(head -1 "$out" | tr ',' '\n' | wc -l)
	uneven=$(awk -F, -v n="$cols" 'NF != n' "$out" | wc -l)
	check "report --csv --table=$t: rows as wide as the header ($cols)" \
		eval 'test $s = 0 && test $(wc -l <"$out") -gt 1 && test $uneven = 0'
done
run_fl "$out" "$err" compare "$ref" "$WORK/analyzer-numa.v6.dat"; s=$?
check "compare: the same recording twice changes nothing" \
	eval 'test $s = 0 && grep -q " writes_per_s$" "$out" &&
	      test $(grep -E "^ +[0-9]" "$out" | grep -v -c -- "+0.0%") = 0'
run_fl "$out" "$err" compare --csv "$ref" "$WORK/analyzer-numa.v6.dat" -- \
	"$DATA/analyzer-local-lossy.dat"; s=$?
check "compare --csv: 2 base runs, 1 new" \
	eval 'test $s = 0 && grep -q "^writes_per_s,.*,2,1$" "$out"'
run_fl "$out" "$err" compare --segment=9 "$ref" "$ref"; s=$?
check "compare --segment of a missing segment: exit 1" \
	eval 'test $s = 1 && grep -q "no segment 9" "$err"'
run_fl "$out" "$err" compare --json --segment=3 "$ref" "$DATA/analyzer-local-lossy.dat"; s=$?
check "compare --json --segment=3" eval 'test $s = 0 && grep -q "\"segment\": 3" "$out"'
run_fl "$out" "$err" compare "$ref" "$tmp/text.dat"; s=$?
check "compare with an unreadable file: exit 1" test $s = 1

if command -v gnuplot >/dev/null; then
	run_fl "$out" "$err" plot --json --bin=50 -o "$tmp/plots" "$ref" "$DATA/analyzer-local-lossy.dat"; s=$?
	check "plot: exit 0" test $s = 0
	good=1
	for p in analyzer-numa-error analyzer-numa-writes analyzer-local-lossy-error \
		 analyzer-local-lossy-writes analyzer-numa-switches analyzer-numa-hist \
		 analyzer-local-lossy-switches analyzer-local-lossy-hist \
		 analyzer-numa-shares analyzer-local-lossy-shares pareto; do
		head -c 4 "$tmp/plots/$p.png" 2>/dev/null | grep -q PNG || good=0
		grep -q "<svg" "$tmp/plots/$p.svg" 2>/dev/null || good=0
	done
	check "plot: PNG and SVG of error, writes/s, shares error, switch heat map, histograms and Pareto" test $good = 1
	# the heat map's cells add up to the writer switches report counts
	cells=$(awk '!/^#/ { for (i = 1; i <= NF; i++) n += $i } END { print n + 0 }' "$tmp/plots/analyzer-numa.switches.tsv")
	sw=$("$FAIRLAB" report --csv "$ref" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "switches_n") c = i; next } $2 == "all" { print $c }')
	check "plot: the heat map holds every writer switch ($cells cells, report: $sw)" \
		eval 'test -n "$sw" && test "$cells" = "$sw"'
	check "plot: a histogram block per segment (4)" \
		eval 'test $(grep -c "^upper_edge_load" "$tmp/plots/analyzer-numa.hist-err.tsv") = 4'
	check "plot: Pareto frontier files, and frontier flags in pareto.tsv" \
		eval 'test -s "$tmp/plots/pareto-front-e.tsv" && awk -F"\t" "!/^#/ && \$11 == 1 { n++ } END { exit !n }" "$tmp/plots/pareto.tsv"'
	check "plot --json: 8 Pareto points (4 segments x 2 files)" \
		eval 'test $(grep -c "\"writes_per_s\"" "$out") = 8'
	# the shares error is report's: per segment in pareto.tsv, and over
	# the whole recording in one time bin as wide as the recording
	pol=$DATA/analyzer-policies.dat
	"$FAIRLAB" report --json "$pol" >"$tmp/pol.json" 2>/dev/null
	run_fl "$out" "$err" plot --bin=1000000 -o "$tmp/plots4" "$pol"; s=$?
	check "plot: shares error per segment (pareto.tsv) and per bin (series.tsv) equal report's shares_err_mean_pct" \
		python3 - "$tmp/pol.json" "$tmp/plots4/pareto.tsv" "$tmp/plots4/analyzer-policies.series.tsv" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def close(a, b):
	return abs(a - b) <= 1e-5 * max(1.0, abs(b))
segs = {s["index"]: s["metrics"]["shares_err_mean_pct"] for s in d["segments"]}
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#")]
bad = 0
for r in rows:
	want, got = segs[int(r[1])], float(r[9])
	if want is None or (isinstance(want, float) and math.isnan(want)):
		bad += not math.isnan(got)
	else:
		bad += not close(got, want)
bins = [l.split("\t") for l in open(sys.argv[3]) if not l.startswith("#")]
total = d["total"]["metrics"]["shares_err_mean_pct"]
bad += len(bins) != 1 or not close(float(bins[0][7]), total)
print("# %d segments, %d bins, total %r, bin %s" % (len(rows), len(bins), total, bins[0][7] if bins else "-"))
sys.exit(bad != 0 or not rows)
PY
	run_fl "$out" "$err" plot --gnuplot=/bin/false -o "$tmp/plots" "$ref"; s=$?
	check "plot: a failing gnuplot is an error" test $s = 1
	# a gnuplot that opens its output and fails leaves an empty image: removed
	printf '#!/bin/sh\n: > pareto.png\nexit 1\n' >"$tmp/gp-fails"
	chmod +x "$tmp/gp-fails"
	run_fl "$out" "$err" plot --gnuplot="$tmp/gp-fails" -o "$tmp/plots2" "$ref"; s=$?
	check "plot: a failed gnuplot leaves no empty image" \
		eval 'test $s = 1 && ! test -e "$tmp/plots2/pareto.png"'
	# time bins: one that rounds to 0 ns, or below 1 us, is a usage error;
	# a million bins per recording at most (1 ns bins wrote 3.4 GB)
	for b in 0.0000001 0.0000005; do
		run_fl "$out" "$err" plot --bin=$b -o "$tmp/plots3" "$ref"; s=$?
		check "plot --bin=$b: exit 2, below the minimum" \
			eval 'test $s = 2 && grep -q "minimum" "$err" && ! test -e "$tmp/plots3"'
	done
	start=$(date +%s)
	timeout 120 "$FAIRLAB" plot --bin=0.001 -o "$tmp/plots3" "$ref" >"$out" 2>"$err"; s=$?
	check "plot --bin=0.001 on a 10 s recording: exit 1, too many bins, no data or image left ($(($(date +%s) - start)) s)" \
		eval 'test $s = 1 && grep -q "time bins" "$err" &&
		      test -z "$(ls "$tmp/plots3" | grep -v segments)"'
fi
tap_end
