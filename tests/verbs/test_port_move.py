# SPDX-License-Identifier: GPL-2.0
"""An RC QP moved to the device's other port while in SQD
(IB_DEVICE_CHANGE_PHY_PORT), through stock libmthca.

IBTA vol. 1 (the kernel's qp_state_table in drivers/infiniband/core/
verbs.c) lets an RC QP's port, primary path and P_Key index change in the
SQD -> SQD transition; a device that can claims CHANGE_PHY_PORT, as
ib_mthca does for the same HCA (its SQD2SQD_QPEE carries the port in the
primary path, optional-parameter bit 11).  The judge is where the
messages come from: a receive completion's source LID (the CQE's rlid,
which libmthca reports for every QP type) is the LID of the port the
sender left by, and the stub's subnet manager gives port n the LID
lid + n - 1.  Before the move the sender's messages come from port 1's
LID, after it from port 2's, and query_qp says port 2; the bytes are
compared each time.  Each QP is drained as an application would before
such a move: RTS -> SQD asking for the SQ-drained event, then waiting for
IBV_EVENT_SQ_DRAINED on the context's async fd (non-blocking, select()
with a deadline, so that a missing event fails instead of hanging).
arbel with polling=1 has no event queue, so no async event: there the
drain is seen in query_qp's state alone.

The verbs stages run it on arbel0 (verbs_guest.py); the mthca-traffic
stage runs it standalone on mthca0, so that the stub's port change and
event are the ones ib_mthca makes and expects too:

  test_port_move.py --dev DEV      (KTAP on stdout)
"""

import argparse
import os
import select
import sys
import time
import unittest

import pyverbs.enums as e
from pyverbs.addr import AHAttr
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SendWR, SGE

from arbeltest import ktap
import base

SIZE = 256
POLL_SECS = 10
EVENT_FD = 'anon_inode:[infinibandevent]'   # uverbs' async event file
IB_DEVICE_CHANGE_PHY_PORT = 1 << 5     # ib_verbs.h, enum ib_device_cap_flags


def event_fds():
    """This process's uverbs async event files (fd numbers)."""
    out = set()
    for fd in os.listdir('/proc/self/fd'):
        try:
            if os.readlink(f'/proc/self/fd/{fd}') == EVENT_FD:
                out.add(int(fd))
        except OSError:
            pass
    return out


class PortMove(unittest.TestCase):
    """RC QP a (port 1) sends to b (port 2); a moves to port 2 in SQD."""

    def setUp(self):
        before = event_fds()
        self.ctx = Context(name=base.CONFIG['device'])
        self.addCleanup(self.ctx.close)
        new = event_fds() - before
        self.assertEqual(len(new), 1, f'async event fds: {new}')
        self.async_fd = new.pop()
        os.set_blocking(self.async_fd, False)
        self.polling = base.eq_mode() == 'polling'    # None: mthca0
        self.pd = PD(self.ctx)
        self.addCleanup(self.pd.close)
        self.cq = CQ(self.ctx, 16)
        self.addCleanup(self.cq.close)
        self.mr = MR(self.pd, 2 * SIZE, e.IBV_ACCESS_LOCAL_WRITE)
        self.addCleanup(self.mr.close)
        self.lid = {p: self.ctx.query_port(p).lid for p in (1, 2)}
        cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1,
                    max_recv_sge=1)
        self.a, self.b = (QP(self.pd, QPInitAttr(qp_type=e.IBV_QPT_RC,
                                                 scq=self.cq, rcq=self.cq,
                                                 cap=cap))
                          for _ in range(2))
        self.addCleanup(self.a.close)
        self.addCleanup(self.b.close)

    @staticmethod
    def connect(qp, port, dqpn, dlid):
        """RESET -> INIT -> RTR -> RTS on @port, to @dqpn at @dlid."""
        a = QPAttr(qp_state=e.IBV_QPS_INIT, port_num=port)
        a.pkey_index = 0
        a.qp_access_flags = 0
        qp.to_init(a)
        a = QPAttr(qp_state=e.IBV_QPS_RTR, path_mtu=e.IBV_MTU_1024)
        a.dest_qp_num = dqpn
        a.rq_psn = 0
        a.max_dest_rd_atomic = 1
        a.min_rnr_timer = 12
        a.ah_attr = AHAttr(dlid=dlid, port_num=port)
        qp.to_rtr(a)
        a = QPAttr(qp_state=e.IBV_QPS_RTS)
        a.sq_psn = 0
        a.timeout = 14
        a.retry_cnt = 7
        a.rnr_retry = 7
        a.max_rd_atomic = 1
        qp.to_rts(a)

    def async_event(self, want):
        """Wait for async event @want; others seen before it are named in
        the failure."""
        seen = []
        deadline = time.monotonic() + POLL_SECS
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.async_fd], [], [], max(left, 0))
            if not ready:
                self.fail(f'no async event {want} within {POLL_SECS} s '
                          f'(others: {seen})')
            ev = self.ctx.get_async_event()
            kind = ev.event_type
            ev.ack()
            if kind == want:
                return
            seen.append(kind)

    def drain(self, qp):
        """RTS -> SQD asking for the SQ-drained event; the event comes (but
        in polling mode) and query_qp says SQD."""
        a = QPAttr(qp_state=e.IBV_QPS_SQD)
        a.en_sqd_async_notify = 1
        qp.modify(a, e.IBV_QP_STATE | e.IBV_QP_EN_SQD_ASYNC_NOTIFY)
        if not self.polling:
            self.async_event(e.IBV_EVENT_SQ_DRAINED)
        self.assertEqual(qp.query(e.IBV_QP_STATE)[0].qp_state,
                         e.IBV_QPS_SQD)

    def move(self, qp, port, dlid):
        """SQD -> SQD with the new port and primary path, SQD -> RTS."""
        self.drain(qp)
        a = QPAttr(qp_state=e.IBV_QPS_SQD, cur_qp_state=e.IBV_QPS_SQD,
                   port_num=port)
        a.ah_attr = AHAttr(dlid=dlid, port_num=port)
        qp.modify(a, e.IBV_QP_STATE | e.IBV_QP_PORT | e.IBV_QP_AV)
        qp.modify(QPAttr(qp_state=e.IBV_QPS_RTS, cur_qp_state=e.IBV_QPS_SQD),
                  e.IBV_QP_STATE | e.IBV_QP_CUR_STATE)

    def poll(self, n):
        """n completions, each a success."""
        wcs = []
        t0 = time.monotonic()
        while len(wcs) < n:
            self.assertLess(time.monotonic() - t0, POLL_SECS,
                            f'{len(wcs)} of {n} completions')
            got, batch = self.cq.poll(n - len(wcs))
            wcs += batch[:got]
        for wc in wcs:
            self.assertEqual(wc.status, e.IBV_WC_SUCCESS,
                             f'wr_id {wc.wr_id}: status {wc.status}')
        return wcs

    def send(self, fill):
        """a sends SIZE bytes of @fill to b: the receive's source LID."""
        self.mr.write(bytes([fill]) * SIZE, SIZE, 0)
        self.mr.write(bytes(SIZE), SIZE, SIZE)
        rsge = SGE(self.mr.buf + SIZE, SIZE, self.mr.lkey)
        self.b.post_recv(RecvWR(wr_id=2, num_sge=1, sg=[rsge]))
        ssge = SGE(self.mr.buf, SIZE, self.mr.lkey)
        self.a.post_send(SendWR(wr_id=1, opcode=e.IBV_WR_SEND, num_sge=1,
                                sg=[ssge], send_flags=e.IBV_SEND_SIGNALED))
        recv = [wc for wc in self.poll(2) if wc.wr_id == 2]
        self.assertEqual(len(recv), 1)
        self.assertEqual((recv[0].opcode, recv[0].byte_len),
                         (e.IBV_WC_RECV, SIZE))
        self.assertEqual(self.mr.read(SIZE, SIZE), bytes([fill]) * SIZE)
        return recv[0].slid

    def test_claimed(self):
        """query_device claims CHANGE_PHY_PORT: what test_moved shows."""
        flags = self.ctx.query_device().device_cap_flags
        self.assertTrue(flags & IB_DEVICE_CHANGE_PHY_PORT,
                        f'device_cap_flags {flags:#x}')

    def test_moved(self):
        """Sent from port 1's LID, then from port 2's once moved; query_qp
        reports port 2; the bytes arrive both times."""
        self.assertEqual(self.lid[2], self.lid[1] + 1, self.lid)
        self.connect(self.a, 1, self.b.qp_num, self.lid[2])
        self.connect(self.b, 2, self.a.qp_num, self.lid[1])
        self.assertEqual(self.send(0x5a), self.lid[1])
        self.move(self.a, 2, self.lid[2])
        self.move(self.b, 2, self.lid[2])
        self.assertEqual(self.send(0xa5), self.lid[2])
        self.assertEqual(self.a.query(e.IBV_QP_PORT)[0].port_num, 2)
        self.move(self.a, 1, self.lid[2])
        self.move(self.b, 2, self.lid[1])
        self.assertEqual(self.send(0x3c), self.lid[1])


def main():
    """The suite on --dev, as KTAP; exit status 1 if a test failed."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dev', required=True, help='the device, e.g. mthca0')
    base.CONFIG['device'] = ap.parse_args().dev
    k = ktap.Ktap()
    ktap.run_unittest(unittest.defaultTestLoader.loadTestsFromTestCase(
        PortMove), k)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
