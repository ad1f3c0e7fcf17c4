#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The .debs on Debian 13, as root, without touching the host's dpkg
# database or the shared trixie root of kernels.sh:
#
# 1. make deb on the host (Debian 12), as install-test.sh does: the same
#    two packages serve Debian 12 and 13.
# 2. An overlay of the trixie root (kernels.sh guest: Debian 13's kernel,
#    rdma-core, iproute2, merged /usr), writes going to a scratch upper
#    directory, in a mount namespace of this script's own so no mount
#    outlives it whatever way it ends. dkms (3.2) and openssl come from
#    trixie's archive when the root lacks them, with kernels.sh's apt lists.
# 3. dpkg -i of both .debs in that overlay, chrooted: dpkg checks their
#    Depends against Debian 13's packages, and uet-dkms's postinst has DKMS
#    build and install the modules for Debian 13's kernel, compressed as
#    its own modules are (.ko.xz), signed, with depmod run over them.
# 4. The uet tools built on Debian 12 resolve every library on Debian 13.
# 5. vm/run -k trixie -r OVERLAY boots Debian 13's kernel on the overlay
#    and install-guest.sh / runs uet as installed: modprobe, autoload by
#    rdma link add and tc, uet, uet-verify, the uet qdisc through tc's own
#    plugin directory.
# 6. dpkg --purge of both: the prerm's dkms remove takes the modules out,
#    and nothing of either package is left.
#
# Needs the VM lock held by the caller (check.sh holds it; by hand:
# flock /tmp/uet-vm.lock tools/testing/install-test-trixie.sh).
# Ends with "install-test-trixie: passed in N s"; exits non-zero on the
# first failure.
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
top=$(readlink -f "$here/../..")
cache=${UET_CACHE:-$HOME/.cache/uet}

# The mounts below live in this namespace only: they end with its last process.
if [ -z "${UET_INSTALL_TEST_NS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "install-test-trixie: needs root" >&2; exit 1; }
	UET_INSTALL_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

start=$SECONDS
ver=$(sed -n 's/^VERSION := //p' "$top/Makefile")
kc=$cache/kernels
# Packages the test adds to the root when it lacks them (kernels.sh's
# root_pkgs may carry them): DKMS, and openssl for its signing key.
extra_pkgs=(dkms openssl)

# shellcheck source=tools/testing/install-lib.sh
. "$here/install-lib.sh"

read -r root image < <("$here/kernels.sh" guest) || fail "no Debian 13 root (kernels.sh guest)"
abi=${image##*/vmlinuz-}
[ -d "$root/usr/lib/modules/$abi/kernel" ] || fail "no modules of $abi in $root"

work=$(mktemp -d)
merged=$work/root
# The overlay goes before its directories; --one-file-system keeps rm out
# of anything still mounted there.
cleanup() {
	umount "$merged" 2>/dev/null || umount -l "$merged" 2>/dev/null || true
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# in_root CMD...: CMD chrooted into the overlay, with /proc and /dev as
# kernels.sh's in_root gives them, in a mount namespace of its own, with a
# clean environment.
in_root() {
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare --mount --propagation private /bin/bash -euc '
		r=$1
		shift
		mount -t proc proc "$r/proc"
		mount --bind /dev "$r/dev"
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			LANG=C.UTF-8 HOME=/root DEBIAN_FRONTEND=noninteractive "$@"
	' - "$merged" "$@"
}

# tapt ARGS...: apt-get with kernels.sh's trixie sources and lists, judging
# what is installed by the root's dpkg status; its caches are this test's.
tapt() {
	apt-get -o Dir::Etc::SourceList="$kc/apt/sources.list" \
		-o Dir::Etc::SourceParts="$kc/apt/sources.list.d" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State="$kc/apt/state" -o Dir::State::status="$root/var/lib/dpkg/status" \
		-o Dir::Cache="$cache/install-test/apt" -o APT::Sandbox::User=root \
		-o APT::Install-Recommends=false "$@"
}

# fetch_extra DIR: the .debs of extra_pkgs and what they need that the root
# lacks, fetched once into the cache, copied into DIR; prints their count.
fetch_extra() {
	local dir=$1 arc=$cache/install-test/apt/archives name v a f n=0
	mkdir -p "$arc/partial"
	tapt -s install "${extra_pkgs[@]}" >"$work/apt-s.log" 2>&1 ||
		{ cat "$work/apt-s.log" >&2; fail "apt cannot install ${extra_pkgs[*]} on the root"; }
	tapt -qq --download-only install "${extra_pkgs[@]}" >"$work/apt-d.log" 2>&1 ||
		{ cat "$work/apt-d.log" >&2; fail "fetching ${extra_pkgs[*]} (kernels.sh's lists in $kc/apt may be stale)"; }
	# "Inst NAME (VERSION SUITE [ARCH])"; an epoch's colon is %3a in the file name.
	while read -r name v a; do
		f=$arc/${name}_${v//:/%3a}_$a.deb
		[ -f "$f" ] || fail "apt did not fetch $f"
		cp "$f" "$dir/"
		n=$((n + 1))
	done < <(sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*\[\(.*\)\])$/\1 \2 \3/p' "$work/apt-s.log")
	echo "$n"
}

# 1. make deb
run "$work/deb.log" make -C "$top" deb DEB_DIR="$work/deb"
dkms_deb=$work/deb/uet-dkms_${ver}_all.deb
tools_deb=$work/deb/uet-tools_${ver}_$(dpkg --print-architecture).deb
[ -f "$dkms_deb" ] && [ -f "$tools_deb" ] || fail "make deb: $(ls "$work/deb")"
ok "make deb on the host: uet-tools depends on $(dpkg-deb -f "$tools_deb" Depends)"

# 2. The overlay. Kernels other than Debian 13's own (trixie-backports'
# headers, for kernel-builds.sh) are hidden from it: a Debian 13 host has
# its stock kernel, and DKMS would build for every tree with headers.
mkdir -p "$work/upper" "$work/ovl" "$merged"
mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper,workdir=$work/ovl" "$merged" ||
	fail "cannot mount an overlay of $root"
for d in "$merged"/usr/lib/modules/*/; do
	d=${d%/}
	[ "${d##*/}" = "$abi" ] || rm -rf "$d"
done
debs=$merged/var/cache/uet-install
mkdir -p "$debs/extra"
n=$(fetch_extra "$debs/extra")
if [ "$n" -gt 0 ]; then
	run "$work/extra.log" in_root sh -c 'dpkg -i /var/cache/uet-install/extra/*.deb'
fi
dkms_ver=$(in_root dpkg-query -W -f="\${Version}" dkms)
ok "overlay of the trixie root ($abi), dkms $dkms_ver ($n packages added from trixie)"

# 3. dpkg -i, DKMS for Debian 13's kernel.
cp "$dkms_deb" "$tools_deb" "$debs/"
t=$SECONDS
run "$work/dpkg-i.log" in_root sh -c 'dpkg -i /var/cache/uet-install/*.deb'
for p in uet-dkms uet-tools; do
	[ "$(in_root dpkg-query -W -f="\${Status}" "$p")" = "install ok installed" ] ||
		fail "$p is not installed: $(cat "$work/dpkg-i.log")"
done
in_root dkms status -m uet -v "$ver" -k "$abi" | grep -q ": installed$" ||
	fail "dkms status: uet is not installed for $abi: $(cat "$work/dpkg-i.log")"
ok "dpkg -i uet-dkms uet-tools: Debian 13 satisfies their Depends, the postinst's DKMS built for $abi: $((SECONDS - t)) s"
ko=/lib/modules/$abi/updates/dkms
for m in rdma_uet sch_uet; do
	[ -f "$merged$ko/$m.ko.xz" ] || fail "no $ko/$m.ko.xz: $(ls "$merged$ko" 2>&1)"
	[ "$(in_root modinfo -F vermagic "$ko/$m.ko.xz" | cut -d' ' -f1)" = "$abi" ] ||
		fail "$m.ko.xz was not built for $abi"
	in_root modinfo -F signer "$ko/$m.ko.xz" | grep -q "DKMS module signing key" ||
		fail "$m.ko.xz is not signed with DKMS's key"
done
grep -q "^updates/dkms/rdma_uet.ko.xz: .*kernel/drivers/infiniband/core/ib_core.ko.xz" \
	"$merged/usr/lib/modules/$abi/modules.dep" ||
	fail "modules.dep: no rdma_uet depending on the stock ib_core"
[ ! -e "$root/usr/lib/modules/$abi/updates" ] && [ ! -e "$root/var/lib/dkms/uet" ] ||
	fail "dkms wrote into the shared trixie root"
ok "rdma_uet.ko.xz and sch_uet.ko.xz in /usr/lib/modules/$abi/updates/dkms, signed, in modules.dep"

# 4. Tools built on Debian 12, on Debian 13's libraries.
for f in /usr/sbin/uet /usr/bin/uet-verify "/usr/lib/$(gcc -print-multiarch)/tc/q_uet.so"; do
	[ -f "$merged$f" ] || fail "uet-tools has no $f"
	in_root ldd "$f" >"$work/ldd.log" 2>&1 || { cat "$work/ldd.log" >&2; fail "ldd $f"; }
	! grep -q "not found" "$work/ldd.log" || { cat "$work/ldd.log" >&2; fail "$f: a library is missing"; }
done
in_root uet help 2>&1 | grep -q "^Usage: uet " || fail "uet does not run on Debian 13"
in_root uet-verify --help 2>&1 | grep -q "^Usage: uet-verify " ||
	fail "uet-verify does not run on Debian 13"
ok "uet, uet-verify and q_uet.so find all their libraries on Debian 13"

# 5. The VM: Debian 13's kernel booted on the overlay.
t=$SECONDS
"$top/tools/testing/vm/run" -k trixie -r "$merged" -t 900 -- "$here/install-guest.sh" / ||
	fail "the VM run with the installed packages (exit $?)"
ok "VM run on Debian 13 with the installed packages: $((SECONDS - t)) s"

# 6. dpkg --purge: the prerm runs dkms remove.
run "$work/dpkg-purge.log" in_root dpkg --purge uet-tools uet-dkms
left=$(find "$merged/usr/lib/modules/$abi" -name 'rdma_uet.ko*' -o -name 'sch_uet.ko*')
[ -z "$left" ] || fail "modules left: $left"
! grep -q '^updates/dkms/' "$merged/usr/lib/modules/$abi/modules.dep" || fail "modules.dep still lists DKMS modules"
[ ! -e "$merged/var/lib/dkms/uet" ] && [ ! -e "$merged/usr/src/uet-$ver" ] &&
	[ ! -e "$merged/usr/sbin/uet" ] && [ ! -e "$merged/etc/modprobe.d/uet.conf" ] ||
	fail "dpkg --purge left files of uet behind"
ok "dpkg --purge: modules, DKMS tree, sources, tools and conffile gone"

echo "install-test-trixie: passed in $((SECONDS - start)) s"
