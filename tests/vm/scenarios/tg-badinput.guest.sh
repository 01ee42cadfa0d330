#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tg_policy input validation, at insmod and through sysfs,
# for every argument form: wrong names and case, empty, overlong, trailing
# garbage, arguments on argument-less policies, out-of-range, malformed,
# signed and zero-padded arguments of every policy that takes one.
#  - insmod fairlab.ko tg_policy=BAD fails with EINVAL, the module is not
#    loaded, and each attempt leaves "fairlab: invalid tg_policy" lines,
#    as many as the kernel's own "invalid for parameter" lines (busybox
#    insmod retries with init_module after finit_module fails), at least 1;
#  - echo BAD > .../tg_policy fails with EINVAL, exactly one dmesg line,
#    and the policy in force is kept;
#  - good forms read back canonically (relative -> relative:8, ...), at
#    insmod and through sysfs, without an "invalid" line.
# fairlab-vm: --smp 2 --timeout 300
. "$FL_LIB"
P=/sys/module/fairlab/parameters/tg_policy
KO=$FL_MODDIR/fairlab.ko
OURS='fairlab: invalid tg_policy'
KERN="invalid for parameter .tg_policy'"

# one value per line; <empty> is the empty string
cat >/tmp/bad.txt <<'EOF2'
<empty>
STOCK
Stock
stocK
Force
stok
stocks
relativ
relative8
relativeX
rel
stock:
stock:0
force:1
nonzero:0
turner1:8
turner2:4
:
:8
relative::8
relative:
relative:0
relative:4097
relative:4294967295
relative:4294967296
relative:99999999999
relative:-8
relative:+8
relative:08
relative:0008
relative:8x
relative:x8
relative:8:8
relative:0x8
relative:8.0
fixed:
fixed:1048577
fixed:-1
fixed:+16
fixed:016
fixed:00
fixed:1e3
fixed:16,
log2:
log2:65537
log2:-1
log2:08
log2:8.0
log2:8b
ratelimit:
ratelimit:0
ratelimit:1000001
ratelimit:-1000
ratelimit:+1000
ratelimit:01000
ratelimit:1000us
budget:
budget:0
budget:101
budget:-5
budget:05
budget:5%
budget:5:
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
relative:000000000000000000000000000000008
stockstockstockstockstockstockstockstockstockstockstockstockstockstockstock
EOF2
# sysfs only (whitespace cannot pass insmod's argument splitting)
cat >/tmp/bad-sysfs.txt <<'EOF2'
 stock
stock 
sto ck
relative: 8
relative:8 
	stock
EOF2

count() { dmesg_since | grep -c -- "$1"; }
val() { [ "$1" = "<empty>" ] && echo "" || echo "$1"; }

load_mod fairlab_trace || exit 1

# --- insmod with bad values (fairlab.ko not loaded)
n=0; nbad=0
while IFS= read -r raw; do
	v=$(val "$raw"); n=$((n + 1))
	dmesg_mark
	if o=$(insmod "$KO" "tg_policy=$v" 2>&1); then
		not_ok "insmod tg_policy='$v' refused" "insmod succeeded"
		unload_lp fairlab
		nbad=$((nbad + 1)); continue
	fi
	ours=$(count "$OURS"); kern=$(count "$KERN")
	if ! echo "$o" | grep -q 'Invalid argument'; then
		not_ok "insmod tg_policy='$v': EINVAL" "$o"; nbad=$((nbad + 1))
	elif [ "$ours" -lt 1 ] || [ "$ours" != "$kern" ]; then
		not_ok "insmod tg_policy='$v': one line per attempt" \
			"$ours 'invalid tg_policy' lines, $kern kernel lines"
		nbad=$((nbad + 1))
	elif mod_loaded fairlab; then
		not_ok "insmod tg_policy='$v': not loaded" "module present"
		nbad=$((nbad + 1))
	fi
done </tmp/bad.txt
[ $nbad = 0 ] && ok "insmod refuses all $n bad tg_policy values: EINVAL, module not loaded, our lines == kernel's lines (>= 1)"

# --- insmod with good values: canonical readback
for pair in relative=relative:8 fixed=fixed:16 log2=log2:8 ratelimit=ratelimit:1000 budget=budget:5; do
	dmesg_mark
	load_lp fairlab "tg_policy=${pair%%=*}" || continue
	assert_sysfs $P "${pair#*=}" "insmod tg_policy=${pair%%=*} reads back ${pair#*=}"
	assert_eq "insmod tg_policy=${pair%%=*}: no invalid line" 0 "$(count "$OURS")"
	# the last one stays loaded for the sysfs part
	[ "${pair%%=*}" = budget ] || unload_lp fairlab
done
mod_loaded fairlab || load_lp fairlab || exit 1

# --- sysfs with bad values: EINVAL, exactly one line, old policy kept
echo log2:3 >$P
assert_sysfs $P log2:3 "baseline policy log2:3"
n=0; nbad=0
for f in /tmp/bad.txt /tmp/bad-sysfs.txt; do
	while IFS= read -r raw; do
		[ "$f" = /tmp/bad.txt ] && v=$(val "$raw") || v=$raw
		n=$((n + 1))
		dmesg_mark
		if o=$(sh -c 'echo "$1" > "$2"' _ "$v" $P 2>&1); then
			not_ok "sysfs tg_policy='$v' refused" "write succeeded"
			nbad=$((nbad + 1)); echo log2:3 >$P; continue
		fi
		ours=$(count "$OURS")
		if ! echo "$o" | grep -q 'Invalid argument'; then
			not_ok "sysfs tg_policy='$v': EINVAL" "$o"; nbad=$((nbad + 1))
		elif [ "$ours" != 1 ]; then
			not_ok "sysfs tg_policy='$v': exactly one dmesg line" "$ours lines"
			nbad=$((nbad + 1))
		elif [ "$(cat $P)" != log2:3 ]; then
			not_ok "sysfs tg_policy='$v': old policy kept" "now $(cat $P)"
			nbad=$((nbad + 1)); echo log2:3 >$P
		fi
	done <"$f"
done
# values echo cannot produce: no newline, two newlines, embedded newline
for v in 'stock\n\n' 'sto\nck' 'relative:8\n\n' '\n' '\0stock'; do
	n=$((n + 1))
	dmesg_mark
	if sh -c "printf '$v' > $P" 2>/dev/null; then
		not_ok "sysfs tg_policy=printf '$v' refused" "write succeeded"
		nbad=$((nbad + 1)); echo log2:3 >$P
	elif [ "$(count "$OURS")" != 1 ] || [ "$(cat $P)" != log2:3 ]; then
		not_ok "sysfs tg_policy=printf '$v'" "$(count "$OURS") lines, policy $(cat $P)"
		nbad=$((nbad + 1))
	fi
done
[ $nbad = 0 ] && ok "sysfs refuses all $n bad tg_policy values: EINVAL, one dmesg line each, log2:3 kept"

# --- sysfs with good values: canonical readback, no invalid line
dmesg_mark
nbad=0; n=0
for pair in stock=stock force=force nonzero=nonzero relative=relative:8 \
	relative:1=relative:1 relative:16=relative:16 relative:4096=relative:4096 \
	turner1=turner1 turner2=turner2 fixed=fixed:16 fixed:0=fixed:0 \
	fixed:1048576=fixed:1048576 log2=log2:8 log2:0=log2:0 \
	log2:65536=log2:65536 ratelimit=ratelimit:1000 ratelimit:1=ratelimit:1 \
	ratelimit:1000000=ratelimit:1000000 budget=budget:5 budget:1=budget:1 \
	budget:100=budget:100 relative:10=relative:10; do
	n=$((n + 1))
	if ! echo "${pair%%=*}" >$P; then
		not_ok "sysfs tg_policy=${pair%%=*} accepted"; nbad=$((nbad + 1))
	elif [ "$(cat $P)" != "${pair#*=}" ]; then
		not_ok "sysfs tg_policy=${pair%%=*} reads back ${pair#*=}" "got $(cat $P)"
		nbad=$((nbad + 1))
	fi
done
[ $nbad = 0 ] && ok "sysfs accepts all $n good forms, canonical readback"
check "sysfs tg_policy without newline (printf stock)" sh -c "printf stock > $P"
assert_sysfs $P stock
assert_eq "good forms: no invalid line" 0 "$(count "$OURS")"

unload_lp fairlab
unload_mod fairlab_trace
assert_taint_ok
