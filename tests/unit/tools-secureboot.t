#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Secure Boot detector (tools/record/secureboot.c, tools/test/test_secureboot.c)
# over fake sysfs/efivarfs trees, Secure Boot on and off.  ASan+UBSan build.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/asan/test-secureboot
if [ ! -x "$bin" ]; then
	echo "not ok - $bin is built (run make)"
	exit 1
fi
exec "$bin"
