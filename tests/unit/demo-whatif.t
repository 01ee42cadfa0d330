#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo's what-if validation (demo/whatif.sh) on real recordings of
# tests/data laid out as fairlab experiment leaves them: each replayed
# exactly under its own policy; the stock recording replayed under the
# live policies; a policy whose replay of every stock round takes every
# recorded decision (ratelimit:1000 on 6.12, where stock is the kernel's
# own 1 ms rate limit) labelled live against live, not a validation, and
# a policy that decides otherwise (relative:8) not.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rec=$tmp/rec res=$tmp/res
mkdir -p "$rec"
printf 'kind\tpolicy\tround\tfile\n' >"$rec/throughput.tsv"
for p in stock ratelimit:1000 relative:8; do
	f=tree3-$(echo "$p" | tr : -).dat
	cp "$DATA/$f" "$rec/$f"
	printf 'tg\t%s\t1\t%s\n' "$p" "$f" >>"$rec/throughput.tsv"
done
GNUPLOT=/nonexistent FAIRLAB=$FAIRLAB "$top/demo/whatif.sh" "$rec" "$res" >"$tmp/out" 2>"$tmp/err"
s=$?
check "whatif.sh: exit 0, no sanitizer report" eval 'test $s = 0 && ! grep -qE "$SAN_REPORT" "$tmp/err"'
check "whatif.sh: each recording exact under its own policy (3 of 3)" \
	grep -q "exact (every decision as recorded, fairlab report's figures) for 3 of 3 recordings" "$tmp/out"
# row POLICY: its line of the table
row() { awk -v p="$1" '$1 == p' "$tmp/out"; }
check "ratelimit:1000 on 6.12: the recorded stock decisions, live against live ($(row ratelimit:1000 | cut -c 1-60))" \
	eval 'row ratelimit:1000 | grep -q "= the recorded stock decisions (0 diverged.*not a validation"'
check "ratelimit:1000 predicted = stock measured, to the digit" \
	eval 'test "$(row ratelimit:1000 | awk "{ print \$6, \$7 }")" = "$(row stock | awk "{ print \$4, \$5 }")"'
check "relative:8 decides otherwise: not labelled ($(row relative:8 | cut -c 60-))" \
	eval 'row relative:8 | grep -q "one live round" && ! row relative:8 | grep -q "recorded stock decisions"'
tap_end
