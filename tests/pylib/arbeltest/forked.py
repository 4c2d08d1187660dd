# SPDX-License-Identifier: GPL-2.0
"""A script's main() run in a forked child of the test, as a subprocess
running the script would run it, without a new interpreter.

A test that needs a second process using the device (a holder of it while
it is removed, concurrent registering processes) gets one here: the child
already has the test's imports.  A new `python3 script.py` would import
pyverbs again, which takes 6 s on the debug kernel under TCG
(Documentation/timings.rst).

The child runs main() with argv as sys.argv, its stdin and stdout on
pipes to the parent, stderr shared with the parent and no other file
descriptor (as subprocess's close_fds gives a new process); it ends with
os._exit(), so nothing it inherited (the parent's verbs objects, buffered
output) is destroyed or flushed twice.  Fork before starting threads: a
lock another thread held at the fork stays held in the child.
"""

import os
import signal
import subprocess
import sys
import time
import traceback


def _exit_status(exc):
    """The status a SystemExit carries, as the interpreter would exit."""
    if exc.code is None:
        return 0
    return exc.code if isinstance(exc.code, int) else 1


def _child(main, argv, in_r, out_w):
    status = 1
    try:
        os.dup2(in_r, 0)
        os.dup2(out_w, 1)
        # the parent's files (its verbs contexts, other children's pipes)
        # are not the child's: a pipe's end kept open here would keep the
        # other child from seeing EOF
        os.closerange(3, os.sysconf('SC_OPEN_MAX'))
        sys.stdin = open(0, encoding='utf-8', closefd=False)
        sys.stdout = open(1, 'w', encoding='utf-8', closefd=False)
        sys.argv = list(argv)
        status = main() or 0
    except SystemExit as exc:
        status = _exit_status(exc)
    except BaseException:   # pylint: disable=broad-except
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
        finally:
            os._exit(status)    # pylint: disable=protected-access


class Child:
    """main() in a forked child; the subprocess.Popen subset the tests
    use: pid, stdin, stdout (text), stderr (None), returncode, poll(),
    wait(), communicate(), send_signal(), kill()."""

    def __init__(self, main, argv):
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(main, argv, in_r, out_w)
        os.close(in_r)
        os.close(out_w)
        self.pid = pid
        self.stdin = open(in_w, 'w', encoding='utf-8')
        self.stdout = open(out_r, encoding='utf-8')
        self.stderr = None
        self.returncode = None

    def poll(self):
        """The exit status (-N: killed by signal N), None while it runs."""
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout=None):
        """Wait for the end: its status (subprocess.TimeoutExpired after
        timeout seconds)."""
        t0 = time.monotonic()
        while self.poll() is None:
            if timeout is not None and time.monotonic() - t0 >= timeout:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            time.sleep(0.02)
        return self.returncode

    def communicate(self, timeout=None):
        """Close its stdin, read its stdout to the end, wait: (out, None).
        The timeout bounds the wait after the output has ended."""
        if not self.stdin.closed:
            try:
                self.stdin.close()
            except OSError:
                pass
        out = self.stdout.read()
        self.stdout.close()
        self.wait(timeout)
        return out, None

    def send_signal(self, sig):
        if self.poll() is None:
            os.kill(self.pid, sig)

    def kill(self):
        self.send_signal(signal.SIGKILL)
