#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The YNL spec Documentation/netlink/specs/uet.yaml describes the generic
# netlink family "uet" the module registers: it validates against Linux
# 6.12's genetlink schema, its names and values are those of
# include/uapi/linux/uet.h, each request it describes lists exactly the
# attributes, types and checks of the policy the kernel registered for that
# operation (CTRL_CMD_GETPOLICY), and YNL's own cli, knowing the family only
# from the spec, dumps a device.
. "$(dirname "$0")/lib.sh"

top=$UET_SELFTESTS/..
spec=$top/Documentation/netlink/specs/uet.yaml
check=$top/tools/testing/ynl/check_spec.py

# The schema and YNL, unpacked by tools/testing/ynl/fetch.sh (deps.sh runs
# it). The VM runs with HOME=/tmp and without UET_CACHE: look in the cache
# of the host's root too.
ynl=
for d in ${UET_YNL:-} ${UET_CACHE:+"$UET_CACHE/src/ynl-6.12"} \
	"$HOME/.cache/uet/src/ynl-6.12" /root/.cache/uet/src/ynl-6.12; do
	if [ -e "$d/.unpacked" ]; then
		ynl=$d
		break
	fi
done
[ -n "$ynl" ] || skip "no YNL schema and library: run tools/testing/ynl/fetch.sh"
proto=$(sed -n 's/^protocol:[[:space:]]*//p' "$spec")
schema=$ynl/Documentation/netlink/${proto:-genetlink}.yaml

step "the YNL spec validates against the genetlink schema" \
	python3 "$check" validate "$spec" "$ynl/Documentation/netlink"
step "the spec matches include/uapi/linux/uet.h" \
	python3 "$check" header "$spec" "$top/include/uapi/linux/uet.h"

ns_add a
in_ns a ip link add veth0 type veth peer name veth1 || fail "veth pair"
in_ns a ip link set veth0 up
in_ns a ip link set veth1 up
uet_load
step "rdma link add uet0 in namespace a" in_ns a rdma link add uet0 type uet netdev veth0

step "the spec's requests match the policies the kernel registered" \
	python3 "$check" kernel "$spec"

# dev-get dumps the devices of the caller's namespace: the netdev's.
ynl_dump_names_uet0() {
	local out
	out=$(in_ns a python3 "$ynl/tools/net/ynl/cli.py" --spec "$spec" \
		--schema "$schema" --output-json --dump dev-get) || return 1
	printf '%s\n' "$out" | python3 -c '
import json, sys
devs = json.load(sys.stdin)
print("# dev-get dump: " + ", ".join(sorted(d.get("name", "?") for d in devs)))
sys.exit(not any(d.get("name") == "uet0" and d.get("netdev-name") == "veth0" for d in devs))' ||
		{ echo "$out"; return 1; }
}
step "YNL's cli dumps uet0 (on veth0) with dev-get" ynl_dump_names_uet0

# dev-set takes each numeric parameter as its own attribute too, with
# the range the policy gives it.
ynl_set() {
	in_ns a python3 "$ynl/tools/net/ynl/cli.py" --spec "$spec" \
		--schema "$schema" --do dev-set --json "$1"
}
mpr_is() {
	[ "$(in_ns a "$UET" -j dev show uet0 | python3 -c \
		'import json, sys; print(json.load(sys.stdin)[0]["mpr"])')" = "$1" ]
}
set_mpr_128() { ynl_set '{"name": "uet0", "mpr": 128}' >/dev/null && mpr_is 128; }
refused_mpr_0() { ! ynl_set '{"name": "uet0", "mpr": 0}' && mpr_is 128; }
step "dev-set by attribute: mpr 128" set_mpr_128
step "dev-set by attribute: mpr 0 refused, mpr unchanged" refused_mpr_0
