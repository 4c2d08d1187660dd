# SPDX-License-Identifier: GPL-2.0
"""What the stub's command trace must show after the conformance stage's
VM runs (tests/stub/judge.py), read with arbeltest.trace.

conformance_trace(entries) and mthca_sequence(entries) each return a list
of checks (name, ok, detail).
"""

import re

from arbeltest import trace

_HEX_RE = {n: re.compile(f'0x[0-9a-f]{{{n}}}') for n in (8, 16)}


def _hex(e, key, digits):
    """Field @key of @e is printed as 0x and @digits lower-case hex digits."""
    v = e.fields.get(key)
    return isinstance(v, str) and bool(_HEX_RE[digits].fullmatch(v))


def _box(data, length, prefix):
    """A mailbox of @length bytes whose first bytes are @prefix (hex)."""
    return (data is not None and len(data) == length and
            data.startswith(bytes.fromhex(prefix)))


def _last(e, key):
    """@key is the last field of the line."""
    return bool(e.fields) and list(e.fields)[-1] == key


def _status(e, status, name):
    return e.status == status and e.status_name == name


def _plain_command(e):
    """Nothing between status and the mailboxes: no e bit, no immediate
    output, no fault."""
    return not e.event_mode and e.out_imm is None and e.fault is None


def _sw2hw_mpt_inbox(e):
    return (e.name == 'SW2HW_MPT' and e.opcode == 0x00d and e.op_mod == 0 and
            e.in_mod == 0x11 and _hex(e, 'in_mod', 8) and
            _hex(e, 'in_param', 16) and _hex(e, 'out_param', 16) and
            e.token == 0xffff and _status(e, 0, 'OK') and _plain_command(e) and
            _box(e.inbox(), 64, 'f0000d0000000000'))


def _set_icm_size_imm(e):
    return (e.name == 'SET_ICM_SIZE' and e.in_param == 0x20000 and
            _hex(e, 'in_param', 16) and _status(e, 0, 'OK') and
            not e.event_mode and e.out_imm == 1 and
            _hex(e, 'out_imm', 16) and _last(e, 'out_imm'))


def _query_fw_outbox(e):
    return (e.name == 'QUERY_FW' and _status(e, 0, 'OK') and
            _plain_command(e) and e.inbox() is None and
            _box(e.outbox(), 256, '0030000500000003'))


def _injected_failure(e):
    return (e.name == 'NOP' and _status(e, 0x06, 'RESOURCE_BUSY') and
            e.fault == 'injected-failure' and _last(e, 'fault'))


def _corrupted_outbox(e):
    return (e.name == 'QUERY_FW' and e.fault == 'corrupted-outbox' and
            e.inbox() is None and _box(e.outbox(), 256, '0030fffa'))


def _mad_ifc(e):
    return (e.name == 'MAD_IFC' and e.opcode == 0x024 and
            _status(e, 0, 'OK') and _plain_command(e) and
            _box(e.inbox(), 256, '01010101') and
            _box(e.outbox(), 256, '01010181'))


def _unconfirmed_map_icm(e):
    """The stub's note for a MAP_ICM no source refuses (iPXE's doorbell
    page above the ICM size): a line of its own, no fields."""
    return (e.name == 'unconfirmed:' and not e.is_command and
            e.raw.split(' ', 2)[2].startswith('MAP_ICM [0x20000, +0x1000) '
                                              'beyond ICM size 0x20000'))


def _unconfirmed(*texts):
    """The stub's note for a rule no source states: a line of its own,
    holding every one of @texts."""
    return lambda e: (e.name == 'unconfirmed:' and not e.is_command and
                      all(t in e.raw.split(' ', 2)[2] for t in texts))


def _reset(e):
    return e.name == 'RESET' and not e.fields


def _translation(e):
    return (e.is_xlate and _hex(e, 'key', 8) and e.fields.get('access') == '1'
            and list(e.fields)[:2] == ['key', 'access'] and
            e.result == 0 and _last(e, 'result'))


def _event_mode_nop(e):
    return (e.name == 'NOP' and e.in_mod == 0x1f and e.event_mode and
            e.token == 0x4a21 and _status(e, 0, 'OK') and _last(e, 'e'))


def _doorbell(e):
    return (e.name == 'DOORBELL' and e.fields.get('uar') == '1' and
            e.fields.get('offset') == '0x010' and e.fields.get('size') == '8'
            and e.fields.get('value') == '0x0000000a00000101')


def _eqe_intx(e):
    return (e.name == 'EQE' and e.fields.get('eq') == '0' and
            e.fields.get('type') == '0x0a' and
            e.fields.get('irq') == 'intx:0' and _last(e, 'irq'))


# (name, what a line must show, the test) -- what arbel-conformance's run
# leaves in the trace
CONFORMANCE = (
    ('SW2HW_MPT with its 64-byte inbox',
     'SW2HW_MPT op 0x00d in_mod 0x11 token 0xffff OK in[64]=f0000d00...',
     _sw2hw_mpt_inbox),
    ('refusal with its status', 'SW2HW_MPT status 0x0a(BAD_INDEX)',
     lambda e: e.name == 'SW2HW_MPT' and _status(e, 0x0a, 'BAD_INDEX')),
    ('SET_ICM_SIZE immediate output',
     'SET_ICM_SIZE in_param 0x20000 OK, out_imm=1 last',
     _set_icm_size_imm),
    ('QUERY_FW outbox', 'QUERY_FW OK out[256]=0030000500000003',
     _query_fw_outbox),
    ('injected failure',
     'NOP status 0x06(RESOURCE_BUSY) fault=injected-failure last',
     _injected_failure),
    ('corrupted outbox', 'QUERY_FW fault=corrupted-outbox out[256]=0030fffa',
     _corrupted_outbox),
    ('MAD_IFC with its MAD',
     'MAD_IFC op 0x024 OK in[256]=01010101... out[256]=01010181...',
     _mad_ifc),
    ('reset', 'a RESET line with nothing else', _reset),
    ('translation', 'XLATE key=0x(8 digits) access=1 ... result=0 last',
     _translation),
    ('event-mode command', 'NOP in_mod 0x1f token 0x4a21 OK e=1 last',
     _event_mode_nop),
    ('command-completion EQE by INTx', 'EQE eq=0 type=0x0a irq=intx:0',
     _eqe_intx),
    ('unconfirmed rule', 'unconfirmed: MAP_ICM [0x20000, +0x1000) beyond '
     'ICM size 0x20000', _unconfirmed_map_icm),
    ('unconfirmed: UNMAP_ICM of unmapped pages',
     'unconfirmed: UNMAP_ICM [...) holds unmapped pages',
     _unconfirmed('pages) holds unmapped pages')),
    ('unconfirmed: UNMAP_ICM_AUX out of order',
     'unconfirmed: UNMAP_ICM_AUX with 2 ICM pages mapped',
     _unconfirmed('UNMAP_ICM_AUX with 2 ICM pages mapped')),
    ('unconfirmed: mailbox not 4 KiB aligned',
     'unconfirmed: QUERY_FW mailbox 0x3fb9e010 not 4 KiB aligned',
     _unconfirmed('QUERY_FW mailbox ', 'not 4 KiB aligned')),
    ('unconfirmed: SW2HW_MPT mem_key of another slot',
     'unconfirmed: SW2HW_MPT 0x11: mem_key does not name the slot',
     _unconfirmed('SW2HW_MPT 0x11: mem_key does not name the slot')),
    ('unconfirmed: SW2HW_MPT reserved bits',
     'unconfirmed: SW2HW_MPT 0x11: reserved bits set',
     _unconfirmed('SW2HW_MPT 0x11: reserved bits set')),
    ('unconfirmed: SW2HW_MPT win_cnt',
     'unconfirmed: SW2HW_MPT 0x11: win_cnt not 0',
     _unconfirmed('SW2HW_MPT 0x11: win_cnt not 0')),
    ('unconfirmed: SW2HW_MPT MTT range',
     'unconfirmed: SW2HW_MPT 0x11: MTT range outside the MTT area',
     _unconfirmed('SW2HW_MPT 0x11: MTT range outside the MTT area')),
    ('unconfirmed: SW2HW_MPT reserved MTTs',
     'unconfirmed: SW2HW_MPT 0x11: MTT range in the reserved MTTs',
     _unconfirmed('SW2HW_MPT 0x11: MTT range in the reserved MTTs')),
    ('unconfirmed: SW2HW_MPT op_mod',
     'unconfirmed: SW2HW_MPT op_mod 1 (sources give 0..0)',
     _unconfirmed('SW2HW_MPT op_mod 1 (sources give 0..0)')),
    ('unconfirmed: HW2SW_MPT op_mod',
     'unconfirmed: HW2SW_MPT op_mod 2 (sources give 0..1)',
     _unconfirmed('HW2SW_MPT op_mod 2 (sources give 0..1)')),
    ('unconfirmed: WRITE_MTT entry not present',
     'unconfirmed: an entry without the present bit',
     _unconfirmed('WRITE_MTT 0x', 'an entry without the present bit')),
    ('unconfirmed: INIT_HCA table outside the ICM size',
     'unconfirmed: INIT_HCA CQC [0x20000, +0x40) outside ICM size 0x20000',
     _unconfirmed('INIT_HCA CQC [0x20000, +0x40) outside ICM size 0x20000')),
    ('unconfirmed: INIT_HCA table not aligned to its size',
     'unconfirmed: INIT_HCA QPC [0x11100, +0x200) not aligned to its size',
     _unconfirmed('INIT_HCA QPC [0x11100, +0x200) not aligned to its size')),
    ('unconfirmed: INIT_HCA tables overlap',
     'unconfirmed: INIT_HCA EEC at 0x0 and MPT at 0x0 overlap',
     _unconfirmed('INIT_HCA EEC at 0x0 and MPT at 0x0 overlap')),
    ('unconfirmed: INIT_HCA reserved MPTs only',
     'unconfirmed: INIT_HCA log_mpt_sz 4: reserved MPTs only',
     _unconfirmed('INIT_HCA log_mpt_sz 4: reserved MPTs only')),
    ('unconfirmed: CLOSE_HCA op_mod',
     'unconfirmed: CLOSE_HCA op_mod 2 (sources give 0..1)',
     _unconfirmed('CLOSE_HCA op_mod 2 (sources give 0..1)')),
    ('unconfirmed: MAP_FA chunk above 4 GiB',
     'unconfirmed: chunk 0x200000000 log2size 21 > 20',
     _unconfirmed('chunk 0x200000000 log2size 21 > 20')),
    ('unconfirmed: MAD_IFC op_mod',
     'unconfirmed: MAD_IFC op_mod 0x8 (sources give bits 2:0)',
     _unconfirmed('MAD_IFC op_mod 0x8 (sources give bits 2:0)')),
    ('unconfirmed: INIT_HCA MC hash size not a power of 2',
     'unconfirmed: INIT_HCA MC hash size 6 (table 2^4): ...',
     _unconfirmed('INIT_HCA MC hash size 6 (table 2^4)')),
    ('unconfirmed: WRITE_MGM link into the hash table',
     'unconfirmed: WRITE_MGM 6: next_gid_index 2 outside the AMGM ...',
     _unconfirmed('WRITE_MGM 6: next_gid_index 2 outside the AMGM')),
    ('doorbell', 'DOORBELL uar=1 offset=0x010 size=8 '
     'value=0x0000000a00000101', _doorbell),
    ('unconfirmed: an MPT entry the CPU rewrote, reserved bits',
     'unconfirmed: MPT 0x4e written by the CPU: reserved bits set',
     _unconfirmed('written by the CPU: reserved bits set')),
)


def conformance_trace(entries):
    """The checks of arbel-conformance's trace: one line of each kind."""
    return [(f'trace: {name}', any(test(e) for e in entries),
             f'no line of the {len(entries)} in the trace has {what}')
            for name, what, test in CONFORMANCE]


# ib_mthca's mem-free bring-up, as tokens NAME:SS (status in hex)
MTHCA_START = ('QUERY_FW:00', 'ENABLE_LAM:22', 'MAP_FA:00', 'RUN_FW:00',
               'QUERY_DEV_LIM:00', 'SET_ICM_SIZE:00', 'MAP_ICM_AUX:00')
# INIT_HCA to CLOSE_HCA, in this order (other commands between): its EQs,
# MAP_EQ, the NOP interrupt test in event mode, the special QPs
# (mthca_init_qp_table), NodeInfo (mthca_init_node_data), then the MAD
# layer's CQ and QP0/QP1 brought to RTS, INIT_IB from QP0's move to RTR
# (mthca_qp.c init_port); at removal the QPs back to RST, their CQ, CLOSE_IB
# of each port, the special QPs unset, the EQs, CLOSE_HCA (mthca_main.c
# __mthca_remove_one's order)
MTHCA_MIDDLE = ('INIT_HCA:00', 'QUERY_ADAPTER:00', 'SW2HW_EQ:00',
                'SW2HW_EQ:00', 'SW2HW_EQ:00', 'MAP_EQ:00', 'MAP_EQ:00',
                'NOP:00', 'CONF_SPECIAL_QP:00', 'CONF_SPECIAL_QP:00',
                'MAD_IFC:00', 'SW2HW_CQ:00', 'RST2INIT_QPEE:00',
                'INIT2RTR_QPEE:00', 'INIT_IB:00', 'RTR2RTS_QPEE:00',
                'ERR2RST_QPEE:00', 'HW2SW_CQ:00', 'CLOSE_IB:00',
                'CONF_SPECIAL_QP:00', 'CONF_SPECIAL_QP:00', 'MAP_EQ:00',
                'HW2SW_EQ:00', 'HW2SW_EQ:00', 'HW2SW_EQ:00', 'CLOSE_HCA:00')
MTHCA_END = ('UNMAP_ICM_AUX:00', 'UNMAP_FA:00')
# the only command that may fail
MTHCA_REFUSED = ('ENABLE_LAM:22',)


def tokens(entries):
    """The commands as tokens NAME:SS."""
    return tuple(f'{name}:{"??" if st is None else f"{st:02x}"}'
                 for name, st in trace.op_status_list(entries))


def _in_order(seq, part):
    """Whether the items of @part stand in @seq in that order (others may
    stand between them)."""
    it = iter(seq)
    return all(any(x == p for x in it) for p in part)


def mthca_sequence(entries):
    """The checks of ib_mthca's commands: its whole mem-free bring-up
    passes, its probe goes through the EQs, the NOP interrupt test, the
    special QPs and the MAD layer's QPs to INIT_IB, its removal undoes
    everything in order, and nothing but ENABLE_LAM is refused."""
    ops = tokens(entries)
    start, end = len(MTHCA_START), len(ops) - len(MTHCA_END)
    shown = ' '.join(ops)
    bad = [t for t in ops if not t.endswith(':00') and t not in MTHCA_REFUSED]
    return [
        ('ib_mthca: bring-up QUERY_FW .. MAP_ICM_AUX, in order',
         ops[:start] == MTHCA_START, shown),
        ('ib_mthca: INIT_HCA, three EQs, MAP_EQ, event-mode NOP, special '
         'QPs, CQ, QPs to RTS, INIT_IB, all undone, CLOSE_HCA',
         end >= start and _in_order(ops[start:end], MTHCA_MIDDLE), shown),
        ('ib_mthca: teardown ends with UNMAP_ICM_AUX, UNMAP_FA',
         end >= start and ops[end:] == MTHCA_END, shown),
        ('ib_mthca: every other command OK', not bad,
         'refused: ' + ' '.join(bad)),
    ]


def _event_nop(e):
    return (e.name == 'NOP' and e.in_mod == 0x1f and e.event_mode and
            _status(e, 0, 'OK'))


def mthca_interrupt(entries, how):
    """ib_mthca's NOP interrupt test: its event-mode NOP 0x1f is followed by
    a command-completion EQE (type 0x0a) that raised an interrupt of kind
    @how ('msix' or 'intx')."""
    nops = [i for i, e in enumerate(entries) if _event_nop(e)]
    eqe = None
    if nops:
        eqe = next((e for e in entries[nops[0] + 1:]
                    if e.name == 'EQE' or e.is_command), None)
    ok = (eqe is not None and eqe.name == 'EQE' and
          eqe.fields.get('type') == '0x0a' and
          eqe.fields.get('irq', '').startswith(how + ':'))
    return [(f'ib_mthca: NOP 0x1f in event mode completes as an EQE by {how}',
             ok, f'NOP lines {nops}, then {eqe.raw if eqe else None}')]


def mthca_port_events(entries):
    """Every INIT_IB the stub accepted brought a port up with a port state
    change EQE (type 0x09), written while the command ran: the line just
    before the command's."""
    inits = [i for i, e in enumerate(entries)
             if e.name == 'INIT_IB' and _status(e, 0, 'OK')]
    missing = [entries[i].raw for i in inits
               if i == 0 or entries[i - 1].name != 'EQE' or
               entries[i - 1].fields.get('type') != '0x09']
    return [('ib_mthca: each INIT_IB posts a port state change EQE',
             bool(inits) and not missing,
             f'{len(inits)} INIT_IB; without the EQE: {missing[:3]}')]


def mthca_sends(entries):
    """The MADs ib_mthca's MAD layer sent (the SA client's queries after
    the port bounce): every WQE of every send doorbell completed as a CQE
    (MADs are sent signaled; the SA's answer, written in the same
    doorbell, adds a receive CQE), and the completions raised events (EQE
    type 0x00) -- Documentation/arbel-stub.rst, "Data path"."""
    sends = [e for e in entries if e.name == 'SEND']
    # the SA answers within the doorbell: its receive CQE counts too
    short = [e.raw for e in sends
             if int(e.fields.get('cqes', '0')) < int(e.fields.get('wqes',
                                                                  '1'))]
    comp = sum(1 for e in entries
               if e.name == 'EQE' and e.fields.get('type') == '0x00')
    return [('ib_mthca: every MAD sent completes as a CQE, with an event',
             bool(sends) and not short and comp > 0,
             f'{len(sends)} send doorbells, {comp} completion EQEs; '
             f'not completed: {short[:3]}')]


def mthca_msix(entries):
    """ib_mthca on the default stub (MSI-X capability present), with the
    port bounce of the mthca stage."""
    return (mthca_sequence(entries) + mthca_interrupt(entries, 'msix') +
            mthca_port_events(entries) + mthca_sends(entries))


def mthca_intx(entries):
    """ib_mthca on a stub with msix=off: INTx and the clear register."""
    return (mthca_sequence(entries) + mthca_interrupt(entries, 'intx') +
            mthca_port_events(entries))
