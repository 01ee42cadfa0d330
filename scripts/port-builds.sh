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
ver_of() { apt-cache show "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n1; }
has() { [ -n "$(apt-cache madison "$1" 2>/dev/null | awk -v v="$2" '$3 == v')" ] && echo yes || echo no; }

for p in "${ports[@]}"; do
	[ -f "$top/module/port/$p/kernel.conf" ] ||
		{ echo "port-builds: error: unknown port '$p'" >&2; exit 2; }
	srcpkg=$(fl_port_get "$p" KSRCPKG)
	apt-cache pkgnames linux-image- | grep -E "$(pattern "$p")" | sort -V |
	while read -r pkg; do
		krel=${pkg#linux-image-}
		ver=$(ver_of "$pkg")
		[ -n "$ver" ] || continue
		src=no
		[ "$(has "linux-headers-$krel" "$ver")" = yes ] &&
			[ "$(has "$srcpkg" "$ver")" = yes ] && src=yes
		printf '%s\t%s\t%s\t%s\t%s\n' "$krel" "$ver" "$p" "$src" \
			"$(has "linux-image-$krel-dbg" "$ver")"
	done
done
