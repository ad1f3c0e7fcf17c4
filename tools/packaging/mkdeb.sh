#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the uet-dkms and uet-tools .debs from the tree with dpkg-deb, no
# debhelper (make deb calls this after building the tools).
#
#   mkdeb.sh VERSION OUTDIR
#
# uet-dkms: the module sources in /usr/src/uet-VERSION with dkms.conf;
# its maintainer scripts add, build and install them with dkms.
# uet-tools: uet, uet-verify, q_uet.so, the man pages and the modprobe.d
# snippet, installed by the tools' own install targets; its library
# dependencies come from dpkg-shlibdeps.
set -euo pipefail

[ $# -eq 2 ] || { sed -n '7s/^# \{0,1\}//p' "$0" >&2; exit 2; }
ver=$1 out=$2
here=$(dirname "$(readlink -f "$0")")
top=$(readlink -f "$here/../..")
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
maint="uet <uet@localhost>"

mkdir -p "$out"
out=$(readlink -f "$out")
# dpkg-shlibdeps wants debian/control beside the packages' directories.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/debian"
: >"$work/debian/control"

# Debian policy 12.3 (copyright) and 12.1 (man pages, gzip -9n).
doc() {
	install -D -m644 "$here/copyright" "$1/usr/share/doc/$2/copyright"
}

subst() { sed "s/@VERSION@/$ver/g" "$1"; }

# Installed-Size in KiB (Debian policy 5.6.20).
installed_size() { du -sk --exclude=DEBIAN "$1" | cut -f1; }

md5sums() {
	(cd "$1" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
		LC_ALL=C sort -z | xargs -0r md5sum) >"$1/DEBIAN/md5sums"
}

build() {
	local d=$1 name=$2 a=$3
	md5sums "$d"
	dpkg-deb --root-owner-group -Zxz --build "$d" "$out/${name}_${ver}_$a.deb" >/dev/null
	echo "$out/${name}_${ver}_$a.deb"
}

# uet-dkms
d=$work/debian/uet-dkms
src=$d/usr/src/uet-$ver
mkdir -p "$src" "$d/DEBIAN"
# Sources only: a built tree also holds kbuild's generated *.mod.c.
(cd "$top" && find Kbuild net/uet net/sched include compat -type f \
	\( -name 'Kbuild*' -o -name '*.[ch]' -o -name probe.sh \) \
	! -name '*.mod.c' ! -name compat_config.h -print0 |
	xargs -0 cp --parents -t "$src")
subst "$here/dkms.conf.in" >"$src/dkms.conf"
doc "$d" uet-dkms
for s in postinst prerm; do
	subst "$here/uet-dkms.$s" >"$d/DEBIAN/$s"
	chmod 755 "$d/DEBIAN/$s"
done
cat >"$d/DEBIAN/control" <<EOC
Package: uet-dkms
Version: $ver
Architecture: all
Maintainer: $maint
Installed-Size: $(installed_size "$d")
Depends: dkms
Section: kernel
Priority: optional
Description: Ultra Ethernet style RDMA transport and switch-port qdisc (DKMS)
 Sources of rdma_uet, a software RDMA device carrying RC verbs over UDP
 with multipath spraying, selective retransmission and NSCC or DCQCN
 congestion control, and of sch_uet, a qdisc that makes a Linux port
 behave like an Ultra Ethernet switch port (ECN at dequeue, trimming).
 DKMS builds them for every installed kernel with headers.
EOC
build "$d" uet-dkms all

# uet-tools
d=$work/debian/uet-tools
mkdir -p "$d/DEBIAN"
for t in uet verify tc; do
	make -s -C "$top/tools/$t" install DESTDIR="$d" PREFIX=/usr \
		TC_LIB_DIR="/usr/lib/$multiarch/tc"
done
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$d/usr/sbin/uet" "$d/usr/bin/uet-verify" "$d/usr/lib/$multiarch/tc/q_uet.so"
install -D -m644 -t "$d/usr/share/man/man8" "$top"/Documentation/man/*.8
install -D -m644 -t "$d/usr/share/man/man1" "$top"/Documentation/man/*.1
gzip -9n "$d"/usr/share/man/man*/*
install -D -m644 "$here/uet.conf" "$d/etc/modprobe.d/uet.conf"
echo /etc/modprobe.d/uet.conf >"$d/DEBIAN/conffiles"
doc "$d" uet-tools
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e"$d/usr/sbin/uet" \
	-e"$d/usr/bin/uet-verify" -e"$d/usr/lib/$multiarch/tc/q_uet.so" |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "mkdeb: dpkg-shlibdeps found no libraries" >&2; exit 1; }
cat >"$d/DEBIAN/control" <<EOC
Package: uet-tools
Version: $ver
Architecture: $arch
Maintainer: $maint
Installed-Size: $(installed_size "$d")
Depends: $shlibs, iproute2, ibverbs-providers
Recommends: uet-dkms
Section: net
Priority: optional
Description: tools for uet RDMA devices and the uet qdisc
 uet shows and tunes uet devices, QPs and paths and watches their events
 over generic netlink; q_uet.so is the tc plugin of the uet qdisc;
 uet-verify moves RDMA WRITE, SEND and READ traffic between two hosts
 and checks every byte. The rdma-core rxe provider (ibverbs-providers)
 drives uet devices; rdma and tc come from iproute2.
EOC
build "$d" uet-tools "$arch"
