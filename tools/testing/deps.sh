#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the build, the demo and the tests need, from Debian's
# apt only, and unpack the stock kernel image into the cache (never onto the
# host: the host kernel cannot load modules, the image only boots in QEMU).
# Idempotent: prints nothing when all is in place.
#
# Prints the stock kernel ABI (e.g. 6.1.0-57-amd64) on the last line of
# stdout, so callers can do: abi=$(tools/testing/deps.sh | tail -n1)
set -euo pipefail

cache=${UET_CACHE:-$HOME/.cache/uet}

# The stock kernel is whatever linux-image-amd64 depends on today.
stock_abi() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -n1
}

abi=$(stock_abi)
if [ -z "$abi" ]; then
	apt-get update -qq >&2
	abi=$(stock_abi)
fi
[ -n "$abi" ] || { echo "deps: cannot resolve linux-image-amd64 from apt" >&2; exit 1; }

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves ccache rsync
	cpio xz-utils zstd kmod busybox-static qemu-system-x86
	"linux-headers-$abi" linux-source-6.1
	iproute2 rdma-core ibverbs-utils ibverbs-providers libibverbs-dev
	perftest rdmacm-utils iperf3 python3-scapy libmnl-dev pkg-config iputils-ping ethtool
	linux-perf
	python3-yaml python3-jsonschema python3-pyverbs
	dkms man-db groff-base tshark tcpdump gnuplot-nox
	sparse coccinelle
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

stock=$cache/stock/$abi
if [ ! -e "$stock/.unpacked" ]; then
	echo "deps: unpacking linux-image-$abi into $stock" >&2
	rm -rf "$stock"
	mkdir -p "$stock"
	# apt's sandbox user must be able to write the download directory.
	dl=$(mktemp -d)
	chmod 777 "$dl"
	(cd "$dl" && apt-get download -qq "linux-image-$abi" >&2)
	dpkg-deb -x "$dl"/linux-image-*.deb "$stock/root"
	rm -rf "$dl"
	# The package leaves modules.dep to its postinst; modprobe in the VM needs it.
	depmod -b "$stock/root" "$abi"
	touch "$stock/.unpacked"
fi

# The netlink spec schemas and YNL of Linux 6.12 (selftests/netlink_spec.sh).
"$(dirname "$(readlink -f "$0")")/ynl/fetch.sh" >/dev/null

echo "$abi"
