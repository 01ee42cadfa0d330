#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate module/port/<PORT>/surface.txt: the patch surface of a port's
# kernel build, derived by scripts/surface.py from the build's debug vmlinux.
#
#   scripts/surface.sh [PORT...]        (make surface [KERNEL=PORT])
#
# PORT is a directory name under module/port/ (6.1, 6.12); default: all of
# the builds below.  Fetches linux-image-<KREL>-dbg=<VERSION> into
# .cache/deb/ on demand (about 1 GB each: not part of make deps, and CI
# uses the committed surface.txt), extracts only its vmlinux into
# .cache/dbg/, and installs the script's tools (python3-pyelftools,
# binutils) with apt-get when missing.  About 1-2 minutes per build.
#
# examples:
#   make surface KERNEL=6.12
#   scripts/surface.sh 6.1 6.12 && git diff --stat module/port
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-$top/.cache}

# port -> "kernel release  Debian package version" of the build it targets
declare -A BUILD=(
	[6.1]="6.1.0-57-amd64 6.1.192-3"
	[6.12]="6.12.117+deb12-amd64 6.12.117-1~deb12u1"
)

say() { printf 'surface: %s\n' "$*" >&2; }
die() { printf 'surface: error: %s\n' "$*" >&2; exit 1; }

case ${1:-} in -h|--help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
ports=("$@")
[ ${#ports[@]} -gt 0 ] || ports=(6.12 6.1)
for p in "${ports[@]}"; do
	[ -n "${BUILD[$p]:-}" ] ||
		{ echo "surface: error: unknown port '$p' (known: ${!BUILD[*]})" >&2; exit 2; }
done

need=()
/usr/bin/python3 -c 'import elftools' 2>/dev/null || need+=(python3-pyelftools)
command -v objdump >/dev/null || need+=(binutils)
if [ ${#need[@]} -gt 0 ]; then
	say "installing ${need[*]}"
	sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install --no-install-recommends -y -q "${need[@]}" >&2 ||
		die "cannot install ${need[*]}"
fi

mkdir -p "$cache/deb" "$cache/dbg"
for p in "${ports[@]}"; do
	read -r krel ver <<<"${BUILD[$p]}"
	pkg=linux-image-$krel-dbg
	vmlinux=$cache/dbg/vmlinux-$krel
	if [ ! -s "$vmlinux" ]; then
		deb=$(ls "$cache/deb/${pkg}_${ver/*:/}_"*.deb 2>/dev/null | head -n1 || true)
		if [ -z "$deb" ]; then
			say "downloading $pkg=$ver (about 1 GB)"
			(cd "$cache/deb" && apt-get download "$pkg=$ver" >&2) ||
				die "cannot download $pkg=$ver (apt-get update? bookworm-security reachable?)"
			deb=$(ls "$cache/deb/${pkg}_"*.deb | head -n1)
		fi
		[ "$(dpkg-deb -f "$deb" Version)" = "$ver" ] || die "$deb is not version $ver"
		say "extracting vmlinux-$krel from $(basename "$deb")"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/lib/debug/boot/vmlinux-$krel" >"$vmlinux.tmp"
		mv -f "$vmlinux.tmp" "$vmlinux"
	fi
	mkdir -p "$top/module/port/$p"
	out=$top/module/port/$p/surface.txt
	say "deriving the surface of $krel -> ${out#$top/}"
	/usr/bin/python3 "$top/scripts/surface.py" \
		--label "Debian linux-image-$krel ($ver)" "$vmlinux" >"$out.tmp"
	mv -f "$out.tmp" "$out"
	grep -c '^root ' "$out" | sed "s/^/surface: $p: roots: /" >&2
	grep -c '^write ' "$out" | sed "s/^/surface: $p: writes: /" >&2
done
