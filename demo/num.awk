# SPDX-License-Identifier: GPL-2.0
#
# num(x): a figure for the demo's text tables (scale-analyze.sh,
# headline-analyze.sh): "-" for none or nan, 0 as "0", then fewer
# decimals the larger it is (0 from 10,000, 1 from 100, 2 from 1, else 4).
function num(x) {
	if (x == "nan" || x == "") return "-"
	if (x + 0 == 0) return "0"
	if (x + 0 >= 10000) return sprintf("%.0f", x)
	if (x + 0 >= 100) return sprintf("%.1f", x)
	if (x + 0 >= 1) return sprintf("%.2f", x)
	return sprintf("%.4f", x)
}
