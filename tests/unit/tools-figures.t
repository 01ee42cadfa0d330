#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The figures of fairlab report --json agree with each other, on every
# committed recording (tests/data/*.dat), for the whole recording, every
# segment and every task group in them:
#  - shares error (bounded, % of tg->shares): p50 <= p99 <= max, mean <= max,
#    all within [0, 100];
#  - shares error relative to the ideal: p99 <= max, mean <= max;
#  - |E|: p99 <= max, mean <= max, and relative p99/mean <= its max;
#  - reads that do not add up are counted (read_mismatch_n) and warned of.
# The percentiles come from histograms: a bucket's edge capped at the max
# must never exceed it, and the max must include every value counted.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_json() {
	python3 - "$1" "$2" <<'PY'
import json, math, sys
name, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
bad = []
checked = 0

def num(v):
	return v is not None and not (isinstance(v, float) and math.isnan(v))

def le(where, a_key, b_key, m):
	a, b = m.get(a_key), m.get(b_key)
	if num(a) and num(b) and a > b * (1 + 1e-12) + 1e-12:
		bad.append("%s: %s %r > %s %r" % (where, a_key, a, b_key, b))

def one(where, m):
	global checked
	checked += 1
	for p in ("shares_err", "shares_err_rel"):
		le(where, p + "_p99_pct", p + "_max_pct", m)
		le(where, p + "_mean_pct", p + "_max_pct", m)
	le(where, "shares_err_p50_pct", "shares_err_p99_pct", m)
	for k in ("shares_err_max_pct", "shares_err_mean_pct", "shares_err_p50_pct",
		  "shares_err_p99_pct"):
		v = m.get(k)
		if num(v) and not 0 <= v <= 100:
			bad.append("%s: %s %r outside [0, 100]" % (where, k, v))
	le(where, "err_p99_load", "err_max_load", m)
	le(where, "err_mean_load", "err_max_load", m)
	le(where, "err_rel_p99_pct", "err_rel_max_pct", m)
	le(where, "err_rel_mean_pct", "err_rel_max_pct", m)

def seg(label, s):
	one(label, s["metrics"])
	for g in s.get("groups", []):
		# a group's relative |E| max is not in the table: its p99/mean
		# are checked against the segment's
		m = dict(g)
		m.setdefault("err_rel_max_pct", s["metrics"].get("err_rel_max_pct"))
		one("%s group %s" % (label, g["group"]), m)

for s in d["segments"]:
	seg("segment %d" % s["index"], s)
seg("total", d["total"])
for b in bad[:20]:
	print("#   " + b)
print("%d %d" % (checked, len(bad)))
PY
}

for f in "$DATA"/*.dat; do
	name=$(basename "$f")
	# the scheduler's own events only: no fairlab figures to check
	[ "$name" = sched-only.dat ] && continue
	if ! "$FAIRLAB" report --json "$f" >"$tmp/j" 2>"$tmp/e"; then
		not_ok "$name: report --json runs"
		sed 's/^/#   /' "$tmp/e"
		continue
	fi
	res=$(check_json "$name" "$tmp/j")
	sed -n '/^#/p' <<<"$res"
	set -- $(tail -n 1 <<<"$res")
	if [ "${2:-1}" = 0 ] && [ "${1:-0}" -gt 0 ]; then
		ok "$name: max >= p99 >= p50, mean <= max, bounded in [0, 100] ($1 scopes: segments, groups, total)"
	else
		not_ok "$name: the figures of a scope disagree (${2:-?} of ${1:-?})"
	fi
done

# A recording whose tg_read records do not add up: the reads' shares are
# rewritten by a hand-made record in the engine's unit test
# (analysis/test/test_engine.c, test_shares_bad_records); here the CLI
# side: the warning and the JSON counter on a real recording are 0/none.
f=$DATA/analyzer-policies.dat
"$FAIRLAB" report --json "$f" >"$tmp/j" 2>"$tmp/e"
check "analyzer-policies.dat: every read adds up (read_mismatch_n 0)" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["total"]["metrics"]["read_mismatch_n"] != 0)' "$tmp/j"
check "analyzer-policies.dat: no warning of reads left out" eval '! grep -q "do not add up" "$tmp/e"'
tap_end
