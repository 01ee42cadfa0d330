#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb's packages work without the source tree: build both
# (scripts/mkdeb.sh), unpack them into a scratch root, and run the
# installed fairlab on a copy of a committed recording in a directory
# outside the repository: report (the same figures as the tree's build),
# experiment --report-only (its scripts from /usr/share/fairlab), the
# plugin through trace-cmd, the man pages.  fairlab-dkms: the build script
# dkms.conf declares refuses a kernel without a port in one line naming the
# supported builds, and `dkms build` (or, without dkms, that same script)
# builds the modules against the headers of a served build when they are
# installed in /usr/src or unpacked under .cache by make deps.  lintian, when installed, reports no error.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test/tap.sh"
if ! command -v dpkg-deb >/dev/null; then
	echo "ok - Debian packages # SKIP dpkg-deb is not installed"
	exit 0
fi
tmp=$(mktemp -d /tmp/fairlab-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$top/scripts/mkdeb.sh" "$tmp/deb" >"$tmp/mkdeb.log" 2>&1; s=$?
check "scripts/mkdeb.sh (make deb): exit 0" test $s = 0
[ $s = 0 ] || { sed 's/^/# /' "$tmp/mkdeb.log" | tail -20; tap_end; exit 1; }
tool=$(ls "$tmp"/deb/fairlab_*.deb)
dkms=$(ls "$tmp"/deb/fairlab-dkms_*.deb)
version=$(dpkg-deb -f "$tool" Version)
root=$tmp/root
dpkg-deb -x "$tool" "$root" && dpkg-deb -x "$dkms" "$root"
check "both packages unpack" test -x "$root/usr/bin/fairlab" -a -f "$root/usr/src/fairlab-$version/dkms.conf"

# The installed tool, run where no source tree is: the recording copied out.
fl=$root/usr/bin/fairlab
work=$tmp/work
mkdir -p "$work"
cp "$top/tests/data/analyzer-numa.dat" "$work/"
(cd "$work" && "$fl" report analyzer-numa.dat >report.txt 2>report.err); s=$?
check "installed fairlab report on a recording outside the tree: exit 0" test $s = 0
"$top/build/fairlab" report "$work/analyzer-numa.dat" 2>/dev/null | sed 1d >"$tmp/tree.txt"
sed 1d "$work/report.txt" >"$tmp/inst.txt"
check "installed fairlab report: the figures of the tree's build ($(wc -l <"$tmp/inst.txt") lines)" \
	cmp -s "$tmp/tree.txt" "$tmp/inst.txt"
check "installed fairlab holds no source-tree path" eval '! grep -q -a -F "$top" "$fl"'
check "installed fairlab looks for its scripts in /usr/share/fairlab" \
	grep -q -a -F /usr/share/fairlab "$fl"
# experiment --report-only with the scripts as unpacked (the package's
# /usr/share/fairlab, moved with the scratch root)
mkdir -p "$work/exp/recordings"
for r in 1 2; do cp "$work/analyzer-numa.dat" "$work/exp/recordings/tg-stock-r$r.dat"; done
printf 'kind\tpolicy\tround\tfile\thackbench_msgs_per_s\tstressng_ops_per_s\tlost_events\tsize_kb\n' \
	>"$work/exp/recordings/throughput.tsv"
for r in 1 2; do
	printf 'tg\tstock\t%s\ttg-stock-r%s.dat\tnan\tnan\t0\t230\n' $r $r >>"$work/exp/recordings/throughput.tsv"
done
if [ ! -e /usr/share/fairlab/analyze.sh ]; then
	(cd "$work" && "$fl" experiment --report-only -o exp >/dev/null 2>"$tmp/exp.err")
	check "experiment without its installed scripts names /usr/share/fairlab/analyze.sh" \
		grep -q /usr/share/fairlab/analyze.sh "$tmp/exp.err"
fi

(cd "$work" && FAIRLAB_EXPERIMENT_LIB=$root/usr/share/fairlab \
	"$fl" experiment --report-only -o exp >"$tmp/exp.out" 2>&1); s=$?
check "installed experiment --report-only: exit 0, table and verdict" \
	test $s = 0 -a -s "$work/exp/results/table.txt" -a -s "$work/exp/results/verdict.txt"
[ $s = 0 ] || tail -5 "$tmp/exp.out" | sed 's/^/# /'

plugdir=$(ls -d "$root"/usr/lib/*/traceevent/plugins)
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report -i "$work/analyzer-numa.dat" >"$tmp/plugin.txt" 2>/dev/null
check "trace-cmd report loads the packaged plugin" grep -q " site=enqueue_entity " "$tmp/plugin.txt"
pages=$(ls "$root"/usr/share/man/man1/*.1.gz | wc -l)
check "man pages packaged ($pages) and readable" \
	eval 'for p in "$root"/usr/share/man/man1/*.1.gz; do zcat "$p" | groff -man -ww -z 2>&1 | grep -q . && exit 1; done; [ $pages -ge 7 ]'
check "bash completion packaged" test -s "$root/usr/share/bash-completion/completions/fairlab"

# make deb DKMS_BUILDS=...: a build no port serves is refused before anything
# is fetched, in one line saying why
DKMS_BUILDS=6.12.999+deb12-amd64 "$top/scripts/mkdeb.sh" "$tmp/deb2" >/dev/null 2>"$tmp/mkdeb2.err"; s=$?
check "make deb DKMS_BUILDS=<a build no port serves>: exit 1, one line naming it (exit $s)" \
	eval '[ $s = 1 ] && [ $(wc -l <"$tmp/mkdeb2.err") = 1 ] && grep -q "^mkdeb: DKMS_BUILDS: kernel 6.12.999+deb12-amd64 " "$tmp/mkdeb2.err"'

# fairlab-dkms: its sources, and its description names the builds whose
# kernel/sched sources it carries (each a version's), and no other
src=$root/usr/src/fairlab-$version
desc=$(dpkg-deb -f "$dkms" Description)
want=$(ls "$src/sched" | sort | tr '\n' ' ')
got=$(echo "$desc" | sed -n 's/.*(Debian \([^)]*\)):.*/\1/p' | sort | tr '\n' ' ')
check "fairlab-dkms's description names the versions it carries sources of (${want% })" \
	test -n "$want" -a "$want" = "$got"
[ "$want" = "$got" ] || note "description: $got"

# fairlab-dkms: the build dkms.conf declares
"$src/dkms-build.sh" 0.0.0-unsupported /nonexistent >/dev/null 2>"$tmp/refuse.err"; s=$?
check "dkms build script refuses a kernel without a port (exit $s)" test $s = 1
check "... in one line naming the supported builds" \
	eval '[ $(wc -l <"$tmp/refuse.err") = 1 ] && grep -q -E "no port for kernel 0.0.0-unsupported; supported builds: .*[0-9] \(amd64[a-z0-9, -]*\), [1-9][0-9]* in all$" "$tmp/refuse.err"'
. "$top/scripts/ports.sh"
# a served build's headers: installed, or unpacked in .cache by make deps
served= hdr=
for p in $(fl_ready_ports); do
	k=$(fl_port_get "$p" KREL)
	for d in "/usr/src/linux-headers-$k" \
		 "${CACHE:-$top/.cache}/headers-$k/usr/src/linux-headers-$k"; do
		[ -f "$d/include/generated/utsrelease.h" ] && { served=$k; hdr=$d; break 2; }
	done
done
if [ -z "$served" ]; then
	echo "not ok - dkms build against a served build's headers: none in /usr/src or .cache (make deps)"
elif command -v dkms >/dev/null; then
	mkdir -p "$tmp/dkms"
	dkms build --dkmstree "$tmp/dkms" --sourcetree "$root/usr/src" -m fairlab -v "$version" \
		-k "$served" --kernelsourcedir "$hdr" >"$tmp/dkms.log" 2>&1; s=$?
	built=$(find "$tmp/dkms" -name '*.ko' -path "*$served*" | xargs -n1 basename 2>/dev/null | sort -u | tr '\n' ' ')
	check "dkms build -k $served: exit 0, fairlab.ko and fairlab_trace.ko ($built)" \
		eval '[ $s = 0 ] && [ "$built" = "fairlab.ko fairlab_trace.ko " ]'
	[ $s = 0 ] || tail -15 "$tmp/dkms.log" | sed 's/^/# /'
	ko=$(find "$tmp/dkms" -name fairlab.ko -path "*$served*" | head -1)
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
	check "the DKMS-built fairlab.ko is for $served (vermagic: ${vm%% *})" test "${vm%% *}" = "$served"
else
	cp -r "$src" "$tmp/dkms-src"
	"$tmp/dkms-src/dkms-build.sh" "$served" "$hdr" >"$tmp/dkms.log" 2>&1; s=$?
	check "dkms.conf's build (dkms absent) for $served: exit 0, both modules" \
		test $s = 0 -a -f "$tmp/dkms-src/module/fairlab.ko" -a -f "$tmp/dkms-src/module/fairlab_trace.ko"
	[ $s = 0 ] || tail -15 "$tmp/dkms.log" | sed 's/^/# /'
fi

if command -v lintian >/dev/null; then
	lintian --tag-display-limit 0 "$tool" "$dkms" >"$tmp/lintian.txt" 2>&1
	errs=$(grep -c '^E: ' "$tmp/lintian.txt")
	check "lintian: no error ($errs)" test "$errs" = 0
	grep -v 'root privileges' "$tmp/lintian.txt" | sed 's/^/# /'
else
	echo "ok - lintian reports no error # SKIP lintian is not installed"
fi
tap_end
