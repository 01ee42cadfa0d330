#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The man pages (man/*.1, the one source of them) say what the tool does:
# every command of `fairlab --help` has a page fairlab-COMMAND.1 and every
# page a command; every long option a command's --help defines is in the
# OPTIONS section of its page, and every option that section lists is in
# --help; each page has the sections a user looks for, and groff reads it
# without a warning.  MAN_DIR (default man/) lets the test check a copy.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
need_built
man=${MAN_DIR:-$top/man}

# help_opts CMD: the long options --help defines (lines "  -x, --name ...")
help_opts() {
	"$FAIRLAB" "$1" --help 2>&1 |
		sed -n 's/^ \{2,\}\(-[A-Za-z], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' | sort -u
}
# man_opts PAGE: the long options of the tags (.TP) of its OPTIONS section
man_opts() {
	awk '/^\.SH /{ sec = $0; next }
	     sec == ".SH OPTIONS" && tp { print; tp = 0; next }
	     { tp = ($0 ~ /^\.TP/) }' "$1" |
		sed 's/\\-/-/g' | grep -o -E -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u
}

cmds=$("$FAIRLAB" --help 2>&1 | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | grep -v -x help)
check "fairlab --help lists commands" test -n "$cmds"
check "man/fairlab.1 exists" test -f "$man/fairlab.1"

for c in $cmds; do
	page=$man/fairlab-$c.1
	if [ ! -f "$page" ]; then
		not_ok "fairlab $c has a man page (fairlab-$c.1)"
		continue
	fi
	h=$(help_opts "$c")
	m=$(man_opts "$page")
	only_help=$(comm -23 <(echo "$h") <(echo "$m") | tr '\n' ' ')
	only_man=$(comm -13 <(echo "$h") <(echo "$m") | tr '\n' ' ')
	check "fairlab $c: --help defines options ($(echo $h | wc -w))" test -n "$h"
	check "fairlab $c: every --help option in fairlab-$c.1${only_help:+ (missing: $only_help)}" \
		test -z "$only_help"
	check "fairlab $c: every fairlab-$c.1 option in --help${only_man:+ (not in --help: $only_man)}" \
		test -z "$only_man"
done

for page in "$man"/fairlab-*.1; do
	c=$(basename "$page" .1); c=${c#fairlab-}
	check "fairlab-$c.1 documents a command of fairlab --help" \
		eval 'echo "$cmds" | grep -q -x "$c"'
done

for page in "$man"/*.1; do
	missing=
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT "EXIT STATUS" EXAMPLES; do
		grep -q -x "\.SH \"\{0,1\}$s\"\{0,1\}" "$page" || missing="$missing $s"
	done
	check "$(basename "$page"): sections NAME..EXAMPLES${missing:+ (missing:$missing)}" test -z "$missing"
	warn=$(groff -man -ww -z "$page" 2>&1)
	check "$(basename "$page"): groff reads it without warnings" test -z "$warn"
	[ -z "$warn" ] || note "$warn"
done
tap_end
