#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate module/port/<series>/builds.tsv: scripts/port-check.sh on every
# build of the archive of each port's series (make port-check-all).
#
#   scripts/port-check-all.sh [--no-dbg] [--only GLOB] [PORT...]
#
# --no-dbg: download no -dbg, run no surface.py (port-check.sh --no-dbg).
# --only GLOB: check only the builds whose release matches the shell
# pattern GLOB (e.g. '*-rt-amd64'); the other lines stay as they are.
# Prints a progress line per build (verdict, time, ETA).  Runs niced.  The
# vmlinux facts are cached in .cache/port-check/KREL/, so a second run only
# re-reads sources and recompiles one object per build; a table whose lines
# did not change is left as it is (the date in its header too).  A build
# port-check cannot decide (a download failed, say) is not served: its line
# says refused, the reason 'undecided: ' and port-check's error, how '-';
# the exit status is then 1.
#
# Table format (tab-separated, '#' lines are comments):
#   krel  pkgver  verdict(served|refused)  reason('-' or the first difference)
#   upstream  how(dbg|archive)  variants(FUNC=VERSION,... or -)
#   uts_version  sizes(FUNC=0xSIZE,... of the replaced functions)
#   writes(FUNC+0xOFF,... the tg->load_avg write sites)
#
# examples:
#   make port-check-all
#   scripts/port-check-all.sh 6.12
#   scripts/port-check-all.sh --only '*-rt-amd64'
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ports.sh"

nofetch=
only='*'
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sed -n '3,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--no-dbg) nofetch=--no-dbg; shift ;;
	--only) only=${2:?--only needs a pattern}; shift 2 ;;
	-*) echo "port-check-all: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
ports=("$@")
[ ${#ports[@]} -gt 0 ] || mapfile -t ports < <(fl_ready_ports)

# Order: builds without packages first (decided at once), then those whose
# vmlinux facts are cached, then the rest; the table is rewritten after
# each build, so an interrupted run leaves every decided line in it.
cache=${CACHE:-$top/.cache}
mapfile -t builds < <("$top/scripts/port-builds.sh" "${ports[@]}" |
	awk -F'\t' -v c="$cache/port-check/" '{
		f = c $1 "/layout.txt"
		k = ($4 == "no") ? 0 : ((getline _ < f) > 0 ? 1 : 2)
		close(f)
		print k "\t" $0 }' | sort -s -t$'\t' -k1,1n | cut -f2- |
	while IFS= read -r b; do
		# shellcheck disable=SC2053 # a pattern, by design
		[[ ${b%%$'\t'*} == $only ]] && echo "$b"
	done)
[ ${#builds[@]} -gt 0 ] || { echo "port-check-all: no builds in the package lists (apt-get update?)" >&2; exit 1; }
n=${#builds[@]}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one apt-cache call for the packages of every build
pk=()
for p in "${ports[@]}"; do pk+=("$(fl_port_get "$p" KSRCPKG)"); done
for b in "${builds[@]}"; do
	k=${b%%$'\t'*}
	pk+=("linux-image-$k" "linux-headers-$k" "linux-image-$k-dbg")
done
apt-cache madison "${pk[@]}" >"$tmp/madison" 2>/dev/null || true
export PORT_CHECK_MADISON=$tmp/madison
t0=$(date +%s)
status=0
# write_tables: every port's builds.tsv from the lines decided so far
write_tables() {
	local p f body served refused left
	for p in "${ports[@]}"; do
		f=$top/module/port/$p/builds.tsv
		[ -s "$tmp/$p.rows" ] || touch "$tmp/$p.rows"
		body=$tmp/$p.body
		{
			# builds not checked yet in this run keep their line of the old table
			left=
			for k in $(printf '%s\n' "${builds[@]:$i}" | awk -F'\t' -v p="$p" '$3 == p { print $1 }'); do
				awk -F'\t' -v k="$k" '!/^#/ && $1 == k' "$tmp/$p.old" | grep . || left="$left${left:+ }$k"
			done >"$tmp/$p.kept"
			[ -z "$left" ] || echo "# not checked yet (run interrupted): $left"
		} >"$body"
		{ sort -V "$tmp/$p.rows" "$tmp/$p.kept"; grep '^#' "$body" || true; } >"$body.2"
		mv -f "$body.2" "$body"
		if [ -f "$f" ] && diff -q <(grep -v '^# ' "$f" | grep -v '^#$') <(grep -v '^# ' "$body") >/dev/null &&
			! grep -qE '^# (undecided|not checked)' "$f"; then
			[ "$i" -lt "$n" ] || echo "port-check-all: $p: builds.tsv unchanged" >&2
			continue
		fi
		{
			cat <<-EOF
	# The Debian 12 kernel builds of series $p and whether port $p serves them,
	# decided by scripts/port-check.sh from each build's own packages.
	# Regenerate: make port-check-all   (last run $(date -u '+%Y-%m-%d %H:%M UTC'))
	# Columns (tab-separated): krel pkgver verdict reason upstream how variants
	# uts_version sizes writes (see scripts/port-check-all.sh --help).
	EOF
			cat "$body"
		} >"$f.tmp"
		mv -f "$f.tmp" "$f"
		served=$(awk -F'\t' '!/^#/ && $3 == "served"' "$f" | wc -l)
		refused=$(awk -F'\t' '!/^#/ && $3 == "refused"' "$f" | wc -l)
		[ "$i" -lt "$n" ] || echo "port-check-all: $p: $served served, $refused refused -> ${f#"$top"/}" >&2
	done
}

for p in "${ports[@]}"; do
	f=$top/module/port/$p/builds.tsv
	if [ -f "$f" ]; then grep -v '^#' "$f" >"$tmp/$p.old" || true; else : >"$tmp/$p.old"; fi
	# --only: the lines of the builds not checked now are kept
	while IFS= read -r line; do
		# shellcheck disable=SC2053
		[[ ${line%%$'\t'*} == $only ]] || echo "$line"
	done <"$tmp/$p.old" >"$tmp/$p.rows"
done
i=0
for b in "${builds[@]}"; do
	IFS=$'\t' read -r krel pkgver port _ _ <<<"$b"
	i=$((i + 1))
	ts=$(date +%s)
	if nice -n 10 "$top/scripts/port-check.sh" --row $nofetch "$krel" >"$tmp/row" 2>"$tmp/err" ||
		[ -s "$tmp/row" ]; then
		cat "$tmp/row" >>"$tmp/$port.rows"
		what=$(cut -f3,4 "$tmp/row" | tr '\t' ' ')
	else
		# a line all the same: refused, with port-check's reason (tabs out)
		what="undecided: $(tail -n1 "$tmp/err" | tr '\t' ' ')"
		printf '%s\t%s\trefused\t%s\t%s\t-\t-\t-\t-\t-\n' "$krel" "$pkgver" "$what" \
			"${pkgver%%-*}" >>"$tmp/$port.rows"
		what="refused $what"
		status=1
	fi
	now=$(date +%s)
	eta=$(( (now - t0) * (n - i) / i ))
	printf 'port-check-all: [%d/%d] %s: %s (%ds; ETA %dm%02ds)\n' "$i" "$n" "$krel" \
		"$what" $((now - ts)) $((eta / 60)) $((eta % 60)) >&2
	write_tables
done

exit $status
