# SPDX-License-Identifier: GPL-2.0
"""User queues on arbel0: CQs, QPs and SRQs through stock libmthca.

The judges are rdma-core's own clients, unmodified: ibverbs-utils'
pingpongs (RC, UC, UD, SRQ) with their buffers validated (-c), server and
client on arbel0 meeting over TCP on 127.0.0.1.  Beside them, pyverbs
checks the geometry the driver reports back against the values computed
by hand from libmthca's buffer layout (mthca_alloc_qp_buf: a WQE is the
16-byte next segment plus what its largest request needs, at least
64 bytes, a power of two; queues of a power of two WQEs), that a QP's
attributes read back as they were set, and that what IBTA or the device
forbids is refused.
"""

import ctypes
import errno
import mmap
import subprocess
import unittest

import pyverbs.enums as e
from pyverbs.addr import AHAttr
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr

import base
import uverbs_raw

PINGPONG_SECS = 60


def pingpong(kind, dev, tcp_port):
    """Server and client of ibv_<kind>_pingpong -c; (rc, rc, output)."""
    args = [f'ibv_{kind}_pingpong', '-d', dev, '-g', '0', '-n', '50', '-c',
            '-p', str(tcp_port)]
    with subprocess.Popen(args, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as server:
        client = None
        for _ in range(20):      # the server listens within a second or so
            client = subprocess.run(args + ['127.0.0.1'], capture_output=True,
                                    text=True, timeout=PINGPONG_SECS,
                                    check=False)
            if 'Couldn\'t connect' not in client.stderr + client.stdout:
                break
            subprocess.run(['sleep', '0.2'], check=False)
        try:
            out, _ = server.communicate(timeout=PINGPONG_SECS)
        except subprocess.TimeoutExpired:
            server.kill()
            out, _ = server.communicate()
    return (server.returncode, client.returncode,
            out + client.stdout + client.stderr)


class Pingpongs(unittest.TestCase):
    """ibverbs-utils' four pingpongs, buffers validated."""

    def check(self, kind, tcp_port):
        srv, cli, out = pingpong(kind, base.CONFIG['device'], tcp_port)
        self.assertTrue(srv == 0 and cli == 0 and 'iters in' in out,
                        f'server {srv}, client {cli}: {out[-600:]}')

    def test_rc(self):
        """ibv_rc_pingpong -c: 50 round trips, buffers validated."""
        self.check('rc', 18515)

    def test_uc(self):
        """ibv_uc_pingpong -c."""
        self.check('uc', 18516)

    def test_ud(self):
        """ibv_ud_pingpong -c (address handles built by libmthca)."""
        self.check('ud', 18517)

    def test_srq(self):
        """ibv_srq_pingpong -c: 16 QPs on one SRQ."""
        self.check('srq', 18518)


class Limits(unittest.TestCase):
    """query_device's queue limits, from what the stub's QUERY_DEV_LIM
    answers (qemu/arbel-fw.c: 2^6 reserved of 2^18 QPs, 2^7 of 2^16 CQs,
    2^4 of 2^16 SRQs, 2^16 WQEs, 2^17 CQEs, 30 S/G entries, 2^7 reads
    out, 2^2 in) and the driver's profile (2^16 QPs, CQs and SRQs; 8 QPs
    kept for the special QPs; 4 RDB entries a QP)."""

    def test_limits(self):
        """max_qp 2^16 - 64 - 8, max_cq 2^16 - 128, max_srq 2^16 - 16,
        max_qp_wr 2^16, max_cqe 2^17 - 1, max_srq_wr 2^16 - 1, 30 S/G,
        4 reads in, 128 out, atomics (DEV_LIM flag 18)."""
        with Context(name=base.CONFIG['device']) as ctx:
            a = ctx.query_device()
        got = (a.max_qp, a.max_cq, a.max_srq, a.max_qp_wr, a.max_cqe,
               a.max_srq_wr, a.max_sge, a.max_srq_sge, a.max_qp_rd_atom,
               a.max_qp_init_rd_atom, a.atomic_caps)
        want = (65464, 65408, 65520, 65536, 131071, 65535, 30, 30, 4, 128,
                e.IBV_ATOMIC_HCA)
        self.assertEqual(got, want)


class Geometry(unittest.TestCase):
    """Objects through pyverbs: sizes and attributes as computed by hand."""

    @classmethod
    def setUpClass(cls):
        cls.ctx = Context(name=base.CONFIG['device'])
        cls.pd = PD(cls.ctx)
        cls.cq = CQ(cls.ctx, 100)

    @classmethod
    def tearDownClass(cls):
        cls.cq.close()
        cls.pd.close()
        cls.ctx.close()

    def qp(self, qpt, send_wr=10, recv_wr=5, srq=None):
        cap = QPCap(max_send_wr=send_wr, max_recv_wr=recv_wr, max_send_sge=1,
                    max_recv_sge=1)
        return QP(self.pd, QPInitAttr(qp_type=qpt, scq=self.cq, rcq=self.cq,
                                      cap=cap, srq=srq))

    def test_cq_entries(self):
        """A CQ of 100 holds 127: 128 entries, one kept empty."""
        self.assertEqual(self.cq.cqe, 127)

    def test_rc_caps(self):
        """RC, 10/5 WRs, 1/1 SGE: 16/8 WRs; a 64-byte send WQE (next 16 +
        raddr 16 + atomic 16 + one gather 16) holds 2 gathers, 28 inline
        bytes; a 64-byte receive WQE 3 scatters."""
        with self.qp(e.IBV_QPT_RC) as qp:
            _, init = qp.query(e.IBV_QP_CAP)
            c = init.cap
            self.assertEqual((c.max_send_wr, c.max_recv_wr, c.max_send_sge,
                              c.max_recv_sge, c.max_inline_data),
                             (16, 8, 2, 3, 28))

    def test_ud_caps(self):
        """UD: next 16 + address vector 48 + one gather 16 = 80 -> 128 bytes:
        (128 - 16 - 48) / 16 = 4 gathers, 60 inline bytes."""
        with self.qp(e.IBV_QPT_UD, send_wr=1, recv_wr=1) as qp:
            _, init = qp.query(e.IBV_QP_CAP)
            c = init.cap
            self.assertEqual((c.max_send_wr, c.max_recv_wr, c.max_send_sge,
                              c.max_inline_data), (1, 1, 4, 60))

    def to_rts(self, qp):
        """RESET -> INIT -> RTR -> RTS, to itself (LID 1), with values no
        default has."""
        a = QPAttr(qp_state=e.IBV_QPS_INIT, port_num=1)
        a.pkey_index = 0
        a.qp_access_flags = (e.IBV_ACCESS_REMOTE_WRITE |
                             e.IBV_ACCESS_REMOTE_READ)
        qp.to_init(a)
        a = QPAttr(qp_state=e.IBV_QPS_RTR, path_mtu=e.IBV_MTU_1024)
        a.dest_qp_num = qp.qp_num
        a.rq_psn = 0x123456
        a.max_dest_rd_atomic = 4
        a.min_rnr_timer = 12
        a.ah_attr = AHAttr(dlid=1, port_num=1, sl=3)
        qp.to_rtr(a)
        a = QPAttr(qp_state=e.IBV_QPS_RTS)
        a.sq_psn = 0x654321
        a.timeout = 14
        a.retry_cnt = 6
        a.rnr_retry = 5
        a.max_rd_atomic = 2
        qp.to_rts(a)

    def test_attributes_read_back(self):
        """query_qp (QUERY_QPEE) gives back what the transitions set."""
        with self.qp(e.IBV_QPT_RC) as qp:
            self.to_rts(qp)
            a, _ = qp.query(e.IBV_QP_STATE | e.IBV_QP_PATH_MTU |
                            e.IBV_QP_RQ_PSN | e.IBV_QP_SQ_PSN |
                            e.IBV_QP_DEST_QPN | e.IBV_QP_ACCESS_FLAGS |
                            e.IBV_QP_MAX_DEST_RD_ATOMIC |
                            e.IBV_QP_MAX_QP_RD_ATOMIC |
                            e.IBV_QP_MIN_RNR_TIMER | e.IBV_QP_TIMEOUT |
                            e.IBV_QP_RETRY_CNT | e.IBV_QP_RNR_RETRY |
                            e.IBV_QP_AV | e.IBV_QP_PORT)
            got = (a.qp_state, a.path_mtu, a.rq_psn, a.sq_psn, a.dest_qp_num,
                   a.qp_access_flags, a.max_dest_rd_atomic, a.max_rd_atomic,
                   a.min_rnr_timer, a.timeout, a.retry_cnt, a.rnr_retry,
                   a.ah_attr.dlid, a.ah_attr.sl, a.port_num)
            want = (e.IBV_QPS_RTS, e.IBV_MTU_1024, 0x123456, 0x654321,
                    qp.qp_num, e.IBV_ACCESS_REMOTE_WRITE |
                    e.IBV_ACCESS_REMOTE_READ, 4, 2, 12, 14, 6, 5, 1, 3, 1)
            self.assertEqual(got, want)

    def refused(self, qp, attr, mask, code=errno.EINVAL):
        with self.assertRaises(PyverbsRDMAError) as cm:
            qp.modify(attr, mask)
        self.assertEqual(cm.exception.error_code, code)

    def test_refusals(self):
        """RESET -> RTR (IBTA), port 3 (the device has two), 8 responder
        resources (4 RDB entries a QP) are refused with EINVAL; the QP
        stays in RESET."""
        with self.qp(e.IBV_QPT_RC) as qp:
            a = QPAttr(qp_state=e.IBV_QPS_RTR, path_mtu=e.IBV_MTU_1024)
            self.refused(qp, a, e.IBV_QP_STATE | e.IBV_QP_PATH_MTU)
            a = QPAttr(qp_state=e.IBV_QPS_INIT, port_num=3)
            a.qp_access_flags = 0
            self.refused(qp, a, e.IBV_QP_STATE | e.IBV_QP_PORT |
                         e.IBV_QP_PKEY_INDEX | e.IBV_QP_ACCESS_FLAGS)
            a = QPAttr(qp_state=e.IBV_QPS_INIT, port_num=1)
            qp.to_init(a)
            a = QPAttr(qp_state=e.IBV_QPS_RTR, path_mtu=e.IBV_MTU_1024)
            a.max_dest_rd_atomic = 8
            a.dest_qp_num = qp.qp_num
            a.ah_attr = AHAttr(dlid=1, port_num=1)
            self.refused(qp, a, e.IBV_QP_STATE | e.IBV_QP_AV |
                         e.IBV_QP_PATH_MTU | e.IBV_QP_DEST_QPN |
                         e.IBV_QP_RQ_PSN | e.IBV_QP_MAX_DEST_RD_ATOMIC |
                         e.IBV_QP_MIN_RNR_TIMER)
            st, _ = qp.query(e.IBV_QP_STATE)
            self.assertEqual(st.qp_state, e.IBV_QPS_INIT)

    def test_pkey_table(self):
        """The port's P_Key table is QUERY_DEV_LIM's 64 entries (the stub's
        2^6, INIT_IB's max_pkey), two P_KeyTable blocks of 32: index 0 the
        default 0xffff, 63 (block 1) empty; a QP takes P_Key index 63 and
        reads it back; 64 is refused with EINVAL."""
        self.assertEqual(self.ctx.query_port(1).pkey_tbl_len, 64)
        self.assertEqual(self.ctx.query_device().max_pkeys, 64)
        self.assertEqual(self.ctx.query_pkey(1, 0), 0xffff)
        self.assertEqual(self.ctx.query_pkey(1, 63), 0)
        with self.qp(e.IBV_QPT_RC) as qp:
            a = QPAttr(qp_state=e.IBV_QPS_INIT, port_num=1)
            a.qp_access_flags = 0
            a.pkey_index = 64
            mask = (e.IBV_QP_STATE | e.IBV_QP_PORT | e.IBV_QP_PKEY_INDEX |
                    e.IBV_QP_ACCESS_FLAGS)
            self.refused(qp, a, mask)
            a.pkey_index = 63
            qp.modify(a, mask)
            got, _ = qp.query(e.IBV_QP_PKEY_INDEX)
            self.assertEqual(got.pkey_index, 63)

    def test_srq_limit(self):
        """An SRQ of 10 holds 15 (16, one kept empty); its limit reads back
        (QUERY_SRQ); a limit of 16 is refused."""
        with SRQ(self.pd, SrqInitAttr(SrqAttr(max_wr=10, max_sge=1))) as srq:
            a = srq.query()
            self.assertEqual(a.max_wr, 15)
            srq.modify(SrqAttr(srq_limit=5), e.IBV_SRQ_LIMIT)
            self.assertEqual(srq.query().srq_limit, 5)
            with self.assertRaises(PyverbsRDMAError) as cm:
                srq.modify(SrqAttr(srq_limit=16), e.IBV_SRQ_LIMIT)
            self.assertEqual(cm.exception.error_code, errno.EINVAL)


class ForeignPd(unittest.TestCase):
    """A CQ request names its buffer's PD by number (mthca's ABI): one of
    another process's PDs is refused, or its CQEs could be written into
    that process's memory through its lkey."""

    def test_cq_with_another_contexts_pd(self):
        """create_cq naming another context's PD -> EINVAL; the context's
        own PD and region -> created"""
        dev = base.CONFIG['device']
        a, b = uverbs_raw.Uverbs(dev), uverbs_raw.Uverbs(dev)
        pages = mmap.mmap(-1, 3 * mmap.PAGESIZE)
        try:
            for u in (a, b):
                self.assertEqual(u.get_context(), 0)
            err, pd_a = a.alloc_pd()
            pdn_a = a.u32(1)
            self.assertEqual(err, 0)
            err, _ = b.alloc_pd()
            pdn_b = b.u32(1)
            self.assertEqual(err, 0)
            addr = ctypes.addressof(ctypes.c_char.from_buffer(pages))
            # the CQ's buffer: a region of context a based at 0
            err, _ = a.reg_mr(pd_a, addr, mmap.PAGESIZE, 0, 1)
            lkey = a.u32(1)
            self.assertEqual(err, 0)
            dbs = (addr + mmap.PAGESIZE, addr + 2 * mmap.PAGESIZE, 0, 1023)
            got = (a.create_cq(1, lkey, pdn_b, *dbs),
                   a.create_cq(1, lkey, pdn_a, *dbs))
            self.assertEqual(tuple(map(uverbs_raw.errname, got)),
                             ('EINVAL', '0'))
        finally:
            a.close()
            b.close()
            pages.close()
