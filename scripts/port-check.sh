#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Decide, from a Debian 12 kernel build's own packages, whether the port of
# its series serves it, and say why not (make port-check KREL=...):
#
#   scripts/port-check.sh [--row] [--no-dbg] KREL
#
# The checks, in this order; the verdict names the first difference:
#   archive      linux-headers-KREL, linux-source and linux-image-KREL-dbg
#                of the image's version are in the archive
#   config       the build's .config (its headers) has every value of
#                module/port/<series>/config.txt (y|n: either)
#   fingerprint  every function of mirrors.txt, in the build's linux-source,
#                has the fingerprint of a variant in fingerprints.txt
#                (scripts/fingerprint.py); a non-reference variant is
#                selected at build time (FL_VARIANT_*)
#   surface      scripts/surface.py on the -dbg vmlinux gives the shape of
#                the port's surface.txt: the same roots and what each holds,
#                the same holders (traceable or not), inline chains, calls
#                of notrace holders with their constant arguments, readers,
#                and the same tg->load_avg write sites, function and inline
#                chain each (so their number); addresses, sizes, offsets,
#                line numbers are not compared (scripts/surface-shape.py)
#   rt           (rt-amd64 builds) scripts/calls.py on both -dbg
#                vmlinuxes: every replaced function (port.c's table) of
#                the rt build calls and inlines, through the same inline
#                chains, what the non-rt build of the same version does,
#                up to the differences module/port/<series>/rt.txt lists
#                for the rt build's config (scripts/calls-diff.py)
#   module       the port compiles for it, warning-free (its headers, its
#                own kernel/sched/*.h from its linux-source, the variants;
#                one object, module/port/<series>/enqueue.o, as fairlab.ko
#                compiles it)
#   layout       the struct layouts and sched_feat bits that object was
#                compiled with (its DWARF: cfs_rq, task_group, rq,
#                sched_entity, sched_avg, sched_group, sched_domain, ...,
#                see scripts/layout.py) equal the vmlinux's DWARF of
#                kernel/sched/fair.c, member by member
#
# Prints "KREL: served by port P ..." (exit 0) or "KREL: refused: REASON"
# (exit 1); usage errors and builds it cannot decide exit 2.  --row prints
# the build's line of module/port/<series>/builds.tsv instead (make
# port-check-all).  Fetches what it needs with scripts/fetch-build.sh (about
# 1 GB for the -dbg) and runs surface.py and layout.py on the vmlinux,
# keeping their results in .cache/port-check/KREL/ (an rt build: also
# calls.py on it and on its non-rt build); --no-dbg does none of it
# (the build is undecided, exit 2, when their results are not there yet).  Takes 2-4 minutes per build (1-2 with the
# vmlinux facts cached).
#
# examples:
#   make port-check KREL=6.12.111+deb12-cloud-amd64
#   scripts/port-check.sh --row 6.1.0-47-amd64
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ports.sh"
cache=${CACHE:-$top/.cache}
export CACHE=$cache
py=/usr/bin/python3

row=0
fetch=1
while [ $# -gt 0 ]; do
	case $1 in
	--row) row=1; shift ;;
	--no-dbg) fetch=0; shift ;;
	-h|--help) sed -n '3,53p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "port-check: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# = 1 ] || { echo "usage: scripts/port-check.sh [--row] [--no-dbg] KREL" >&2; exit 2; }
krel=$1
series=$(fl_series_of "$krel")
[ -n "$series" ] || { echo "port-check: '$krel' is not a Debian 12 kernel release (6.1.0-N-FLAVOUR, 6.12.N+deb12-FLAVOUR)" >&2; exit 2; }
pdir=$top/module/port/$series
[ -f "$pdir/port.c" ] || { echo "port-check: no port for series $series (module/port/$series/port.c)" >&2; exit 2; }
refkrel=$(fl_port_get "$series" KREL)
srcpkg=$(fl_port_get "$series" KSRCPKG)
work=$cache/port-check/$krel
mkdir -p "$work"

say() { printf 'port-check: %s: %s\n' "$krel" "$*" >&2; }

# One madison call: the versions of the build's packages in the archive.
# (PORT_CHECK_MADISON: a file with the output of one such call for many
# builds, as port-check-all.sh passes it)
if [ -n "${PORT_CHECK_MADISON:-}" ]; then
	madison=$(cat "$PORT_CHECK_MADISON")
else
	madison=$(apt-cache madison "linux-image-$krel" "linux-headers-$krel" \
		"linux-image-$krel-dbg" "$srcpkg" 2>/dev/null || true)
fi
pkgver=$(awk -F' *[|] *' -v p="linux-image-$krel" '{ sub(/^ +/, "", $1) } $1 == p { print $2 }' <<<"$madison" | sort -V | tail -n1)
[ -n "$pkgver" ] || pkgver=$(fl_build_pkgver "$krel")
[ -n "$pkgver" ] || { echo "port-check: no linux-image-$krel in the archive (apt-get update?)" >&2; exit 2; }
has() { awk -F' *[|] *' -v p="$1" -v v="$pkgver" '{ sub(/^ +/, "", $1) } $1 == p && $2 == v { f = 1 } END { exit !f }' <<<"$madison"; }
upstream=${pkgver%%-*}
how=dbg variants=- uts=- sizes=- writes=-

# verdict: print it (or the row) and exit
finish() { # served|refused reason
	if [ $row = 1 ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$krel" "$pkgver" "$1" "$2" \
			"$upstream" "$how" "$variants" "$uts" "$sizes" "$writes"
	elif [ "$1" = served ]; then
		echo "$krel: served by port $series (Debian $pkgver, upstream $upstream; variants: $variants; decided from $how)"
	else
		echo "$krel: refused: $2"
	fi
	[ "$1" = served ]
	exit $?
}
refuse() { finish refused "$*"; }

# archive
missing=
has "linux-headers-$krel" || missing="$missing linux-headers"
has "$srcpkg" || missing="$missing linux-source"
if [ -n "$missing" ]; then
	how=archive
	refuse "no$(sed 's/ /\//g; s/^\///' <<<"$missing" | sed 's/^/ /') in the archive"
fi
has "linux-image-$krel-dbg" || { how=archive; refuse "no linux-image-$krel-dbg in the archive: surface and struct layouts cannot be checked"; }

getpart() { # part: fetch it (the -dbg not with --no-dbg)
	[ $fetch = 1 ] || [ "$1" != dbg ] || return 1
	"$top/scripts/fetch-build.sh" --pkgver "$pkgver" "$krel" "$1" >&2
}

# config
kdir=$(fl_kdir "$krel")
if [ -z "$kdir" ]; then
	getpart headers || true
	kdir=$(fl_kdir "$krel")
fi
[ -n "$kdir" ] && [ -f "$kdir/.config" ] || { echo "port-check: no headers of $krel (scripts/fetch-build.sh $krel headers)" >&2; exit 2; }
while IFS='=' read -r opt want; do
	case $opt in ''|'#'*) continue ;; esac
	have=$(sed -n "s/^$opt=//p" "$kdir/.config")
	# VALUE|VALUE: the port serves either (its code has the kernel's #ifdef)
	case "|$want|" in *"|${have:-n}|"*) ;;
	*) refuse "config: $opt=${have:-n}, port $series needs $opt=${want//|/ or }" ;;
	esac
done <"$pdir/config.txt"

# fingerprints
src=$cache/src-$krel
# (a link to another tree than the version's linux-source is re-made)
if [ ! -f "$src/kernel/sched/fair.c" ] || { [ -L "$src" ] && [ "$(readlink "$src")" != "src/$pkgver" ]; }; then
	getpart source || true
fi
[ -f "$src/kernel/sched/fair.c" ] || { echo "port-check: no linux-source of $krel at $src (scripts/fetch-build.sh $krel source)" >&2; exit 2; }
if ! fp=$($py "$top/scripts/fingerprint.py" "$src" "$pdir/mirrors.txt" \
	--known "$pdir/fingerprints.txt" --ref "$cache/src-$refkrel" 2>"$work/fingerprint.err"); then
	refuse "fingerprint: $(head -n1 "$work/fingerprint.err")"
fi
refvar=$(awk 'NR == 1 { print $3 }' <<<"$(grep -v '^#' "$pdir/fingerprints.txt")")
variants=$(awk -v r="$refvar" '$3 != r { printf "%s%s=%s", n++ ? "," : "", $2, $3 }' <<<"$fp")
[ -n "$variants" ] || variants=-

# surface (and the kallsyms sizes, banner and write sites of the vmlinux)
vmlinux=$cache/dbg/vmlinux-$krel
if [ ! -s "$work/surface.txt" ] || [ ! -s "$work/layout.txt" ]; then
	[ $fetch = 1 ] || { echo "port-check: $krel: surface.py/layout.py results not in $work (--no-dbg)" >&2; exit 2; }
	[ -s "$vmlinux" ] || getpart dbg || true
	[ -s "$vmlinux" ] || { echo "port-check: no -dbg vmlinux of $krel at $vmlinux (scripts/fetch-build.sh $krel dbg)" >&2; exit 2; }
	if [ ! -s "$work/surface.txt" ]; then
		say "surface.py (1-3 minutes)"
		nice -n 10 $py "$top/scripts/surface.py" --label "Debian linux-image-$krel ($pkgver)" \
			"$vmlinux" >"$work/surface.txt.tmp"
		mv -f "$work/surface.txt.tmp" "$work/surface.txt"
	fi
	if [ ! -s "$work/layout.txt" ]; then
		say "layout.py"
		nice -n 10 $py "$top/scripts/layout.py" --ksyms "$vmlinux" >"$work/layout.txt.tmp"
		mv -f "$work/layout.txt.tmp" "$work/layout.txt"
	fi
fi
uts=$(sed -n 's/^# linux_banner: .*) \(#[0-9].*\)$/\1/p' "$work/surface.txt" | head -n1)
[ -n "$uts" ] || uts=-
writes=$(awk '$1 == "write" { printf "%s%s", n++ ? "," : "", $2 }' "$work/surface.txt")
[ -n "$writes" ] || writes=-
# the replaced functions: port.c's table, names in the order it lists them
funcs=$(grep -o "FL_SIZE_[A-Za-z0-9_]*" "$pdir/port.c" | sed "s/^FL_SIZE_//" | awk "!seen[\$0]++")
sizes=
for f in $funcs; do
	s=$(awk -v f="$f" '$1 == "ksize" && $2 == f { print $3; exit }' "$work/layout.txt")
	[ -n "$s" ] || refuse "surface: replaced function $f is not a text symbol of the vmlinux"
	sizes="$sizes${sizes:+,}$f=$(printf '0x%03x' "$s")"
done
if ! why=$($py "$top/scripts/surface-shape.py" "$work/surface.txt" "$pdir/surface.txt"); then
	refuse "$why"
fi

# rt: the replaced functions' calls and inlined subroutines against the
# non-rt build of the same version (its linux-source is the same; the rt
# featureset's own changes show up here), up to module/port/<series>/rt.txt
case $krel in
*-rt-*)
	how=dbg+rt
	nonrt=${krel/-rt-/-}
	calls() { # krel vmlinux: its calls.py facts of $funcs, cached
		local c=$cache/port-check/$1/calls.txt want
		want="# functions: $(echo $funcs)"
		mkdir -p "$cache/port-check/$1"
		if [ "$(head -n1 "$c" 2>/dev/null)" != "$want" ]; then
			[ $fetch = 1 ] || { echo "port-check: $krel: calls.py result of $1 not in $c (--no-dbg)" >&2; exit 2; }
			[ -s "$2" ] || "$top/scripts/fetch-build.sh" --pkgver "$pkgver" "$1" dbg >&2 || true
			[ -s "$2" ] || { echo "port-check: no -dbg vmlinux of $1 at $2 (scripts/fetch-build.sh $1 dbg)" >&2; exit 2; }
			say "calls.py $1 (under a minute)"
			{ echo "$want"; nice -n 10 $py "$top/scripts/calls.py" "$2" $funcs; } >"$c.tmp"
			mv -f "$c.tmp" "$c"
		fi
	}
	calls "$nonrt" "$cache/dbg/vmlinux-$nonrt"
	calls "$krel" "$vmlinux"
	if ! why=$($py "$top/scripts/calls-diff.py" "$cache/port-check/$nonrt/calls.txt" \
		"$work/calls.txt" "$pdir/rt.txt" "$kdir/.config"); then
		refuse "$why"
	fi
	;;
esac

# module: compiled for this build with a candidate line, then its DWARF
printf '%s\t%s\tserved\t-\t%s\t%s\t%s\t%s\t%s\t%s\n' "$krel" "$pkgver" "$upstream" "$how" \
	"$variants" "$uts" "$sizes" "$writes" >"$work/row.tsv"
out=$top/build/port-check/$krel
mkdir -p "$out"
cp -rsf "$top/module" "$out/"
ln -sf "$top/Kbuild" "$out/Kbuild"
find "$out/module" -xtype l -delete
"$top/scripts/port-build-header.sh" --row "$work/row.tsv" "$krel" >"$out/port_build.h.new"
# unchanged: keep the old file, so make does not recompile
cmp -s "$out/port_build.h.new" "$out/module/port_build.h" || mv -f "$out/port_build.h.new" "$out/module/port_build.h"
rm -f "$out/port_build.h.new"
# One object of the port, compiled exactly as in fairlab.ko (same Kbuild
# flags, headers, kernel/sched/*.h and variants): its DWARF has every
# struct the port touches.  The whole module is built by build-kmod.sh.
obj=module/port/$series/enqueue.o
say "compiling $obj"
if ! nice -n 10 make -s -C "$kdir" M="$out" FAIRLAB_PORT="$series" FAIRLAB_SCHED_SRC="$src" \
	"$obj" >"$work/build.log" 2>&1; then
	refuse "module: does not compile: $(grep -m1 -E 'error|Error' "$work/build.log")"
fi
if grep -q 'warning:' "$work/build.log"; then
	refuse "module: compiles with a warning: $(grep -m1 'warning:' "$work/build.log")"
fi

# layout: what the module was compiled with against the vmlinux's DWARF
$py "$top/scripts/layout.py" --cu "port/$series/" "$out/$obj" >"$work/layout-ko.txt"
if ! why=$($py - "$work/layout-ko.txt" "$work/layout.txt" <<'EOF'
import sys
ko = [l.split() for l in open(sys.argv[1]) if not l.startswith("ksize")]
# a sched_feat bit the module's kernel/sched/features.h (linux-source)
# lacks and its compat.h inserts (rt featureset): shift the later bits
ins = {w[1][len("__FL_SCHED_FEAT_INSERT_"):]: int(w[2]) for w in ko
       if w[0] == "enum" and w[1].startswith("__FL_SCHED_FEAT_INSERT_")}
ko = [w for w in ko if not (w[0] == "enum" and w[1].startswith("__FL_"))]
for name, at in ins.items():
    for w in ko:
        if w[0] == "enum" and int(w[2]) >= at:
            w[2] = str(int(w[2]) + 1)
    ko.append(["enum", "__SCHED_FEAT_" + name, str(at)])
vm = {}
for l in open(sys.argv[2]):
    w = l.split()
    if w[0] in ("member", "size", "enum"):
        vm.setdefault(w[0] + " " + w[1], []).append(" ".join(w))
for w in ko:
    key = w[0] + " " + w[1]
    line = " ".join(w)
    if w[0] != "enum" and "size " + w[1].split(".")[0] not in vm:
        continue        # a struct kernel/sched/fair.c does not define
    if line not in vm.get(key, []):
        print("layout: the module has `%s`, the vmlinux %s" % (
            line, "`%s`" % vm[key][0] if key in vm else "no such member"))
        sys.exit(1)
EOF
); then
	refuse "$why"
fi
finish served -
