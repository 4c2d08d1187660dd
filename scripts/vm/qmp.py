#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run one human-monitor command in a QEMU through its QMP socket.

  qmp.py SOCKET 'device_del arbel0'

QMP (QEMU's docs/interop/qmp-spec.txt): a greeting, qmp_capabilities,
then human-monitor-command, whose "return" is the text the monitor would
print; commands such as device_del and device_add print nothing when
they succeed.  Exit status 0 if the command printed nothing, 1 with its
text on stderr otherwise.  scripts/vm/run.sh uses it for VM_HOTPLUG.
"""

import json
import socket
import sys


def reply(stream):
    """The next reply on stream, skipping the asynchronous events."""
    while True:
        line = stream.readline()
        if not line:
            raise ConnectionError('QEMU closed the QMP socket')
        msg = json.loads(line)
        if 'event' not in msg:
            return msg


def hmp(path, command):
    """The text the human monitor printed for command."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        stream = sock.makefile('rw', encoding='utf-8')
        reply(stream)                      # the greeting
        for req in ({'execute': 'qmp_capabilities'},
                    {'execute': 'human-monitor-command',
                     'arguments': {'command-line': command}}):
            stream.write(json.dumps(req) + '\n')
            stream.flush()
            msg = reply(stream)
            if 'error' in msg:
                raise RuntimeError(f'{req["execute"]}: {msg["error"]}')
        return msg.get('return', '')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        text = hmp(sys.argv[1], sys.argv[2])
    except (OSError, ValueError, RuntimeError) as exc:
        print(f'qmp.py: {sys.argv[2]}: {exc}', file=sys.stderr)
        return 1
    if text.strip():
        print(f'qmp.py: {sys.argv[2]}: {text.strip()}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
