#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the host-side checker tg-check (tg-check.c + the kernel's own
# module/policy/policy.c) into $TOP/build/tg-check/ if it is out of date;
# print its path.  Used by the tests/vm/scenarios/tg-*.host.sh scripts.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
src=$TOP/tests/vm/tg-check/tg-check.c
pol=$TOP/module/policy
out=$TOP/build/tg-check
bin=$out/tg-check
mkdir -p "$out"
if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$pol/policy.c" -nt "$bin" ] ||
	[ "$pol/policy.h" -nt "$bin" ] || [ "$pol/fairlab_abi.h" -nt "$bin" ]; then
	tmp=$(mktemp "$out/.tg-check.XXXXXX")
	# shellcheck disable=SC2046
	cc -std=gnu11 -O2 -g -Wall -Wextra -I"$pol" \
		$(pkg-config --cflags libtracecmd libtraceevent) \
		"$src" "$pol/policy.c" \
		$(pkg-config --libs libtracecmd libtraceevent) -o "$tmp" >&2
	mv -f "$tmp" "$bin"
fi
echo "$bin"
