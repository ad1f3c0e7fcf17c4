#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/sim/check.sh [-u]: runs uet-sim's scenarios on fixed seeds and
# compares every figure they print with expected.txt, exactly: a change
# to a law the simulator shares with the module (packet delivery,
# congestion control, load balancing, entropy-value states, sch_uet's
# marking) shows as a changed number. -u writes what the runs print
# into expected.txt, after a change meant to move them. Then checks,
# within a tolerance, what the figures must mean whatever the laws: ECMP
# keeps 8 (1 - (7/8)^8) = 5.25 of 8 uplinks busy on average for 8
# single-path flows, spraying all 8; a failed link loses packets; a long
# link's port holds no more than the 2.5 RTT uet tune gives it. Exit
# status 0 when all hold, 1 otherwise.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
sim=$here/uet-sim
expected=$here/expected.txt

runs=(
	"uplinks --lb single"
	"uplinks --lb spray"
	"incast --cc nscc"
	"incast --cc dcqcn"
	"incast --cc none"
	"perm --lb reps"
	"blackhole --lb reps"
	"blackhole --lb spray"
	"slowspine --lb reps"
	"longhaul"
	"incast --tune --rtt-us 20 --cc nscc --bytes 0 --mpr 0 --max-us 2000"
	"incast --tune --rtt-us 20 --cc dcqcn --bytes 0 --mpr 0 --max-us 2000"
	"scale-incast"
)

make -s -C "$here" all
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "# uet-sim's figures on fixed seeds: tools/sim/check.sh -u wrote them."
	for run in "${runs[@]}"; do
		echo "== uet-sim $run"
		# shellcheck disable=SC2086 # a run is words: options, values
		"$sim" $run
	done
} >"$out"

status=0
if [ "${1:-}" = -u ]; then
	cp "$out" "$expected"
	echo "sim: expected.txt written"
elif diff -u "$expected" "$out"; then
	echo "sim: ${#runs[@]} runs print expected.txt's figures"
else
	echo "sim: the figures differ from expected.txt (- expected, + now);" \
	     "check.sh -u takes the new ones"
	status=1
fi

# The figure NAME of RUN.
figure() {
	awk -v run="== uet-sim $1" -v name="$2" '
		$0 == run { on = 1; next }
		/^== / { on = 0 }
		on && $1 == name { print $2 }' "$out"
}

# holds NAME VALUE LO HI: LO <= VALUE <= HI.
holds() {
	if awk -v x="$2" -v lo="$3" -v hi="$4" \
		'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; then
		echo "sim: ok: $1 $2 in [$3, $4]"
	else
		echo "sim: FAIL: $1 ${2:-none} not in [$3, $4]"
		status=1
	fi
}

holds "busy uplinks, lb single" \
	"$(figure "uplinks --lb single" busy_uplinks_mean)" 4.95 5.55
holds "busy uplinks, lb spray" \
	"$(figure "uplinks --lb spray" busy_uplinks_mean)" 7.9 8
holds "packets the failed link lost" \
	"$(figure "blackhole --lb spray" blackholed)" 1 1000000
holds "long link's peak queue, RTTs" \
	"$(figure longhaul peak_rtts)" 0 2.51
exit $status
