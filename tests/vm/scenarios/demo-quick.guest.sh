#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The make-check part of `make demo`: the QUICK demo's VM half,
# one 2 s recording of the same cgroup workload under each of the 8 tg
# policies made by `fairlab experiment` in the guest (demo/demo.guest.sh);
# demo-quick.host.sh runs the demo's
# analysis on the recordings and asserts on its table.
# fairlab-vm: --smp 4 --numa --mem 2048
# fairlab-files: demo/demo.guest.sh build/fairlab
DEMO_ROUNDS=1
DEMO_SECS=2
DEMO_IDLEST=none
. /fairlab/demo/demo.guest.sh
