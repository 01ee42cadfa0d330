#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/fingerprint.py on the committed fixtures of tests/data/fingerprint/:
# a fingerprint is the sha256 of a function's C tokens (comments and
# whitespace do not count), a source with a known variant of one function
# is recognised as that variant, and a one-token change is refused, naming
# the function and the token.  No kernel source, no network.
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$top/tests/data/fingerprint
fp="python3 $top/scripts/fingerprint.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fingerprint.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fail=1; }

# 1. the hash is that of the normalised text, written out here by hand
want=$(printf '%s\n%s' \
	'static inline bool cfs_rq_is_decayed ( struct cfs_rq * cfs_rq ) { if ( cfs_rq -> load . weight ) return false ; return true ; }' \
	'static inline bool cfs_rq_is_decayed ( struct cfs_rq * cfs_rq ) { return true ; }' |
	sha256sum | cut -d' ' -f1)
got=$($fp "$d/ref" "$d/mirrors.txt" | awk '$2 == "cfs_rq_is_decayed" { print $3 }')
[ "$got" = "$want" ] && ok "fingerprint = sha256 of the tokens of every #if branch's definition" ||
	nok "cfs_rq_is_decayed: got $got, want $want"

# 2. comments and whitespace do not count (variant/ reformats cfs_rq_is_decayed)
a=$($fp "$d/ref" "$d/mirrors.txt" | grep cfs_rq_is_decayed)
b=$($fp "$d/variant" "$d/mirrors.txt" | grep cfs_rq_is_decayed)
[ -n "$a" ] && [ "$a" = "$b" ] && ok "comments and whitespace leave the fingerprint as it is" ||
	nok "reformatting changed the fingerprint: '$a' vs '$b'"

# 3. the reference is served by its own variants
out=$($fp "$d/ref" "$d/mirrors.txt" --known "$d/fingerprints.txt" --ref "$d/ref" 2>&1) &&
	[ "$(echo "$out" | awk '{ print $3 }' | sort -u)" = 6.1.192 ] &&
	ok "the reference source matches the reference variants" ||
	nok "reference: $out"

# 4. a known variant of one function is recognised as that variant
out=$($fp "$d/variant" "$d/mirrors.txt" --known "$d/fingerprints.txt" --ref "$d/ref" 2>&1) &&
	echo "$out" | grep -qx 'kernel/sched/fair.c update_tg_cfs_runnable 6.1.187' &&
	echo "$out" | grep -qx 'kernel/sched/fair.c cfs_rq_is_decayed 6.1.192' &&
	ok "a source with the 6.1.187 update_tg_cfs_runnable() is that variant" ||
	nok "variant: $out"

# 5. a one-token change is refused, and named
$fp "$d/changed" "$d/mirrors.txt" --known "$d/fingerprints.txt" --ref "$d/ref" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q 'cfs_rq_is_decayed() differs from every variant' "$tmp/err" &&
	grep -q 'line 24: `!` where the reference has `cfs_rq`' "$tmp/err" &&
	ok "a one-token change is the first difference: $(cat "$tmp/err")" ||
	nok "changed: rc=$rc, $(cat "$tmp/err")"

# 6. a function the source does not define is a difference too
printf 'kernel/sched/fair.c no_such_function\n' >"$tmp/m"
printf 'kernel/sched/fair.c no_such_function 6.1.192 0\n' >"$tmp/k"
$fp "$d/ref" "$tmp/m" --known "$tmp/k" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q 'no_such_function(): no definition' "$tmp/err" &&
	ok "a missing function is refused" || nok "missing: $(cat "$tmp/err")"
exit $fail
