#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# README.md's served-builds statement says what module/port/*/builds.tsv
# (make port-check-all) decided: "serves **N of the M**" counts its served
# lines and all its lines; the date beside it is the newest table's
# "last run" date; each series' row lists exactly the versions (the
# release without its flavour) with served builds, and, in its last cell,
# exactly those without; and the column's claim that each listed version
# is served in all three flavours (amd64, cloud-amd64, rt-amd64) holds.
# A self-test first runs the same comparison on copies of README.md with
# a version dropped, a count changed and a date changed: each must fail.
# Last, a note (not a check) names the archive's builds that no builds.tsv
# has decided yet, from the apt package lists.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/docs-builds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }

flavours="amd64 cloud-amd64 rt-amd64"

# key VERSION: what a README cell names a version by, its last number
# ("6.1.0-47" and "-47": 47; "6.12.118+deb12" and ".118+deb12": 118)
key() { sed -e 's/+deb12$//' -e 's/.*[^0-9]//'; }

# tables DIR: "series krel verdict" for every line of DIR/*/builds.tsv
tables() {
	local t
	for t in "$1"/*/builds.tsv; do
		awk -F'\t' -v s="$(basename "$(dirname "$t")")" \
			'!/^#/ && NF { print s, $1, $3 }' "$t"
	done
}

# newest DIR: the newest "last run YYYY-MM-DD" of DIR/*/builds.tsv
newest() {
	sed -n 's/.*(last run \([0-9-]*\) .*/\1/p' "$1"/*/builds.tsv | sort | tail -1
}

# cell README SERIES N: the keys named in field N of the series' row
cell() {
	awk -F'|' -v s="$2" -v n="$3" '$2 ~ "^ *" s " *$" { print $n; exit }' "$1" |
		grep -o '`[^`]*`' | tr -d '`' | key | sort -n | tr '\n' ' '
}

# verify README DIR: nothing when README's statement matches the tables,
# else one line per difference
verify() {
	local readme=$1 dir=$2 rows total served date s want got abi f n
	rows=$(tables "$dir")
	total=$(echo "$rows" | wc -l)
	served=$(echo "$rows" | awk '$3 == "served"' | wc -l)
	grep -q -F "serves **$served of the $total**" "$readme" ||
		echo "README does not say 'serves **$served of the $total**'"
	date=$(newest "$dir")
	grep -A1 -F "serves **" "$readme" | grep -q -F "($date)" ||
		echo "README's date is not the tables' last run ($date)"
	grep -q -F '`amd64`, `cloud-amd64` and `rt-amd64`' "$readme" ||
		echo "README's table does not say which flavours it lists"
	for s in $(echo "$rows" | awk '{ print $1 }' | sort -u); do
		# versions: the release without its flavour
		for abi in $(echo "$rows" | awk -v s="$s" '$1 == s { print $2 }' |
			sed -E 's/-(cloud-|rt-)?amd64$//' | sort -u); do
			n=0
			for f in $flavours; do
				echo "$rows" | grep -q -x -F "$s $abi-$f served" && n=$((n + 1))
			done
			case $n in
			0) echo "$abi" >>"$tmp/refused.$s" ;;
			3) echo "$abi" >>"$tmp/served.$s" ;;
			*) echo "$abi is served in $n of 3 flavours: README's rows cannot say so" ;;
			esac
		done
		want=$(key <"$tmp/served.$s" 2>/dev/null | sort -n | tr '\n' ' ')
		got=$(cell "$readme" "$s" 3)
		[ "$want" = "$got" ] ||
			echo "series $s: served per builds.tsv: ${want:-none}; README: ${got:-none}"
		want=$(key <"$tmp/refused.$s" 2>/dev/null | sort -n | tr '\n' ' ')
		got=$(cell "$readme" "$s" 4)
		[ "$want" = "$got" ] ||
			echo "series $s: refused per builds.tsv: ${want:-none}; README: ${got:-none}"
		rm -f "$tmp/served.$s" "$tmp/refused.$s"
	done
}

# self-test: each mutation of README.md must be caught
line=$(grep -n -m1 '^| 6\.1[2]* |' "$top/README.md" | cut -d: -f1)
if [ -z "$line" ]; then
	not_ok "README.md has a row per series"
else
	sed "${line}s/\`[^\`]*\`, //" "$top/README.md" >"$tmp/drop.md"
	out=$(verify "$tmp/drop.md" "$top/module/port")
	if [ -n "$out" ]; then ok "self-test: a version dropped from a row is caught"
	else not_ok "self-test: a version dropped from a row is caught"; fi
fi
sed -E 's/serves \*\*([0-9]+) of/serves **1\1 of/' "$top/README.md" >"$tmp/count.md"
out=$(verify "$tmp/count.md" "$top/module/port")
if [ -n "$out" ]; then ok "self-test: a wrong count is caught"
else not_ok "self-test: a wrong count is caught"; fi
sed -E '/serves \*\*/,+1s/\(20[0-9][0-9]-[0-9-]+\)/(1999-01-01)/' "$top/README.md" >"$tmp/date.md"
out=$(verify "$tmp/date.md" "$top/module/port")
if [ -n "$out" ]; then ok "self-test: a wrong date is caught"
else not_ok "self-test: a wrong date is caught"; fi

out=$(verify "$top/README.md" "$top/module/port")
if [ -z "$out" ]; then
	ok "README.md's served builds are builds.tsv's"
else
	not_ok "README.md's served builds are builds.tsv's"
	echo "$out" | sed 's/^/# /'
fi
# Not a check (the archive changes on its own schedule): the builds the
# apt package lists have that no builds.tsv has decided yet.
if command -v apt-cache >/dev/null; then
	new=$("$top/scripts/port-builds.sh" 2>/dev/null | cut -f1 |
		grep -v -x -F -f <(tables "$top/module/port" | awk '{ print $2 }') | tr '\n' ' ')
	[ -z "$new" ] ||
		echo "# the archive has builds no builds.tsv decides yet (make port-check-all): $new"
fi
echo "# $failed failed"
[ "$failed" -eq 0 ]
