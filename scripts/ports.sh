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
#   fl_supported [PKGVER...] "6.1.0-47, ... (amd64, cloud-amd64, rt-amd64),
#                            39 in all": the builds the ready ports serve
#                            (module/port/*/builds.tsv; of those package
#                            versions), for messages
#   fl_served_abis [PKGVER...]
#                            one line per served version: "6.1.0-47 (Debian
#                            6.1.170-3): amd64 cloud-amd64 rt-amd64"
#   fl_series_of KREL        the series (6.1, 6.12) of a Debian 12 release, or nothing
#   fl_build_row KREL        its line of module/port/*/builds.tsv, or nothing
#   fl_build_pkgver KREL     its Debian package version (builds.tsv, else the
#                            port's kernel.conf), or nothing
#   fl_headers_installed KREL PKGVER
#                            /usr/src/linux-headers-KREL if that package is
#                            installed at PKGVER, else nothing
#   fl_kdir KREL             the headers to build against: installed ones of
#                            the same version, else those scripts/fetch-build.sh
#                            unpacked in $CACHE; nothing if neither
#   fl_served PORT           the builds PORT serves: its kernel.conf's and
#                            every "served" line of its builds.tsv
#   fl_refusal KREL          nothing if a ready port serves KREL, else one
#                            line saying why not and what is served nearest
#   fl_build_writes KREL     the tg->load_avg write sites (FUNC+0xOFF, one a
#                            line) of its builds.tsv line (10th column,
#                            "writes"); nothing if none
#   fl_smoke_build PORT      the one more build make check smoke-tests: a
#                            served build in a flavour the port's own build
#                            is not (its ABI's cloud-amd64 first), or nothing

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
	# any other build of a series that has a port (served or not: the
	# caller decides)
	p=$(fl_series_of "$1")
	[ -z "$p" ] || [ ! -f "$top/module/port/$p/kernel.conf" ] || echo "$1"
	return 0
}

fl_supported() {
	fl_served_abis "$@" | awk '
		{ v = $1; f = $4; for (i = 5; i <= NF; i++) f = f ", " $i
		  n += NF - 3
		  if (!(f in list)) order[nf++] = f
		  list[f] = list[f] (list[f] == "" ? "" : ", ") v }
		END { for (i = 0; i < nf; i++)
			printf "%s%s (%s)", i ? "; " : "", list[order[i]], order[i]
		      printf "%s%d in all\n", nf ? ", " : "", n }'
}

fl_served_abis() {
	local p
	for p in $(fl_ready_ports); do
		fl_served "$p" | while read -r k; do
			printf '%s\t%s\n' "$k" "$(fl_build_pkgver "$k")"
		done
	done | awk -F'\t' -v want=" $* " '
		want != "  " && index(want, " " $2 " ") == 0 { next }
		{ v = $1; f = v
		  sub(/-(cloud-|rt-)?amd64$/, "", v); f = substr(f, length(v) + 2)
		  if (!(v in fl)) { order[n++] = v; pv[v] = $2 }
		  fl[v] = fl[v] " " f }
		END { for (i = 0; i < n; i++) {
			v = order[i]; m = split(fl[v], a, " "); s = ""
			for (j = 1; j <= 3; j++) {
				x = j == 1 ? "amd64" : j == 2 ? "cloud-amd64" : "rt-amd64"
				for (k = 1; k <= m; k++) if (a[k] == x) s = s " " x
			}
			print v, "(Debian " pv[v] "):" s } }' | sort -V
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

fl_kdir() {
	local v d
	v=$(fl_build_pkgver "$1")
	if [ -n "$v" ]; then
		d=$(fl_headers_installed "$1" "$v")
		[ -z "$d" ] || { echo "$d"; return 0; }
	fi
	d=${CACHE:-$top/.cache}/headers-$1
	[ -f "$d/.fairlab-headers" ] && { [ -z "$v" ] || [ "$(cat "$d/.fairlab-headers")" = "$v" ]; } &&
		echo "$d/usr/src/linux-headers-$1"
	return 0
}

fl_served() {
	local f=$top/module/port/$1/builds.tsv
	{
		fl_port_get "$1" KREL
		[ ! -f "$f" ] || awk -F'\t' '!/^#/ && $3 == "served" { print $1 }' "$f"
	} | awk '!seen[$0]++'
}

# fl_nearest_port KREL: the ready port whose series is closest to KREL's
fl_nearest_port() {
	local s
	s=$(printf '%s\n' "$1" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	fl_ready_ports | awk -v s="${s:-0.0}" '
		function key(v,  a) { split(v, a, "."); return a[1] * 1000 + a[2] }
		{ d = key($1) - key(s); if (d < 0) d = -d
		  if (best == "" || d < bd) { best = $1; bd = d } }
		END { if (best != "") print best }'
}

fl_refusal() {
	local p row verdict reason near
	p=$(fl_series_of "$1")
	if [ -z "$p" ] || [ ! -f "$top/module/port/$p/port.c" ]; then
		near=$(fl_nearest_port "$1")
		if [ -n "$p" ] && [ -f "$top/module/port/$p/kernel.conf" ]; then
			echo "the port for kernel $1 (module/port/$p/) has no code yet (no port.c); served builds of $near: $(fl_served "$near" | paste -sd' ')"
		else
			echo "no port for kernel $1; served builds of the nearest series $near: $(fl_served "$near" | paste -sd' ')"
		fi
		return 0
	fi
	[ "$(fl_port_get "$p" KREL)" = "$1" ] && return 0
	row=$(fl_build_row "$1")
	verdict=$(printf '%s' "$row" | cut -f3)
	reason=$(printf '%s' "$row" | cut -f4)
	case $verdict in
	served) return 0 ;;
	refused) echo "kernel $1 is refused by port $p: $reason; served builds of $p: $(fl_served "$p" | paste -sd' ')" ;;
	*) echo "kernel $1 is not in module/port/$p/builds.tsv (never checked: make port-check KREL=$1); served builds of $p: $(fl_served "$p" | paste -sd' ')" ;;
	esac
}

fl_smoke_build() {
	local ref abi fl
	ref=$(fl_port_get "$1" KREL)
	abi=$(printf '%s\n' "$ref" | sed -n 's/^\([0-9.]*\(-[0-9]*\|+deb12\)\)-.*/\1/p')
	fl=${ref#"$abi"-}
	fl_served "$1" | awk -v abi="$abi" -v fl="$fl" '
		{ f = $0; sub(/^[0-9.]*(-[0-9]*|\+deb12)-/, "", f) }
		f == fl { next }
		$0 == abi "-cloud-amd64" { same = $0 }
		{ other[n++] = $0 }
		END {
			if (same != "") { print same; exit }
			for (i = 0; i < n; i++)
				if (other[i] ~ /-cloud-amd64$/) { print other[i]; exit }
			if (n) print other[0]
		}'
}

fl_build_writes() {
	fl_build_row "$1" | awk -F'\t' '{ m = split($10, w, /[ ,]+/)
		for (i = 1; i <= m; i++)
			if (w[i] ~ /^[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-fA-F]+$/) print w[i] }'
}
