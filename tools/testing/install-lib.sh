# SPDX-License-Identifier: GPL-2.0
#
# Sourced by install-test.sh and install-test-trixie.sh: how they report.

# ok WHAT: a step that passed.
ok() { echo "ok: $*"; }

# fail WHAT: the first step that failed ends the test.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# run LOG CMD...: CMD's output goes to LOG, shown if CMD fails.
run() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$*"; }
}
