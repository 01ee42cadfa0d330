# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers for the analyzer's tests (tests/unit/tools-*.t, fuzz-*.t):
# TAP-like "ok - NAME" / "not ok - NAME" lines as tests/run.sh counts them,
# and the test recordings in every trace.dat flavour.  Source it with
# "top" set to the repository root.

FAIRLAB=${FAIRLAB:-$top/build/asan/fairlab}
DATA=$top/tests/data
WORK=$top/build/test-data
# Leaks libtracecmd causes on files it cannot open are expected
# (tools/lsan.supp); a decoding stall is declared after 2 s, not 10.
export LSAN_OPTIONS="suppressions=$top/tools/lsan.supp:print_suppressions=0"
# allocator_may_return_null, max_allocation_size_mb: libtracecmd mallocs
# sizes read from a corrupt file; as without ASan, a huge malloc must fail
# and be an error it handles.  tools/asan.supp: the libraries' own reads
# past their buffers (ASan sees them only in libc interceptors).
export ASAN_OPTIONS="abort_on_error=0:exitcode=99:allocator_may_return_null=1:max_allocation_size_mb=1024:suppressions=$top/tools/asan.supp"
export UBSAN_OPTIONS="halt_on_error=1:exitcode=98"
export FAIRLAB_STALL_SECS=2

# what a sanitizer finding looks like on stderr (not its warnings, such as
# "AddressSanitizer failed to allocate" for a huge malloc that then fails)
SAN_REPORT='ERROR: [A-Za-z]+Sanitizer|runtime error:'

tap_failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; tap_failed=$((tap_failed + 1)); }
# check NAME CMD...: ok when CMD succeeds
check() { _n=$1; shift; if "$@"; then ok "$_n"; else not_ok "$_n"; fi; }
note() { echo "# $*"; }
tap_end() { echo "# $tap_failed failed"; [ "$tap_failed" -eq 0 ]; }

# need_built: the ASan CLI must exist (make -C tools builds it)
need_built() {
	if [ ! -x "$FAIRLAB" ]; then
		not_ok "$FAIRLAB is built (run make)"
		exit 1
	fi
}

# run_fl OUT ERR ARGS...: run the CLI, keep stdout/stderr, return its status
run_fl() {
	_o=$1 _e=$2; shift 2
	"$FAIRLAB" "$@" >"$_o" 2>"$_e"
}

# flavours: the committed recordings converted to trace.dat v6 and to
# uncompressed v7 with trace-cmd convert, in $WORK (made once)
make_flavours() {
	mkdir -p "$WORK"
	for f in "$DATA"/*.dat; do
		b=$(basename "$f" .dat)
		[ -s "$WORK/$b.v6.dat" ] ||
			trace-cmd convert --file-version 6 -i "$f" -o "$WORK/$b.v6.dat" >/dev/null 2>&1
		[ -s "$WORK/$b.v7raw.dat" ] ||
			trace-cmd convert --file-version 7 --compression none -i "$f" \
				-o "$WORK/$b.v7raw.dat" >/dev/null 2>&1
	done
}
