# SPDX-License-Identifier: GPL-2.0
"""arbeltest.forked: a main() in a forked child, as a subprocess would
run the script -- its argv, stdin, stdout and exit status, signals, and
what it does not inherit or run."""

import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from arbeltest import forked


def echo_main():
    """argv[1] then each stdin line upper-cased; status argv[2]."""
    print(sys.argv[1], flush=True)
    for line in sys.stdin:
        print(line.strip().upper(), flush=True)
    return int(sys.argv[2])


class ForkedTest(unittest.TestCase):

    def test_argv_stdin_stdout_status(self):
        c = forked.Child(echo_main, ['echo', 'first', '3'])
        self.assertEqual(c.stdout.readline(), 'first\n')
        c.stdin.write('a line\n')
        c.stdin.flush()
        self.assertEqual(c.stdout.readline(), 'A LINE\n')
        self.assertIsNone(c.poll())
        c.stdin.write('b\n')
        out, err = c.communicate(timeout=10)
        self.assertEqual((out, err, c.returncode), ('B\n', None, 3))

    def test_exit_statuses(self):
        """return None -> 0, sys.exit(5) -> 5, sys.exit('why') -> 1, an
        exception -> 1 (its traceback on stderr, sent to /dev/null here)"""
        def raise_(exc):
            raise exc
        cases = ((lambda: None, 0), (lambda: sys.exit(5), 5),
                 (lambda: sys.exit('why'), 1),
                 (lambda: raise_(RuntimeError('boom')), 1))
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
            got = [forked.Child(main, ['x']).wait(10) for main, _ in cases]
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(null)
        self.assertEqual(got, [want for _, want in cases])

    def test_kill_and_timeout(self):
        c = forked.Child(lambda: time.sleep(60), ['sleeper'])
        with self.assertRaises(subprocess.TimeoutExpired):
            c.wait(0.2)
        c.kill()
        self.assertEqual(c.wait(10), -signal.SIGKILL)
        c.send_signal(signal.SIGTERM)       # ended: nothing to signal
        self.assertEqual(c.returncode, -signal.SIGKILL)

    def test_parent_files_not_inherited(self):
        """a file the parent has open is closed in the child; 0, 1 and 2
        are open"""
        r, w = os.pipe()

        def main():
            def is_open(fd):
                try:
                    os.fstat(fd)
                    return 'open'
                except OSError:
                    return 'closed'
            print(' '.join(is_open(fd) for fd in (0, 1, 2, r, w)))
        try:
            out, _ = forked.Child(main, ['x']).communicate(10)
        finally:
            os.close(r)
            os.close(w)
        self.assertEqual(out, 'open open open closed closed\n')

    def test_inherited_objects_not_destroyed(self):
        """the child ends without running the finalizers of what it
        inherited (a parent's verbs object would release the parent's
        resource)"""
        with tempfile.TemporaryFile() as f:
            class Final:
                def __del__(self):
                    os.write(f.fileno(), b'finalized\n')
            obj = Final()
            self.assertEqual(forked.Child(lambda: None, ['x']).wait(10), 0)
            self.assertEqual(os.pread(f.fileno(), 100, 0), b'')
            del obj
            self.assertEqual(os.pread(f.fileno(), 100, 0), b'finalized\n')


if __name__ == '__main__':
    unittest.main()
