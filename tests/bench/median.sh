# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the benchmark scripts that print a median of rounds'
# ratios (bench-analyzer.sh, bench-threads.sh), so that both compute it
# the same way.
#
# median X...: the median of the numbers X (the mean of the middle two
# for an even count), as "1.23x"
median() {
	printf '%s\n' "$@" | sort -g |
		awk '{ a[NR] = $1 } END { printf "%.2fx", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
