#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One TCP transfer for the mthca-fabric stage, each end printing what it
moved as "<bytes> <sha256>".

  tcp_xfer.py server PORT            take one connection, read to its end
  tcp_xfer.py client HOST PORT SIZE  send SIZE pseudo-random bytes

Exit 1 on a socket error or after 120 s."""

import hashlib
import random
import socket
import sys
import time

LIMIT = 120
CHUNK = 1 << 16


def server(port):
    with socket.create_server(('0.0.0.0', port)) as ls:
        ls.settimeout(LIMIT)
        conn, _ = ls.accept()
        with conn:
            conn.settimeout(LIMIT)
            h, n = hashlib.sha256(), 0
            while True:
                b = conn.recv(CHUNK)
                if not b:
                    break
                h.update(b)
                n += len(b)
    print(n, h.hexdigest())


def client(host, port, size):
    data = random.Random(size).randbytes(size)
    deadline = time.monotonic() + 10
    while True:
        try:
            conn = socket.create_connection((host, port), timeout=LIMIT)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    with conn:
        conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)
        conn.recv(1)            # the server's close
    print(size, hashlib.sha256(data).hexdigest())


def main():
    if sys.argv[1:2] == ['server'] and len(sys.argv) == 3:
        server(int(sys.argv[2]))
    elif sys.argv[1:2] == ['client'] and len(sys.argv) == 5:
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
