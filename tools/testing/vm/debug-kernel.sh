#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel: Debian's linux-source-6.1 with
# x86_64_defconfig + kvm_guest.config + debug.config + selftests/config.
# The result is cached under $UET_CACHE/debug/<source version>-<config
# hash>/ and reused until the source package or a fragment changes; ccache
# makes a rebuild after a fragment change cheaper (about 12 minutes instead
# of 25 to 35).
#
# Prints the cache directory on stdout. It holds bzImage, build/ (a KDIR for
# out-of-tree modules) and root/lib/modules/<release>/.
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
cache=${UET_CACHE:-$HOME/.cache/uet}
frags=("$here/debug.config" "$here/../../../selftests/config")

ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
hash=$(cat "${frags[@]}" | sha256sum | cut -c1-12)
out=$cache/debug/$ver-$hash

if [ -e "$out/.done" ]; then
	echo "$out"
	exit 0
fi

src=$("$here/../linux-source.sh")

export CCACHE_DIR=$cache/ccache
export KBUILD_BUILD_TIMESTAMP='2026-01-01' KBUILD_BUILD_USER=uet KBUILD_BUILD_HOST=uet
jobs=$(($(nproc) + 1))
mk=(make -s -C "$src" O="$out/build" CC="ccache gcc" -j"$jobs")

start=$(date +%s)
echo "debug-kernel: building into $out (log: $out/build.log)" >&2
rm -rf "$out"
mkdir -p "$out/build"
{
	"${mk[@]}" x86_64_defconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out/build" "$out/build/.config" \
		"$src/kernel/configs/kvm_guest.config" "${frags[@]}"
	"${mk[@]}" olddefconfig
	"${mk[@]}" bzImage modules
	"${mk[@]}" INSTALL_MOD_PATH="$out/root" modules_install
} >"$out/build.log" 2>&1 || {
	echo "debug-kernel: build failed, last lines of $out/build.log:" >&2
	tail -n 30 "$out/build.log" >&2
	exit 1
}

# Fail loudly if Kconfig dependencies dropped a checker we rely on, or
# something the suites need.
for opt in KASAN PROVE_LOCKING DEBUG_KMEMLEAK DEBUG_ATOMIC_SLEEP 9P_FS; do
	grep -q "^CONFIG_$opt=y" "$out/build/.config" ||
		{ echo "debug-kernel: CONFIG_$opt missing from the merged config" >&2; exit 1; }
done
for want in $(grep -x 'CONFIG_[A-Z0-9_]*=[ym]' "${frags[1]}"); do
	grep -qx "$want" "$out/build/.config" ||
		{ echo "debug-kernel: $want (selftests/config) not in the merged config" >&2; exit 1; }
done
cp "$out/build/arch/x86/boot/bzImage" "$out/bzImage"
echo "$(( $(date +%s) - start ))" >"$out/build-seconds"
touch "$out/.done"
# Older builds (another fragment or source version) are 800 MB each.
find "$cache/debug" -mindepth 1 -maxdepth 1 ! -path "$out" -exec rm -rf {} +
echo "debug-kernel: built in $(cat "$out/build-seconds") s" >&2
echo "$out"
