#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages, with dpkg-deb only (no debhelper), in
# build/deb/:
#   fairlab_V_ARCH.deb      the tool in /usr/bin, its libtraceevent plugin,
#                           the scripts `fairlab experiment` runs
#                           (/usr/share/fairlab), man pages, bash completion
#   fairlab-dkms_V_all.deb  the module sources, every port with the
#                           kernel/sched headers of its build, dkms.conf
# V is 0.1+gitDATE.HASH of the last commit (0.1 outside git).
#   scripts/mkdeb.sh [OUTDIR]
#
# fairlab-dkms carries the kernel/sched sources of every served version
# in .cache (make deps fetches the ports' reference and smoke builds'),
# plus, fetched into .cache when missing: the running kernel's when a port
# serves it (the host make deb runs on is the usual one to install on),
# and those of DKMS_BUILDS (releases, or "all": every served build; about
# 140 MB of linux-source to download per Debian version).
#
# examples:
#   make deb
#   make deb DKMS_BUILDS="6.12.111+deb12-amd64 6.1.0-50-amd64"
#   make deb DKMS_BUILDS=all
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/ports.sh
out=${1:-$top/build/deb}
stage=$out/stage
umask 022

# DKMS_BUILDS checked before any work (their sources are fetched later)
want=${DKMS_BUILDS:-}
if [ "$want" = all ]; then
	want=$(for p in $(fl_ready_ports); do fl_served "$p"; done)
else
	for k in $want; do
		why=$(fl_refusal "$k")
		[ -z "$why" ] || { echo "mkdeb: DKMS_BUILDS: $why" >&2; exit 1; }
	done
fi
for t in dpkg-deb dpkg-shlibdeps; do
	command -v $t >/dev/null || { echo "mkdeb: $t missing (apt-get install --no-install-recommends dpkg-dev)" >&2; exit 1; }
done
if git rev-parse --git-dir >/dev/null 2>&1; then
	version=0.1+git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git log -1 --format=%h)
else
	version=0.1
fi
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
date_r=$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")
# the maintainer: DEB_MAINTAINER, else the author of the last commit
maint=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null)}
maint=${maint:-fairlab maintainers <fairlab@example.org>}
rm -rf "$stage" "$out"/*.deb
mkdir -p "$stage"

# doc PKG: copyright and a one-entry changelog (a native package's)
doc() {
	local d=$stage/$1/usr/share/doc/$1
	install -d "$d"
	install -m 0644 packaging/copyright "$d/copyright"
	printf '%s (%s) unstable; urgency=medium\n\n  * Built from the fairlab source tree.\n\n -- %s  %s\n' \
		"$1" "$version" "$maint" "$date_r" | gzip -9n >"$d/changelog.gz"
	chmod 0644 "$d/changelog.gz"
}

# build PKG: DEBIAN/md5sums, then the .deb
build() {
	local p=$stage/$1
	(cd "$p" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
		xargs -0 md5sum >DEBIAN/md5sums)
	chmod 0644 "$p/DEBIAN/md5sums"
	dpkg-deb --root-owner-group -Zxz --build "$p" "$out/" >/dev/null
}

# ---- fairlab: the tool ----------------------------------------------------
echo "  DEB     fairlab $version"
tb=$out/tools
# PREFIX=/usr, no source-tree fallback: the packaged tool finds its
# scripts in /usr/share/fairlab only.  Hardened as Debian builds are.
make -s -j"$(nproc)" -C tools cli B="$tb" PREFIX=/usr SRC_FALLBACK= \
	OPT="-O3 -g -flto=auto -fstack-protector-strong -fcf-protection -Wl,-z,relro,-z,now" >/dev/null
make -s -C tools install B="$tb" PREFIX=/usr SRC_FALLBACK= DESTDIR="$stage/fairlab" \
	PLUGIN_DIR=/usr/lib/$multiarch/traceevent/plugins >/dev/null
p=$stage/fairlab
strip --remove-section=.comment --remove-section=.note "$p/usr/bin/fairlab"
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$p/usr/lib/$multiarch/traceevent/plugins/plugin_fairlab.so"
gzip -9n "$p"/usr/share/man/man1/*.1
doc fairlab
install -d "$p/usr/share/doc/fairlab/examples"
install -m 0644 README.md "$p/usr/share/doc/fairlab/"
install -m 0644 docs/*.md "$p/usr/share/doc/fairlab/"
install -m 0644 docs/examples/*_example.txt "$p/usr/share/doc/fairlab/examples/"
install -d "$p/DEBIAN"
# Depends of the binaries, from the shared libraries they link.
shl=$(mkdir -p "$out/shlib/debian" && cd "$out/shlib" &&
	printf 'Source: fairlab\n\nPackage: fairlab\nArchitecture: any\n' >debian/control &&
	dpkg-shlibdeps -O "$p/usr/bin/fairlab" "$p/usr/lib/$multiarch/traceevent/plugins/plugin_fairlab.so" 2>/dev/null |
	sed -n 's/^shlibs:Depends=//p')
size=$(du -sk --exclude=DEBIAN "$p" | cut -f1)
cat >"$p/DEBIAN/control" <<EOC
Package: fairlab
Version: $version
Architecture: $arch
Maintainer: $maint
Installed-Size: $size
Depends: $shl, trace-cmd
Recommends: gnuplot-nox | gnuplot, fairlab-dkms
Section: devel
Priority: optional
Description: record and analyse the CFS scheduler's tg->load_avg publishing
 fairlab reads trace-cmd recordings of the fairlab:* trace events and
 reports the cacheline contention of each task group's tg->load_avg
 (attempts, writes, writer switches, modeled line transfers) and the error
 of what it publishes, per policy; it compares recordings, plots them,
 replays one recording under every policy (whatif), and records and runs
 the policy comparison experiment on a host with the fairlab-dkms modules.
EOC
build fairlab

# ---- fairlab-dkms: the module sources ---------------------------------------
echo "  DEB     fairlab-dkms $version"
p=$stage/fairlab-dkms
src=$p/usr/src/fairlab-$version
install -d "$src"
cp -r module "$src/"
find "$src/module" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod*' \
	-o -name 'surface.txt' -o -name README \) -delete
install -m 0644 Kbuild "$src/Kbuild"
install -D -m 0644 scripts/ports.sh "$src/scripts/ports.sh"
install -D -m 0755 scripts/port-build-header.sh "$src/scripts/port-build-header.sh"
install -m 0755 packaging/dkms/dkms-build.sh "$src/dkms-build.sh"
sed "s/@VERSION@/$version/" packaging/dkms/dkms.conf.in >"$src/dkms.conf"
# The kernel/sched headers (what a port's sched.h include reaches) of every
# Debian version a served build has, from its linux-source in .cache: a
# build is compiled with its own version's struct layouts.  A version not
# in .cache (make deps fetches the reference and smoke builds; scripts/
# fetch-build.sh KREL source fetches any) is left out, and dkms-build.sh
# refuses its builds in one line.
run=$(uname -r)
[ -n "$(fl_refusal "$run")" ] || want="$run $want"
for k in $want; do
	CACHE=${CACHE:-$top/.cache} scripts/fetch-build.sh "$k" source >&2 ||
		{ echo "mkdeb: could not fetch the kernel/sched sources of $k" >&2; exit 1; }
done
nsched=0
packaged=
for port in $(fl_ready_ports); do
	for kv in $(awk -F'\t' '!/^#/ && $3 == "served" { print $2 }' \
			"module/port/$port/builds.tsv" 2>/dev/null | sort -u) \
		  "$(fl_port_get "$port" KPKGVER)"; do
		[ -d "$src/sched/$kv" ] && continue
		from=${CACHE:-$top/.cache}/src/$kv
		[ -f "$from/kernel/sched/sched.h" ] || continue
		(cd "$from" && find kernel -name '*.h' -print0 |
			xargs -0 -I{} install -D -m 0644 {} "$src/sched/$kv/{}")
		nsched=$((nsched + 1))
		packaged="$packaged $kv"
	done
done
[ "$nsched" -gt 0 ] || { echo "mkdeb: no kernel/sched sources of any served build in .cache (make deps)" >&2; exit 1; }
find "$src" -type d -exec chmod 0755 {} + ; find "$src" -type f ! -name '*.sh' -exec chmod 0644 {} +
doc fairlab-dkms
install -m 0644 docs/module.md "$p/usr/share/doc/fairlab-dkms/"
install -d "$p/DEBIAN"
sed "s/@VERSION@/$version/" packaging/dkms/postinst >"$p/DEBIAN/postinst"
sed "s/@VERSION@/$version/" packaging/dkms/prerm >"$p/DEBIAN/prerm"
chmod 0755 "$p/DEBIAN/postinst" "$p/DEBIAN/prerm"
size=$(du -sk --exclude=DEBIAN "$p" | cut -f1)
cat >"$p/DEBIAN/control" <<EOC
Package: fairlab-dkms
Version: $version
Architecture: all
Maintainer: $maint
Installed-Size: $size
Depends: dkms
Section: kernel
Priority: optional
Description: fairlab kernel modules (livepatch and trace events), DKMS sources
 fairlab_trace.ko (the fairlab:* trace events) and fairlab.ko (a livepatch
 of the CFS functions that publish tg->load_avg and pick the idlest group,
 with switchable policies), built by DKMS for the running kernel when a
 fairlab port serves that exact kernel build:
$(fl_served_abis $packaged | sed 's/^/  /')
EOC
build fairlab-dkms
ls "$out"/*.deb
