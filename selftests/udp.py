#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP traffic for the selftests.

  udp.py send DST PORT --count N --size BYTES [--tos T]
      N datagrams back to back, each carrying its sequence number.
  udp.py bursts DEV DST PORT --bursts B --count N --size BYTES --rate RATE [--tos T]
      B bursts of N datagrams into the uet qdisc on DEV, each queued while
      the port is paused (rate 8bit) and drained at RATE before the next.
  udp.py capture IFACE PORT --count N --timeout S --ready FILE --out FILE
      Raw IP packets to PORT, as seen on IFACE, in arrival order: JSON list
      of hex strings. Touches FILE once listening.
  udp.py summary FILE [--checksums]
      One JSON object per captured packet: seq, dscp, ecn, ip_len,
      ip_len_field, udp_len, udp_bytes, v6; with --checksums also
      ip_csum_ok and udp_csum_ok, verified with scapy.
"""
import argparse
import json
import socket
import struct
import subprocess
import sys
import time

ETH_P_ALL = 0x0003


def sender(dst, tos):
    fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, tos)
    else:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    return s


def send_seq(s, args, first, count):
    pad = bytes(i & 0xff for i in range(max(args.size - 8, 0)))
    for seq in range(first, first + count):
        s.sendto(struct.pack('!Q', seq) + pad, (args.dst, args.port))


def send(args):
    send_seq(sender(args.dst, args.tos), args, args.first, args.count)


def tc_rate(dev, rate):
    subprocess.run(['tc', 'qdisc', 'change', 'dev', dev, 'root', 'uet', 'rate', rate],
                   check=True)


def bursts(args):
    s = sender(args.dst, args.tos)
    for b in range(args.bursts):
        tc_rate(args.dev, '8bit')
        send_seq(s, args, b * args.count, args.count)
        tc_rate(args.dev, args.rate)
        deadline = time.monotonic() + 30
        while b'backlog 0b 0p' not in subprocess.run(
                ['tc', '-s', 'qdisc', 'show', 'dev', args.dev],
                capture_output=True, check=True).stdout:
            if time.monotonic() > deadline:
                sys.exit('the queue did not drain')
            time.sleep(0.02)


def capture(args):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((args.iface, 0))
    s.settimeout(0.2)
    open(args.ready, 'w').close()
    pkts = []
    deadline = time.monotonic() + args.timeout
    while len(pkts) < args.count and time.monotonic() < deadline:
        try:
            frame, addr = s.recvfrom(65535)
        except socket.timeout:
            continue
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        ip = frame[14:]
        if not ip:
            continue
        if ip[0] >> 4 == 4 and len(ip) >= 28 and ip[9] == 17:
            udp = ip[(ip[0] & 0xf) * 4:]
        elif ip[0] >> 4 == 6 and len(ip) >= 48 and ip[6] == 17:
            udp = ip[40:]
        else:
            continue
        if struct.unpack('!H', udp[2:4])[0] != args.port:
            continue
        pkts.append(ip.hex())
    with open(args.out, 'w') as f:
        json.dump(pkts, f)


def checksums(raw, v6):
    # scapy is slow to import under emulation: only when asked.
    from scapy.layers.inet import IP, UDP
    from scapy.layers.inet6 import IPv6

    pkt = IPv6(raw) if v6 else IP(raw)
    ref = pkt.copy()
    if not v6:
        del ref[IP].chksum
    del ref[UDP].chksum
    ref = (IPv6 if v6 else IP)(bytes(ref))
    return {
        'ip_csum_ok': v6 or pkt[IP].chksum == ref[IP].chksum,
        'udp_csum_ok': pkt[UDP].chksum == ref[UDP].chksum or
                       (not v6 and pkt[UDP].chksum == 0),
    }


def summary(args):
    for h in json.load(open(args.file)):
        raw = bytes.fromhex(h)
        v6 = raw[0] >> 4 == 6
        if v6:
            tc = (struct.unpack('!I', raw[:4])[0] >> 20) & 0xff
            ip_len_field = struct.unpack('!H', raw[4:6])[0] + 40
            l3 = 40
        else:
            tc = raw[1]
            ip_len_field = struct.unpack('!H', raw[2:4])[0]
            l3 = (raw[0] & 0xf) * 4
        payload = raw[l3 + 8:]
        rec = {
            'seq': struct.unpack('!Q', payload[:8])[0] if len(payload) >= 8 else None,
            'dscp': tc >> 2,
            'ecn': tc & 3,
            'ip_len': len(raw),
            'ip_len_field': ip_len_field,
            'udp_len': struct.unpack('!H', raw[l3 + 4:l3 + 6])[0],
            'udp_bytes': len(raw) - l3,
            'v6': v6,
        }
        if args.checksums:
            rec.update(checksums(raw, v6))
        print(json.dumps(rec))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest='cmd', required=True)
    a = sub.add_parser('send')
    a.add_argument('dst')
    a.add_argument('port', type=int)
    a.add_argument('--count', type=int, required=True)
    a.add_argument('--first', type=int, default=0)
    a.add_argument('--size', type=int, required=True, help='UDP payload bytes')
    a.add_argument('--tos', type=lambda x: int(x, 0), default=0)
    a = sub.add_parser('bursts')
    a.add_argument('dev')
    a.add_argument('dst')
    a.add_argument('port', type=int)
    a.add_argument('--bursts', type=int, required=True)
    a.add_argument('--count', type=int, required=True)
    a.add_argument('--size', type=int, required=True, help='UDP payload bytes')
    a.add_argument('--rate', required=True)
    a.add_argument('--tos', type=lambda x: int(x, 0), default=0)
    a = sub.add_parser('capture')
    a.add_argument('iface')
    a.add_argument('port', type=int)
    a.add_argument('--count', type=int, required=True)
    a.add_argument('--timeout', type=float, required=True)
    a.add_argument('--ready', required=True)
    a.add_argument('--out', required=True)
    a = sub.add_parser('summary')
    a.add_argument('file')
    a.add_argument('--checksums', action='store_true')
    args = p.parse_args()
    {'send': send, 'bursts': bursts, 'capture': capture, 'summary': summary}[args.cmd](args)


if __name__ == '__main__':
    sys.exit(main())
