#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a YNL genetlink spec against the schema, the uAPI header, the kernel.

  check_spec.py validate SPEC SCHEMA_DIR
      SPEC validates against SCHEMA_DIR/<its protocol>.yaml (jsonschema), and
      every name it refers to (attributes of requests, replies and events,
      nested attribute sets, multicast groups) exists.
  check_spec.py header SPEC HEADER
      The enums and defines of HEADER (a uAPI header) have the names and
      values the spec gives its attributes, commands, family name, version
      and multicast groups; attribute types agree with the header's comments.
  check_spec.py kernel SPEC
      The running kernel registers the family with the spec's version and
      multicast groups, the operations the spec has, and, for each request
      of the spec, a policy accepting exactly the attributes the request
      lists, with the spec's types and checks (CTRL_CMD_GETPOLICY). Needs
      the family registered (its module loaded); only the socket module.

Prints one "ok: ..." or "FAIL: ..." line per comparison, then a "# " summary;
exits 1 on any mismatch, 2 when it cannot run.
"""

import argparse
import errno
import os
import re
import socket
import struct
import sys

import yaml


class Report:
    def __init__(self):
        self.ok = 0
        self.failed = 0

    def check(self, cond, what, detail=''):
        if cond:
            self.ok += 1
            print(f"ok: {what}")
        else:
            self.failed += 1
            print(f"FAIL: {what}" + (f": {detail}" if detail else ''))
        return cond

    def fail(self, what, detail=''):
        return self.check(False, what, detail)

    def done(self, mode):
        if self.failed:
            print(f"# {mode}: {self.failed} of {self.ok + self.failed} comparisons failed")
            return 1
        print(f"# {mode}: {self.ok} comparisons ok")
        return 0


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


class Spec:
    """The parts of a YNL spec the checks need, named as ynl-gen-c names them."""

    def __init__(self, path):
        with open(path) as f:
            self.yaml = yaml.safe_load(f)
        y = self.yaml
        self.name = y['name']
        self.ident = c_lower(self.name)
        self.version = y.get('version', 1)
        self.protocol = y.get('protocol', 'genetlink')
        self.sets = {}
        for s in y.get('attribute-sets', []):
            self.sets[s['name']] = s
        self.ops = y['operations']['list']
        self.mcgrps = [g['name'] for g in y.get('mcast-groups', {}).get('list', [])]

    def set_of(self, name):
        s = self.sets[name]
        return self.sets[s['subset-of']] if 'subset-of' in s else s

    def attrs(self, set_name):
        """name -> (id, attribute) of a set, ids as YNL numbers them."""
        out = {}
        val = 1
        for a in self.set_of(set_name)['attributes']:
            if 'value' in a:
                val = a['value']
            out[a['name']] = (val, a)
            val += 1
        return out

    def attr_prefix(self, set_name):
        s = self.set_of(set_name)
        if 'name-prefix' in s:
            return c_upper(s['name-prefix'])
        if s['name'] == self.name:
            return c_upper(self.ident + '-a-')
        return c_upper(f"{self.ident}-a-{s['name']}-")

    def attr_cnt_name(self, set_name):
        s = self.set_of(set_name)
        return c_upper(s.get('attr-cnt-name', '__' + self.attr_prefix(set_name) + 'MAX'))

    def attr_max_name(self, set_name):
        s = self.set_of(set_name)
        return c_upper(s.get('attr-max-name', self.attr_prefix(set_name) + 'MAX'))

    def op_values(self):
        """name -> (value, op); unified model: the list numbered from 1."""
        out = {}
        val = 1
        for op in self.ops:
            if 'value' in op:
                val = op['value']
            out[op['name']] = (val, op)
            val += 1
        return out

    def op_prefix(self):
        return c_upper(self.yaml['operations'].get('name-prefix', self.ident + '-cmd-'))

    def enum_type(self, name):
        for d in self.yaml.get('definitions', []):
            if d['name'] == name:
                return d['type']
        raise ValueError(f"no enum {name!r} in the definitions")

    def enum_values(self, name):
        for d in self.yaml.get('definitions', []):
            if d['name'] == name and d['type'] in ('enum', 'flags'):
                vals = []
                val = d.get('value-start', 0)
                for e in d.get('entries', []):
                    if isinstance(e, dict) and 'value' in e:
                        val = e['value']
                    vals.append(val)
                    val += 1
                return vals
        raise ValueError(f"no enum {name!r} in the definitions")

    def limit(self, value):
        """A checks: value (int, 'u32-max', or a const definition) as an int."""
        if isinstance(value, int):
            return value
        m = re.fullmatch(r'([us])(8|16|32|64)-(min|max)', value)
        if m:
            bits = int(m.group(2))
            if m.group(1) == 'u':
                return 0 if m.group(3) == 'min' else (1 << bits) - 1
            return -(1 << (bits - 1)) if m.group(3) == 'min' else (1 << (bits - 1)) - 1
        for d in self.yaml.get('definitions', []):
            if d['name'] == value and d['type'] == 'const':
                return self.limit(d['value'])
        raise ValueError(f"cannot resolve the limit {value!r}")


# ----------------------------------------------------------------------------
# validate

def cmd_validate(args):
    import jsonschema

    rep = Report()
    spec = Spec(args.spec)
    schema_path = os.path.join(args.schema_dir, spec.protocol + '.yaml')
    with open(schema_path) as f:
        schema = yaml.safe_load(f)
    # The schemas name draft-07 without the "#" jsonschema looks them up by.
    if 'draft-07' in schema.get('$schema', ''):
        cls = jsonschema.Draft7Validator
    else:
        cls = jsonschema.validators.validator_for(schema)
    errors = sorted(cls(schema).iter_errors(spec.yaml), key=lambda e: list(e.absolute_path))
    for e in errors:
        where = '/'.join(str(p) for p in e.absolute_path) or '(top)'
        rep.fail(f"schema {os.path.basename(schema_path)} at {where}", e.message)
    if not errors:
        rep.check(True, f"{os.path.basename(args.spec)} validates against "
                  f"{os.path.basename(schema_path)}")

    # What the schema cannot see: names must resolve (nlspec would raise).
    for s in spec.yaml.get('attribute-sets', []):
        if 'subset-of' in s:
            rep.check(s['subset-of'] in spec.sets,
                      f"set {s['name']}: subset-of {s['subset-of']} exists")
        names = [a['name'] for a in s['attributes']]
        rep.check(len(names) == len(set(names)), f"set {s['name']}: attribute names are unique")
        if 'subset-of' in s:
            continue
        ids = [v for v, _ in spec.attrs(s['name']).values()]
        rep.check(len(ids) == len(set(ids)), f"set {s['name']}: attribute ids are unique")
        for a in s['attributes']:
            if 'nested-attributes' in a:
                rep.check(a['nested-attributes'] in spec.sets,
                          f"{s['name']}/{a['name']}: nested set {a['nested-attributes']} exists")
    ops = spec.op_values()
    rep.check(len(ops) == len(spec.ops), "operation names are unique")
    vals = [v for v, _ in ops.values()]
    rep.check(len(vals) == len(set(vals)), "operation values are unique")
    for op in spec.ops:
        if 'notify' in op:
            rep.check(op['notify'] in ops, f"{op['name']}: notify {op['notify']} exists")
        if 'mcgrp' in op:
            rep.check(op['mcgrp'] in spec.mcgrps, f"{op['name']}: mcgrp {op['mcgrp']} exists")
        lists = [(f"{m} {d}", op[m][d]) for m in ('do', 'dump') if m in op
                 for d in ('request', 'reply') if d in op[m]]
        if 'event' in op:
            lists.append(('event', op['event']))
        if not lists:
            continue
        if not rep.check(op.get('attribute-set') in spec.sets,
                         f"{op['name']}: attribute-set {op.get('attribute-set')} exists"):
            continue
        known = spec.attrs(op['attribute-set'])
        for what, lst in lists:
            missing = [a for a in lst.get('attributes', []) if a not in known]
            rep.check(not missing, f"{op['name']} {what}: attributes exist in set "
                      f"{op['attribute-set']}", f"unknown {missing}")
    return rep.done('validate')


# ----------------------------------------------------------------------------
# header

def parse_enum_body(path, body, known):
    """[(name, value, comment)]; a comment belongs to the entry it follows
    on the same line (and may go on over the next lines)."""
    entries = []
    val = -1
    pos = 0
    same_line = False
    while pos < len(body):
        c = body[pos]
        if c == '\n':
            same_line = False
            pos += 1
        elif c.isspace() or c == ',':
            pos += 1
        elif body.startswith('/*', pos):
            end = body.index('*/', pos) + 2
            if same_line and entries:
                text = body[pos + 2:end - 2]
                text = ' '.join(re.sub(r'^\s*\*?', '', ln).strip() for ln in text.split('\n'))
                name, v, old = entries[-1]
                entries[-1] = (name, v, (old + ' ' + text).strip())
            pos = end
        elif body.startswith('//', pos):
            pos = body.find('\n', pos) if '\n' in body[pos:] else len(body)
        else:
            m = re.compile(r'[^,\n/]+').match(body, pos)
            if not m:
                raise ValueError(f"{path}: cannot parse the enum at {body[pos:pos + 20]!r}")
            pos = m.end()
            ent = m.group(0).strip()
            em = re.fullmatch(r'(\w+)\s*(?:=\s*(.+))?', ent)
            if not em:
                raise ValueError(f"{path}: cannot parse the enum entry {ent!r}")
            name, expr = em.group(1), em.group(2)
            if expr is None:
                val += 1
            else:
                e = expr.strip()
                for k, v in known.items():
                    e = re.sub(r'\b%s\b' % k, str(v), e)
                if not re.fullmatch(r'[\d\s()+\-]+', e):
                    raise ValueError(f"{path}: cannot evaluate {name} = {expr}")
                val = eval(e)  # digits, spaces, parentheses, + and - only
            known[name] = val
            entries.append((name, val, ''))
            same_line = True
    return entries


def parse_header(path):
    """enums: name -> [(entry, value, comment)]; defines: name -> value."""
    with open(path) as f:
        text = f.read()
    defines = {}
    for m in re.finditer(r'^#define[ \t]+(\w+)[ \t]+(.+?)[ \t]*$', text, re.M):
        v = m.group(2).split('/*')[0].strip()
        if re.fullmatch(r'"[^"]*"', v):
            defines[m.group(1)] = v[1:-1]
        elif re.fullmatch(r'\d+', v):
            defines[m.group(1)] = int(v)
    enums = {}
    known = {}
    for m in re.finditer(r'\benum\s+(\w+)\s*\{(.*?)\}\s*;', text, re.S):
        enums[m.group(1)] = parse_enum_body(path, m.group(2), known)
    return enums, defines


# Types the header comments use, as the spec names them.
COMMENT_TYPE = re.compile(r'^(u8|u16|u32|u64|s8|s16|s32|s64|uint|sint|string|binary|nest|flag)\b(.*)')


def check_enum(rep, what, enum, expected, cnt_name, max_name, real_count):
    """expected: C name -> value, in spec order."""
    if not rep.check(enum is not None, f"{what}: the header has the enum"):
        return
    hdr = {n: v for n, v, _ in enum}
    for cname, val in expected.items():
        rep.check(hdr.get(cname) == val, f"{what}: {cname} = {val}",
                  f"header: {hdr.get(cname, 'missing')}")
    for n, v, _ in enum:
        if n in expected or n in (cnt_name, max_name):
            continue
        # An unlisted UNSPEC at 0 is the implicit one YNL numbers from.
        if n.endswith('_UNSPEC') and v == 0:
            continue
        rep.fail(f"{what}: the header's {n} = {v} is in the spec")
    if cnt_name in hdr:
        rep.check(real_count == hdr[cnt_name] - 1,
                  f"{what}: {real_count} entries = {cnt_name} - 1", f"{cnt_name} = {hdr[cnt_name]}")
    else:
        rep.fail(f"{what}: the header has {cnt_name}")
    if max_name in hdr and expected:
        top = max(expected.values())
        rep.check(hdr[max_name] == top, f"{what}: {max_name} = {top}", f"header: {hdr[max_name]}")


def cmd_header(args):
    rep = Report()
    spec = Spec(args.spec)
    enums, defines = parse_header(args.header)
    y = spec.yaml

    fam_key = c_upper(y.get('c-family-name', spec.name + '_FAMILY_NAME'))
    ver_key = c_upper(y.get('c-version-name', spec.name + '_FAMILY_VERSION'))
    rep.check(defines.get(fam_key) == spec.name, f"{fam_key} is \"{spec.name}\"",
              f"header: {defines.get(fam_key)!r}")
    rep.check(defines.get(ver_key) == spec.version, f"{ver_key} is {spec.version}",
              f"header: {defines.get(ver_key)!r}")
    for g in y.get('mcast-groups', {}).get('list', []):
        key = c_upper(g.get('c-define-name', f"{spec.ident}-mcgrp-{g['name']}"))
        rep.check(defines.get(key) == g['name'], f"{key} is \"{g['name']}\"",
                  f"header: {defines.get(key)!r}")

    for s in y.get('attribute-sets', []):
        if 'subset-of' in s:
            continue
        pfx = spec.attr_prefix(s['name'])
        enum_name = c_lower(s['enum-name']) if s.get('enum-name') else None
        if enum_name:
            enum = enums.get(enum_name)
        else:  # anonymous in YNL: find the enum by its names
            enum = next((e for e in enums.values()
                         if any(n.startswith(pfx) for n, _, _ in e)), None)
        what = f"set {s['name']} ({enum_name or pfx + '*'})"
        attrs = spec.attrs(s['name'])
        expected = {pfx + c_upper(n): v for n, (v, _) in attrs.items()}
        real = sum(1 for _, a in attrs.values() if a.get('type') != 'unused')
        check_enum(rep, what, enum, expected, spec.attr_cnt_name(s['name']),
                   spec.attr_max_name(s['name']), real)
        if enum is None:
            continue
        # The header's comments name the types: "u32: ...", "nest, repeated".
        comments = {n: c for n, _, c in enum}
        for n, (v, a) in attrs.items():
            m = COMMENT_TYPE.match(comments.get(pfx + c_upper(n), ''))
            if not m:
                continue
            hdr = m.group(1) + (', multi-attr' if 'repeated' in m.group(2) else '')
            got = a.get('type') + (', multi-attr' if a.get('multi-attr') else '')
            rep.check(got == hdr, f"{what}: {n} is {hdr} as the header says", f"spec: {got}")

    ops = spec.op_values()
    pfx = spec.op_prefix()
    ops_enum = y['operations'].get('enum-name')
    enum = enums.get(c_lower(ops_enum)) if ops_enum else next(
        (e for e in enums.values() if any(n.startswith(pfx) for n, _, _ in e)), None)
    if 'async-prefix' in y['operations']:
        rep.fail("operations: async-prefix (a separate notification enum) is not checked")
    expected = {pfx + c_upper(n): v for n, (v, _) in ops.items()}
    real = sum(1 for _, op in ops.values() if op['name'] != 'unspec')
    check_enum(rep, f"operations ({ops_enum or pfx + '*'})", enum, expected,
               c_upper(y.get('cmd-cnt-name', '__' + pfx + 'MAX')),
               c_upper(y.get('cmd-max-name', pfx + 'MAX')), real)
    return rep.done('header')


# ----------------------------------------------------------------------------
# kernel

NETLINK_GENERIC = 16
NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN = 1, 2, 3, 4
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 0x1, 0x2, 0x4
NLM_F_DUMP_INTR = 0x10
NLM_F_DUMP = 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NETLINK_EXT_ACK = 11
SOL_NETLINK = 270
NLMSGERR_ATTR_MSG = 1
NLA_TYPE_MASK = 0x3fff
GENL_ID_CTRL = 0x10

CTRL_CMD_GETFAMILY, CTRL_CMD_GETPOLICY = 3, 10
(CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_VERSION, CTRL_ATTR_HDRSIZE,
 CTRL_ATTR_MAXATTR, CTRL_ATTR_OPS, CTRL_ATTR_MCAST_GROUPS, CTRL_ATTR_POLICY,
 CTRL_ATTR_OP_POLICY, CTRL_ATTR_OP) = range(1, 11)
CTRL_ATTR_OP_ID, CTRL_ATTR_OP_FLAGS = 1, 2
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2
CTRL_ATTR_POLICY_DO, CTRL_ATTR_POLICY_DUMP = 1, 2
GENL_ADMIN_PERM, GENL_CMD_CAP_DO, GENL_CMD_CAP_DUMP = 0x1, 0x2, 0x4
GENL_CMD_CAP_HASPOL, GENL_UNS_ADMIN_PERM = 0x8, 0x10

# enum netlink_policy_type_attr
(NL_POLICY_TYPE_ATTR_TYPE, NL_POLICY_TYPE_ATTR_MIN_VALUE_S, NL_POLICY_TYPE_ATTR_MAX_VALUE_S,
 NL_POLICY_TYPE_ATTR_MIN_VALUE_U, NL_POLICY_TYPE_ATTR_MAX_VALUE_U,
 NL_POLICY_TYPE_ATTR_MIN_LENGTH, NL_POLICY_TYPE_ATTR_MAX_LENGTH,
 NL_POLICY_TYPE_ATTR_POLICY_IDX, NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE,
 NL_POLICY_TYPE_ATTR_BITFIELD32_MASK, NL_POLICY_TYPE_ATTR_PAD,
 NL_POLICY_TYPE_ATTR_MASK) = range(1, 13)

# enum netlink_attribute_type
NL_ATTR_TYPES = ['invalid', 'flag', 'u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64',
                 'binary', 'string', 'nul-string', 'nested', 'nested-array', 'bitfield32',
                 'sint', 'uint']

# Spec type -> the kernel policy types it may be registered as.
SPEC_TO_KERNEL = {
    'flag': {'flag'}, 'u8': {'u8'}, 'u16': {'u16'}, 'u32': {'u32'}, 'u64': {'u64'},
    's8': {'s8'}, 's16': {'s16'}, 's32': {'s32'}, 's64': {'s64'},
    'uint': {'uint'}, 'sint': {'sint'}, 'binary': {'binary'},
    'string': {'string', 'nul-string'}, 'nest': {'nested'},
    'indexed-array': {'nested-array'}, 'bitfield32': {'bitfield32'},
}
UNSIGNED_BITS = {'u8': 8, 'u16': 16, 'u32': 32, 'u64': 64, 'uint': 64}
SIGNED_BITS = {'s8': 8, 's16': 16, 's32': 32, 's64': 64, 'sint': 64}


def nla_parse(data):
    """Attributes of a payload: list of (type, payload)."""
    out = []
    off = 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from('=HH', data, off)
        if alen < 4 or off + alen > len(data):
            raise ValueError(f"malformed attribute at {off}: len {alen}, {len(data) - off} left")
        out.append((atype & NLA_TYPE_MASK, data[off + 4:off + alen]))
        off += (alen + 3) & ~3
    return out


def nla_dict(data):
    return dict(nla_parse(data))


def nla_put(atype, payload):
    a = struct.pack('=HH', 4 + len(payload), atype) + payload
    return a + b'\0' * (-len(a) % 4)


def u(payload):
    """An unsigned integer attribute of any width."""
    fmt = {1: '=B', 2: '=H', 4: '=I', 8: '=Q'}.get(len(payload))
    if fmt is None:
        raise ValueError(f"integer attribute of {len(payload)} bytes")
    return struct.unpack(fmt, payload)[0]


def s(payload):
    fmt = {1: '=b', 2: '=h', 4: '=i', 8: '=q'}.get(len(payload))
    if fmt is None:
        raise ValueError(f"integer attribute of {len(payload)} bytes")
    return struct.unpack(fmt, payload)[0]


def cstr(payload):
    return payload.split(b'\0', 1)[0].decode()


class NetlinkError(Exception):
    def __init__(self, err, msg=''):
        super().__init__(f"{errno.errorcode.get(err, err)}: {os.strerror(err)}" +
                         (f" ({msg})" if msg else ''))
        self.errno = err


class GenlSocket:
    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.settimeout(10)
        try:
            self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        except OSError:
            pass
        self.sock.bind((0, 0))
        self.seq = 1

    def request(self, family, cmd, version, attrs, dump=False):
        """Send one request; the genetlink payloads of its answers (a list)."""
        self.seq += 1
        seq = self.seq
        flags = NLM_F_REQUEST | (NLM_F_DUMP if dump else NLM_F_ACK)
        payload = struct.pack('=BBH', cmd, version, 0) + b''.join(attrs)
        msg = struct.pack('=IHHII', 16 + len(payload), family, flags, seq, 0) + payload
        self.sock.send(msg)
        replies = []
        interrupted = False
        while True:
            data = self.sock.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, mflags, mseq, _ = struct.unpack_from('=IHHII', data, off)
                if mlen < 16 or off + mlen > len(data):
                    raise ValueError(f"malformed netlink message: len {mlen}")
                body = data[off + 16:off + mlen]
                off += (mlen + 3) & ~3
                if mseq != seq:
                    continue  # a stale answer or a notification
                if mflags & NLM_F_DUMP_INTR:
                    interrupted = True
                if mtype == NLMSG_ERROR:
                    err = -struct.unpack_from('=i', body)[0]
                    if err == 0:
                        return replies  # the ACK of a do request
                    raise NetlinkError(err, self._ext_ack(body, mflags))
                if mtype == NLMSG_DONE:
                    err = -struct.unpack_from('=i', body)[0] if len(body) >= 4 else 0
                    if err:
                        raise NetlinkError(err, self._ext_ack(body, mflags, done=True))
                    if interrupted:
                        raise NetlinkError(errno.EINTR, "dump interrupted (NLM_F_DUMP_INTR)")
                    return replies
                if mtype in (NLMSG_NOOP, NLMSG_OVERRUN):
                    continue
                replies.append(body[4:])  # skip struct genlmsghdr

    @staticmethod
    def _ext_ack(body, flags, done=False):
        if not flags & NLM_F_ACK_TLVS:
            return ''
        if done:
            off = 4
        elif flags & NLM_F_CAPPED:
            off = 4 + 16
        else:
            off = 4 + struct.unpack_from('=I', body, 4)[0]
        off = (off + 3) & ~3
        try:
            tlvs = nla_dict(body[off:])
        except ValueError:
            return ''
        return cstr(tlvs[NLMSGERR_ATTR_MSG]) if NLMSGERR_ATTR_MSG in tlvs else ''


def get_family(nl, name):
    (reply,) = nl.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
                          [nla_put(CTRL_ATTR_FAMILY_NAME, name.encode() + b'\0')])
    a = nla_dict(reply)
    fam = {
        'id': u(a[CTRL_ATTR_FAMILY_ID]),
        'version': u(a[CTRL_ATTR_VERSION]),
        'ops': {},
        'mcgrps': {},
    }
    for _, op in nla_parse(a.get(CTRL_ATTR_OPS, b'')):
        o = nla_dict(op)
        fam['ops'][u(o[CTRL_ATTR_OP_ID])] = u(o.get(CTRL_ATTR_OP_FLAGS, b'\0\0\0\0'))
    for _, grp in nla_parse(a.get(CTRL_ATTR_MCAST_GROUPS, b'')):
        g = nla_dict(grp)
        fam['mcgrps'][cstr(g[CTRL_ATTR_MCAST_GRP_NAME])] = u(g[CTRL_ATTR_MCAST_GRP_ID])
    return fam


def get_policies(nl, fam_id, cmd):
    """The policies of one op: ({'do': idx, 'dump': idx}, idx -> attr id ->
    properties); ({}, {}) when the op has none. One op per dump: kernels
    with split ops label a dump-only op 0 in a dump of the whole family."""
    op_policy = {}
    policies = {}
    try:
        replies = nl.request(GENL_ID_CTRL, CTRL_CMD_GETPOLICY, 1,
                             [nla_put(CTRL_ATTR_FAMILY_ID, struct.pack('=H', fam_id)),
                              nla_put(CTRL_ATTR_OP, struct.pack('=I', cmd))],
                             dump=True)
    except NetlinkError as e:
        if e.errno == errno.ENODATA:  # the op has no policy
            return op_policy, policies
        raise
    for reply in replies:
        a = nla_dict(reply)
        for _, nest in nla_parse(a.get(CTRL_ATTR_OP_POLICY, b'')):
            p = nla_dict(nest)
            if CTRL_ATTR_POLICY_DO in p:
                op_policy['do'] = u(p[CTRL_ATTR_POLICY_DO])
            if CTRL_ATTR_POLICY_DUMP in p:
                op_policy['dump'] = u(p[CTRL_ATTR_POLICY_DUMP])
        for idx, nest in nla_parse(a.get(CTRL_ATTR_POLICY, b'')):
            pol = policies.setdefault(idx, {})
            for attr, props in nla_parse(nest):
                pol[attr] = policy_attr(nla_dict(props))
    return op_policy, policies


def policy_attr(pa):
    """The NL_POLICY_TYPE_ATTR_* of one attribute, by name."""
    d = {}
    t = u(pa[NL_POLICY_TYPE_ATTR_TYPE])
    d['type'] = NL_ATTR_TYPES[t] if t < len(NL_ATTR_TYPES) else f"type {t}"
    for key, k in (('min', NL_POLICY_TYPE_ATTR_MIN_VALUE_U),
                   ('max', NL_POLICY_TYPE_ATTR_MAX_VALUE_U),
                   ('min-len', NL_POLICY_TYPE_ATTR_MIN_LENGTH),
                   ('max-len', NL_POLICY_TYPE_ATTR_MAX_LENGTH),
                   ('policy-idx', NL_POLICY_TYPE_ATTR_POLICY_IDX),
                   ('policy-maxtype', NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE),
                   ('mask', NL_POLICY_TYPE_ATTR_MASK),
                   ('bitfield32-mask', NL_POLICY_TYPE_ATTR_BITFIELD32_MASK)):
        if k in pa:
            d[key] = u(pa[k])
    for key, k in (('min', NL_POLICY_TYPE_ATTR_MIN_VALUE_S),
                   ('max', NL_POLICY_TYPE_ATTR_MAX_VALUE_S)):
        if k in pa:
            d[key] = s(pa[k])
    return d


def expected_policy(spec, a):
    """What the kernel reports for spec attribute a: {'min', 'max', ...}."""
    t = a['type']
    checks = a.get('checks', {})
    exp = {}
    if t in UNSIGNED_BITS or t in SIGNED_BITS:
        # ynl-gen-c: NLA_POLICY_MASK for flags, the enum's range for an enum.
        flags = a.get('enum-as-flags') or ('enum' in a and spec.enum_type(a['enum']) == 'flags')
        if flags:
            return {'mask': sum(1 << v for v in spec.enum_values(a['enum']))}
        if 'flags-mask' in checks:
            return {'mask': (1 << len(spec.enum_values(checks['flags-mask']))) - 1}
        if t in UNSIGNED_BITS:
            lo, hi = 0, (1 << UNSIGNED_BITS[t]) - 1
        else:
            lo, hi = -(1 << (SIGNED_BITS[t] - 1)), (1 << (SIGNED_BITS[t] - 1)) - 1
        if 'enum' in a:
            vals = spec.enum_values(a['enum'])
            if 'min' not in checks and (min(vals) != 0 or t in SIGNED_BITS):
                lo = min(vals)
            if 'max' not in checks:
                hi = max(vals)
        exp['min'] = spec.limit(checks['min']) if 'min' in checks else lo
        exp['max'] = spec.limit(checks['max']) if 'max' in checks else hi
    elif t in ('string', 'binary'):
        if 'exact-len' in checks:
            n = spec.limit(checks['exact-len'])
            exp['min-len'], exp['max-len'] = n, n
        else:
            # The kernel omits MIN_LENGTH 0 and MAX_LENGTH "none".
            n = spec.limit(checks['min-len']) if 'min-len' in checks else 0
            exp['min-len'] = n or None
            exp['max-len'] = spec.limit(checks['max-len']) if 'max-len' in checks else None
    return exp


def compare_policy(rep, spec, what, set_name, listed, kpol, policies, subset=False, seen=None):
    """listed: spec attribute names; kpol: attr id -> kernel properties."""
    attrs = spec.attrs(set_name)
    by_id = {v: n for n, (v, _) in attrs.items()}
    want = {attrs[n][0] for n in listed}
    have = set(kpol)
    name = lambda i: by_id.get(i, f"#{i}")
    if subset:
        extra = sorted(have - set(by_id))
        rep.check(not extra, f"{what}: the kernel accepts only attributes of set {set_name}",
                  f"unknown ids {extra}")
    else:
        missing = sorted(want - have)
        extra = sorted(have - want)
        rep.check(not missing and not extra,
                  f"{what}: the kernel accepts exactly [{', '.join(listed)}]",
                  '; '.join(x for x in (
                      missing and f"not accepted: {[name(i) for i in missing]}",
                      extra and f"accepted, not in the spec: {[name(i) for i in extra]}") if x))
    for i in sorted(have & set(by_id)):
        n = by_id[i]
        a = attrs[n][1]
        k = kpol[i]
        t = a.get('type')
        try:
            exp = expected_policy(spec, a)
        except ValueError as e:
            rep.fail(f"{what}: {n} checks", str(e))
            continue
        # One line per attribute: its type and checks, as the kernel reports them.
        desc = lambda t, d: ', '.join([t] + [f"{key} {v}" for key, v in d.items() if v is not None])
        got = {key: k.get(key) for key in exp}
        rep.check(k['type'] in SPEC_TO_KERNEL.get(t, set()) and got == exp,
                  f"{what}: {n} is {desc(t, exp)}", f"kernel: {desc(k['type'], got)}")
        if t in ('nest', 'indexed-array') and 'nested-attributes' in a and 'policy-idx' in k:
            seen = seen if seen is not None else set()
            if k['policy-idx'] in seen:
                continue
            seen.add(k['policy-idx'])
            compare_policy(rep, spec, f"{what}: {n}", a['nested-attributes'], [],
                           policies.get(k['policy-idx'], {}), policies, subset=True, seen=seen)


def cmd_kernel(args):
    rep = Report()
    spec = Spec(args.spec)
    try:
        nl = GenlSocket()
        fam = get_family(nl, spec.name)
    except NetlinkError as e:
        rep.fail(f"the kernel has the generic netlink family \"{spec.name}\"", str(e))
        return rep.done('kernel')
    rep.check(True, f"the kernel has the generic netlink family \"{spec.name}\" (id {fam['id']})")
    rep.check(fam['version'] == spec.version, f"family version {spec.version}",
              f"kernel: {fam['version']}")
    rep.check(sorted(fam['mcgrps']) == sorted(spec.mcgrps),
              f"multicast groups [{', '.join(sorted(spec.mcgrps))}]",
              f"kernel: {sorted(fam['mcgrps'])}")

    if spec.yaml['operations'].get('enum-model', 'unified') != 'unified':
        rep.fail("operations: only the unified enum-model is compared")
        return rep.done('kernel')
    ops = spec.op_values()
    handled = {v: op for v, op in ops.values() if 'do' in op or 'dump' in op}
    for cmd in sorted(set(fam['ops']) - set(handled)):
        byval = {v: n for n, (v, _) in ops.items()}
        rep.fail(f"kernel op {cmd} ({byval.get(cmd, 'not in the spec')}): "
                 "the spec gives it a do or dump")
    for cmd, op in sorted(handled.items()):
        n = op['name']
        if not rep.check(cmd in fam['ops'], f"{n} ({cmd}) is an op of the kernel family"):
            continue
        f = fam['ops'][cmd]
        rep.check(bool(f & GENL_CMD_CAP_DO) == ('do' in op),
                  f"{n}: {'has' if 'do' in op else 'no'} do", f"kernel op flags {f:#x}")
        rep.check(bool(f & GENL_CMD_CAP_DUMP) == ('dump' in op),
                  f"{n}: {'has' if 'dump' in op else 'no'} dump", f"kernel op flags {f:#x}")
        flags = op.get('flags', [])
        rep.check(bool(f & GENL_ADMIN_PERM) == ('admin-perm' in flags),
                  f"{n}: {'' if 'admin-perm' in flags else 'no '}admin-perm",
                  f"kernel op flags {f:#x}")
        rep.check(bool(f & GENL_UNS_ADMIN_PERM) == ('uns-admin-perm' in flags),
                  f"{n}: {'' if 'uns-admin-perm' in flags else 'no '}uns-admin-perm",
                  f"kernel op flags {f:#x}")

    for cmd, op in sorted(handled.items()):
        if cmd not in fam['ops']:
            continue
        try:
            op_policy, policies = get_policies(nl, fam['id'], cmd)
        except NetlinkError as e:
            rep.fail(f"{op['name']}: CTRL_CMD_GETPOLICY", str(e))
            continue
        for mode in ('do', 'dump'):
            if mode not in op:
                continue
            what = f"{op['name']} {mode}"
            listed = op[mode].get('request', {}).get('attributes', [])
            idx = op_policy.get(mode)
            if idx is None:
                # No policy: the kernel does not parse the request at all.
                rep.check(not listed, f"{what}: no request, and the kernel has no policy",
                          f"the spec's request lists {listed}")
                continue
            if 'attribute-set' not in op:
                rep.check(not policies.get(idx),
                          f"{what}: no attribute-set, and the kernel accepts no attribute")
                continue
            compare_policy(rep, spec, what, op['attribute-set'], listed,
                           policies.get(idx, {}), policies)
    return rep.done('kernel')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = p.add_subparsers(dest='mode', required=True)
    v = sub.add_parser('validate', help='validate SPEC against the schema of its protocol')
    v.add_argument('spec')
    v.add_argument('schema_dir', help='directory of genetlink*.yaml (Documentation/netlink)')
    h = sub.add_parser('header', help='compare SPEC with a uAPI header')
    h.add_argument('spec')
    h.add_argument('header')
    k = sub.add_parser('kernel', help='compare SPEC with the running kernel')
    k.add_argument('spec')
    args = p.parse_args()
    try:
        return {'validate': cmd_validate, 'header': cmd_header, 'kernel': cmd_kernel}[args.mode](args)
    except (OSError, ValueError, KeyError, yaml.YAMLError) as e:
        print(f"FAIL: {args.mode}: {type(e).__name__}: {e}")
        return 2


if __name__ == '__main__':
    sys.exit(main())
