#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernels our modules are built against, from this Debian 12 host:
#
#   6.1    Debian 12's own headers, on the host (what make uses)
#   6.12   Debian 13's linux-headers-amd64 (trixie)
#   7.N    the newest linux-headers-amd64 in trixie-backports
#
# Debian 13's headers are built with gcc-14, and their kbuild programs
# (fixdep, modpost, ...) need trixie's glibc (>= 2.38, the host has 2.36),
# so those kernels are built in a minimal trixie root (mmdebstrap, cached):
# gcc-14, make, libelf, pahole, with the headers unpacked into its /usr/src
# (their Makefiles include /usr/src/... by absolute path). Nothing of trixie
# goes into the host: its packages are fetched with an apt configuration of
# their own, under the cache.
#
#   kernels.sh list
#       one line per kernel, "NAME KDIR", KDIR as seen from the host; makes
#       what is missing first (cold: about a minute), else under 2 s
#   kernels.sh build NAME [--] MAKE-ARGS...
#       make -C KDIR M=<repo top> MAKE-ARGS, in the trixie root when NAME
#       needs it (the tree's own CC, x86_64-linux-gnu-gcc-14, through
#       ccache), on the host otherwise. NAME may also be MAJOR.x (7.x) when one kernel matches.
#   kernels.sh make DIR [--] MAKE-ARGS...
#       make -C DIR MAKE-ARGS in the trixie root (Debian 13's compiler and
#       libraries: our tools built against its rdma-core)
#   kernels.sh guest
#       "ROOT IMAGE": the root and kernel of the Debian 13 test host
#       (vm/run -k trixie), Debian 13's kernel unpacked into the root
#   kernels.sh source
#       the directory of the newest kernel's source (kernels.list's newest
#       line: linux-source-MAJOR.MINOR at its headers' version), fetched and
#       unpacked once under kernels/src (older trees there are removed):
#       the debug kernel is built from it (vm/debug-kernel.sh)
#
# UET_KMOD_DIR: the M= directory (default: the repo top); it is bind-mounted
# into the root at the same path, in a mount namespace of the build's own,
# so no mount outlives the build whatever way it ends.
# UET_CACHE: the cache (default ~/.cache/uet): kernels/ holds the apt state,
# the root (kernels/trixie) and kernels/kernels.list.
# UET_DEBIAN_MIRROR: the archive (default http://deb.debian.org/debian).
# Progress goes to stderr; stdout carries only list's lines.
set -euo pipefail

top=$(readlink -f "$(dirname "$0")/../..")
cache=${UET_CACHE:-$HOME/.cache/uet}
kc=$cache/kernels
root=$kc/trixie
mirror=${UET_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# What the root has besides apt's essentials; gcc-NN is added per kernel.
# perl: W=1 runs 6.12's kernel-doc (Pod::Usage); pahole: the modules' BTF;
# ccache: builds again of what did not change take seconds.
root_pkgs=(make libc6-dev libelf1t64 libssl3t64 zlib1g pahole perl ccache
	# The Debian 13 test host (vm/run -k trixie): what the selftests run,
	# and what builds our tools against its rdma-core.
	kmod mawk hostname procps iproute2 iputils-ping ethtool busybox-static xz-utils
	ibverbs-utils ibverbs-providers rdmacm-utils perftest python3-pyverbs
	libibverbs-dev librdmacm-dev libmnl-dev pkg-config gcc
	iperf3 tcpdump tshark python3-scapy python3-yaml python3-jsonschema
	# Two VMs on a virtio-net cable with UDP segmentation (QEMU >= 8.2),
	# and the BIOS it boots (a Recommends).
	qemu-system-x86 seabios)

# Prints a progress message on stderr.
say() { echo "kernels: $*" >&2; }

# Prints an error on stderr and exits.
die() { say "$*"; exit 1; }

# Installs the host packages named, from the host's own (bookworm) sources, when missing.
host_install() {
	local p out missing=()
	for p in "$@"; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	say "installing on the host: ${missing[*]}"
	if ! out=$(export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" 2>&1); then
		echo "$out" >&2
		die "apt-get install ${missing[*]} failed"
	fi
}

# Prints Debian 12's stock kernel ABI (e.g. 6.1.0-57-amd64), as deps.sh resolves it.
stock_abi() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -n1
}

# Prints the host kernel's line, installing its headers when missing.
host_line() {
	local abi
	abi=$(stock_abi)
	if [ -z "$abi" ]; then
		apt-get update -qq >&2
		abi=$(stock_abi)
	fi
	[ -n "$abi" ] || die "cannot resolve linux-image-amd64 from the host's apt"
	[ -e "/usr/src/linux-headers-$abi/Makefile" ] ||
		host_install build-essential "linux-headers-$abi"
	echo "${abi%.*-*-*} /usr/src/linux-headers-$abi"
}

# Runs apt-get or apt-cache ($1) with the trixie apt configuration under the cache.
tapt() {
	local tool=$1
	shift
	"$tool" -o Dir::Etc::SourceList="$kc/apt/sources.list" \
		-o Dir::Etc::SourceParts="$kc/apt/sources.list.d" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State="$kc/apt/state" -o Dir::State::status="$kc/apt/state/status" \
		-o Dir::Cache="$kc/apt/cache" -o APT::Sandbox::User=root "$@"
}

# Writes the trixie apt configuration and fetches its package lists.
tapt_update() {
	mkdir -p "$kc/apt/sources.list.d" "$kc/apt/state/lists/partial" \
		"$kc/apt/cache/archives/partial"
	touch "$kc/apt/state/status"
	cat >"$kc/apt/sources.list" <<-EOF
		deb [signed-by=$keyring] $mirror trixie main
		deb [signed-by=$keyring] $mirror trixie-backports main
	EOF
	say "apt update (trixie, trixie-backports) in $kc/apt"
	tapt apt-get update -qq >&2
}

# Prints the Depends of package $1 (version of suite $2 when given), one name a line.
tdepends() {
	tapt apt-cache show --no-all-versions "$1${2:+/$2}" 2>/dev/null |
		sed -n 's/^Depends: //p' | tr ',' '\n' | sed 's/^ *\([^ ]*\).*/\1/'
}

# Prints "NAME ABI GCC PKGS..." for the linux-headers-amd64 of suite $1, or nothing when it has none.
resolve() {
	local suite=$1 abi deps ver
	abi=$(tdepends linux-headers-amd64 "$suite" | sed -n 's/^linux-headers-\(.*-amd64\)$/\1/p')
	[ -n "$abi" ] || return 0
	deps=$(tdepends "linux-headers-$abi")
	ver=${abi%%+*}
	echo "${ver%.*}" "$abi" \
		"$(grep -o '^gcc-[0-9]*' <<<"$deps" | head -n1)" \
		"linux-headers-$abi" \
		"$(grep -x 'linux-headers-.*-common' <<<"$deps")" \
		"$(grep -x 'linux-kbuild-.*' <<<"$deps")"
}

# Creates the trixie root with the packages named, when it is missing or has other packages.
make_root() {
	local want="$*" t0
	[ "$(cat "$root/.uet-root" 2>/dev/null)" = "$want" ] && return 0
	host_install mmdebstrap debian-archive-keyring
	[ -e /usr/share/keyrings/debian-archive-trixie-stable.gpg ] ||
		die "the host's debian-archive-keyring has no trixie key: upgrade it"
	say "creating the trixie root in $root (about a minute)"
	t0=$(date +%s)
	rm -rf "$root" "$root.new"
	mmdebstrap --quiet --variant=apt --aptopt='APT::Install-Recommends "false"' \
		--include="$(tr ' ' , <<<"$want")" trixie \
		"$root.new" "deb [signed-by=$keyring] $mirror trixie main" >&2
	echo "$want" >"$root.new/.uet-root"
	mv "$root.new" "$root"
	say "root made in $(($(date +%s) - t0)) s, $(du -sh "$root" | cut -f1)"
}

# Unpacks a kernel's header packages (all but the first two words of $1) into the root once.
unpack_tree() {
	local abi=$2 dl
	shift 3
	[ -e "$root/usr/src/.uet-$abi" ] && return 0
	say "fetching and unpacking the headers of $abi"
	dl=$(mktemp -d "$kc/dl.XXXXXX")
	(cd "$dl" && tapt apt-get download -qq "$@" >&2)
	for deb in "$dl"/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
	rm -rf "$dl"
	touch "$root/usr/src/.uet-$abi"
}

# Succeeds when kernels.list, the root and every tree in it are in place.
ready() {
	local k abi
	[ -e "$kc/kernels.list" ] || return 1
	case $(cat "$root/.uet-root" 2>/dev/null) in
	"${root_pkgs[*]} "*) ;;
	*) return 1 ;;
	esac
	while read -r k abi; do
		[ -e "$root/usr/src/.uet-$abi" ] || return 1
	done <"$kc/kernels.list"
}

# Makes the root and the trixie kernels' trees and writes kernels.list, when not already there.
prepare() {
	local line lines=() gccs=() words k abi gcc suite
	ready && return 0
	[ "$(id -u)" = 0 ] || die "making the trixie root needs root"
	mkdir -p "$kc"
	exec 9>"$kc/.lock"
	flock 9
	ready && { exec 9>&-; return 0; }
	host_install mmdebstrap debian-archive-keyring
	tapt_update
	for suite in trixie trixie-backports; do
		line=$(resolve "$suite")
		if [ -z "$line" ]; then
			say "no linux-headers-amd64 in $suite: skipped"
			continue
		fi
		lines+=("$line")
		read -r k abi gcc _ <<<"$line"
		say "$suite: $abi ($gcc)"
		gccs+=("$gcc")
	done
	[ ${#lines[@]} -gt 0 ] || die "no trixie kernel found in $mirror"
	mapfile -t gccs < <(printf '%s\n' "${gccs[@]}" | sort -u)
	make_root "${root_pkgs[@]}" "${gccs[@]}"
	for line in "${lines[@]}"; do
		read -ra words <<<"$line"
		unpack_tree "${words[@]}"
	done
	printf '%s\n' "${lines[@]}" | cut -d' ' -f1,2 >"$kc/kernels.list.new"
	mv "$kc/kernels.list.new" "$kc/kernels.list"
	exec 9>&-
}

# Prints "ROOT IMAGE" of the Debian 13 test host: the trixie root and the
# image of Debian 13's kernel (kernels.list's first line), unpacked into
# the root once, with the index of its modules that modprobe reads.
guest() {
	local abi dl
	list >/dev/null
	abi=$(head -n1 "$kc/kernels.list" | cut -d' ' -f2)
	if [ ! -e "$root/boot/.uet-image-$abi" ]; then
		exec 9>"$kc/.lock"
		flock 9
		if [ ! -e "$root/boot/.uet-image-$abi" ]; then
			say "fetching and unpacking linux-image-$abi"
			dl=$(mktemp -d "$kc/dl.XXXXXX")
			(cd "$dl" && tapt apt-get download -qq "linux-image-$abi-unsigned" >&2)
			dpkg-deb -x "$dl"/linux-image-*.deb "$root"
			rm -rf "$dl"
			chroot "$root" depmod "$abi"
			touch "$root/boot/.uet-image-$abi"
		fi
		exec 9>&-
	fi
	echo "$root $root/boot/vmlinuz-$abi"
}

# Prints the newest kernel's unpacked source tree, fetching it once.
source_tree() {
	local k abi ver dir dl
	[ -e "$kc/kernels.list" ] || prepare
	read -r k abi < <(sort -V "$kc/kernels.list" | tail -n1)
	[ -n "$abi" ] || die "no kernel in $kc/kernels.list"
	ver=$(tapt apt-cache show --no-all-versions "linux-headers-$abi" 2>/dev/null |
		sed -n 's/^Version: //p')
	if [ -z "$ver" ]; then
		tapt_update
		ver=$(tapt apt-cache show --no-all-versions "linux-headers-$abi" |
			sed -n 's/^Version: //p')
	fi
	[ -n "$ver" ] || die "no version of linux-headers-$abi in trixie's lists"
	dir=$kc/src/linux-source-$ver
	if [ ! -e "$dir/.uet-unpacked" ]; then
		mkdir -p "$kc/src"
		exec 8>"$kc/src/.lock"
		flock 8
		if [ ! -e "$dir/.uet-unpacked" ]; then
			say "fetching and unpacking linux-source-$k $ver"
			dl=$(mktemp -d "$kc/dl.XXXXXX")
			(cd "$dl" && tapt apt-get download -qq "linux-source-$k=$ver" >&2)
			dpkg-deb --fsys-tarfile "$dl"/linux-source-*.deb |
				tar -xf - -C "$dl" --wildcards "./usr/src/linux-source-$k.tar.*"
			find "$kc/src" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
			mkdir -p "$dir"
			tar -xf "$dl/usr/src/linux-source-$k".tar.* -C "$dir" --strip-components=1
			rm -rf "$dl"
			touch "$dir/.uet-unpacked"
		fi
		exec 8>&-
	fi
	echo "$dir"
}

# Prints every kernel's "NAME KDIR" line, the host's first.
list() {
	local k abi
	host_line
	prepare
	while read -r k abi; do
		echo "$k $root/usr/src/linux-headers-$abi"
	done <"$kc/kernels.list"
}

# Runs make for kernel $1 with the remaining arguments, in the root when its KDIR is there.
build() {
	local name=$1 kdir m k d kernels matches=()
	shift
	[ "${1:-}" != "--" ] || shift
	kernels=$(list)
	while read -r k d; do
		[ "$k" = "$name" ] && { matches=("$d"); break; }
		[ "${k%%.*}.x" = "$name" ] && matches+=("$d")
	done <<<"$kernels"
	[ ${#matches[@]} = 1 ] || die "no single kernel named $name: see $0 list"
	kdir=${matches[0]}
	m=$(readlink -f "${UET_KMOD_DIR:-$top}")
	[ -d "$m" ] || die "no directory $m"
	case $kdir in
	"$root"/*) ;;
	*) exec make -C "$kdir" M="$m" "$@" ;;
	esac
	say "building in $m against ${kdir#"$root"} (trixie root)"
	in_root "$m" make -C "${kdir#"$root"}" M="$m" "$@"
}

# Runs a command in the root with directory $1 of the host bound at the same
# path; replaces this shell.
in_root() {
	local m
	m=$(readlink -f "$1")
	shift
	[ -d "$m" ] || die "no directory $m"
	mkdir -p "$root$m"
	# The mounts live in this namespace only: they end with its last process.
	# shellcheck disable=SC2016 # expanded by the inner bash
	exec unshare --mount --propagation private /bin/bash -euc '
		r=$1 m=$2
		shift 2
		mount -t proc proc "$r/proc"
		mount --bind /dev "$r/dev"
		mount --bind "$m" "$r$m"
		exec chroot "$r" /usr/bin/env -i \
			PATH=/usr/lib/ccache:/usr/sbin:/usr/bin:/sbin:/bin \
			CCACHE_DIR=/var/cache/uet-ccache \
			LANG=C.UTF-8 HOME=/root ${MAKEFLAGS:+MAKEFLAGS="$MAKEFLAGS"} "$@"
	' - "$root" "$m" "$@"
}

case ${1:-} in
list) list ;;
guest) guest ;;
source) source_tree ;;
build)
	[ $# -ge 2 ] || die "usage: $0 build NAME [--] MAKE-ARGS..."
	shift
	build "$@"
	;;
make)
	[ $# -ge 2 ] || die "usage: $0 make DIR [--] MAKE-ARGS..."
	list >/dev/null
	d=$2
	shift 2
	[ "${1:-}" != "--" ] || shift
	in_root "$d" make -C "$(readlink -f "$d")" "$@"
	;;
*)
	echo "usage: $0 list | guest | source | build NAME [--] MAKE-ARGS... | make DIR [--] MAKE-ARGS..." >&2
	exit 2
	;;
esac
