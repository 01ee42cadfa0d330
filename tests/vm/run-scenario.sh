#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run one fairlab VM scenario in QEMU (TCG) on a pinned Debian kernel.
#
#   tests/vm/run-scenario.sh [options] SCENARIO.guest.sh
#
#   --kernel K       the kernel to boot: a port (6.1, 6.12), its release
#                    (6.12.117+deb12-amd64) or any build of a port's series
#                    (6.12.111+deb12-cloud-amd64: its image from
#                    .cache/kernel-<release>, scripts/fetch-build.sh);
#                    default $KERNEL, else $KREL, else the newest port.
#                    Its own modules go into the guest.
#   --smp N          vCPUs (default 2)
#   --numa           two NUMA nodes (one socket each), CPUs and memory split
#                    evenly (needs an even N >= 2); the same as --nodes 2
#   --nodes K        K NUMA nodes (one socket each), CPUs and memory split
#                    evenly (N a multiple of K)
#   --threads T      T SMT siblings per core (default 1; N a multiple of
#                    T, and of K*T with --nodes; the CPU then says
#                    GenuineIntel, so 6.1 too sees the threads)
#   --dies D         D dies per socket (default 1; needs --numa or --nodes,
#                    N a multiple of K*D*T).  QEMU 7.2 shares the L3 of
#                    CPUID leaf 4 per die, so each die is an LLC of its own
#                    (the scheduler's sd_llc, the MC domain): D LLCs per
#                    node.  The CPU then says GenuineIntel (leaf 4 and the
#                    dies of leaf 0x1f are what both kernels read there).
#   --mem MB         guest memory in MB (default 1024)
#   --timeout SEC    host wall-clock limit for QEMU (default 300)
#   --out DIR        artifact directory (default build/vm/<release>/<scenario-name>/)
#   --append "k=v"   extra kernel arguments; unknown key=value pairs become
#                    environment variables of the guest /init and the scenario
#   --tcg MODE       single (default) or multi: QEMU's TCG threading.  multi
#                    runs the vCPUs on host threads in parallel, but QEMU 7.2
#                    can then keep a stale translation of code the guest has
#                    just patched (klp, ftrace and static keys patch text
#                    while other vCPUs run it): every vCPU then loops for
#                    ever on an int3 that is no longer in memory.  single
#                    runs the vCPUs round-robin on one thread: no such race.
#   --icount SHIFT   QEMU -icount shift=SHIFT,sleep=off: the guest clock
#                    advances 2^SHIFT ns per guest instruction, so guest
#                    times count the guest's instructions and not the host's
#                    load (for benchmarks; needs --tcg single)
#   --qemu-arg ARG   one more QEMU argument (split at spaces), e.g. a TCG
#                    plugin: --qemu-arg "-plugin /path/p.so,k=v"
#                    (tests/bench/bench-profile.sh)
#   -v, --verbose    copy the guest console to stderr while it runs
#   --no-vm-line     ignore the scenario's "# fairlab-vm: OPTIONS" line
#   -h, --help       this text
#
# A scenario names the VM it needs in a "# fairlab-vm: OPTIONS" line (the
# first such line): those options come first, the command line's after
# them, so a value given here wins (--append and --qemu-arg add to the
# line's).  tests/run.sh boots every scenario that way.
#
# The guest also gets /fairlab/build/writes: the booted build's tg->load_avg
# write sites (FUNC+0xOFF lines) from its module/port/*/builds.tsv line,
# when that names them (tests/vm/scenarios/surface-writes).
#
# Environment: CACHE (default <top>/.cache), KERNEL or KREL (see --kernel),
# FAIRLAB_VM_TCG (the default of --tcg),
# FAIRLAB_MODDIR (default <top>/build/kmod/<release>/module: every *.ko there
# goes into the guest).  In "# fairlab-files:" lines, @KREL@ stands for the
# booted release, and a path starting with "?" is left out when it matches
# nothing (otherwise that is an error).
#
# Prints the scenario's "ok - ..." / "not ok - ..." lines, then
# "ok - <scenario>" or "not ok - <scenario>: reason" (plus the console tail).
# Exit status 0 only if the guest printed "FAIRLAB-RESULT: PASS", the console
# and dmesg show no WARNING/BUG/Oops/lockup/stall/panic, the taint has none
# of W D L B, and SCENARIO.host.sh (if present) passed.  See tests/vm/README.md.
# A run that failed across a guest clock jump is rerun once (the README).
set -euo pipefail

argv=("$@")	# for the one rerun after a guest clock jump (see the verdict)
top=$(cd "$(dirname "$0")/../.." && pwd)
vmdir=$top/tests/vm
CACHE=${CACHE:-$top/.cache}
. "$top/scripts/ports.sh"

# The options' defaults (set_defaults), then the options of ARGS (parse):
# twice when the scenario has a "# fairlab-vm:" line, the line's first.
set_defaults() {
	kernel=${KERNEL:-${KREL:-$(fl_ready_ports | tail -n1)}}
	smp=2
	numa=0
	threads=1
	dies=1
	mem=1024
	tmo=300
	out=
	append=
	tcg=${FAIRLAB_VM_TCG:-single}
	icount=
	qextra=()
	verbose=0
	scenario=
	novmline=0
}

# the comment at the top, all of it
usage() { awk 'NR < 4 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; }
die() { echo "run-scenario: error: $*" >&2; exit 2; }

# where the options being parsed come from, for their errors
from=
parse() {
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?--kernel needs a value}; shift 2 ;;
	--kernel=*) kernel=${1#*=}; shift ;;
	--smp) smp=${2:?--smp needs a value}; shift 2 ;;
	--smp=*) smp=${1#*=}; shift ;;
	--numa) numa=2; shift ;;
	--nodes) numa=${2:?--nodes needs a value}; shift 2 ;;
	--nodes=*) numa=${1#*=}; shift ;;
	--threads) threads=${2:?--threads needs a value}; shift 2 ;;
	--threads=*) threads=${1#*=}; shift ;;
	--dies) dies=${2:?--dies needs a value}; shift 2 ;;
	--dies=*) dies=${1#*=}; shift ;;
	--mem) mem=${2:?--mem needs a value}; shift 2 ;;
	--mem=*) mem=${1#*=}; shift ;;
	--timeout) tmo=${2:?--timeout needs a value}; shift 2 ;;
	--timeout=*) tmo=${1#*=}; shift ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	--out=*) out=${1#*=}; shift ;;
	--append) append="$append ${2?--append needs a value}"; shift 2 ;;
	--append=*) append="$append ${1#*=}"; shift ;;
	--tcg) tcg=${2:?--tcg needs a value}; shift 2 ;;
	--tcg=*) tcg=${1#*=}; shift ;;
	--icount) icount=${2?--icount needs a value}; shift 2 ;;
	--icount=*) icount=${1#*=}; shift ;;
	--qemu-arg) read -r -a qa <<<"${2:?--qemu-arg needs a value}"; qextra+=("${qa[@]}"); shift 2 ;;
	--qemu-arg=*) read -r -a qa <<<"${1#*=}"; qextra+=("${qa[@]}"); shift ;;
	-v|--verbose) verbose=1; shift ;;
	--no-vm-line) novmline=1; shift ;;
	-h|--help) usage; exit 0 ;;
	-*) die "unknown option $1$from (see --help)" ;;
	*) [ -z "$scenario" ] || die "only one scenario per run$from"; scenario=$1; shift ;;
	esac
done
}

set_defaults
parse "$@"
[ -n "$scenario" ] || { usage >&2; die "no scenario given"; }
vmline=
if [ "$novmline" = 0 ] && [ -f "$scenario" ]; then
	vmline=$(sed -n 's/^#[[:space:]]*fairlab-vm:[[:space:]]*//p' "$scenario" | head -n1)
fi
if [ -n "$vmline" ]; then
	read -r -a vmwords <<<"$vmline"
	from=" in $scenario's fairlab-vm line"
	set_defaults
	parse "${vmwords[@]}"
	[ -z "$scenario" ] || die "a scenario name ($scenario)$from: options only"
	from=
	parse "$@"
fi
KREL=$(fl_kernel_krel "$kernel")
[ -n "$KREL" ] || die "no port for kernel '$kernel'; supported builds: $(fl_supported)"
export KREL
moddir=${FAIRLAB_MODDIR:-$top/build/kmod/$KREL/module}
kroot=$CACHE/kernel-$KREL
vmlinuz=$kroot/boot/vmlinuz-$KREL
kmods=$kroot/lib/modules/$KREL/kernel
[ -f "$scenario" ] || die "scenario $scenario not found"
[[ $smp =~ ^[1-9][0-9]*$ ]] || die "--smp must be a positive integer"
[[ $mem =~ ^[1-9][0-9]*$ ]] || die "--mem must be a positive integer (MB)"
[[ $tmo =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer (s)"
case $tcg in single|multi) ;; *) die "--tcg must be single or multi, not '$tcg'" ;; esac
[ -z "$icount" ] || [[ $icount =~ ^([0-9]|10)$ ]] || die "--icount must be a shift from 0 to 10"
[ -z "$icount" ] || [ "$tcg" = single ] || die "--icount needs --tcg single"
[[ $numa =~ ^[0-9]+$ ]] || die "--nodes must be a positive integer"
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "--threads must be a positive integer"
[ "$numa" != 1 ] || numa=0	# one node: no -numa options
[ "$numa" = 0 ] || { [ "$smp" -ge "$numa" ] && [ $((smp % numa)) = 0 ]; } ||
	die "--numa/--nodes $numa needs --smp a multiple of $numa (one socket per node)"
[ $((smp % (threads * (numa > 0 ? numa : 1)))) = 0 ] ||
	die "--threads $threads needs --smp a multiple of $threads per socket"
[[ $dies =~ ^[1-9][0-9]*$ ]] || die "--dies must be a positive integer"
[ "$dies" = 1 ] || [ "$numa" -ge 2 ] || die "--dies needs --numa or --nodes (one socket per node)"
[ "$dies" = 1 ] || [ $((smp % (numa * dies * threads))) = 0 ] ||
	die "--dies $dies needs --smp a multiple of nodes x dies x threads ($((numa * dies * threads)))"
[ -f "$vmlinuz" ] || die "$vmlinuz missing (scripts/fetch-build.sh $KREL image unpacks it)"
[ -d "$kmods" ] || die "$kmods missing (scripts/fetch-build.sh $KREL image unpacks it)"
for t in qemu-system-x86_64 cpio gzip xz sha256sum ldd timeout tar strip; do
	command -v $t >/dev/null || die "$t not installed"
done

scenario=$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")
sname=$(basename "$scenario")
sname=${sname%.sh}
sname=${sname%.guest}
[ -n "$out" ] || out=$top/build/vm/$KREL/$sname
hostscript=${scenario%.guest.sh}.host.sh
[ "$hostscript" != "$scenario" ] || hostscript=

if [ -e "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -e "$out/.fairlab-vm-artifacts" ]; then
	die "--out $out exists and is not a fairlab artifact dir; not clearing it"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fairlab-vm.XXXXXX")
qpid=
wdpid=
monpid=
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	[ -z "$wdpid" ] || kill "$wdpid" 2>/dev/null || true
	[ -z "$monpid" ] || kill "$monpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo "run-scenario: interrupted" >&2; exit 130' INT TERM

# ---------------------------------------------------------------- initramfs
#
# Two gzip'd newc archives concatenated (the kernel unpacks both):
#   base:    busybox, trace-cmd, hackbench, stress-ng (+ libraries), virtio
#            modules, /etc files -- changes rarely
#   overlay: /init, guest library, fairlab modules, scenario, its files
# Each is cached under $CACHE/vm/ by the sha256 of its manifest (guest path,
# mode and content hash of every input).

icache=$CACHE/vm
mkdir -p "$icache"
gen=$tmp/gen
mkdir -p "$gen"

# manifest lines: "DEST<TAB>SRC"; SRC is dereferenced when copied.
add() { printf '%s\t%s\n' "$2" "$1" >>"$cur"; }

# add_elf SRC [DEST]: the file plus every library ldd lists and the loader,
# at the same paths as on the host.
add_elf() {
	local src=$1 dest=${2:-$1} l
	add "$src" "$dest"
	if ldd "$src" >/dev/null 2>&1; then
		while read -r l; do
			add "$l" "$l"
		done < <(ldd "$src" | awk '/=> \// { print $3 } /^\t\// { print $1 }')
	fi
}

# add_tree SRC DEST: a directory, recursively (ELF files with their libs).
add_tree() {
	local src=$1 dest=$2 f
	while IFS= read -r -d '' f; do
		if head -c4 "$f" 2>/dev/null | grep -q 'ELF'; then
			add_elf "$f" "$dest/${f#$src/}"
		else
			add "$f" "$dest/${f#$src/}"
		fi
	done < <(find "$src" -type f -print0 | sort -z)
}

# pack NAME EXTRA_KEY: build (or reuse) the archive for manifest $cur;
# prints its path.
pack() {
	local name=$1 key=$2 sorted=$tmp/$1.sorted hash arc st dest src
	sort -u "$cur" >"$sorted"
	local dups
	dups=$(cut -f1 "$sorted" | uniq -d | head -3)
	[ -z "$dups" ] || die "initramfs: two sources for $dups"
	hash=$( {
		echo "$key"
		while IFS=$'\t' read -r dest src; do
			[ -e "$src" ] || die "initramfs input $src missing"
			printf '%s %s %s\n' "$dest" "$(stat -L -c %a "$src")" \
				"$(sha256sum <"$src" | cut -c1-64)"
		done <"$sorted"
	} | sha256sum | cut -c1-32)
	arc=$icache/$name-$hash.cpio.gz
	if [ ! -s "$arc" ]; then
		st=$tmp/stage-$name
		mkdir -p "$st"
		while IFS=$'\t' read -r dest src; do
			mkdir -p "$st/$(dirname "$dest")"
			cp -L --preserve=mode "$src" "$st/$dest"
		done <"$sorted"
		[ "$name" != base ] || finish_base "$st"
		(cd "$st" && find . -mindepth 1 | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$arc.tmp.$$"
		mv -f "$arc.tmp.$$" "$arc"
		# keep the cache bounded: the 8 newest archives of this kind
		ls -1t "$icache/$name"-*.cpio.gz 2>/dev/null | tail -n +9 |
			xargs -r rm -f
	fi
	echo "$arc"
}

# Directories, device nodes and busybox applet links of the base archive.
finish_base() {
	local st=$1 a
	mkdir -p "$st"/{proc,sys,dev,tmp,out,root,run,mnt,etc,bin,sbin,usr/bin,usr/sbin}
	chmod 1777 "$st/tmp"
	mknod -m 600 "$st/dev/console" c 5 1
	mknod -m 666 "$st/dev/null" c 1 3
	while read -r a; do
		[ "$a" = bin/busybox ] && continue	# never link busybox to itself
		[ -e "$st/$a" ] || [ -L "$st/$a" ] || ln -s /bin/busybox "$st/$a"
	done < <(busybox --list-full)
}

bb=$(command -v busybox)
file -L "$bb" 2>/dev/null | grep -q 'statically linked' ||
	die "$bb is not static (install busybox-static)"

cur=$tmp/base.list
: >"$cur"
add "$bb" /bin/busybox
for b in trace-cmd hackbench stress-ng; do
	p=$(command -v $b) || die "$b not installed"
	add_elf "$p" "$p"
done
for d in /usr/lib/x86_64-linux-gnu/traceevent/plugins \
	/usr/lib/x86_64-linux-gnu/trace-cmd/plugins \
	/usr/lib/traceevent/plugins /usr/lib/trace-cmd/plugins; do
	[ -d "$d" ] && add_tree "$d" "$d"
done
# The virtio modules the raw disk needs, in load order: those the kernel
# has built in are skipped (6.12 builds virtio, virtio_ring and virtio_pci
# in), compressed ones (6.12: .ko.xz) unpacked for busybox's insmod.
mkdir -p "$gen/etc" "$gen/ko"
: >"$gen/etc/virtio-modules"
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
	virtio_pci virtio_blk; do
	grep -q "/$m\.ko\$" "$kroot/lib/modules/$KREL/modules.builtin" 2>/dev/null && continue
	f=$(find "$kmods" \( -name "$m.ko" -o -name "$m.ko.xz" \) -print -quit)
	[ -n "$f" ] || die "$m.ko not found under $kmods"
	if [ "${f%.xz}" != "$f" ]; then
		xz -dc "$f" >"$gen/ko/$m.ko" || die "cannot unpack $f"
		f=$gen/ko/$m.ko
	fi
	add "$f" "/lib/modules/$KREL/virtio/$m.ko"
	echo "$m" >>"$gen/etc/virtio-modules"
done
printf 'root:x:0:0:root:/root:/bin/sh\nfl:x:1000:1000:fairlab:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$gen/etc/passwd"
printf 'root:x:0:\nfl:x:1000:\nnogroup:x:65534:\n' >"$gen/etc/group"
for f in passwd group virtio-modules; do add "$gen/etc/$f" "/etc/$f"; done
base=$(pack base "base-v1 $(sha256sum <"$0")")

cur=$tmp/overlay.list
: >"$cur"
add "$vmdir/guest/init" /init
for f in "$vmdir"/guest/*; do
	[ -f "$f" ] && [ "$(basename "$f")" != init ] &&
		add "$f" "/fairlab/tests/vm/guest/$(basename "$f")"
done
# add_ko SRC DST: a kernel module without its debug info (fairlab.ko is
# 4 MB with it, 0.1 MB without; insmod under TCG is seconds faster).
mkdir -p "$tmp/ko"
add_ko() {
	local k
	k=$tmp/ko/$(echo "$2" | tr / _)
	strip --strip-debug -o "$k" "$1" || die "cannot strip $1"
	add "$k" "$2"
}
nko=0
for f in "$moddir"/*.ko; do
	[ -f "$f" ] || continue
	add_ko "$f" "/fairlab/module/$(basename "$f")"
	nko=$((nko + 1))
done
add "$scenario" "/scenario/$(basename "$scenario")"
# "# fairlab-files: PATH..." header lines: repo-relative PATHs go to
# /fairlab/PATH, absolute ones to the same path; directories recursively,
# ELF files with their libraries.  A sibling SCENARIO.d/ directory goes to
# /scenario/SCENARIO.d/.
while read -r f; do
	f=${f//@KREL@/$KREL}
	optional=0
	[ "${f#\?}" = "$f" ] || { optional=1; f=${f#\?}; }
	case $f in
	/*) p=$f ;;
	*) p=$top/$f ;;
	esac
	# shellcheck disable=SC2086
	matched=0
	for g in $p; do
		[ -e "$g" ] || continue
		matched=1
		d=/fairlab/${g#$top/}
		case $g in $top/*) ;; *) d=$g ;; esac
		if [ -d "$g" ]; then
			add_tree "$g" "$d"
		elif [ "${g%.ko}" != "$g" ]; then
			add_ko "$g" "$d"
		elif head -c4 "$g" | grep -q ELF; then
			add_elf "$g" "$d"
		else
			add "$g" "$d"
		fi
	done
	[ $matched = 1 ] || [ $optional = 1 ] || die "$sname: fairlab-files entry $f matches nothing"
done < <(sed -n 's/^#[[:space:]]*fairlab-files:[[:space:]]*//p' "$scenario" | tr ' \t' '\n\n' | sed '/^$/d')
fl_build_writes "$KREL" >"$gen/writes"
[ ! -s "$gen/writes" ] || add "$gen/writes" /fairlab/build/writes
sd=${scenario%.sh}.d
[ -d "$sd" ] && add_tree "$sd" "/scenario/$(basename "$sd")"
overlay=$(pack overlay "overlay-v1")

initrd=$tmp/initrd.img
cat "$base" "$overlay" >"$initrd"

# ---------------------------------------------------------------- boot
disk=$tmp/out.img
truncate -s "${mem}M" "$disk"
console=$tmp/console.log

# SMT siblings: TCG's "max" CPU says AuthenticAMD with a family older
# than Zen, whose CPUID 6.1 reads as one thread per core (QEMU warns that
# this family does not support hyperthreading); as GenuineIntel, both
# kernels take the threads from CPUID leaf 0xb.
cpu=max
{ [ "$threads" = 1 ] && [ "$dies" = 1 ]; } || cpu=max,vendor=GenuineIntel
qargs=(-accel "tcg,thread=$tcg" -cpu "$cpu" -m "${mem}M" ${qextra[@]+"${qextra[@]}"})
[ -z "$icount" ] || qargs+=(-icount "shift=$icount,sleep=off")
if [ "$numa" -ge 2 ]; then
	# one socket per node: a socket (shared LLC) spanning two nodes makes
	# the kernel WARN in topology_sane() at boot.  QEMU numbers the CPUs
	# socket by socket, core by core, the SMT siblings of a core adjacent.
	c0=$(( smp / numa )); mn=$(( mem / numa ))
	qargs+=(-smp "$smp,sockets=$numa,$( [ "$dies" = 1 ] || echo "dies=$dies,")cores=$(( c0 / dies / threads )),threads=$threads")
	for ((n = 0; n < numa; n++)); do
		m=$mn; [ $n != 0 ] || m=$(( mem - mn * (numa - 1) ))
		qargs+=(-object "memory-backend-ram,id=m$n,size=${m}M"
			-numa "node,nodeid=$n,cpus=$(( n * c0 ))-$(( (n + 1) * c0 - 1 )),memdev=m$n")
	done
elif [ "$threads" != 1 ]; then
	qargs+=(-smp "$smp,sockets=1,cores=$(( smp / threads )),threads=$threads")
else
	qargs+=(-smp "$smp")
fi
# the guest's own scenario limit leaves time to stop, dump and power off
gtmo=$(( tmo - 10 - tmo / 10 )); [ $gtmo -ge 1 ] || gtmo=1
case " $append " in *" FL_GUEST_TIMEOUT="*) gtmo= ;; esac
# unknown_nmi_panic + panic_print=64: when the host finds the guest hung it
# injects an NMI, and the panic prints every CPU's backtrace (see below).
cmdline="console=ttyS0 quiet loglevel=5 printk.time=1 panic=-1 oops=panic rcupdate.rcu_expedited=1 unknown_nmi_panic=1 panic_print=64 FL_SCENARIO=/scenario/$(basename "$scenario")${gtmo:+ FL_GUEST_TIMEOUT=$gtmo}${append}"
qargs+=(-kernel "$vmlinuz" -initrd "$initrd" -append "$cmdline"
	-nographic -no-reboot -nic none
	-drive "file=$disk,format=raw,if=virtio"
	-monitor "pipe:$tmp/mon")
# The QEMU monitor, for the hang watchdog: FIFOs opened read-write, so
# neither side blocks; its output is drained into monitor.log.
mkfifo "$tmp/mon.in" "$tmp/mon.out"
exec 9<>"$tmp/mon.in"
cat "$tmp/mon.out" >"$tmp/monitor.log" 2>/dev/null &
monpid=$!

# watchdog QEMU_PID: at --timeout, a guest that is still running is taken
# as hung: inject an NMI (the guest panics and prints all CPUs' backtraces,
# which is what a silent hang with interrupts off otherwise never shows),
# give it 15 s to print, then quit QEMU.
watchdog() {
	local s
	sleep "$tmo" & s=$!
	# killed when QEMU exits first: take the sleep along, since an orphan
	# would hold our caller's pipe open until --timeout
	trap 'kill $s 2>/dev/null; exit 0' TERM
	wait $s
	kill -0 "$1" 2>/dev/null || return 0
	: >"$tmp/hung"
	echo nmi >&9
	for _ in $(seq 1 30); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.5
	done
	echo quit >&9
}

echo "# $sname: kernel=$KREL smp=$smp numa=$numa dies=$dies threads=$threads mem=${mem}M modules=$nko timeout=${tmo}s${vmline:+ (fairlab-vm line: $vmline)}" >&2
t0=$(date +%s.%N)
# in the background, so INT/TERM reach our trap at once (GNU timeout runs
# in its own process group and passes a TERM on to QEMU)
set +e
if [ "$verbose" = 1 ]; then
	timeout -k 5 "$((tmo + 25))" qemu-system-x86_64 "${qargs[@]}" </dev/null >"$console" 2>&1 &
	qpid=$!
	watchdog $qpid </dev/null >/dev/null 2>&1 &
	wdpid=$!
	tail -F -s 0.2 --pid=$qpid "$console" >&2 2>/dev/null &
	wait $qpid
	qrc=$?
	sleep 0.3
else
	timeout -k 5 "$((tmo + 25))" qemu-system-x86_64 "${qargs[@]}" </dev/null >"$console" 2>&1 &
	qpid=$!
	watchdog $qpid </dev/null >/dev/null 2>&1 &
	wdpid=$!
	wait $qpid
	qrc=$?
fi
qpid=
set -e
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

# ---------------------------------------------------------------- artifacts
rm -rf "$out"
mkdir -p "$out"
touch "$out/.fairlab-vm-artifacts"
tr -d '\r' <"$console" >"$out/console.log"
con=$out/console.log
untar_err=
if [ "$(head -c 512 "$disk" | tr -d '\0' | wc -c)" -gt 0 ]; then
	tar -xf "$disk" -C "$out" 2>"$tmp/untar.err" ||
		untar_err="artifact tar unreadable: $(head -1 "$tmp/untar.err")"
fi

# ---------------------------------------------------------------- verdict
reasons=()
bad='WARNING:|BUG:|Oops|general protection|soft lockup|hard LOCKUP|rcu_sched self-detected stall|rcu: INFO|Kernel panic|Call Trace'
# Kernel lines only: a printk timestamp must precede the pattern on the line,
# so scenario output that merely mentions e.g. "BUG:" does not count.
# Warnings of known kernel bugs (not fairlab's) are left out and named
# (tests/vm/guest/strip-known-warnings).
strip=$vmdir/guest/strip-known-warnings
kline=$("$strip" "$con" 2>>"$tmp/known" | grep -aE "\[ *[0-9]+\.[0-9]+\] .*($bad)" | head -1 || true)
if [ -z "$kline" ] && [ -f "$out/dmesg.txt" ]; then
	kline=$("$strip" "$out/dmesg.txt" 2>/dev/null | grep -aE "$bad" | head -1 || true)
fi
[ -z "$kline" ] || reasons+=("kernel: ${kline:0:160}")
[ ! -s "$tmp/known" ] || cat "$tmp/known"

kill "$wdpid" "$monpid" 2>/dev/null || true
exec 9>&-
if [ -e "$tmp/hung" ] || [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	reasons+=("timeout: guest still running after ${tmo}s (NMI sent: any backtraces are in console.log)")
elif [ "$qrc" != 0 ]; then
	reasons+=("qemu exited $qrc: $(grep -a qemu-system "$con" | head -1)")
fi

marker=$(grep -aoE 'FAIRLAB-RESULT: [A-Z]+.*' "$con" | tail -1 || true)
case $marker in
"FAIRLAB-RESULT: PASS"*) ;;
"") reasons+=("no result marker (guest hung, crashed or was killed)") ;;
*) reasons+=("guest: ${marker#FAIRLAB-RESULT: }") ;;
esac

taint=$(grep -aoE 'FAIRLAB-TAINT: [0-9]+ [A-Z_]*' "$con" | tail -1 || true)
if [ -n "$taint" ]; then
	letters=$(echo "$taint" | awk '{ print $3 }')
	check=$letters
	# a W that only known kernel warnings explain (see above)
	! "$strip" --only-known "$con" || check=$(echo "$letters" | tr -d W)
	case $check in
	*[WDLB]*) reasons+=("kernel taint $letters (W/D/L/B)") ;;
	esac
elif [ ${#reasons[@]} -eq 0 ]; then
	reasons+=("guest printed no FAIRLAB-TAINT line")
fi
[ -z "$untar_err" ] || reasons+=("$untar_err")

# A guest clock jump.  The guest's clock is the host's TSC (TCG reads it
# raw), and a host that is paused and resumed, or moves QEMU between CPUs
# whose TSCs differ, can make it leap days ahead: the soft-lockup watchdog
# then reports a CPU "stuck" for longer than the VM has existed, and any
# figure timed across the leap is wrong.  No guest clock can legitimately
# run ahead of the host's wall clock over the VM's life, so a printk time
# beyond it (10% and 10 s of slack for TSC calibration) is a jump.  A run
# that failed across a jump proves nothing either way: it is rerun once,
# in full, and the first run's lines are kept as comments; a second jump
# fails with the reason named.
gmax=$(grep -aoE '^\[ *[0-9]+\.[0-9]+\]' "$con" | tr -d '[] ' | sort -g | tail -1)
jump=$(awk -v g="${gmax:-0}" -v h="$secs" 'BEGIN { if (g > h * 1.1 + 10) printf "%.0f", g - h }')
failed=0
[ ${#reasons[@]} -eq 0 ] && ! grep -aq '^not ok - ' "$con" || failed=1
if [ -n "$jump" ] && [ "$failed" = 1 ]; then
	if [ -z "${FAIRLAB_VM_CLOCK_RERUN:-}" ]; then
		grep -aE '^(not )?ok - ' "$con" | sed 's/^/# first run: /' || true
		echo "# $sname: the guest clock jumped (printk time ${gmax}s after ${secs}s on the host's clock): this run failed across the jump; rerunning it once (its console: $out/console-before-clock-jump.log)"
		keep=$(mktemp "${TMPDIR:-/tmp}/fairlab-vm-jump.XXXXXX")
		cp "$con" "$keep"
		cleanup
		trap - EXIT
		FAIRLAB_VM_CLOCK_RERUN=$keep exec bash "$0" "${argv[@]}"
	fi
	reasons+=("the guest clock jumped again (printk time ${gmax}s after ${secs}s on the host's clock)")
fi
if [ -n "${FAIRLAB_VM_CLOCK_RERUN:-}" ] && [ -f "$FAIRLAB_VM_CLOCK_RERUN" ]; then
	mv -f "$FAIRLAB_VM_CLOCK_RERUN" "$out/console-before-clock-jump.log"
fi
grep -aE '^(not )?ok - ' "$con" || true

if [ ${#reasons[@]} -gt 0 ]; then
	reason=${reasons[0]}
	for r in "${reasons[@]:1}"; do reason="$reason; $r"; done
	echo "not ok - $sname: $reason"
	# The first kernel oops, BUG or warning in full (its RIP and call
	# trace), which a panic's backtraces of the other CPUs push out of
	# the last lines: CI keeps only this output.
	first=$(grep -anE '(Oops|BUG:|general protection|WARNING:|Kernel panic)' "$con" |
		head -1 | cut -d: -f1)
	if [ -n "$first" ]; then
		from=$((first > 10 ? first - 10 : 1))
		echo "# --- the first kernel error, lines $from-$((first + 90)) of $out/console.log ---"
		sed -n "$from,$((first + 90))p" "$con" | sed 's/^/# | /'
	fi
	echo "# --- last 60 console lines ($out/console.log) ---"
	tail -n 60 "$con" | sed 's/^/# | /'
	echo "# --- ${secs}s host time" >&2
	exit 1
fi
echo "ok - $sname: clean VM run (${secs}s host, smp=$smp numa=$numa, taint ${letters:-none})"

if [ -n "$hostscript" ] && [ -f "$hostscript" ]; then
	set +e
	CACHE=$CACHE TOP=$top bash "$hostscript" "$out" 2>&1 | tee "$tmp/host.log"
	hrc=${PIPESTATUS[0]}
	set -e
	if [ "$hrc" != 0 ] && ! grep -q '^not ok ' "$tmp/host.log"; then
		echo "not ok - $sname.host: $(basename "$hostscript") exited $hrc"
	fi
	[ "$hrc" = 0 ] || exit 1
fi
exit 0
