-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark dissector for uet, as Documentation/uet/design/wire-format.rst
-- describes it: UDP port 4793, a PDS header laid out as in the Ultra
-- Ethernet 1.0 Packet Delivery Sublayer (UE 1.0 section 3.5), and for data
-- packets uet's verbs header in place of UE's SES header.
--
--   tshark -X lua_script:tools/wireshark/uet.lua -r capture.pcap
--
-- Field names follow Wireshark's own packet-uet.c (uet.pds.*) where the
-- field means the same; what only uet has is under uet.verbs.*, uet.uud.*
-- and uet.pds.ack.ccx.*. A Wireshark that has packet-uet.c already knows a
-- protocol "uet": this one is then registered as "uetk" and takes the port
-- over, since that one expects UE's SES header after a request.

local proto_name = "uet"
if pcall(Field.new, "uet.pds.type") then
	proto_name = "uetk"
end
local uet = Proto(proto_name, "uet transport (UE 1.0 PDS, verbs header)")
local P = proto_name .. "."

local UDP_PORT = 4793

-- PDS types (UE 1.0 PDS prologue, bits 15..11).
local T_RUD_REQ, T_UUD_REQ = 2, 6
local T_ACK, T_ACK_CC, T_ACK_CCX, T_NACK, T_CONTROL = 7, 8, 9, 10, 11
local pds_types = {
	[1] = "TSS", [2] = "RUD_REQ", [3] = "ROD_REQ", [4] = "RUDI_REQ",
	[5] = "RUDI_RESP", [6] = "UUD_REQ", [7] = "ACK", [8] = "ACK_CC",
	[9] = "ACK_CCX", [10] = "NACK", [11] = "CONTROL", [12] = "NACK_CCX",
	[13] = "RUD_CC_REQ", [14] = "ROD_CC_REQ",
}
local NH_VERBS = 15
local next_hdrs = { [0] = "none", [NH_VERBS] = "uet verbs header" }

-- Control types: UE's, and 15, which UE leaves unassigned, for uet's CNP.
local CTL_PROBE, CTL_CNP = 6, 15
local ctl_types = {
	[0] = "NOOP", [1] = "REQ_FOR_ACK", [2] = "CLEAR", [3] = "REQ_FOR_CLEAR",
	[4] = "CLOSE", [5] = "REQ_FOR_CLOSE", [6] = "PROBE", [7] = "CREDIT",
	[8] = "CREDIT_REQ", [15] = "CNP (uet)",
}

-- The NACK codes uet sends (UE 1.0 NACK code table).
local NACK_TRIMMED, NACK_NO_SES_MSG_AVAIL, NACK_EXP_ERR = 0x01, 0x09, 0xfe
local nack_codes = {
	[0x01] = "TRIMMED", [0x02] = "TRIMMED_LASTHOP",
	[0x09] = "NO_SES_MSG_AVAIL", [0x0b] = "PSN_OOR_WINDOW",
	[0x12] = "PKT_NOT_RCVD", [0xfe] = "EXP_ERR",
}
local exp_err_codes = {
	[1] = "remote access error", [2] = "invalid request",
	[3] = "remote operation error",
}

local OP_READ_REQ, OP_FLUSH = 6, 12
local opcodes = {
	[1] = "SEND", [2] = "SEND_IMM", [3] = "SEND_INV", [4] = "WRITE",
	[5] = "WRITE_IMM", [6] = "READ_REQ", [7] = "READ_RESP",
	[8] = "CMP_SWAP", [9] = "FETCH_ADD", [10] = "ATOMIC_RESP",
	[11] = "ATOMIC_WRITE", [12] = "FLUSH",
}
-- A FLUSH's immediate field is the IBA's FETH (annex A19.4.1).
local flush_types = {
	[1] = "global visibility", [2] = "persistence",
	[3] = "global visibility, persistence",
}
local flush_levels = { [0] = "range", [1] = "whole region" }
local cc_types = { [0] = "NSCC" }

local PDS_REQ_LEN, VERBS_LEN = 12, 36
local ACK_LEN, ACK_CC_LEN, ACK_CCX_LEN = 12, 32, 40
local NACK_LEN, CTL_LEN, UUD_LEN = 16, 16, 16

local f = {
	type = ProtoField.uint16(P .. "pds.type", "Type", base.DEC, pds_types, 0xf800),
	nh = ProtoField.uint16(P .. "pds.nh", "Next Hdr", base.DEC, next_hdrs, 0x0780),
	ctl_type = ProtoField.uint16(P .. "pds.ctl_type", "Ctl Type", base.DEC,
				     ctl_types, 0x0780),
	flags = ProtoField.uint16(P .. "pds.flags", "Flags", base.HEX, nil, 0x007f),
	fl_m = ProtoField.bool(P .. "pds.flags.m", "ECN Marked (M)", 16, nil, 0x0020),
	fl_retx = ProtoField.bool(P .. "pds.flags.retx", "Retransmitted (RETX)", 16,
				  nil, 0x0010),
	fl_ar = ProtoField.bool(P .. "pds.flags.ar", "ACK Request (AR)", 16, nil, 0x0008),
	fl_p = ProtoField.bool(P .. "pds.flags.p", "Probe Packet (P)", 16, nil, 0x0008),
	fl_syn = ProtoField.bool(P .. "pds.flags.syn", "New PDC (SYN)", 16, nil, 0x0004),
	fl_dup = ProtoField.bool(P .. "pds.flags.dup", "Duplicate Received (DUP, uet)",
				 16, nil, 0x0001),
	fl_uc = ProtoField.bool(P .. "pds.flags.uc", "Unreliable Connected (UC, uet)",
				16, nil, 0x0001),
	fl_sol = ProtoField.bool(P .. "uud.flags.solicited", "Solicited", 16, nil, 0x0001),
	fl_imm = ProtoField.bool(P .. "uud.flags.imm", "Immediate Data", 16, nil, 0x0002),

	clear_psn_off = ProtoField.int16(P .. "pds.clear_psn_offset", "Clear PSN Offset"),
	clear_psn = ProtoField.uint32(P .. "pds.clear_psn", "Clear PSN"),
	psn = ProtoField.uint32(P .. "pds.psn", "PSN"),
	spdcid = ProtoField.uint16(P .. "pds.spdcid", "Source PDC ID"),
	dpdcid = ProtoField.uint16(P .. "pds.dpdcid", "Destination PDC ID"),

	ack_psn_off = ProtoField.int16(P .. "pds.ack_psn_offset", "ACK PSN Offset"),
	ack_psn = ProtoField.uint32(P .. "pds.ack_psn", "ACK PSN"),
	cack_psn = ProtoField.uint32(P .. "pds.cack_psn", "Cumulative ACK PSN"),
	cc_type = ProtoField.uint8(P .. "pds.ack.cc_type", "CC Type", base.DEC,
				   cc_types, 0xf0),
	cc_flags = ProtoField.uint8(P .. "pds.ack.cc_flags", "CC Flags", base.HEX, nil, 0x0f),
	mpr = ProtoField.uint8(P .. "pds.ack.mpr", "Maximum PSN Range (MPR)"),
	sack_off = ProtoField.int16(P .. "pds.ack.sack_offset", "SACK Offset"),
	sack_base = ProtoField.uint32(P .. "pds.ack.sack_base", "SACK Base PSN"),
	sack_bitmap = ProtoField.uint64(P .. "pds.ack.sack_bitmap", "SACK Bitmap", base.HEX),
	sack_psn = ProtoField.uint32(P .. "pds.ack.sack_psn", "Selectively Acknowledged PSN"),
	sack_count = ProtoField.uint8(P .. "pds.ack.sack_count",
				      "Selectively Acknowledged PSNs"),
	cc_state = ProtoField.uint64(P .. "pds.ack.cc_state", "CC State", base.HEX),
	service_time = ProtoField.uint16(P .. "pds.ack.cc_state.service_time",
					 "Service Time (us, uet)"),
	cc_rc = ProtoField.bool(P .. "pds.ack.cc_state.rc", "Restore Cwnd", 8, nil, 0x80),
	cwnd_pend = ProtoField.uint8(P .. "pds.ack.cc_state.rcv_cwnd_pend",
				     "Cwnd Penalty", base.DEC, nil, 0x7f),
	rcvd_bytes = ProtoField.uint24(P .. "pds.ack.cc_state.rcvd_bytes",
				       "Received Byte Count"),
	ooo_count = ProtoField.uint16(P .. "pds.ack.cc_state.ooo_count",
				      "Out Of Order Count"),
	ccx_entropy = ProtoField.uint16(P .. "pds.ack.ccx.entropy",
					"Entropy of the Acknowledged Packet", base.DEC_HEX),
	ccx_flags = ProtoField.uint8(P .. "pds.ack.ccx.flags", "CCX Flags", base.HEX),
	ccx_ev_valid = ProtoField.bool(P .. "pds.ack.ccx.flags.entropy_valid",
				       "Entropy Valid", 8, nil, 0x01),
	ccx_rsvd = ProtoField.bytes(P .. "pds.ack.ccx.reserved", "Reserved"),
	probe_nonce = ProtoField.uint32(P .. "pds.probe.nonce", "Probe Nonce", base.HEX),

	nack_code = ProtoField.uint8(P .. "pds.nack.code", "NACK Code", base.HEX, nack_codes),
	nack_vendor = ProtoField.uint8(P .. "pds.nack.vendor_code", "Vendor Code"),
	nack_psn = ProtoField.uint32(P .. "pds.nack.psn", "NACK PSN"),
	nack_payload = ProtoField.uint32(P .. "pds.nack.payload", "Payload", base.HEX),
	nack_entropy = ProtoField.uint16(P .. "pds.nack.entropy",
					 "Entropy the Trimmed Packet Arrived On", base.DEC_HEX),
	nack_rnr = ProtoField.uint8(P .. "pds.nack.rnr_timer", "RNR Timer Code (IBA)"),

	probe_opaque = ProtoField.uint16(P .. "pds.ctrl_probe_opaque", "Probe Opaque",
					 base.DEC_HEX),
	ctl_payload = ProtoField.uint32(P .. "pds.ctrl_payload", "Payload", base.HEX),

	uud_pay_len = ProtoField.uint16(P .. "uud.pay_len", "Payload Length"),
	uud_qkey = ProtoField.uint32(P .. "uud.qkey", "Q_Key", base.HEX),
	uud_imm = ProtoField.uint32(P .. "uud.imm", "Immediate Data", base.HEX),

	v_version = ProtoField.uint8(P .. "verbs.version", "Version"),
	v_opcode = ProtoField.uint8(P .. "verbs.opcode", "Opcode", base.DEC, opcodes),
	v_flags = ProtoField.uint8(P .. "verbs.flags", "Flags", base.HEX),
	v_sol = ProtoField.bool(P .. "verbs.flags.solicited", "Solicited", 8, nil, 0x01),
	v_rsvd = ProtoField.uint8(P .. "verbs.reserved", "Reserved", base.HEX),
	v_msn = ProtoField.uint32(P .. "verbs.msn", "MSN / Request ID"),
	v_msg_len = ProtoField.uint32(P .. "verbs.msg_len", "Message Length"),
	v_offset = ProtoField.uint32(P .. "verbs.offset", "Offset"),
	v_addr = ProtoField.uint64(P .. "verbs.addr", "Remote Address", base.HEX),
	v_rkey = ProtoField.uint32(P .. "verbs.rkey", "R_Key", base.HEX),
	v_imm = ProtoField.uint32(P .. "verbs.imm", "Immediate Data / Invalidated R_Key",
				  base.HEX),
	v_feth = ProtoField.uint32(P .. "verbs.feth", "FLUSH Extended Transport Header",
				   base.HEX),
	v_feth_plt = ProtoField.uint32(P .. "verbs.feth.plt", "Placement Type", base.HEX,
				       flush_types, 0x0000000f),
	v_feth_sel = ProtoField.uint32(P .. "verbs.feth.sel", "Selectivity Level", base.DEC,
				       flush_levels, 0x00000030),
	v_pay_len = ProtoField.uint32(P .. "verbs.pay_len", "Payload Length (as sent)"),
	v_payload_len = ProtoField.uint32(P .. "verbs.payload_len",
					  "Payload Length (as arrived)"),
	v_trimmed = ProtoField.bool(P .. "verbs.trimmed", "Trimmed"),
	payload = ProtoField.bytes(P .. "payload", "Payload"),
}
uet.fields = f

local ef = {
	short = ProtoExpert.new(P .. "short", "Shorter than its header",
				expert.group.MALFORMED, expert.severity.ERROR),
	trimmed = ProtoExpert.new(P .. "trimmed", "Trimmed by a switch: payload shorter than pay_len",
				  expert.group.SEQUENCE, expert.severity.NOTE),
	retx = ProtoExpert.new(P .. "retx", "Retransmission",
			       expert.group.SEQUENCE, expert.severity.NOTE),
	nack = ProtoExpert.new(P .. "nack", "NACK",
			       expert.group.SEQUENCE, expert.severity.WARN),
	foreign = ProtoExpert.new(P .. "foreign", "A PDS type uet does not send",
				  expert.group.UNDECODED, expert.severity.NOTE),
	long = ProtoExpert.new(P .. "long", "Payload longer than pay_len",
			       expert.group.MALFORMED, expert.severity.ERROR),
}
uet.experts = ef

local function psn_add(psn, off)
	return (psn + off) % 4294967296
end

local function fits(tvb, tree, len)
	if tvb:len() >= len then
		return true
	end
	tree:add_proto_expert_info(ef.short)
	return false
end

local function add_flags(tree, range, ptype)
	local ft = tree:add(f.flags, range)
	if ptype == T_RUD_REQ then
		ft:add(f.fl_retx, range)
		ft:add(f.fl_ar, range)
		ft:add(f.fl_syn, range)
		ft:add(f.fl_uc, range)
	elseif ptype == T_ACK then
		ft:add(f.fl_p, range)
	elseif ptype == T_ACK_CC or ptype == T_ACK_CCX then
		ft:add(f.fl_m, range)
		ft:add(f.fl_retx, range)
		ft:add(f.fl_dup, range)
	elseif ptype == T_UUD_REQ then
		ft:add(f.fl_sol, range)
		ft:add(f.fl_imm, range)
	end
end

-- The 36-byte verbs header at off, after a RUD request, and the payload.
-- Returns where the packet ends and the info text.
local function dissect_verbs(tvb, tree, off)
	local vt = tree:add(tvb(off, math.min(VERBS_LEN, tvb:len() - off)),
			    "uet verbs header")
	if tvb:len() - off < VERBS_LEN then
		vt:add_proto_expert_info(ef.short)
		return tvb:len(), " [verbs header cut short]"
	end
	local opcode = tvb(off + 1, 1):uint()
	local pay_len = tvb(off + 32, 4):uint()
	vt:add(f.v_version, tvb(off, 1))
	vt:add(f.v_opcode, tvb(off + 1, 1))
	vt:add(f.v_flags, tvb(off + 2, 1)):add(f.v_sol, tvb(off + 2, 1))
	vt:add(f.v_rsvd, tvb(off + 3, 1))
	vt:add(f.v_msn, tvb(off + 4, 4))
	vt:add(f.v_msg_len, tvb(off + 8, 4))
	vt:add(f.v_offset, tvb(off + 12, 4))
	vt:add(f.v_addr, tvb(off + 16, 8))
	vt:add(f.v_rkey, tvb(off + 24, 4))
	if opcode == OP_FLUSH then
		local ft = vt:add(f.v_feth, tvb(off + 28, 4))
		ft:add(f.v_feth_plt, tvb(off + 28, 4))
		ft:add(f.v_feth_sel, tvb(off + 28, 4))
	else
		vt:add(f.v_imm, tvb(off + 28, 4))
	end
	vt:add(f.v_pay_len, tvb(off + 32, 4))

	-- What the packet carried on the wire: the reported length, which a
	-- capture with a small snap length keeps.
	local start = off + VERBS_LEN
	local left = tvb:reported_length_remaining(start)
	if left < 0 then
		left = 0
	end
	local got = math.min(left, pay_len)
	-- A READ request names the bytes to read but carries none.
	if opcode == OP_READ_REQ then
		got = left
	end
	local info = string.format(" %s msn=%u off=%u len=%u",
				   opcodes[opcode] or ("op" .. opcode),
				   tvb(off + 4, 4):uint(), tvb(off + 12, 4):uint(), pay_len)
	if opcode == OP_FLUSH then
		local feth = tvb(off + 28, 4):uint()
		info = info .. string.format(" range=%u plt=%u sel=%u",
					     tvb(off + 8, 4):uint(), feth % 16,
					     math.floor(feth / 16) % 4)
	end
	vt:add(f.v_payload_len, got):set_generated()
	local trimmed = opcode ~= OP_READ_REQ and left < pay_len
	vt:add(f.v_trimmed, trimmed):set_generated()
	if trimmed then
		vt:add_proto_expert_info(ef.trimmed)
		info = info .. " TRIMMED"
	end
	if got > 0 and tvb:len() > start then
		tree:add(f.payload, tvb(start, math.min(got, tvb:len() - start)))
	end
	return start + got, info
end

local function dissect_rud(tvb, tree, flags)
	if not fits(tvb, tree, PDS_REQ_LEN) then
		return tvb:len(), " [short]"
	end
	local psn = tvb(4, 4):uint()
	local off = tvb(2, 2):int()
	tree:add(f.clear_psn_off, tvb(2, 2))
	-- uet sends clear_psn_offset = oldest unacknowledged PSN - psn.
	tree:add(f.clear_psn, tvb(2, 2), psn_add(psn, off)):set_generated()
	tree:add(f.psn, tvb(4, 4))
	tree:add(f.spdcid, tvb(8, 2))
	tree:add(f.dpdcid, tvb(10, 2))
	local info = string.format(" psn=%u qpn=%u>%u", psn, tvb(8, 2):uint(),
				   tvb(10, 2):uint())
	if bit.band(flags, 0x10) ~= 0 then
		tree:add_proto_expert_info(ef.retx)
		info = info .. " RETX"
	end
	if bit.band(flags, 0x04) ~= 0 then
		info = info .. " SYN"
	end
	-- A UC QP's request: nothing acknowledges it, nothing resends it.
	if bit.band(flags, 0x01) ~= 0 then
		info = info .. " UC"
	end
	if bit.rshift(tvb(0, 2):uint(), 7) % 16 ~= NH_VERBS then
		return PDS_REQ_LEN, info
	end
	local used, vinfo = dissect_verbs(tvb, tree, PDS_REQ_LEN)
	return used, info .. vinfo
end

-- The SACK bitmap as the PSNs it acknowledges: bit i is PSN base + i.
local function sack_psns(tvb, tree, base)
	local bt = tree:add(f.sack_bitmap, tvb(16, 8))
	local words = { tvb(20, 4):uint(), tvb(16, 4):uint() }
	local psns = {}
	for i = 0, 63 do
		local w = words[math.floor(i / 32) + 1]
		if bit.band(w, bit.lshift(1, i % 32)) ~= 0 then
			local psn = psn_add(base, i)
			psns[#psns + 1] = psn
			bt:add(f.sack_psn, tvb(16, 8), psn):set_generated()
		end
	end
	bt:add(f.sack_count, tvb(16, 8), #psns):set_generated()
	return psns
end

local function dissect_ack(tvb, tree, ptype, flags)
	if not fits(tvb, tree, ACK_LEN) then
		return tvb:len(), " [short]"
	end
	if ptype == T_ACK and bit.band(flags, 0x08) ~= 0 then
		-- The answer to a probe: the opaque value and the nonce echoed.
		tree:add(f.probe_opaque, tvb(2, 2))
		tree:add(f.probe_nonce, tvb(4, 4))
		tree:add(f.spdcid, tvb(8, 2))
		tree:add(f.dpdcid, tvb(10, 2))
		return ACK_LEN, string.format(" probe answer ev=%u", tvb(2, 2):uint())
	end
	local cack = tvb(4, 4):uint()
	local ack_psn = psn_add(cack, tvb(2, 2):int())
	tree:add(f.ack_psn_off, tvb(2, 2))
	tree:add(f.cack_psn, tvb(4, 4))
	tree:add(f.ack_psn, tvb(2, 2), ack_psn):set_generated()
	tree:add(f.spdcid, tvb(8, 2))
	tree:add(f.dpdcid, tvb(10, 2))
	local info = string.format(" cack=%u ack=%u qpn=%u>%u", cack, ack_psn,
				   tvb(8, 2):uint(), tvb(10, 2):uint())
	if ptype == T_ACK then
		return ACK_LEN, info
	end
	local need = ptype == T_ACK_CCX and ACK_CCX_LEN or ACK_CC_LEN
	if not fits(tvb, tree, need) then
		return tvb:len(), info .. " [short]"
	end
	tree:add(f.cc_type, tvb(12, 1))
	tree:add(f.cc_flags, tvb(12, 1))
	tree:add(f.mpr, tvb(13, 1))
	local base = psn_add(cack, tvb(14, 2):int())
	tree:add(f.sack_off, tvb(14, 2))
	tree:add(f.sack_base, tvb(14, 2), base):set_generated()
	local psns = sack_psns(tvb, tree, base)
	if #psns > 0 then
		info = info .. " sack=" .. table.concat(psns, ",")
	end
	local ct = tree:add(f.cc_state, tvb(24, 8))
	if bit.rshift(tvb(12, 1):uint(), 4) == 0 then
		ct:add(f.service_time, tvb(24, 2))
		ct:add(f.cc_rc, tvb(26, 1))
		ct:add(f.cwnd_pend, tvb(26, 1))
		ct:add(f.rcvd_bytes, tvb(27, 3))
		ct:add(f.ooo_count, tvb(30, 2))
	end
	if bit.band(flags, 0x20) ~= 0 then
		info = info .. " ECN"
	end
	if bit.band(flags, 0x01) ~= 0 then
		info = info .. " DUP"
	end
	if ptype == T_ACK_CCX then
		tree:add(f.ccx_entropy, tvb(32, 2))
		tree:add(f.ccx_flags, tvb(34, 1)):add(f.ccx_ev_valid, tvb(34, 1))
		tree:add(f.ccx_rsvd, tvb(35, 5))
		if bit.band(tvb(34, 1):uint(), 0x01) ~= 0 then
			info = info .. string.format(" ev=%u", tvb(32, 2):uint())
		end
	end
	return need, info
end

local function dissect_nack(tvb, tree)
	if not fits(tvb, tree, NACK_LEN) then
		return tvb:len(), " [short]"
	end
	local code = tvb(2, 1):uint()
	tree:add(f.nack_code, tvb(2, 1))
	local vt = tree:add(f.nack_vendor, tvb(3, 1))
	if code == NACK_EXP_ERR then
		vt:append_text(" (" .. (exp_err_codes[tvb(3, 1):uint()] or "unknown") .. ")")
	end
	tree:add(f.nack_psn, tvb(4, 4))
	tree:add(f.spdcid, tvb(8, 2))
	tree:add(f.dpdcid, tvb(10, 2))
	local pt = tree:add(f.nack_payload, tvb(12, 4))
	if code == NACK_TRIMMED then
		pt:add(f.nack_entropy, tvb(14, 2))
	elseif code == NACK_NO_SES_MSG_AVAIL then
		pt:add(f.nack_rnr, tvb(15, 1))
	end
	local name = nack_codes[code] or string.format("0x%02x", code)
	tree:add_proto_expert_info(ef.nack, "NACK " .. name)
	return NACK_LEN, string.format(" %s psn=%u qpn=%u>%u", name, tvb(4, 4):uint(),
				       tvb(8, 2):uint(), tvb(10, 2):uint())
end

local function dissect_control(tvb, tree)
	if not fits(tvb, tree, CTL_LEN) then
		return tvb:len(), " [short]"
	end
	local ctype = bit.rshift(tvb(0, 2):uint(), 7) % 16
	tree:add(f.probe_opaque, tvb(2, 2))
	tree:add(f.psn, tvb(4, 4))
	tree:add(f.spdcid, tvb(8, 2))
	tree:add(f.dpdcid, tvb(10, 2))
	if ctype == CTL_PROBE then
		tree:add(f.probe_nonce, tvb(12, 4))
		return CTL_LEN, string.format(" PROBE ev=%u", tvb(2, 2):uint())
	end
	tree:add(f.ctl_payload, tvb(12, 4))
	if ctype == CTL_CNP then
		return CTL_LEN, string.format(" CNP qpn=%u>%u", tvb(8, 2):uint(),
					      tvb(10, 2):uint())
	end
	return CTL_LEN, " " .. (ctl_types[ctype] or tostring(ctype))
end

local function dissect_uud(tvb, tree)
	if not fits(tvb, tree, UUD_LEN) then
		return tvb:len(), " [short]"
	end
	local pay_len = tvb(2, 2):uint()
	tree:add(f.uud_pay_len, tvb(2, 2))
	tree:add(f.uud_qkey, tvb(4, 4))
	tree:add(f.spdcid, tvb(8, 2))
	tree:add(f.dpdcid, tvb(10, 2))
	tree:add(f.uud_imm, tvb(12, 4))
	local left = tvb:reported_length_remaining(UUD_LEN)
	if left > pay_len then
		tree:add_proto_expert_info(ef.long)
	end
	if tvb:len() > UUD_LEN then
		tree:add(f.payload, tvb(UUD_LEN))
	end
	return UUD_LEN + left, string.format(" qpn=%u>%u len=%u", tvb(8, 2):uint(),
					     tvb(10, 2):uint(), pay_len)
end

-- One uet packet at the start of tvb; returns the bytes it took and the
-- text for the info column.
local function dissect_one(tvb, root)
	local tree = root:add(uet, tvb(0, math.min(tvb:len(), 2)))
	if not fits(tvb, tree, 2) then
		return tvb:len(), "[short]"
	end
	local prologue = tvb(0, 2):uint()
	local ptype = bit.rshift(prologue, 11)
	local flags = bit.band(prologue, 0x7f)
	local name = pds_types[ptype] or ("type " .. ptype)
	tree:add(f.type, tvb(0, 2))
	if ptype == T_CONTROL then
		tree:add(f.ctl_type, tvb(0, 2))
	else
		tree:add(f.nh, tvb(0, 2))
	end
	add_flags(tree, tvb(0, 2), ptype)

	local used, info
	if ptype == T_RUD_REQ then
		used, info = dissect_rud(tvb, tree, flags)
	elseif ptype == T_ACK or ptype == T_ACK_CC or ptype == T_ACK_CCX then
		used, info = dissect_ack(tvb, tree, ptype, flags)
	elseif ptype == T_NACK then
		used, info = dissect_nack(tvb, tree)
	elseif ptype == T_CONTROL then
		used, info = dissect_control(tvb, tree)
	elseif ptype == T_UUD_REQ then
		used, info = dissect_uud(tvb, tree)
	else
		tree:add_proto_expert_info(ef.foreign)
		used, info = tvb:reported_length_remaining(0), ""
	end
	tree:set_len(math.min(used, tvb:len()))
	tree:append_text(", " .. name .. info)
	return used, name .. info
end

function uet.dissector(tvb, pinfo, root)
	pinfo.cols.protocol = "UET"
	-- A capture taken before UDP segmentation (on the sending host, of a
	-- netdev that segments itself) shows a train as one datagram: its
	-- packets follow each other, each with its own headers, as the
	-- receiver walks them. The first is dissected in tvb itself: a tvb
	-- made of a range knows only the bytes captured, and the reported
	-- length is what tells a trimmed packet from one a snap length cut.
	local off, infos, rest = 0, {}, tvb
	while true do
		local used, info = dissect_one(rest, root)
		infos[#infos + 1] = info
		if used <= 0 or off + used >= tvb:len() or
		   bit.rshift(tvb(off + used, 1):uint(), 3) ~= T_RUD_REQ then
			break
		end
		off = off + used
		rest = tvb:range(off):tvb()
	end
	if #infos > 1 then
		pinfo.cols.info = string.format("train of %d: %s", #infos,
						table.concat(infos, " | "))
	else
		pinfo.cols.info = infos[1]
	end
	return tvb:len()
end

uet.prefs.udp_port = Pref.uint("UDP port", UDP_PORT,
			       "UDP destination port (rdma_uet's udp_port module parameter)")

local port = UDP_PORT
DissectorTable.get("udp.port"):add(port, uet)

function uet.prefs_changed()
	if uet.prefs.udp_port ~= port then
		DissectorTable.get("udp.port"):remove(port, uet)
		port = uet.prefs.udp_port
		DissectorTable.get("udp.port"):add(port, uet)
	end
end
