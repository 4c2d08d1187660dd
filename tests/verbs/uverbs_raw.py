# SPDX-License-Identifier: GPL-2.0
"""The uverbs write() interface spoken by hand, for requests libibverbs
never sends: wrong sizes, foreign or stale handles, bad response pointers.

The layouts are the kernel's UAPI (include/uapi/rdma/ib_user_verbs.h: the
8-byte header {command u32, in_words u16, out_words u16}, sizes in 4-byte
words, header included in in_words) and the mthca ABI
(include/uapi/rdma/mthca-abi.h: alloc_ucontext_resp {qp_tab_size,
uarc_size}, alloc_pd_resp {pdn, reserved}, reg_mr {mr_attrs, reserved},
create_cq {lkey, pdn, arm_db_page, set_db_page, arm_db_index,
set_db_index}).
Every call returns 0 or the errno of the refused write().
"""

import ctypes
import errno
import glob
import os
import struct

GET_CONTEXT, ALLOC_PD, DEALLOC_PD, CREATE_CQ, REG_MR, DEREG_MR = \
    0, 3, 4, 18, 9, 13


def uverbs_path(ibdev):
    """/dev/infiniband/uverbsN of the device ibdev."""
    for d in glob.glob('/sys/class/infiniband_verbs/uverbs*'):
        try:
            with open(os.path.join(d, 'ibdev'), encoding='ascii') as f:
                if f.read().strip() == ibdev:
                    return '/dev/infiniband/' + os.path.basename(d)
        except OSError:
            continue
    raise FileNotFoundError(f'no uverbs device for {ibdev}')


class Uverbs:
    """One open uverbs file (its own context, PDs and MRs)."""

    def __init__(self, ibdev):
        self.fd = os.open(uverbs_path(ibdev), os.O_RDWR | os.O_CLOEXEC)
        self.resp = ctypes.create_string_buffer(64)
        self.async_fd = None

    def write(self, cmd, body, out_words, in_words=None, response=None):
        """Send command cmd with body (after the response pointer, if
        response is not False); 0 or the errno."""
        if response is not False:
            ptr = ctypes.addressof(self.resp) if response is None else response
            body = struct.pack('=Q', ptr) + body
        data = struct.pack('=IHH', cmd, 0, out_words) + body
        words = (len(data) // 4) if in_words is None else in_words
        data = struct.pack('=IHH', cmd, words, out_words) + data[8:]
        ctypes.memset(self.resp, 0, len(self.resp))
        try:
            os.write(self.fd, data)
        except OSError as exc:
            return exc.errno
        return 0

    def u32(self, index):
        return struct.unpack_from('=I', self.resp, 4 * index)[0]

    def get_context(self):
        err = self.write(GET_CONTEXT, b'', 4)
        if not err and self.async_fd is None:
            self.async_fd = self.u32(0)
        return err

    def alloc_pd(self):
        """(errno, pd handle)."""
        err = self.write(ALLOC_PD, b'', 3)
        return err, (None if err else self.u32(0))

    def dealloc_pd(self, handle):
        return self.write(DEALLOC_PD, struct.pack('=I', handle), 0,
                          response=False)

    def reg_mr(self, pd, start, length, iova, access, driver=b'\0' * 8,
               out_words=3, response=None, in_words=None, cut=0):
        """(errno, mr handle); driver is the mthca reg_mr udata; cut drops
        that many bytes from the end of the request."""
        body = struct.pack('=QQQII', start, length, iova, pd, access) + driver
        body = body[:len(body) - cut]
        err = self.write(REG_MR, body, out_words, in_words=in_words,
                         response=response)
        return err, (None if err else self.u32(0))

    def create_cq(self, cqe, lkey, pdn, arm_page, set_page, arm_index,
                  set_index):
        """ib_uverbs_create_cq (no completion channel) with the mthca
        driver data; the errno."""
        body = struct.pack('=QIIiI', 0, cqe, 0, -1, 0) + struct.pack(
            '=IIQQII', lkey, pdn, arm_page, set_page, arm_index, set_index)
        return self.write(CREATE_CQ, body, 4)

    def dereg_mr(self, handle):
        return self.write(DEREG_MR, struct.pack('=I', handle), 0,
                          response=False)

    def close(self):
        if self.async_fd is not None:
            try:
                os.close(self.async_fd)
            except OSError:
                pass
            self.async_fd = None
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def errname(err):
    """'EINVAL' for errno.EINVAL, '0' for 0, str(err) otherwise."""
    return errno.errorcode.get(err, str(err)) if err else '0'
