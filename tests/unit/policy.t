#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Policy code shared with fairlab.ko, built with ASan+UBSan and run.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/tests
mkdir -p "$out"
cc -std=c11 -Wall -Wextra -Werror -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=all -I"$top/module/policy" \
	"$top/tests/unit/policy_test.c" "$top/module/policy/policy.c" \
	-o "$out/policy_test"
exec "$out/policy_test"
