# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the build and test scripts: the ports (module/port/*/) and the
# kernel build each is written for (its kernel.conf).  Needs $top.
#
#   fl_ports                 port names (6.1 6.12), oldest first
#   fl_ready_ports           those with code (a port.c): the ones built and tested
#   fl_port_get PORT KEY     a key of the port's kernel.conf (KREL, KPKGVER, ...)
#   fl_port_of KREL          the ready port written for that release, or nothing
#   fl_kernel_krel KERNEL    a port name or a release -> the release, or nothing
#                            (any port: a port being written can be booted)
#   fl_supported             "6.1.0-57-amd64 (Debian 6.1.192-3), ..." (ready
#                            ports) for messages
#   fl_series_of KREL        the series (6.1, 6.12) of a Debian 12 release, or nothing
#   fl_build_row KREL        its line of module/port/*/builds.tsv, or nothing
#   fl_build_pkgver KREL     its Debian package version (builds.tsv, else the
#                            port's kernel.conf), or nothing
#   fl_headers_installed KREL PKGVER
#                            /usr/src/linux-headers-KREL if that package is
#                            installed at PKGVER, else nothing

fl_ports() {
	local c
	for c in "$top"/module/port/*/kernel.conf; do
		[ -f "$c" ] && basename "$(dirname "$c")"
	done | sort -V
}

fl_ready_ports() {
	local p
	for p in $(fl_ports); do
		[ -f "$top/module/port/$p/port.c" ] && echo "$p"
	done
	return 0
}

fl_port_get() { sed -n "s/^$2=//p" "$top/module/port/$1/kernel.conf"; }

fl_port_of() {
	local p
	for p in $(fl_ready_ports); do
		[ "$(fl_port_get "$p" KREL)" = "$1" ] && { echo "$p"; return 0; }
	done
	return 0
}

fl_kernel_krel() {
	local p
	if [ -f "$top/module/port/$1/kernel.conf" ]; then
		fl_port_get "$1" KREL
		return 0
	fi
	for p in $(fl_ports); do
		[ "$(fl_port_get "$p" KREL)" = "$1" ] && { echo "$1"; return 0; }
	done
	return 0
}

fl_supported() {
	local p out=
	for p in $(fl_ready_ports); do
		out="$out${out:+, }$(fl_port_get "$p" KREL) (Debian $(fl_port_get "$p" KPKGVER))"
	done
	echo "$out"
}

fl_series_of() {
	local s
	s=$(printf '%s\n' "$1" |
		sed -n 's/^\([0-9]*\.[0-9]*\)\.[0-9]*\(-[0-9]*\|+deb12\)-[a-z0-9-]*$/\1/p')
	[ -z "$s" ] || echo "$s"
}

fl_build_row() {
	local f
	for f in "$top"/module/port/*/builds.tsv; do
		[ -f "$f" ] || continue
		awk -F'\t' -v k="$1" '!/^#/ && $1 == k { print; exit }' "$f"
	done | head -n1
}

fl_build_pkgver() {
	local v p
	v=$(fl_build_row "$1" | cut -f2)
	if [ -z "$v" ]; then
		for p in $(fl_ports); do
			[ "$(fl_port_get "$p" KREL)" = "$1" ] && v=$(fl_port_get "$p" KPKGVER)
		done
	fi
	[ -z "$v" ] || echo "$v"
}

fl_headers_installed() {
	local d=/usr/src/linux-headers-$1
	[ "$(dpkg-query -W -f='${Status} ${Version}' "linux-headers-$1" 2>/dev/null)" = "install ok installed $2" ] &&
		grep -qs "^#define UTS_RELEASE \"$1\"\$" "$d/include/generated/utsrelease.h" &&
		echo "$d"
	return 0
}
