#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# List every Debian 12 kernel build of the series fairlab has ports for,
# from the apt package lists (run apt-get update first), one per line:
#
#   KREL  PKGVER  PORT  SRC(yes|no)  DBG(yes|no)
#
# KREL is the kernel release (6.1.0-57-amd64), PKGVER the Debian package
# version of its image (6.1.192-3), PORT the series' port directory under
# module/port/, SRC whether linux-headers-KREL and linux-source of that
# version are in the archive, DBG whether linux-image-KREL-dbg is.
#
#   scripts/port-builds.sh [PORT...]
#
# examples:
#   scripts/port-builds.sh 6.12
#   scripts/port-builds.sh | awk '$5 == "yes"'
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ports.sh"

case ${1:-} in -h|--help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
ports=("$@")
[ ${#ports[@]} -gt 0 ] || mapfile -t ports < <(fl_ready_ports)

# The release pattern of a port's series (6.1 -> 6.1.0-N-FLAVOUR,
# 6.12 -> 6.12.N+deb12-FLAVOUR).
pattern() {
	case $1 in
	6.1) echo '^linux-image-6\.1\.0-[0-9]+-(amd64|cloud-amd64|rt-amd64)$' ;;
	*) echo "^linux-image-${1//./\\.}\\.[0-9]+\\+deb12-(amd64|cloud-amd64|rt-amd64)\$" ;;
	esac
}
for p in "${ports[@]}"; do
	[ -f "$top/module/port/$p/kernel.conf" ] ||
		{ echo "port-builds: error: unknown port '$p'" >&2; exit 2; }
	srcpkg=$(fl_port_get "$p" KSRCPKG)
	mapfile -t imgs < <(apt-cache pkgnames linux-image- | grep -E "$(pattern "$p")" | sort -V)
	[ ${#imgs[@]} -gt 0 ] || continue
	# one madison call for every package of every build of the series
	pkgs=("$srcpkg")
	for i in "${imgs[@]}"; do
		k=${i#linux-image-}
		pkgs+=("$i" "linux-headers-$k" "$i-dbg")
	done
	apt-cache madison "${pkgs[@]}" 2>/dev/null |
	awk -F' *[|] *' -v src="$srcpkg" '
		{ sub(/^ +/, "", $1); have[$1 " " $2] = 1
		  if ($1 ~ /^linux-image-/ && $1 !~ /-dbg$/ && (!($1 in ver) || $2 > ver[$1])) ver[$1] = $2 }
		END {
			for (i in ver) {
				k = substr(i, 13); v = ver[i]
				s = (have["linux-headers-" k " " v] && have[src " " v]) ? "yes" : "no"
				d = have[i "-dbg " v] ? "yes" : "no"
				printf "%s\t%s\t%s\t%s\n", k, v, s, d
			}
		}' | sort -V | awk -v p="$p" -F'\t' '{ printf "%s\t%s\t%s\t%s\t%s\n", $1, $2, p, $3, $4 }'
done
