#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's run of the packet simulator: tools/sim/check.sh, its
# fixed-seed figures compared with tools/sim/expected.txt.
exec "$(dirname "$0")/../sim/check.sh"
