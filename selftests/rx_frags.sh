#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packets whose uet headers the stack leaves outside an skb's linear part,
# as a NIC that puts the UDP payload in page fragments does: uet0 runs on
# a tap whose writes become skbs of page fragments (IFF_NAPI_FRAGS), the
# first piece of a write in the linear part, each further one in a page
# fragment. Every kind of uet packet is written three ways: whole in the
# linear part, headers up to UDP there and the rest in a fragment, and
# only the first 2 bytes of the rest there; each must be judged the same
# way the three times (the counter that moves). None names a QP uet0 has,
# and uet0 has no peer: the well-formed ones count in drop_no_qp, which
# shows they were read to the end.
. "$(dirname "$0")/lib.sh"

[ -c /dev/net/tun ] || modprobe tun || skip "no tun"
ns_add a
uet_load

# The python below holds the tap open (closing it removes the tap, and
# uet0 with it), sets it up and writes the frames.
step "each uet packet, its headers in a page fragment, is judged as whole" \
	in_ns a python3 -c '
import fcntl, os, struct, subprocess, sys, time

TUNSETIFF = 0x400454ca
IFF_TAP, IFF_NO_PI, IFF_NAPI, IFF_NAPI_FRAGS = 0x2, 0x1000, 0x10, 0x20
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", b"tapu",
            IFF_TAP | IFF_NO_PI | IFF_NAPI | IFF_NAPI_FRAGS))
for cmd in ("ip link set tapu address 02:00:00:00:00:01",
            "ip addr add 10.0.0.1/24 dev tapu", "ip link set tapu up",
            "rdma link add uet0 type uet netdev tapu"):
    subprocess.run(cmd.split(), check=True)
port = "/sys/class/infiniband/uet0/ports/1/"
deadline = time.time() + 10
while "ACTIVE" not in open(port + "state").read():
    if time.time() > deadline:
        sys.exit("uet0 on tapu never became ACTIVE")
    time.sleep(0.05)

def counter(name):
    return int(open(port + "hw_counters/" + name).read())

def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff

def headers(pds_len):
    """Ethernet, IPv4 (DSCP 48) and UDP (checksum 0) from 10.0.0.2."""
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 48 << 2, 28 + pds_len, 1, 0x4000,
                     64, 17, 0, bytes([10, 0, 0, 2]), bytes([10, 0, 0, 1]))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    udp = struct.pack("!HHHH", 50000, 4793, 8 + pds_len, 0)
    return bytes.fromhex("020000000001" "020000000002" "0800") + ip + udp

QPN = 4660
verbs = struct.pack("!BBBBIIIQIII", 0, 4, 0, 0, 0, 64, 0, 0x1000, 1, 0, 64)
packets = {
    "probe answer": struct.pack("!HHIHH", 7 << 11 | 0x08, 0x1234, 1, 0, 0),
    "probe": struct.pack("!HHIHHI", 11 << 11 | 6 << 7, 0x1234, 0, 0, 0, 1),
    "CNP": struct.pack("!HHIHHI", 11 << 11 | 15 << 7, 0, 0, 17, QPN, 0),
    "ACK_CCX": struct.pack("!HHIHHBBHQQHBBI", 9 << 11, 0, 7, 17, QPN,
                           0, 255, 0, 0, 0, 0, 0, 0, 0),
    "NACK": struct.pack("!HBBIHHI", 10 << 11, 0x12, 0, 7, 17, QPN, 0),
    "data": struct.pack("!HHIHH", 2 << 11 | 15 << 7 | 0x04, 0, 7, 17, QPN) +
            verbs + bytes(64),
    "datagram": struct.pack("!HHIHHI", 6 << 11, 64, 0x80010000, 1, QPN, 0) +
                bytes(64),
    "short answer": struct.pack("!HHIHH", 7 << 11 | 0x08, 0x1234, 1, 0, 0)[:11],
}
expect = {name: "drop_no_qp" for name in packets}
expect["short answer"] = "drop_malformed"
drops = ("drop_malformed", "drop_no_qp", "drop_access", "drop_out_of_window",
         "drop_checksum")

def judged(pieces):
    """Write one frame in pieces (the first linear, the others page
    fragments): the drop counters that moved."""
    rx = counter("rx_packets")
    before = {c: counter(c) for c in drops}
    os.writev(fd, pieces)
    deadline = time.time() + 5
    while counter("rx_packets") == rx:
        if time.time() > deadline:
            return ["nothing (rx_packets did not move)"]
        time.sleep(0.02)
    time.sleep(0.05)
    return [c for c in drops if counter(c) != before[c]]

ok = True
for name, pds in packets.items():
    hdr = headers(len(pds))
    for layout, pieces in (("linear", [hdr + pds]),
                           ("paged", [hdr, pds]),
                           ("2 bytes linear", [hdr + pds[:2], pds[2:]])):
        moved = judged(pieces)
        print("# %s (%d bytes), %s: %s" % (name, len(pds), layout,
                                            " ".join(moved)))
        if moved != [expect[name]]:
            print("%s, %s: expected %s" % (name, layout, expect[name]))
            ok = False
sys.exit(0 if ok else 1)
'
exit 0
