# SPDX-License-Identifier: GPL-2.0
#
# make          build rdma_uet.ko and sch_uet.ko against the stock kernel, and the tools
# make check    every test: KUnit and selftests on the debug kernel, selftests on stock
# make demo     a VM, two namespaces, a uet device in each
# make soak     the long tests (selftests/long_*.sh) on both kernels; SOAK_SECS=600
# make deps     install build and test dependencies (apt), unpack the stock kernel
#
# KDIR=<tree> builds the modules against another kernel tree.

UET_CACHE ?= $(HOME)/.cache/uet
export UET_CACHE

ifeq ($(KDIR),)
STOCK_ABI := $(shell tools/testing/deps.sh | tail -n1)
ifeq ($(STOCK_ABI),)
$(error tools/testing/deps.sh failed: see its messages above)
endif
KDIR := /usr/src/linux-headers-$(STOCK_ABI)
endif

# W=1 only reaches our files in an out-of-tree build.
KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) W=1 CONFIG_RDMA_UET=m CONFIG_NET_SCH_UET=m

all: modules tools

modules:
	$(MAKE) $(KBUILD_ARGS) modules

tools:
	$(MAKE) -C tools

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	$(MAKE) -C tools clean

deps:
	@tools/testing/deps.sh >/dev/null

check: all
	tools/testing/check.sh

demo: all
	tools/testing/demo.sh

SOAK_SECS ?= 600
soak: all
	UET_SOAK_SECS=$(SOAK_SECS) tools/testing/soak.sh

.PHONY: all modules tools clean deps check demo soak
