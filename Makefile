# SPDX-License-Identifier: GPL-2.0
#
# make          build rdma_uet.ko and sch_uet.ko against the stock kernel, and the tools
# make check    every test: KUnit and selftests on the debug kernel, selftests on stock
# make lint     sparse, coccinelle, kernel-doc and checkpatch on our kernel
#               sources (tools/testing/lint.sh; make check runs it first)
# make sim      the packet simulator's fixed-seed check (tools/sim/check.sh),
#               then its time series, the incast matrix and their PNGs
#               (gnuplot) into SIM_DIR (tools/sim/plots; SIM_DIR= skips them)
# make demo     a VM, two namespaces, a uet device in each
# make bench    the pictures (PNG, gnuplot): per-spine bytes, a spine failure,
#               an incast; data and PNGs into BENCH_DIR (tools/bench/bench.sh)
# make soak     the long tests (selftests/long_*.sh) on both kernels; SOAK_SECS=600
# make deps     install build and test dependencies (apt), unpack the stock kernel
# make install  modules, tools, man pages, modprobe.d snippet; DESTDIR, PREFIX
# make uninstall   removes what make install put there
# make deb      the uet-dkms and uet-tools .debs, into DEB_DIR
#
# KDIR=<tree> builds the modules against another kernel tree (on a real
# host: KDIR=/lib/modules/$(uname -r)/build); make install puts them under
# the kernel release of that tree.

VERSION := 0.1.0

UET_CACHE ?= $(HOME)/.cache/uet
export UET_CACHE

# make deb needs no kernel: it packs sources and the tools.
ifeq ($(KDIR),)
ifneq ($(filter-out deb,$(or $(MAKECMDGOALS),all)),)
STOCK_ABI := $(shell tools/testing/deps.sh | tail -n1)
ifeq ($(STOCK_ABI),)
$(error tools/testing/deps.sh failed: see its messages above)
endif
KDIR := /usr/src/linux-headers-$(STOCK_ABI)
endif
endif

# W=1 only reaches our files in an out-of-tree build.
KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) W=1 CONFIG_RDMA_UET=m CONFIG_NET_SCH_UET=m

PREFIX ?= /usr
MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null)
# tc's own library directory, wherever uet goes (iproute2's LIBDIR).
TC_LIB_DIR ?= /usr/lib/$(MULTIARCH)/tc
export PREFIX TC_LIB_DIR
# The release the modules are built for, as uname -r and their vermagic say
# it (Debian's headers have the upstream version in kernel.release).
KVER ?= $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# The module directory is kmod's, where depmod and modprobe look (and
# depmod -b DESTDIR writes): kmod.pc's module_directory where kmod ships
# one (Debian 13: /lib/modules, in libkmod-dev), else /lib/modules, as
# hard-coded in older kmod (Debian 12's 30 has no kmod.pc).
MODULE_DIR := $(or $(shell pkg-config --variable=module_directory kmod 2>/dev/null),/lib/modules)
MODDIR = $(DESTDIR)$(MODULE_DIR)/$(KVER)
MANDIR = $(PREFIX)/share/man
MAN8 := $(wildcard Documentation/man/*.8)
MAN1 := $(wildcard Documentation/man/*.1)
KOS := net/uet/rdma_uet.ko net/sched/sch_uet.ko
DEPMOD = depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
DEB_DIR ?= $(CURDIR)/build/deb

all: modules tools

modules:
	$(MAKE) $(KBUILD_ARGS) modules

tools:
	$(MAKE) -C tools

install: all
	@[ -n "$(KVER)" ] || { echo "no UTS_RELEASE in $(KDIR)/include/generated" >&2; exit 1; }
	install -D -m644 -t $(MODDIR)/updates $(KOS)
	$(DEPMOD)
	$(MAKE) -C tools install
	install -D -m644 -t $(DESTDIR)$(MANDIR)/man8 $(MAN8)
	install -D -m644 -t $(DESTDIR)$(MANDIR)/man1 $(MAN1)
	install -D -m644 tools/packaging/uet.conf $(DESTDIR)/etc/modprobe.d/uet.conf

# depmod's indexes go with the last module of a tree that only ours were in
# (a DESTDIR, a kernel without its modules), else they are made again. Under
# a DESTDIR the directories install made go too, when nothing else is there;
# elsewhere only updates/, which no package owns.
DEPMOD_FILES := modules.alias modules.alias.bin modules.builtin.alias.bin \
	modules.builtin.bin modules.dep modules.dep.bin modules.devname \
	modules.softdep modules.symbols modules.symbols.bin
uninstall:
	@[ -n "$(KVER)" ] || { echo "no UTS_RELEASE in $(KDIR)/include/generated" >&2; exit 1; }
	rm -f $(addprefix $(MODDIR)/updates/,$(notdir $(KOS)))
	[ ! -d $(MODDIR)/updates ] || rmdir --ignore-fail-on-non-empty $(MODDIR)/updates
	if [ -n "$$(find $(MODDIR) -name '*.ko*' -print -quit)" ]; then $(DEPMOD); \
	else rm -f $(addprefix $(MODDIR)/,$(DEPMOD_FILES)); fi
	$(MAKE) -C tools uninstall
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MAN8))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	      $(DESTDIR)/etc/modprobe.d/uet.conf
ifneq ($(DESTDIR),)
	cd $(DESTDIR)/ && for d in $(patsubst /%,%,$(MODULE_DIR))/$(KVER) etc/modprobe.d \
		$(patsubst /%,%,$(PREFIX)/sbin $(PREFIX)/bin $(MANDIR)/man8 $(MANDIR)/man1 \
		$(TC_LIB_DIR)); do [ ! -d $$d ] || rmdir -p --ignore-fail-on-non-empty $$d; done
endif

deb: tools
	tools/packaging/mkdeb.sh $(VERSION) $(DEB_DIR)

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	$(MAKE) -C tools clean
	rm -rf build

deps:
	@tools/testing/deps.sh >/dev/null

check: all
	tools/testing/check.sh

lint:
	KDIR=$(KDIR) tools/testing/lint.sh

# The pictures are no part of the check: without gnuplot, none is drawn.
SIM_DIR ?= $(CURDIR)/build/sim
sim:
	$(MAKE) -C tools/sim check
ifneq ($(SIM_DIR),)
	tools/sim/plots/series.sh $(SIM_DIR)
	@if command -v gnuplot >/dev/null; then tools/sim/plots/draw.sh $(SIM_DIR); \
	else echo "sim: no gnuplot (Debian: apt-get install gnuplot-nox): no PNGs drawn"; fi
endif

demo: all
	tools/testing/demo.sh

BENCH_DIR ?= $(CURDIR)/build/bench
bench: all
	tools/bench/bench.sh $(BENCH_DIR)

SOAK_SECS ?= 600
soak: all
	UET_SOAK_SECS=$(SOAK_SECS) tools/testing/soak.sh

.PHONY: all modules tools install uninstall deb clean deps check lint sim demo bench soak
