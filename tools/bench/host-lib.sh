#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the host scripts of the benches that boot the stock kernel
# once, run a guest script there and summarise its raw output
# (tools/bench/latency.sh, scale.sh, verbs.sh, lbcc.sh): what they share
# before their summary. Sourcing it sets top (the tree's top directory),
# rc (0) and cmd ("env", the guest's command being built); then:
#
#   bench_env NAME=DEFAULT...   appends " NAME=VALUE" to cmd for each:
#                        the environment's NAME, or DEFAULT when NAME is
#                        unset or empty, quoted for the guest's shell
#   bench_env_uet        appends UET_KO_DIR and UET_TOOLS_DIR, those that
#                        are set (another build of the modules, the tools:
#                        selftests/lib.sh)
#   bench_boot KNOB TIMEOUT GUEST [FILE]
#                        given FILE (the script's first argument, a kept
#                        output): out is FILE, nothing runs. Else appends
#                        GUEST to cmd and boots the stock kernel to run it
#                        (at most TIMEOUT s) in the tree, the guest's
#                        output shown and kept in out: the file named by
#                        the variable KNOB (e.g. LAT_OUT), or a temporary
#                        one removed at exit; rc is the VM's status.
#
# The scripts pass their arguments on: bench_boot LAT_OUT 2400
# tools/bench/latency-guest.sh "$@"; then "SCRIPT FILE" prints the
# summary of a kept output again without a VM.

# What this file sets is read by the scripts that source it.
# shellcheck disable=SC2034
top=$(readlink -f "$(dirname "${BASH_SOURCE[0]}")/../..")
rc=0
cmd='env'
out=

bench_env() {
	local a name
	for a; do
		name=${a%%=*}
		cmd+=$(printf ' %s=%q' "$name" "${!name:-${a#*=}}")
	done
}

bench_env_uet() {
	[ -z "${UET_KO_DIR:-}" ] || cmd+=$(printf ' UET_KO_DIR=%q' "$UET_KO_DIR")
	[ -z "${UET_TOOLS_DIR:-}" ] || cmd+=$(printf ' UET_TOOLS_DIR=%q' "$UET_TOOLS_DIR")
}

bench_boot() {
	local knob=$1 timeout=$2 guest=$3
	if [ $# -gt 3 ]; then
		out=$4
		return 0
	fi
	out=${!knob:-$(mktemp)}
	[ -n "${!knob:-}" ] || trap 'rm -f "$out"' EXIT
	out=$(realpath -m "$out")
	cmd+=" $guest"
	# The VM runs the command in the caller's directory.
	cd "$top" || return
	tools/testing/vm/run -k stock -t "$timeout" -- "$cmd" | tee "$out" || rc=$?
}
