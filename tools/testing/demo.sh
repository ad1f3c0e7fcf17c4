#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: boot the stock kernel in a VM, build a two-host fabric out of
# namespaces, bring up a uet device on each host, and show what a user of
# rdma-core sees.
set -euo pipefail
top=$(readlink -f "$(dirname "$0")/../..")
cd "$top"
echo "Booting the stock kernel under QEMU (takes a few seconds)..."
exec tools/testing/vm/run -k stock -t 300 -- tools/testing/demo-guest.sh
