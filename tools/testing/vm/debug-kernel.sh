#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel: the newest kernel source Debian offers
# (kernels.sh source: trixie-backports' linux-source-7.N), configured as
# allnoconfig + debug.config (what the VM needs, and the checkers) +
# selftests/config (what the suites need): nothing else is built. It is
# compiled on the host, with the host's gcc (Debian 12's gcc-12) through
# ccache, so debug-modules.sh builds our modules with the same compiler.
# The result is cached under $UET_CACHE/debug/<source version>-<config
# hash>/ and reused until the source package or a fragment changes.
# On the 2-core build machine, cold (empty ccache) 43 CPU minutes (7.3:
# about 22 minutes when the machine is idle), after a fragment change with
# the ccache warm 14 CPU minutes.
#
# Prints the cache directory on stdout. It holds bzImage, build/ (a KDIR for
# out-of-tree modules) and root/lib/modules/<release>/.
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
cache=${UET_CACHE:-$HOME/.cache/uet}
frags=("$here/debug.config" "$here/../../../selftests/config")

# How the fragments are applied, part of the cache key with them. ARCH=x86_64:
# allnoconfig for ARCH=x86 starts from a 32-bit kernel, whose defaults
# (FRAME_WARN 1280, frame pointers) outlive 64BIT=y.
recipe="ARCH=x86_64 allnoconfig"
src=$("$here/../kernels.sh" source)
ver=${src##*/linux-source-}
hash=$({ echo "$recipe"; cat "${frags[@]}"; } | sha256sum | cut -c1-12)
out=$cache/debug/$ver-$hash

if [ -e "$out/.done" ]; then
	echo "$out"
	exit 0
fi

export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export KBUILD_BUILD_TIMESTAMP='2026-01-01' KBUILD_BUILD_USER=uet KBUILD_BUILD_HOST=uet
jobs=$(($(nproc) + 1))
mk=(make -s -C "$src" O="$out/build" ARCH=x86_64 CC="ccache gcc" -j"$jobs")

# One builder at a time (a second caller waits, then takes its result).
mkdir -p "$cache/debug"
exec 8>"$cache/debug/.lock"
flock 8
if [ -e "$out/.done" ]; then
	echo "$out"
	exit 0
fi

start=$(date +%s)
echo "debug-kernel: building $ver into $out (log: $out/build.log)" >&2
rm -rf "$out"
mkdir -p "$out/build"
{
	"${mk[@]}" allnoconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out/build" "$out/build/.config" \
		"${frags[@]}"
	"${mk[@]}" olddefconfig
} >"$out/build.log" 2>&1 || {
	echo "debug-kernel: configuring failed, last lines of $out/build.log:" >&2
	tail -n 30 "$out/build.log" >&2
	exit 1
}

# Fail loudly if Kconfig dropped an option of the fragments (a dependency
# unmet, or a symbol renamed in a newer kernel): a checker we rely on, or
# something the VM or the suites need. "=n" lines must not end up set.
for opt in KASAN PROVE_LOCKING DEBUG_KMEMLEAK DEBUG_ATOMIC_SLEEP 9P_FS; do
	grep -q "^CONFIG_$opt=y" "$out/build/.config" ||
		{ echo "debug-kernel: CONFIG_$opt missing from the merged config" >&2; exit 1; }
done
bad=0
for f in "${frags[@]}"; do
	while read -r want; do
		case $want in
		*=n) ! grep -q "^${want%=n}=" "$out/build/.config" ;;
		*) grep -qx "$want" "$out/build/.config" ;;
		esac || {
			echo "debug-kernel: $want (${f##*/}) not in the merged config" >&2
			bad=1
		}
	done < <(grep -x 'CONFIG_[A-Z0-9_]*=[^ ]*' "$f")
done
[ "$bad" = 0 ] || exit 1

{
	"${mk[@]}" bzImage modules
	"${mk[@]}" INSTALL_MOD_PATH="$out/root" modules_install
} >>"$out/build.log" 2>&1 || {
	echo "debug-kernel: build failed, last lines of $out/build.log:" >&2
	tail -n 30 "$out/build.log" >&2
	exit 1
}
cp "$out/build/arch/x86/boot/bzImage" "$out/bzImage"
echo "$(( $(date +%s) - start ))" >"$out/build-seconds"
touch "$out/.done"
# Older builds (another fragment or source version) take room.
find "$cache/debug" -mindepth 1 -maxdepth 1 -type d ! -path "$out" -exec rm -rf {} +
echo "debug-kernel: built in $(cat "$out/build-seconds") s" >&2
echo "$out"
