#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The make-check part of `make demo-scale`: its guest
# (demo/scale.guest.sh: demo.guest.sh with the per-CPU workload) at one
# CPU count, 4 vCPUs in 2 nodes, 2 rounds of 1 s under stock and force;
# demo-scale.host.sh runs the host half (fairlab experiment --report-only,
# demo/scale-analyze.sh) on the recordings and asserts on its table.
# fairlab-vm: --smp 4 --numa --mem 2048
# fairlab-files: demo/scale.guest.sh demo/demo.guest.sh demo/scale-workload.sh build/fairlab
DEMO_ROUNDS=2
DEMO_SECS=1
DEMO_POLICIES=stock,force
FL_TRACE_BUF_KB=8192
. /fairlab/demo/scale.guest.sh
