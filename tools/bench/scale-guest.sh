#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the scale bench's VM (tools/bench/scale.sh): for each device kind
# of SCALE_KINDS (default "uet rxe"; the kinds are tools/bench/devpair.sh's)
# and each QP count of SCALE_QPS (default "1 64 1024"), one run of
# tools/bench/qp_scale between device A and device B: that many RC QP
# pairs created and connected, the kernel memory they hold idle, WRITEs
# of 64 KiB over all of them for SCALE_SECS (default 10) of wall clock,
# SCALE_OUTSTANDING (default 2) in flight per QP, the last of each QP
# verified, and all destroyed (qp_scale.c says how each figure is
# taken). The program runs in A's namespace; its "result" lines are
# printed with the kind in front; the host script makes the summary.
. "$(dirname "$0")/../../selftests/lib.sh"
. "$(dirname "$0")/devpair.sh"

QPS=${SCALE_QPS:-1 64 1024}
KINDS=${SCALE_KINDS:-uet rxe}
SECS=${SCALE_SECS:-10}
OUTSTANDING=${SCALE_OUTSTANDING:-2}
PROG=$UET_TOOLS_DIR/bench/qp_scale
[ -x "$PROG" ] || fail "$PROG not built (make -C tools)"
T=$(mktemp -d)
on_exit "rm -rf $T"

for KIND in $KINDS; do
	echo "# $KIND: $(date +%T)"
	pair_up "$KIND"
	for n in $QPS; do
		rc=0
		run_in "$NS_A" timeout 900 "$PROG" -n "$n" -t "$SECS" -o "$OUTSTANDING" \
			"$DEV_A" "$GID_A" "$DEV_B" "$GID_B" >"$T/out" 2>&1 || rc=$?
		sed -e "s/^result /result kind=$KIND /" -e '/^result /!s/^/# /' "$T/out"
		[ "$rc" -eq 0 ] || echo "# $KIND, $n QPs: qp_scale exit $rc"
	done
	pair_down
done
exit 0
