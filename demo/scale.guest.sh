#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of make demo-scale (demo/scale.sh), one VM per CPU count:
# demo/demo.guest.sh (fairlab.ko loaded, its cgroup tree, `fairlab
# experiment --policies DEMO_POLICIES --rounds DEMO_ROUNDS`) with the
# per-CPU workload demo/scale-workload.sh as the experiment's CMD, and no
# update_pick_idlest part.  Recordings in /out/tg/recordings/.
# fairlab-files: demo/demo.guest.sh demo/scale-workload.sh build/fairlab
DEMO_WORKLOAD=/fairlab/demo/scale-workload.sh
DEMO_IDLEST=none
. /fairlab/demo/demo.guest.sh
