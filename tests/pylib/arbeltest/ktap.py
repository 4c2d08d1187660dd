# SPDX-License-Identifier: GPL-2.0
"""KTAP output and parsing: the one result format of every test stage.

Writing follows the kernel's KTAP v1 (Documentation/dev-tools/ktap.rst) the
way kselftest.h prints it: a version line, one result line per test
("ok N name", "not ok N name", "ok N name # SKIP why"), diagnostics as
"# " lines, and the plan "1..N" -- printed last when the number of tests is
not known up front, as TAP allows.

Parsing counts the *leaves*: a result line whose test had subtests
(indented lines before it, as KUnit prints suites) is not counted itself,
its subtests are.  A skip is counted as a skip, never as a pass.
"""

import contextlib
import re
import sys
import time
import unittest

PLAN_RE = re.compile(r'^1\.\.(\d+)$')
RESULT_RE = re.compile(
    r'^(?P<indent>\s*)(?P<not>not )?ok (?P<num>\d+)(?: -)?\s*(?P<name>[^#]*?)\s*'
    r'(?:#\s*(?P<directive>\S+)\s*(?P<reason>.*))?$')


class Ktap:
    """A KTAP writer for one test program or stage."""

    def __init__(self, out=None, plan=None):
        self.out = out if out is not None else sys.stdout
        self.num = 0
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.plan = plan
        self._print('KTAP version 1')
        if plan is not None:
            self._print(f'1..{plan}')

    def _print(self, line):
        print(line, file=self.out, flush=True)

    def diag(self, msg):
        """Print a diagnostic line ("# msg") for every line of msg."""
        for line in str(msg).splitlines() or ['']:
            self._print(f'# {line}')

    @staticmethod
    def _clean(name):
        # '#' would start a directive; newlines would end the line
        return ' '.join(str(name).replace('#', '').split())

    def ok(self, name):
        """Report a passed test."""
        self.num += 1
        self.passed += 1
        self._print(f'ok {self.num} {self._clean(name)}')
        return True

    def fail(self, name, detail=''):
        """Report a failed test, with detail as diagnostics."""
        self.num += 1
        self.failed += 1
        if detail:
            self.diag(f'{self._clean(name)}: {detail}')
        self._print(f'not ok {self.num} {self._clean(name)}')
        return False

    def skip(self, name, why):
        """Report a skipped test: neither passed nor failed."""
        self.num += 1
        self.skipped += 1
        self._print(f'ok {self.num} {self._clean(name)} # SKIP {self._clean(why)}')

    def check(self, cond, name, detail=''):
        """ok(name) if cond, else fail(name, detail); returns bool(cond)."""
        if cond:
            return self.ok(name)
        return self.fail(name, detail() if callable(detail) else detail)

    @contextlib.contextmanager
    def subtests(self, name):
        """Nest: yields a writer whose lines are indented subtests of one
        result name here, which passes if they ran and none failed.  (A
        parent result is not counted by parse(); its subtests are.)"""
        sub = Ktap(out=_Indented(self.out))
        try:
            yield sub
        finally:
            sub.finish()
            self.check(sub.failed == 0 and sub.num > 0, name,
                       f'{sub.failed} of {sub.num} subtests failed')

    def relay(self, lines, echo=False):
        """Re-emit the top-level results of another program's KTAP lines as
        results of this writer (renumbered).  The '#' lines before a failed
        result become its detail (all of them are echoed with echo=True).
        Returns a Relayed (plan, count, bail, notes) to judge whether that
        program ran to its end (see ran_to_end)."""
        r = Relayed()
        for line in lines:
            m = RESULT_RE.match(line)
            if m and not m.group('indent'):
                r.count += 1
                name = m.group('name')
                if (m.group('directive') or '').upper() == 'SKIP':
                    self.skip(name, m.group('reason'))
                elif m.group('not'):
                    self.fail(name, '\n'.join(
                        x[len(name) + 2:] if x.startswith(f'{name}: ') else x
                        for x in r.pending))
                else:
                    self.ok(name)
                r.pending = []
            elif PLAN_RE.match(line):
                r.plan = int(PLAN_RE.match(line).group(1))
            elif line.startswith('Bail out!'):
                r.bail = line
                self.diag(line)
            elif line.startswith('KTAP version') or not line.strip():
                continue
            else:
                note = line[2:] if line.startswith('# ') else line
                if echo:
                    self.diag(note)
                r.notes.append(note)
                r.pending = (r.pending + [note])[-20:]
        return r

    def ran_to_end(self, relayed, program, also=True):
        """One result: the relayed program printed its plan, as many
        results as planned (at least one), no "Bail out!" -- and also."""
        if relayed.bail:
            detail = relayed.bail
        elif relayed.plan is None:
            detail = (f'no plan line after {relayed.count} results: the '
                      'program did not end; last lines: ' +
                      ' | '.join(relayed.notes[-5:]))
        else:
            detail = (f'planned 1..{relayed.plan}, printed {relayed.count} '
                      'results')
        return self.check(also and relayed.complete, f'{program} ran to the end',
                          detail)

    def finish(self):
        """Print the plan if not printed yet; return the exit status."""
        if self.plan is None:
            self._print(f'1..{self.num}')
        elif self.plan != self.num:
            self.diag(f'planned {self.plan} tests, ran {self.num}')
            self.failed += 1
        self.diag(f'passed {self.passed}, failed {self.failed}, '
                  f'skipped {self.skipped}')
        return 0 if self.failed == 0 else 1


class _Indented:
    """A text stream that puts four spaces before each line (subtests)."""

    def __init__(self, out):
        self.out = out
        self.at_start = True

    def write(self, s):
        for piece in s.splitlines(keepends=True):
            if self.at_start:
                self.out.write('    ')
            self.out.write(piece)
            self.at_start = piece.endswith('\n')

    def flush(self):
        self.out.flush()


class Relayed:
    """What Ktap.relay saw of another program's KTAP."""

    def __init__(self):
        self.plan = None
        self.count = 0
        self.bail = None
        self.notes = []
        self.pending = []

    @property
    def complete(self):
        """Plan printed, as many results as planned, at least one."""
        return (not self.bail and self.plan is not None and
                self.plan == self.count and self.count > 0)


class Summary:
    """Leaf counts of one KTAP stream."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []
        self.skips = []
        self.results = {}   # leaf name -> ('ok' | 'fail' | 'skip', reason)

    @property
    def total(self):
        return self.passed + self.failed + self.skipped


def parse(lines):
    """Count the leaf results in KTAP lines (an iterable of str)."""
    summary = Summary()
    # depths at which results were seen since the last result at a
    # shallower depth: a deeper one means the next shallower result is a
    # parent
    depths = set()
    for raw in lines:
        line = raw.rstrip('\n').expandtabs(8)
        m = RESULT_RE.match(line)
        if not m:
            continue
        depth = len(m.group('indent'))
        had_children = any(d > depth for d in depths)
        depths = {d for d in depths if d <= depth}
        depths.add(depth)
        if had_children:
            continue
        name = m.group('name').strip()
        directive = (m.group('directive') or '').upper()
        if directive == 'SKIP':
            summary.skipped += 1
            summary.skips.append(name)
            summary.results[name] = ('skip', m.group('reason').strip())
        elif m.group('not'):
            summary.failed += 1
            summary.failures.append(name)
            summary.results[name] = ('fail', '')
        else:
            summary.passed += 1
            summary.results[name] = ('ok', '')
    return summary


class _KtapResult(unittest.TestResult):
    def __init__(self, ktap, slow, clock, before):
        super().__init__()
        self.ktap = ktap
        self.slow = slow
        self.clock = clock
        self.before = before
        self.t0 = None

    def startTest(self, test):
        super().startTest(test)
        if self.before:
            self.before(test)
        self.t0 = self.clock()

    def stopTest(self, test):
        super().stopTest(test)
        secs = self.clock() - self.t0
        if secs >= self.slow:
            self.ktap.diag(f'{self._name(test)}: {secs:.1f} s')

    @staticmethod
    def _name(test):
        return test.id().split('.', 1)[-1]

    def addSuccess(self, test):
        super().addSuccess(test)
        self.ktap.ok(self._name(test))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.ktap.fail(self._name(test), self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self.ktap.fail(self._name(test), self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.ktap.skip(self._name(test), reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.ktap.fail(self._name(test), 'expected failure: not allowed here')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.ktap.fail(self._name(test), 'unexpected success')

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        name = self._name(subtest)
        if err is None:
            self.ktap.ok(name)
        else:
            self.ktap.fail(name, self._exc_info_to_string(err, subtest))


def run_unittest(suite, ktap=None, slow=2.0, clock=time.monotonic,
                 before=None):
    """Run a unittest suite, one KTAP line per test (and per subTest);
    a test that took `slow` seconds or more (by `clock`) is followed by a
    diagnostic line with its time, where a stage's time goes.  `before`,
    if given, is called with each test before its setUp().

    Returns the Ktap writer (call finish() on it for the plan and status).
    """
    ktap = ktap or Ktap()
    suite.run(_KtapResult(ktap, slow, clock, before))
    return ktap
