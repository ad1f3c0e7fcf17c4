#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The install routes, from the tree, as root, without touching the host's
# module tree or dpkg database:
#
# 1. make install into a DESTDIR: every file where it belongs, depmod's
#    modules.dep and aliases, man pages that render without warnings;
#    make uninstall leaves the DESTDIR as it was.
# 2. make deb: uet-dkms and uet-tools, their dependencies and contents.
# 3. Both .debs unpacked into a scratch root, and DKMS (confined to it by
#    --dkmstree, --sourcetree and --installtree) builds the modules for the
#    stock kernel's headers and installs them beside the stock kernel's
#    modules, then one depmod over both.
# 4. The stock kernel boots in QEMU and install-guest.sh runs uet from the
#    scratch root only: modprobe, autoload by rdma link add and tc, uet,
#    uet-verify, the uet qdisc.
# 5. dkms remove (what the prerm runs) takes the modules out again.
#
# Ends with "install-test: passed in N s"; exits non-zero on the first
# failure.
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
top=$(readlink -f "$here/../..")
cache=${UET_CACHE:-$HOME/.cache/uet}
start=$SECONDS
abi=$("$here/deps.sh" | tail -n1)
stock=$cache/stock/$abi/root/lib/modules/$abi
ver=$(sed -n 's/^VERSION := //p' "$top/Makefile")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tools/testing/install-lib.sh
. "$here/install-lib.sh"

# man_clean PAGE: man and groff render PAGE without a warning.
man_clean() {
	local w
	w=$( { LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -l "$1" >/dev/null; } 2>&1)
	[ -z "$w" ] || { echo "$w" >&2; return 1; }
	w=$(zcat -f "$1" | groff -ww -z -man 2>&1)
	[ -z "$w" ] || { echo "$w" >&2; return 1; }
}

# tree ROOT: ROOT's files and directories, one a line.
tree() { (cd "$1" && find . | LC_ALL=C sort); }

man8=(uet uet-dev uet-qp uet-path uet-monitor uet-tune tc-uet)
multiarch=$(gcc -print-multiarch)
# make install's module directory is kmod's: kmod.pc's module_directory,
# else /lib/modules (kmod before kmod.pc had it hard-coded).
moddir=$(pkg-config --variable=module_directory kmod 2>/dev/null || true)
moddir=${moddir:-/lib/modules}
mods=${moddir#/}/$abi

# 1. make install / uninstall. Something already there must stay.
dest=$work/dest
mkdir -p "$dest/usr/sbin" "$dest/etc/modprobe.d"
: >"$dest/usr/sbin/other"
: >"$dest/etc/modprobe.d/other.conf"
tree "$dest" >"$work/before"
run "$work/install.log" make -C "$top" install DESTDIR="$dest"
want=(
	"$mods/updates/rdma_uet.ko" "$mods/updates/sch_uet.ko"
	usr/sbin/uet usr/bin/uet-verify "usr/lib/$multiarch/tc/q_uet.so"
	etc/modprobe.d/uet.conf usr/share/man/man1/uet-verify.1
)
for p in "${man8[@]}"; do want+=("usr/share/man/man8/$p.8"); done
for f in "${want[@]}"; do
	[ -f "$dest/$f" ] || fail "make install: no /$f"
done
[ -x "$dest/usr/sbin/uet" ] && [ -x "$dest/usr/bin/uet-verify" ] ||
	fail "make install: uet or uet-verify not executable"
grep -qx "updates/rdma_uet.ko:" "$dest/$mods/modules.dep" &&
	grep -qx "updates/sch_uet.ko:" "$dest/$mods/modules.dep" ||
	fail "make install: modules.dep does not list rdma_uet and sch_uet"
grep -qx "alias rdma-link-uet rdma_uet" "$dest/$mods/modules.alias" &&
	grep -qx "alias net-sch-uet sch_uet" "$dest/$mods/modules.alias" ||
	fail "make install: no alias rdma-link-uet or net-sch-uet"
grep -qx "#options rdma_uet udp_port=4793" "$dest/etc/modprobe.d/uet.conf" ||
	fail "make install: uet.conf has no commented udp_port line"
for f in "$dest"/usr/share/man/man*/*; do
	man_clean "$f" || fail "man page ${f##*/} renders with warnings"
done
ok "make install: ${#want[@]} files, the modules in kmod's $moddir, modules.dep and aliases, man pages render cleanly"
run "$work/uninstall.log" make -C "$top" uninstall DESTDIR="$dest"
tree "$dest" | diff -u "$work/before" - || fail "make uninstall left the above"
ok "make uninstall: the DESTDIR is as it was"

# 2. make deb
run "$work/deb.log" make -C "$top" deb DEB_DIR="$work/deb"
dkms_deb=$work/deb/uet-dkms_${ver}_all.deb
tools_deb=$work/deb/uet-tools_${ver}_$(dpkg --print-architecture).deb
[ -f "$dkms_deb" ] && [ -f "$tools_deb" ] || fail "make deb: $(ls "$work/deb")"
deps=$(dpkg-deb -f "$tools_deb" Depends)
for d in libmnl0 libibverbs1 iproute2 ibverbs-providers; do
	[[ ", $deps," == *", $d "* || ", $deps," == *", $d,"* ]] ||
		fail "uet-tools does not depend on $d: $deps"
done
[ "$(dpkg-deb -f "$dkms_deb" Depends)" = dkms ] || fail "uet-dkms does not depend on dkms"
[ "$(dpkg-deb --ctrl-tarfile "$tools_deb" | tar -xOf - ./conffiles)" = \
	/etc/modprobe.d/uet.conf ] || fail "uet.conf is not a conffile"
ok "make deb: $(cd "$work/deb" && echo *.deb); uet-tools depends on $deps"

# 3. The scratch root, DKMS for the stock kernel. The stock kernel's
# modules are linked in, not copied: depmod and modprobe follow the link.
vm=$work/vm
# Not "root": vm/run keeps the path of a root of its own there (-r).
root=$vm/sysroot
mkdir -p "$root/lib/modules/$abi" "$root/var/lib/dkms"
dpkg-deb -x "$dkms_deb" "$root"
dpkg-deb -x "$tools_deb" "$root"
for f in "$root/usr/share/man/man8/"*.8.gz "$root/usr/share/man/man1/"*.1.gz; do
	man_clean "$f" || fail "man page ${f##*/} (uet-tools) renders with warnings"
done
ln -s "$stock/kernel" "$root/lib/modules/$abi/kernel"
cp "$stock"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$abi/"
dkms=(dkms --dkmstree "$root/var/lib/dkms" --sourcetree "$root/usr/src"
	--installtree "$root/lib/modules" --no-depmod -m uet -v "$ver")
kdkms=("${dkms[@]}" -k "$abi" --kernelsourcedir "/usr/src/linux-headers-$abi")
# dkms signs what it builds, with a key it makes where it is told.
export mok_signing_key=$work/mok.key mok_certificate=$work/mok.pub
t=$SECONDS
run "$work/dkms-add.log" "${dkms[@]}" add
run "$work/dkms-build.log" "${kdkms[@]}" build
run "$work/dkms-install.log" "${kdkms[@]}" install
ok "dkms add, build, install for $abi: $((SECONDS - t)) s"
ko=$root/lib/modules/$abi/updates/dkms
for m in rdma_uet sch_uet; do
	[ "$(modinfo -F vermagic "$ko/$m.ko" | cut -d' ' -f1)" = "$abi" ] ||
		fail "$m.ko was not built for $abi"
done
run "$work/depmod.log" depmod -b "$root" "$abi"
grep -q "^updates/dkms/rdma_uet.ko: .*kernel/drivers/infiniband/core/ib_core.ko" \
	"$root/lib/modules/$abi/modules.dep" ||
	fail "modules.dep: no rdma_uet depending on the stock ib_core"
[ ! -e "/lib/modules/$abi/updates" ] && [ ! -e /var/lib/dkms/uet ] ||
	fail "dkms wrote outside the scratch root"
ok "DKMS modules for $abi in the scratch root, depmod over them and the stock modules"

# 4. The VM.
t=$SECONDS
"$top/tools/testing/vm/run" -k stock -t 900 -s "$vm" -- "$here/install-guest.sh" ||
	fail "the VM run with the installed files (exit $?)"
ok "VM run with the installed files: $((SECONDS - t)) s"

# 5. What uet-dkms's prerm runs.
run "$work/dkms-remove.log" "${dkms[@]}" remove --all
[ ! -e "$ko/rdma_uet.ko" ] && [ ! -e "$ko/sch_uet.ko" ] && [ ! -e "$root/var/lib/dkms/uet" ] ||
	fail "dkms remove left modules or its tree behind"
ok "dkms remove --all: modules and the DKMS tree gone"

echo "install-test: passed in $((SECONDS - start)) s"
