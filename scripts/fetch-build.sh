#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Download one Debian 12 kernel build's packages as .deb files into the
# cache and unpack them there.  Never installs anything: the host's kernel
# set-up stays as it was (no root needed).
#
#   scripts/fetch-build.sh [--pkgver V] KREL [PART...]
#   scripts/fetch-build.sh --version KREL    print the build's package version
#
# PART (default: image headers source):
#   image    linux-image-KREL            -> .cache/kernel-KREL/ (vmlinuz, modules)
#   headers  linux-headers-KREL, its -common (or -common-rt) and the
#            linux-kbuild package         -> .cache/headers-KREL/, usable as
#            make -C .cache/headers-KREL/usr/src/linux-headers-KREL M=...
#            (installed headers of the same build and version are used
#            instead when present: then nothing is downloaded)
#   source   kernel/sched/ and kernel/workqueue_internal.h of
#            linux-source-SERIES          -> .cache/src-KREL/ (a link to
#            .cache/src/PKGVER/, shared by the flavours of one version)
#   dbg      the vmlinux of linux-image-KREL-dbg -> .cache/dbg/vmlinux-KREL
#            (about 1 GB to download; the .deb is deleted once extracted)
#
# The package version is the build's line in module/port/*/builds.tsv, else
# the port's kernel.conf, else the archive's (apt-cache); --pkgver forces it.
# .debs land in .cache/deb/.  Idempotent (what is in place is neither
# downloaded nor unpacked again), atomic (unpacked into a temporary
# directory, then renamed) and safe to run twice at once (a lock per build).
#
# Environment: CACHE (default <top>/.cache); FAIRLAB_HEADERS=cache unpacks
# the headers even when the same build's are installed.
#
# examples:
#   scripts/fetch-build.sh 6.12.111+deb12-cloud-amd64
#   scripts/fetch-build.sh 6.1.0-57-rt-amd64 image headers
#   scripts/fetch-build.sh 6.1.0-55-amd64 dbg
#   scripts/fetch-build.sh --version 6.1.0-50-amd64
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-$top/.cache}
. "$top/scripts/ports.sh"

say() { printf 'fetch-build: %s\n' "$*" >&2; }
die() { printf 'fetch-build: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '3,35p' "$0" | sed 's/^# \{0,1\}//'; }

pkgver=
only_version=0
while [ $# -gt 0 ]; do
	case $1 in
	--pkgver) pkgver=${2:?--pkgver needs a value}; shift 2 ;;
	--version) only_version=1; shift ;;
	-h|--help) usage; exit 0 ;;
	-*) echo "fetch-build: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { usage >&2; exit 2; }
krel=$1; shift
series=$(fl_series_of "$krel")
[ -n "$series" ] || die "'$krel' is not a Debian 12 kernel release (6.1.0-N-FLAVOUR or 6.12.N+deb12-FLAVOUR)"
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(image headers source)
for p in "${parts[@]}"; do
	case $p in image|headers|source|dbg) ;;
	*) echo "fetch-build: unknown part '$p' (image, headers, source, dbg)" >&2; exit 2 ;;
	esac
done

[ -n "$pkgver" ] || pkgver=$(fl_build_pkgver "$krel")
if [ -z "$pkgver" ]; then
	pkgver=$(apt-cache madison "linux-image-$krel" 2>/dev/null | awk -F' *[|] *' 'NR == 1 { print $2 }')
	[ -n "$pkgver" ] ||
		die "no linux-image-$krel in the package archive (run 'apt-get update'; is bookworm-security in sources.list?)"
fi
if [ $only_version = 1 ]; then
	echo "$pkgver"
	exit 0
fi

mkdir -p "$cache/deb" "$cache/dbg" "$cache/src" "$cache/.locks"
exec {lockfd}>"$cache/.locks/fetch-$krel"
flock "$lockfd"

sandbox=; [ "$(id -u)" != 0 ] || sandbox=1
# deb PKG VERSION -> path of its .deb in .cache/deb, downloaded when missing
deb() {
	local pkg=$1 ver=$2 f dl
	f=$(ls "$cache/deb/${pkg}_${ver/:/%3a}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		say "downloading $pkg=$ver"
		dl=$(mktemp -d "$cache/deb/.dl.XXXXXX")
		# as root, apt's _apt sandbox user could not write here
		if ! (cd "$dl" && apt-get download -q ${sandbox:+-o APT::Sandbox::User=root} "$pkg=$ver" >&2); then
			rm -rf "$dl"
			die "cannot download $pkg=$ver (not in the archive, or 'apt-get update' not done)"
		fi
		f=$(ls "$dl"/*.deb)
		mv -f "$f" "$cache/deb/"
		rm -rf "$dl"
		f=$cache/deb/$(basename "$f")
	fi
	[ "$(dpkg-deb -f "$f" Version)" = "$ver" ] || die "$f is not version $ver"
	echo "$f"
}

# newest PKG: the archive's newest version of a package
newest() {
	apt-cache madison "$1" 2>/dev/null | awk -F' *[|] *' '{ print $2 }' |
		sort -u | sort -V -r | head -n1 || true
}

# publish TMP DIR: the unpacked tree TMP becomes DIR (replacing an
# incomplete DIR; a complete one made meanwhile wins)
publish() {
	rm -rf "$2"
	mv -T "$1" "$2"
}

fetch_image() {
	local kdir=$cache/kernel-$krel img tmp
	[ -e "$kdir/boot/vmlinuz-$krel" ] && return 0
	img=$(deb "linux-image-$krel" "$pkgver")
	say "unpacking $(basename "$img")"
	tmp=$(mktemp -d "$kdir.tmp.XXXXXX")
	dpkg-deb -x "$img" "$tmp"
	[ -e "$tmp/boot/vmlinuz-$krel" ] || die "$(basename "$img") has no boot/vmlinuz-$krel"
	publish "$tmp" "$kdir"
}

# relink ROOT: every absolute symlink under ROOT (Debian's build, source
# and Makefile paths say /usr/src/..., /lib/modules/...) made relative to
# ROOT, so the tree works wherever it is unpacked.
relink() {
	local root=$1 l t rel
	while IFS= read -r -d '' l; do
		t=$(readlink "$l")
		rel=$(realpath -m --relative-to="$(dirname "$l")" "$root$t")
		ln -sfn "$rel" "$l"
	done < <(find "$root" -type l -lname '/*' -print0)
}

fetch_headers() {
	local hroot=$cache/headers-$krel sys=/usr/src/linux-headers-$krel
	local kdir hdeb deps common cver kbuild kver tmp final
	kdir=$hroot/usr/src/linux-headers-$krel
	if [ "${FAIRLAB_HEADERS:-}" != cache ] && [ "$(fl_headers_installed "$krel" "$pkgver")" = "$sys" ]; then
		say "using the installed headers $sys ($pkgver)"
		return 0
	fi
	[ -f "$hroot/.fairlab-headers" ] && [ "$(cat "$hroot/.fairlab-headers")" = "$pkgver" ] && return 0
	hdeb=$(deb "linux-headers-$krel" "$pkgver")
	deps=$(dpkg-deb -f "$hdeb" Depends)
	# linux-headers-ABI-common (= V) or -common-rt: same version
	common=$(echo "$deps" | tr ',' '\n' | sed -n 's/^ *\(linux-headers-[^ ]*-common\(-rt\)\{0,1\}\) .*/\1/p' | head -n1)
	[ -n "$common" ] || die "$(basename "$hdeb"): no linux-headers-*-common in its Depends ($deps)"
	cver=$(echo "$deps" | tr ',' '\n' | sed -n "s/^ *$common (= \\([^)]*\\)).*/\\1/p" | head -n1)
	# linux-kbuild-SERIES (>= V): the archive's newest (6.1 publishes
	# only a few versions, each fit for every 6.1 build)
	kbuild=$(echo "$deps" | tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p' | head -n1)
	[ -n "$kbuild" ] || die "$(basename "$hdeb"): no linux-kbuild-* in its Depends ($deps)"
	kver=$(newest "$kbuild")
	[ -n "$kver" ] || die "no $kbuild in the package archive"
	common=$(deb "$common" "${cver:-$pkgver}")
	kbuild=$(deb "$kbuild" "$kver")
	say "unpacking $(basename "$hdeb"), $(basename "$common"), $(basename "$kbuild")"
	tmp=$(mktemp -d "$hroot.tmp.XXXXXX")
	for d in "$hdeb" "$common" "$kbuild"; do dpkg-deb -x "$d" "$tmp"; done
	relink "$tmp"
	# the flavour's Makefile includes the -common one by absolute path
	final=$(realpath -m "$hroot")
	sed -i "s|^include /usr/src/|include $final/usr/src/|" "$tmp/usr/src/linux-headers-$krel/Makefile"
	for f in include/generated/utsrelease.h scripts/basic/fixdep scripts/mod/modpost Makefile; do
		[ -e "$tmp/usr/src/linux-headers-$krel/$f" ] ||
			die "unpacked headers of $krel lack $f (packages $(basename "$hdeb") $(basename "$common") $(basename "$kbuild"))"
	done
	echo "$pkgver" >"$tmp/.fairlab-headers"
	publish "$tmp" "$hroot"
	say "headers of $krel: ${kdir#$top/}"
}

fetch_source() {
	local sdir=$cache/src-$krel spkg=linux-source-$series shared src tmp
	shared=$cache/src/$pkgver
	if [ ! -f "$shared/kernel/sched/sched.h" ]; then
		exec {slock}>"$cache/.locks/src-$pkgver"
		flock "$slock"
		if [ ! -f "$shared/kernel/sched/sched.h" ]; then
			src=$(deb "$spkg" "$pkgver")
			say "unpacking kernel/sched from $(basename "$src")"
			tmp=$(mktemp -d "$shared.tmp.XXXXXX")
			dpkg-deb --fsys-tarfile "$src" |
				tar -x -O "./usr/src/$spkg.tar.xz" |
				tar -xJ -C "$tmp" --strip-components=1 \
					--wildcards "$spkg/kernel/sched/*" \
					"$spkg/kernel/workqueue_internal.h"
			publish "$tmp" "$shared"
		fi
		exec {slock}>&-
	fi
	# a directory from an older deps.sh stays as it is; a link always names
	# the version's linux-source, whatever the flavour (rt-amd64 too: its
	# own changes are located in its -dbg vmlinux, scripts/rt-compare.py)
	if [ -L "$sdir" ] || [ ! -f "$sdir/kernel/sched/sched.h" ]; then
		[ "$(readlink "$sdir" 2>/dev/null)" = "src/$pkgver" ] || ln -sfn "src/$pkgver" "$sdir"
	fi
}

fetch_dbg() {
	local v=$cache/dbg/vmlinux-$krel d had
	[ -s "$v" ] && return 0
	had=$(ls "$cache/deb/linux-image-$krel-dbg_${pkgver/:/%3a}_"*.deb 2>/dev/null || true)
	d=$(deb "linux-image-$krel-dbg" "$pkgver")
	say "extracting vmlinux-$krel from $(basename "$d")"
	dpkg-deb --fsys-tarfile "$d" |
		tar -xO "./usr/lib/debug/boot/vmlinux-$krel" >"$v.tmp.$$"
	mv -f "$v.tmp.$$" "$v"
	# the rest of the 1 GB package is never read
	[ -n "$had" ] || rm -f "$d"
}

for p in "${parts[@]}"; do "fetch_$p"; done
