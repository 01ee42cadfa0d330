# SPDX-License-Identifier: GPL-2.0
#
# The VM runs of the demos (demo/demo.sh, demo/scale.sh), sourced by them:
# one guest script in tests/vm/run-scenario.sh, its console in a log, its
# "# demo:" progress lines on the terminal with the host's elapsed time.
# The caller sets t0 (the demo's start, in $SECONDS) and out (its output
# directory); it may redefine progress_line to add to each line.

# demo_setup NAME: what a demo needs for kernel $KREL ($KERNEL): make demo
# has built it (userspace and modules, after make deps); run directly, the
# script builds what is missing.  And the host tools it runs.
demo_setup() {
	local kmod=build/kmod/$KREL/module t
	if [ ! -x build/fairlab ] || [ ! -f $kmod/fairlab.ko ] || [ ! -f $kmod/fairlab_trace.ko ]; then
		echo "$1: building (make userspace modules KERNEL=$KERNEL)"
		make -s userspace modules KERNEL="$KERNEL"
	fi
	for t in qemu-system-x86_64 gnuplot; do
		command -v $t >/dev/null || { echo "$1: $t missing (make deps)" >&2; exit 1; }
	done
}

# elapsed: the host time since t0, m:ss
elapsed() { printf '%d:%02d' $(((SECONDS - t0) / 60)) $(((SECONDS - t0) % 60)); }

# progress_line NAME TEXT: one progress line
progress_line() { printf '[%6s] %s: %s\n' "$(elapsed)" "$1" "$2"; }

# progress NAME: the guest's "# demo:" and demo TAP lines of stdin as progress
progress() {
	local l
	while IFS= read -r l; do
		l=${l%$'\r'}	# the serial console ends lines with CR LF
		case $l in
		"# demo: "*) progress_line "$1" "${l#"# demo: "}" ;;
		"not ok"*|"ok - demo:"*) progress_line "$1" "$l" ;;
		esac
	done
}

# vm NAME TIMEOUT GUEST VMOPTS... -- APPEND: GUEST (a scenario script) in a
# VM with run-scenario.sh's VMOPTS and kernel arguments APPEND; artifacts
# in $out/vm-NAME/, the console log in $out/vm-NAME.log
vm() {
	local name=$1 tmo=$2 guest=$3 rc; shift 3
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	set +e
	tests/vm/run-scenario.sh "${opts[@]}" --timeout "$tmo" --out "$out/vm-$name" \
		--append "$*" -v "$guest" 2>&1 |
		tee "$out/vm-$name.log" | progress "$name"
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" != 0 ]; then
		echo "demo: the $name VM run FAILED (log: $out/vm-$name.log, console: $out/vm-$name/console.log)" >&2
		return 1
	fi
}
