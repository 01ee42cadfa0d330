#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each port replaces every patchable root of its kernel's patch surface:
# for every module/port/*/ with both port.c and surface.txt (made by
# scripts/surface.py, make surface), each "root NAME" line (a writer of
# tg->load_avg or update_pick_idlest() holder) and each "reader NAME" line
# (a reader of tg->load_avg) of surface.txt
# must be a vmlinux name in port.c's fl_port_funcs[] ({ "name", ... }
# entries, possibly wrapped).  A self-test first runs the same check on a
# copy of a port with one replaced name removed: it must fail, naming it.
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/port-surface.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# replaced PORT_C: the vmlinux names of fl_port_funcs[]'s initialiser, one
# a line (the first string after each "{" inside the array)
replaced() {
	awk '/fl_port_funcs\[\][[:space:]]*=/ { on = 1; next }
		on && /^};/ { on = 0 }
		on { s = s $0 "\n" }
		END {
			while (match(s, /\{[[:space:]]*"[^"]+"/)) {
				e = substr(s, RSTART, RLENGTH)
				sub(/^\{[[:space:]]*"/, "", e); sub(/"$/, "", e)
				print e
				s = substr(s, RSTART + RLENGTH)
			}
		}' "$1"
}

# missing PORT_C SURFACE: the roots of SURFACE that PORT_C does not replace
missing() {
	replaced "$1" | sort -u >"$tmp/have"
	awk '$1 == "root" || $1 == "reader" { print $2 }' "$2" | sort -u >"$tmp/need"
	comm -13 "$tmp/have" "$tmp/need"
}

# check NAME PORT_C SURFACE: ok, or not ok naming each missing root
check() {
	roots=$(awk '$1 == "root" || $1 == "reader"' "$3" | wc -l)
	if [ "$roots" -eq 0 ]; then
		echo "not ok - $1: $3 lists no root"
		return 1
	fi
	m=$(missing "$2" "$3" | tr '\n' ' ')
	if [ -z "$m" ]; then
		echo "ok - $1: replaces all $roots roots and readers of its surface"
	else
		echo "not ok - $1: does not replace $m(roots in ${3#$top/})"
		return 1
	fi
}

n=0
rc=0
for d in "$top"/module/port/*/; do
	[ -f "$d/port.c" ] && [ -f "$d/surface.txt" ] || continue
	n=$((n + 1))
	port=port/$(basename "$d")
	[ -n "$(replaced "$d/port.c")" ] ||
		{ echo "not ok - $port: no fl_port_funcs[] entries parsed from port.c"; rc=1; continue; }
	check "$port" "$d/port.c" "$d/surface.txt" || rc=1

	# self-test: drop the first root the port replaces (its whole
	# initialiser line) from a copy; the check must now fail naming it
	victim=$(awk '$1 == "root" { print $2 }' "$d/surface.txt" | while read -r r; do
		replaced "$d/port.c" | grep -qx "$r" && { echo "$r"; break; }; done)
	[ -n "$victim" ] || continue
	sed "/{ \"$victim\"/d" "$d/port.c" >"$tmp/port.c"
	if out=$(check "$port-minus-$victim" "$tmp/port.c" "$d/surface.txt") ||
		! echo "$out" | grep -q " $victim "; then
		echo "not ok - $port self-test: removing $victim was not caught ($out)"
		rc=1
	else
		echo "ok - $port self-test: a port without $victim fails"
	fi
done
[ "$n" -gt 0 ] || { echo "not ok - no module/port/*/ with port.c and surface.txt"; exit 1; }
exit $rc
