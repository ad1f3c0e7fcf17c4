#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the pictures by which a congestion control and a transport
# are judged. One boot of the stock kernel runs the fabric scenarios of
# tools/bench/fabric-guest.sh, which write plain data files (columns);
# then the host draws a PNG beside each with the gnuplot scripts of
# tools/bench/plots/ (draw.sh redraws them from the data alone).
#
#   bench.sh [DIR]           data and PNGs into DIR (default build/bench)
#   BENCH_SCENARIOS="multipath incast"   what runs, in this order (tuning,
#                            the congestion-control matrix on auto, runs
#                            only when named)
#   BENCH_TUNING_RATES, BENCH_TUNING_BYTES   the tuning scenario's port
#                            rates (Mbit/s) and bytes per sender
#   BENCH_VERBS=1            first, in the same boot, the throughput bench
#                            of verbs-guest.sh (BENCH_MTU, BENCH_QUICK, ...
#                            as tools/bench/verbs.sh takes them); its raw
#                            output is kept as DIR/verbs.out and verbs.sh
#                            prints its tables and draws throughput-mtu*.png
#
# Emulated time is slow: the figures are ratios within the boot (spray
# against single, the rate after a failure against the rate before).
set -euo pipefail
top=$(readlink -f "$(dirname "$0")/../..")
dir=$(realpath -m "${1:-$top/build/bench}")
scenarios=${BENCH_SCENARIOS:-multipath incast}
command -v gnuplot >/dev/null ||
	{ echo "bench.sh: gnuplot is needed (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }
mkdir -p "$dir"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmd="mkdir -p /mnt/data && rc=0"
if [ -n "${BENCH_VERBS:-}" ]; then
	cmd+=$(printf ' && echo "== verbs: the throughput bench (verbs-guest.sh)" && { env BENCH_MTU=%q BENCH_WIN=%q BENCH_QUICK=%q BENCH_RPS=%q BENCH_SHAPES=%q tools/bench/verbs-guest.sh | tee /mnt/data/verbs.out || rc=1; }' \
		"${BENCH_MTU:-1500 9000}" "${BENCH_WIN:-10}" "${BENCH_QUICK:-}" "${BENCH_RPS:-}" \
		"${BENCH_SHAPES:-65536:1 1048576:1 4096:1 65536:4}")
fi
for s in $scenarios; do
	cmd+=$(printf ' && echo "== %s" && { env BENCH_TUNING_RATES=%q BENCH_TUNING_BYTES=%q tools/bench/fabric-guest.sh %q /mnt/data || rc=1; }' \
		"$s" "${BENCH_TUNING_RATES:-}" "${BENCH_TUNING_BYTES:-}" "$s")
done
cmd+=' && exit $rc'
timeout=900
[ -z "${BENCH_VERBS:-}" ] || timeout=$((timeout + 3000))
# The tuning matrix: 9 incasts a rate (4.5 minutes for two rates).
[[ " $scenarios " != *" tuning "* ]] || timeout=$((timeout + 900))
echo "Booting the stock kernel for: ${BENCH_VERBS:+verbs }$scenarios (a few minutes)"
rc=0
cd "$top"
tools/testing/vm/run -k stock -t $timeout -s "$scratch" -- "$cmd" || rc=$?
cp "$scratch"/data/* "$dir"/ 2>/dev/null || true
if [ -e "$dir/verbs.out" ]; then
	tools/bench/verbs.sh "$dir/verbs.out" || rc=1
	tools/bench/plots/verbs-data.sh "$dir/verbs.out" "$dir" || rc=1
fi
echo
echo "Data files in $dir; the pictures:"
tools/bench/plots/draw.sh "$dir" || rc=1
exit "$rc"
