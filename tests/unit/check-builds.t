#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/check-builds.sh's queue, without a VM: builds the ports refuse
# (module/port/*/builds.tsv: no headers or source in the archive) end at
# their preparation, so a run of them exercises the workers, the queue,
# the progress lines and the table in seconds.  With -j 2 and 5 builds:
# every build appears once in the table, in the order given; the progress
# lines count 1..5, each once (the count is taken under the queue's lock);
# the summary names 5 failed and 2 workers; the exit status is 1 (a
# refused build is a failure).  -j 0 and an unknown option are usage
# errors (exit 2).  Needs no network and no root.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

failed=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; failed=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# five builds the ports refuse, in the order given to the run
mapfile -t builds < <(awk -F '\t' '$3 == "refused" && $4 ~ /archive/ { print $1 }' module/port/*/builds.tsv | head -n 5)
if [ ${#builds[@]} -ne 5 ]; then
	nok "five refused builds in module/port/*/builds.tsv (found ${#builds[@]})"
	exit 1
fi

FAIRLAB_CHECK_BUILDS_OUT=$tmp/out tests/vm/check-builds.sh -j 2 "${builds[@]}" >"$tmp/log" 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok "refused builds: exit 1" || nok "refused builds: exit $rc, not 1"

# the table: the rows after the header, one per build, in the given order
rows=$(awk '/^build  / { t = 1; next } t && /^#/ { t = 0 } t && NF { print $1 }' "$tmp/log")
want=$(printf '%s\n' "${builds[@]}")
[ "$rows" = "$want" ] && ok "table: every build once, in the given order" ||
	nok "table rows: $(echo $rows) (wanted $(echo $want))"
awk '/^build  / { t = 1; next } t && /^#/ { t = 0 } t && NF && $2 != "refused" { bad = 1 } END { exit bad }' "$tmp/log" &&
	ok "table: each build refused" || nok "table: a build not marked refused"

prog=$(sed -n 's/^check-builds: \[\([0-9]*\)\/5\].*/\1/p' "$tmp/log" | sort -n | tr '\n' ' ')
[ "$prog" = "1 2 3 4 5 " ] && ok "progress lines count 1..5, each once" || nok "progress counts: '$prog'"
grep -q '^# 5 builds, 0 clean, 5 failed; 2 worker(s);' "$tmp/log" && ok "summary: 5 failed on 2 workers" ||
	nok "summary: $(grep '^# [0-9]* builds' "$tmp/log")"
[ "$(grep -c '^# FAILED .*not served' "$tmp/log")" -eq 5 ] && ok "a FAILED line per build" || nok "FAILED lines: $(grep -c '^# FAILED' "$tmp/log")"
left=$(find "$tmp/out" -maxdepth 1 -name '.run.*')
[ -z "$left" ] && ok "the queue's directory is removed" || nok "queue directory left: $left"

# one worker: the same table
FAIRLAB_CHECK_BUILDS_OUT=$tmp/out1 tests/vm/check-builds.sh "${builds[@]}" >"$tmp/log1" 2>&1
rows1=$(awk '/^build  / { t = 1; next } t && /^#/ { t = 0 } t && NF { print $1 }' "$tmp/log1")
[ "$rows1" = "$want" ] && grep -q '; 1 worker(s);' "$tmp/log1" && ok "one worker: the same table" || nok "one worker: rows $(echo $rows1)"

for bad in "-j 0" "-j x" "--frobnicate"; do
	# shellcheck disable=SC2086
	FAIRLAB_CHECK_BUILDS_OUT=$tmp/out2 tests/vm/check-builds.sh $bad "${builds[0]}" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && ok "'$bad': usage error (exit 2, a message)" || nok "'$bad': exit $rc"
done
exit $failed
