#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make deps leaves the host's kernel set-up as it is: what it would
# apt-install (scripts/deps.sh --print-packages) names no kernel package,
# and apt's own simulation of installing it, on a machine with nothing
# installed and on this host, installs or removes no linux-image-*,
# linux-headers-* or linux-kbuild-* package, not even as a dependency.
# Two negative cases show the checks can fail: the same list plus one
# linux-headers package (whose Depends pull a linux-image) is caught by
# both.  Needs apt-get (a Debian machine, no root: simulation only).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/ports.sh

failed=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; failed=1; }

if ! command -v apt-get >/dev/null; then
	ok "deps-host # SKIP no apt-get on this machine"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/status"	# a dpkg status file of a machine with nothing installed

# kernel packages named in a package list (stdin)
listed_kernel() { grep -E '^linux-(image|headers|kbuild)-' || true; }
# kernel packages apt would install or remove for PKG... (STATUS: a dpkg
# status file, or "host")
apt_kernel() {
	local st=$1; shift
	local opt=()
	[ "$st" = host ] || opt=(-o "Dir::State::status=$st")
	apt-get -s -q install --no-install-recommends "${opt[@]}" "$@" >"$tmp/sim" 2>&1 ||
		{ echo "apt-get -s failed: $(grep -m1 '^E:' "$tmp/sim")"; return; }
	sed -n 's/^\(Inst\|Remv\) \(linux-\(image\|headers\|kbuild\)-[^ ]*\).*/\1 \2/p' "$tmp/sim"
}

mapfile -t pkgs < <(scripts/deps.sh check --print-packages)
[ ${#pkgs[@]} -gt 5 ] && ok "make deps installs ${#pkgs[@]} packages" ||
	nok "scripts/deps.sh --print-packages printed ${#pkgs[@]} packages"

k=$(printf '%s\n' "${pkgs[@]}" | listed_kernel | paste -sd' ')
[ -z "$k" ] && ok "the package list names no kernel package" ||
	nok "the package list names kernel packages: $k"

for st in "$tmp/status" host; do
	what="on an empty machine"; [ "$st" = host ] && what="on this host"
	k=$(apt_kernel "$st" "${pkgs[@]}" | paste -sd' ')
	[ -z "$k" ] && ok "apt would install or remove no kernel package $what" ||
		nok "apt would change kernel packages $what: $k"
done

# Negative cases: a kernel package slipped into the list is caught.
hdr=linux-headers-$(fl_port_get "$(fl_ready_ports | tail -n1)" KREL)
k=$(printf '%s\n' "${pkgs[@]}" "$hdr" | listed_kernel)
[ "$k" = "$hdr" ] && ok "negative: the list check catches $hdr" ||
	nok "negative: the list check missed $hdr (got '$k')"
k=$(apt_kernel "$tmp/status" "${pkgs[@]}" "$hdr")
# here-strings, not echo | grep -q: under pipefail, grep -q quitting at
# its match can kill echo with SIGPIPE and fail the pipeline
if grep -q '^Inst linux-image-' <<<"$k" && grep -q "^Inst $hdr\$" <<<"$k"; then
	ok "negative: the simulation catches $hdr and the linux-image it pulls in"
else
	nok "negative: the simulation missed $hdr or its linux-image (got: $(echo "$k" | paste -sd' '))"
fi
exit $failed
