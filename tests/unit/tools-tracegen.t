#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fl-tracegen (tools/tracegen/), ASan+UBSan builds of it and of fairlab:
#  - tests/data/analyzer-policies.dat scaled 2x in CPUs and 3x in time,
#    as trace.dat v6 and v7 zstd: trace-cmd report reads every record
#    (6 x the source's) with exit 0 and reports the scaled CPU count;
#  - the same from analyzer-numa.dat (an older tg_audit format, 8 CPUs);
#  - `fairlab report --json` on each: every count of the whole trace
#    (records, attempts, writes, reads, switches, audits, warnings' counts)
#    is exactly 6 x the source's, the ratios of counts (write%, switch%,
#    pick_idlest picked%, transfers caused by reads) equal the source's:
#    each copy holds the source's records with its own groups and CPUs, so
#    numerator and denominator both scale by 6; the segments are the
#    source's policy sequence 3 times, each segment's counts 2 x the
#    source segment's (records_n and groups_n aside: the copies'
#    policy_switch records fall on both sides of a boundary, and groups
#    of earlier repetitions stay known), its ratios the source's;
#  - the warnings are the source's, their counts x 6: no new warning, no
#    read mismatch, contrib jump or out-of-order record the source lacks;
#  - a file that is no trace.dat, a truncated one, a recording without
#    fairlab events and bad options: an error on stderr, a non-zero exit
#    (2 for usage), no sanitizer report, no output file left.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
GEN=${FL_TRACEGEN:-$top/build/asan/fl-tracegen}
if [ ! -x "$GEN" ]; then
	not_ok "$GEN is built (run make)"
	exit 1
fi
src=$DATA/analyzer-policies.dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FAIRLAB" report --json "$src" >"$tmp/src.json" 2>"$tmp/src.err" ||
	not_ok "fairlab report reads the source"
src_n=$(trace-cmd report -i "$src" 2>/dev/null | grep -c -v '^cpus=')

# compare SRC.json BIG.json LABEL [SEGMENTS]: BIG (2 x CPUs, 3 x time)
# against SRC; each segment too unless SEGMENTS is 0
compare() {
	python3 - "$1" "$2" "$3" "${4:-1}" <<'PY' || tap_failed=$((tap_failed + 1))
import json, re, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2])); fmt = sys.argv[3]
K, R = 2, 3
failed = 0
def res(ok, name):
    global failed
    failed += not ok
    print(("ok - " if ok else "not ok - ") + fmt + ": " + name)
ta, tb = a["total"], b["total"]
bad = [k for sec in ("metrics", "audit") for k in ta[sec]
       if k.endswith("_n") and ta[sec][k] is not None and tb[sec][k] != K * R * ta[sec][k]]
rec = b["recording"]
want = (6, None) if "v6" in fmt else (7, "zstd")
res((rec["file_version"], rec["compression"]) == want and rec["cpus_n"] == K * a["recording"]["cpus_n"]
    and rec["clock"] == a["recording"]["clock"],
    "trace.dat version %d, compression %s, %d CPUs, the source's clock: %s" % (want[0], want[1], K * a["recording"]["cpus_n"], rec))
res(not bad, "every count of the whole trace is 6 x the source's %s" % bad)
bad = [k for k in ("all_n", "fairlab_n", "short_n", "lost_n", "overrun_n")
       if b["records"][k] != K * R * a["records"][k]]
res(not bad and b["records"]["segments_n"] == R * a["records"]["segments_n"],
    "records 6 x, segments 3 x the source's %s" % bad)
ratios = ("skip_pct", "switch_pct", "idlest_picked_pct", "coh_by_read_pct")
def differ(x, y):
    return (x is None) != (y is None) or (x is not None and abs(x - y) > 1e-9)
bad = [k for k in ratios if differ(ta["metrics"][k], tb["metrics"][k])]
res(not bad, "whole-trace ratios equal the source's %s" % bad)
sa, sb = a["segments"], b["segments"]
bad = []
for i, s in enumerate(sb):
    t = sa[i % len(sa)]
    if (s["tg_policy"], s["idlest_policy"]) != (t["tg_policy"], t["idlest_policy"]):
        bad.append((i, "policy"))
        continue
    bad += [(i, k) for k in t["metrics"] if k.endswith("_n") and
            k not in ("records_n", "groups_n") and t["metrics"][k] is not None and
            s["metrics"][k] != K * t["metrics"][k]]
    bad += [(i, k) for k in ratios if differ(s["metrics"][k], t["metrics"][k])]
if sys.argv[4] == "1":
  res(not bad and len(sb) == R * len(sa),
      "each segment: the source's policy, 2 x its counts, its ratios %s" % bad[:5])
def norm(ws):
    return sorted(re.sub(r"^\d+ ", "N ", w) for w in ws)
def counts(ws):
    return sorted(int(w.split()[0]) for w in ws if re.match(r"^\d+ ", w))
res(norm(a["warnings"]) == norm(b["warnings"]) and
    counts(b["warnings"]) == [K * R * c for c in counts(a["warnings"])],
    "the source's warnings, their counts x 6, no other: %s" % b["warnings"])
sys.exit(1 if failed else 0)
PY
}

for fmt in v6 v7; do
	out=$tmp/big.$fmt.dat
	"$GEN" -k 2 -r 3 -f "$fmt" "$src" -o "$out" >"$tmp/gen.out" 2>"$tmp/gen.err"
	st=$?
	check "$fmt: fl-tracegen exits 0" test "$st" -eq 0
	check "$fmt: fl-tracegen prints nothing on stdout" test ! -s "$tmp/gen.out"
	check "$fmt: no sanitizer report" bash -c "! grep -E -q '$SAN_REPORT' '$tmp/gen.err'"

	trace-cmd report -i "$out" >"$tmp/tc.out" 2>"$tmp/tc.err"
	check "$fmt: trace-cmd report exits 0" test $? -eq 0
	n=$(grep -c -v '^cpus=' "$tmp/tc.out")
	check "$fmt: trace-cmd report reads 6 x the source's records ($n = 6 x $src_n)" \
		test "$n" -eq $((6 * src_n))
	check "$fmt: trace-cmd report sees 8 CPUs" grep -q -x 'cpus=8' "$tmp/tc.out"

	"$FAIRLAB" report --json "$out" >"$tmp/big.json" 2>"$tmp/big.err"
	check "$fmt: fairlab report exits 0" test $? -eq 0
	check "$fmt: fairlab report: no sanitizer report" \
		bash -c "! grep -E -q '$SAN_REPORT' '$tmp/big.err'"
	compare "$tmp/src.json" "$tmp/big.json" "$fmt"
done

# An older module's recording (tg_audit without snap_ns), 8 CPUs on two
# nodes, an unpatch: the same, v6 only, the whole trace: its records
# before its first policy_switch fall, in the later repetitions, into the
# segment of the repetition before (its last policy), so its segments do
# not each scale.
numa=$DATA/analyzer-numa.dat
"$FAIRLAB" report --json "$numa" >"$tmp/nsrc.json" 2>/dev/null
"$GEN" -q -k 2 -r 3 -f v6 "$numa" -o "$tmp/numa.dat" 2>"$tmp/gen.err"
check "numa: fl-tracegen exits 0" test $? -eq 0
"$FAIRLAB" report --json "$tmp/numa.dat" >"$tmp/nbig.json" 2>"$tmp/big.err"
check "numa: fairlab report: no sanitizer report" \
	bash -c "! grep -E -q '$SAN_REPORT' '$tmp/big.err'"
compare "$tmp/nsrc.json" "$tmp/nbig.json" "numa v6" 0

# --same-groups: repetitions reuse their copy's groups, so the whole
# trace holds K x the source's groups (not K x R x), with K x R x its
# records; without it, each (k, r) has its own (compare() above).
"$GEN" -q -g -k 2 -r 3 -f v6 "$src" -o "$tmp/same.dat" 2>"$tmp/gen.err"
check "--same-groups: fl-tracegen exits 0" test $? -eq 0
check "--same-groups: no sanitizer report" bash -c "! grep -E -q '$SAN_REPORT' '$tmp/gen.err'"
"$FAIRLAB" report --json "$tmp/same.dat" >"$tmp/same.json" 2>"$tmp/same.err"
check "--same-groups: fairlab report exits 0" test $? -eq 0
check "--same-groups: fairlab report: no sanitizer report" \
	bash -c "! grep -E -q '$SAN_REPORT' '$tmp/same.err'"
python3 - "$tmp/src.json" "$tmp/same.json" <<'PY' || tap_failed=$((tap_failed + 1))
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
ga, gb = a["total"]["metrics"]["groups_n"], b["total"]["metrics"]["groups_n"]
ok = ga > 0 and gb == 2 * ga
print(("ok - " if ok else "not ok - ") +
      "--same-groups -k 2 -r 3: %d groups, 2 x the source's %d" % (gb, ga))
ra, rb = a["records"]["fairlab_n"], b["records"]["fairlab_n"]
ok2 = rb == 6 * ra
print(("ok - " if ok2 else "not ok - ") +
      "--same-groups -k 2 -r 3: %d fairlab records, 6 x the source's %d" % (rb, ra))
sys.exit(0 if ok and ok2 else 1)
PY

# The figures do not depend on the format written.
"$FAIRLAB" report "$tmp/big.v6.dat" 2>/dev/null | sed 1,2d >"$tmp/r6"
"$FAIRLAB" report "$tmp/big.v7.dat" 2>/dev/null | sed 1,2d >"$tmp/r7"
check "v6 and v7 give the same report" cmp -s "$tmp/r6" "$tmp/r7"

# bad_input NAME FILE ARGS...: an error on stderr, exit 1, no output left
bad_input() {
	local name=$1 f=$2
	shift 2
	rm -f "$tmp/bad.dat"
	"$GEN" "$@" "$f" -o "$tmp/bad.dat" >/dev/null 2>"$tmp/bad.err"
	st=$?
	check "$name: exit 1 ($st)" test "$st" -eq 1
	check "$name: an fl-tracegen error on stderr" grep -q '^fl-tracegen: ' "$tmp/bad.err"
	check "$name: no sanitizer report" bash -c "! grep -E -q '$SAN_REPORT' '$tmp/bad.err'"
	check "$name: no output file" test ! -e "$tmp/bad.dat"
}
head -c 100000 /dev/urandom >"$tmp/random.dat"
bad_input "random bytes" "$tmp/random.dat"
head -c 20000 "$src" >"$tmp/trunc.dat"
bad_input "a truncated recording" "$tmp/trunc.dat"
bad_input "no fairlab events" "$DATA/sched-only.dat"
bad_input "a missing file" "$tmp/none.dat"

"$GEN" -k 0 "$src" -o "$tmp/x.dat" >/dev/null 2>"$tmp/u.err"
check "--cpu-copies 0: usage error, exit 2" test $? -eq 2
check "--cpu-copies 0: says why" grep -q 'cpu-copies' "$tmp/u.err"
"$GEN" -f v5 "$src" -o "$tmp/x.dat" >/dev/null 2>&1
check "--format v5: exit 2" test $? -eq 2
"$GEN" "$src" >/dev/null 2>&1
check "no --output: exit 2" test $? -eq 2
"$GEN" --help >"$tmp/help" 2>&1
check "--help: exit 0 with examples" grep -q '^Examples:' "$tmp/help"
tap_end
