# SPDX-License-Identifier: GPL-2.0
#
# Loaded by every plot script, which sets dat (its data file, ARG1) and
# png (ARG2: the PNG to write, or empty to draw in the terminal with set
# terminal dumb, as make demo does) first: a loaded file has no ARGn.
if (png eq "") {
	set terminal dumb size 80,28 noenhanced
} else {
	set terminal pngcairo size 960,600 noenhanced font ",10"
	set output png
}
if (png ne "") { set grid }
set key outside right top vertical
# header(KEY): the number a data file's "# KEY VALUE" line gives.
header(key) = real(system(sprintf("awk '$1 == \"#\" && $2 == \"%s\" { print $3; exit }' '%s'", key, dat)))
