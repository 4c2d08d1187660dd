# SPDX-License-Identifier: GPL-2.0
"""arbeltest.ktap: what the writer prints and what parse() counts.

Every expected output and count is written out by hand from KTAP v1
(Documentation/dev-tools/ktap.rst), not produced by the code under test.
"""

import contextlib
import io
import re
import unittest

from arbeltest import ktap


def lines_of(text):
    return text.splitlines(keepends=True)


class WriterTest(unittest.TestCase):
    """Ktap(): the lines it prints and the exit status finish() returns."""

    def setUp(self):
        self.out = io.StringIO()
        self.k = ktap.Ktap(self.out)

    def lines(self):
        return self.out.getvalue().splitlines()

    def test_header_first(self):
        self.assertEqual(self.lines(), ['KTAP version 1'])

    def test_results_numbered_plan_last(self):
        self.k.ok('first')
        self.k.fail('second')
        self.k.skip('third', 'no device')
        status = self.k.finish()
        self.assertEqual(self.lines(), [
            'KTAP version 1',
            'ok 1 first',
            'not ok 2 second',
            'ok 3 third # SKIP no device',
            '1..3',
            '# passed 1, failed 1, skipped 1',
        ])
        self.assertEqual(status, 1)

    def test_finish_passes_without_failures(self):
        self.k.ok('a')
        self.k.skip('b', 'why')
        self.assertEqual(self.k.finish(), 0)
        self.assertEqual((self.k.passed, self.k.failed, self.k.skipped),
                         (1, 0, 1))

    def test_finish_with_no_test(self):
        self.assertEqual(self.k.finish(), 0)
        self.assertEqual(self.lines()[1], '1..0')

    def test_fail_detail_before_result(self):
        self.k.fail('mpt', 'got 0x1\nwant 0x2')
        self.assertEqual(self.lines()[1:], [
            '# mpt: got 0x1',
            '# want 0x2',
            'not ok 1 mpt',
        ])

    def test_fail_without_detail(self):
        self.k.fail('bare')
        self.assertEqual(self.lines()[1:], ['not ok 1 bare'])

    def test_names_cleaned(self):
        # '#' would start a directive, a newline would end the line
        self.k.ok('a # b\n  c\td')
        self.k.skip('s', 'why #1\nmore')
        self.assertEqual(self.lines()[1:], [
            'ok 1 a b c d',
            'ok 2 s # SKIP why 1 more',
        ])

    def test_diag(self):
        self.k.diag('one\ntwo')
        self.k.diag('')
        self.k.diag(42)
        self.assertEqual(self.lines()[1:], ['# one', '# two', '# ', '# 42'])

    def test_check(self):
        self.assertIs(self.k.check(1 == 1, 'yes'), True)
        self.assertIs(self.k.check([], 'no', 'empty'), False)
        self.assertEqual(self.lines()[1:], [
            'ok 1 yes',
            '# no: empty',
            'not ok 2 no',
        ])

    def test_check_detail_callable_only_on_failure(self):
        calls = []

        def detail():
            calls.append(1)
            return 'computed'

        self.k.check(True, 'pass', detail)
        self.assertEqual(calls, [])
        self.k.check(False, 'fail', detail)
        self.assertEqual(calls, [1])
        self.assertEqual(self.lines()[-2:], ['# fail: computed', 'not ok 2 fail'])

    def test_plan_up_front(self):
        out = io.StringIO()
        k = ktap.Ktap(out, plan=2)
        k.ok('a')
        k.ok('b')
        self.assertEqual(k.finish(), 0)
        self.assertEqual(out.getvalue().splitlines(), [
            'KTAP version 1', '1..2', 'ok 1 a', 'ok 2 b',
            '# passed 2, failed 0, skipped 0'])

    def test_plan_not_kept_fails(self):
        out = io.StringIO()
        k = ktap.Ktap(out, plan=3)
        k.ok('a')
        self.assertEqual(k.finish(), 1)
        self.assertIn('# planned 3 tests, ran 1', out.getvalue().splitlines())

    def test_round_trip(self):
        self.k.ok('a')
        self.k.fail('b', 'detail # with hash')
        self.k.skip('c', 'why')
        self.k.ok('d')
        self.k.finish()
        s = ktap.parse(lines_of(self.out.getvalue()))
        self.assertEqual((s.passed, s.failed, s.skipped), (2, 1, 1))
        self.assertEqual(s.failures, ['b'])
        self.assertEqual(s.skips, ['c'])


class ParseTest(unittest.TestCase):
    """parse(): leaf counts of a KTAP stream."""

    def count(self, text):
        s = ktap.parse(lines_of(text))
        return s.passed, s.failed, s.skipped

    def test_empty(self):
        s = ktap.parse([])
        self.assertEqual((s.passed, s.failed, s.skipped, s.total), (0, 0, 0, 0))
        self.assertEqual((s.failures, s.skips), ([], []))

    def test_flat(self):
        s = ktap.parse(lines_of(
            'KTAP version 1\n'
            '1..4\n'
            'ok 1 one\n'
            'not ok 2 two\n'
            'ok 3 three # SKIP no hugepages\n'
            'not ok 4 four\n'))
        self.assertEqual((s.passed, s.failed, s.skipped, s.total), (1, 2, 1, 4))
        self.assertEqual(s.failures, ['two', 'four'])
        self.assertEqual(s.skips, ['three'])

    def test_dash_or_not(self):
        # TAP's "ok 1 - name" and KTAP's "ok 1 name" name the same test
        s = ktap.parse(['ok 1 - with dash\n', 'not ok 2 - failed one\n',
                        'ok 3 without\n', 'not ok 4 plain\n'])
        self.assertEqual((s.passed, s.failed), (2, 2))
        self.assertEqual(s.failures, ['failed one', 'plain'])

    def test_no_name(self):
        self.assertEqual(self.count('ok 1\nnot ok 2\n'), (1, 1, 0))

    def test_lines_without_newline(self):
        self.assertEqual(self.count('ok 1 a'), (1, 0, 0))
        s = ktap.parse(['ok 1 a', 'not ok 2 b'])
        self.assertEqual((s.passed, s.failed), (1, 1))

    def test_skip_directive_any_case(self):
        s = ktap.parse(['ok 1 a # SKIP why\n', 'ok 2 b # skip\n',
                        'ok 3 c #SKIP tight\n', 'ok 4 d # Skip x y z\n'])
        self.assertEqual((s.passed, s.failed, s.skipped), (0, 0, 4))
        self.assertEqual(s.skips, ['a', 'b', 'c', 'd'])

    def test_results_by_name(self):
        """each leaf's status and skip reason by name; a parent is none"""
        s = ktap.parse(lines_of(
            '    ok 1 leaf\n'
            'ok 1 parent\n'
            'ok 2 a # SKIP no XRC here\n'
            'not ok 3 b\n'))
        self.assertEqual(s.results, {'leaf': ('ok', ''),
                                     'a': ('skip', 'no XRC here'),
                                     'b': ('fail', '')})

    def test_not_ok_skip_is_a_skip(self):
        # the directive decides, as kunit.py reads it
        self.assertEqual(self.count('not ok 1 x # SKIP not built\n'), (0, 0, 1))

    def test_other_directives_are_not_passes(self):
        # TODO/XFAIL do not turn a "not ok" into a pass
        self.assertEqual(self.count(
            'not ok 1 a # TODO later\n'
            'not ok 2 b # XFAIL known\n'
            'ok 3 c # TODO done early\n'), (1, 2, 0))

    def test_hash_in_diagnostic_lines(self):
        self.assertEqual(self.count(
            '# ok 1 this is a comment\n'
            '# not ok 2 neither\n'
            'ok 1 real\n'), (1, 0, 0))

    def test_garbage_ignored(self):
        text = ('TAP version 14\n'
                'KTAP version 1\n'
                '1..3\n'
                '\n'
                'okay 1 not a result\n'
                'notok 2 no space\n'
                'ok\n'
                'ok two words, no number\n'
                'not ok\n'
                'nok 3 the old shell helper\n'
                'skip - old style: why\n'
                '  CC [M]  drivers/ok.o\n'
                '[    1.234] ok 1 console timestamp before it\n'
                'dkms: 1 passed, 0 failed\n'
                '=== module: ok 1\n'
                'ok 1 counted\n')
        s = ktap.parse(lines_of(text))
        self.assertEqual((s.passed, s.failed, s.skipped), (1, 0, 0))

    def test_kunit_nested(self):
        # two suites as KUnit prints them: the suite lines are parents
        text = ('KTAP version 1\n'
                '1..2\n'
                '    KTAP version 1\n'
                '    # Subtest: arbel_mpt\n'
                '    1..3\n'
                '    ok 1 mpt_seed\n'
                '    not ok 2 mpt_golden\n'
                '    ok 3 mpt_rsvd # SKIP not here\n'
                'not ok 1 arbel_mpt\n'
                '    KTAP version 1\n'
                '    # Subtest: arbel_key\n'
                '    1..2\n'
                '    ok 1 key_tag\n'
                '    ok 2 key_index\n'
                'ok 2 arbel_key\n')
        s = ktap.parse(lines_of(text))
        self.assertEqual((s.passed, s.failed, s.skipped), (3, 1, 1))
        self.assertEqual(s.failures, ['mpt_golden'])
        self.assertEqual(s.skips, ['mpt_rsvd'])

    def test_parameterized_three_levels(self):
        # a parameterized case: its parameters are the leaves
        text = ('KTAP version 1\n'
                '1..1\n'
                '    # Subtest: arbel_pgsz\n'
                '    1..2\n'
                '        # Subtest: pgsz_param\n'
                '        ok 1 4K\n'
                '        ok 2 2M\n'
                '        not ok 3 1G\n'
                '    not ok 1 pgsz_param\n'
                '    ok 2 pgsz_plain\n'
                'not ok 1 arbel_pgsz\n')
        s = ktap.parse(lines_of(text))
        self.assertEqual((s.passed, s.failed, s.skipped), (3, 1, 0))
        self.assertEqual(s.failures, ['1G'])

    def test_parent_failure_alone_not_counted(self):
        # a suite line with subtests is never a leaf, even "not ok"
        self.assertEqual(self.count(
            '    ok 1 a\n'
            '    ok 2 b\n'
            'not ok 1 suite\n'), (2, 0, 0))

    def test_top_level_after_nested(self):
        # results after a nested block at the same depth are leaves again
        self.assertEqual(self.count(
            '    ok 1 inner\n'
            'ok 1 parent\n'
            'ok 2 leaf\n'
            'not ok 3 leaf2\n'), (2, 1, 0))

    def test_tabs_indent(self):
        self.assertEqual(self.count('\tok 1 a\n\tok 2 b\nok 1 parent\n'),
                         (2, 0, 0))

    def test_renumbered_and_repeated_numbers(self):
        # numbers are not checked: every result line counts once
        self.assertEqual(self.count('ok 1 a\nok 1 b\nok 7 c\n'), (3, 0, 0))


class RelayTest(unittest.TestCase):
    """Ktap.relay, ran_to_end and subtests: a guest program's KTAP re-emitted
    by a host judge."""

    def run_guest(self, lines):
        out = io.StringIO()
        sub = ktap.Ktap(out=out)
        sub.ran_to_end(sub.relay(lines), 'prog')
        sub.finish()
        return out.getvalue(), ktap.parse(out.getvalue().splitlines())

    def test_results_renumbered_and_complete(self):
        text, s = self.run_guest(['KTAP version 1', 'ok 1 a', '# b: why',
                                  'not ok 2 b', 'ok 3 c # SKIP no c', '1..3'])
        self.assertEqual((s.passed, s.failed, s.skipped), (2, 1, 1))
        self.assertEqual(s.failures, ['b'])
        self.assertIn('# b: why\nnot ok 2 b\n', text)
        self.assertIn('ok 4 prog ran to the end\n', text)

    def test_incomplete_runs_fail(self):
        cases = {
            'no plan': ['KTAP version 1', 'ok 1 a'],
            'short': ['KTAP version 1', 'ok 1 a', '1..2'],
            'bail out': ['KTAP version 1', 'ok 1 a', 'Bail out! no device',
                         '1..1'],
            'nothing': [],
        }
        for what, lines in cases.items():
            with self.subTest(what):
                self.assertIn('prog ran to the end',
                              self.run_guest(lines)[1].failures)

    def test_subtests_nest_under_one_parent(self):
        out = io.StringIO()
        k = ktap.Ktap(out=out)
        with k.subtests('run') as sub:
            sub.ok('a')
            sub.fail('b', 'why')
        with k.subtests('empty'):
            pass
        k.finish()
        self.assertEqual(out.getvalue().splitlines()[:9], [
            'KTAP version 1', '    KTAP version 1', '    ok 1 a',
            '    # b: why', '    not ok 2 b', '    1..2',
            '    # passed 1, failed 1, skipped 0',
            '# run: 1 of 2 subtests failed', 'not ok 1 run'])
        s = ktap.parse(out.getvalue().splitlines())
        # the parents are not counted; the empty one has no leaf to count
        self.assertEqual((s.passed, s.failed, s.skipped), (1, 2, 0))


class RunUnittestTest(unittest.TestCase):
    """run_unittest(): one KTAP line per test and per subTest."""

    class Sample(unittest.TestCase):
        def test_1pass(self):
            pass

        def test_2fail(self):
            self.assertEqual(1, 2)

        def test_3error(self):
            raise RuntimeError('boom')

        @unittest.skip('no device')
        def test_4skip(self):
            pass

        def test_5sub(self):
            for i in range(3):
                with self.subTest(i=i):
                    self.assertNotEqual(i, 1)

        def test_6subok(self):
            for i in range(2):
                with self.subTest(i=i):
                    pass

        @unittest.expectedFailure
        def test_7xfail(self):
            self.fail('expected')

        @unittest.expectedFailure
        def test_8xpass(self):
            pass

    def run_sample(self):
        out = io.StringIO()
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(self.Sample)
        k = ktap.run_unittest(suite, ktap.Ktap(out))
        status = k.finish()
        return status, out.getvalue()

    def results(self, text):
        return [ln for ln in text.splitlines()
                if ln.startswith('ok ') or ln.startswith('not ok ')]

    def test_lines(self):
        status, text = self.run_sample()
        # the name is the test's id without its package: its module's name
        # depends on how the tests were started, so compare from the class
        line_re = re.compile(
            r'^((?:not )?ok \d+) (?:\S+\.)?RunUnittestTest\.Sample\.(.*)$')
        got = [line_re.match(ln).groups() for ln in self.results(text)]
        self.assertEqual([g[0] for g in got], [
            'ok 1', 'not ok 2', 'not ok 3', 'ok 4', 'ok 5', 'not ok 6',
            'ok 7', 'ok 8', 'ok 9', 'ok 10', 'not ok 11', 'not ok 12'])
        self.assertEqual([g[1] for g in got], [
            'test_1pass',
            'test_2fail',
            'test_3error',
            'test_4skip # SKIP no device',
            'test_5sub (i=0)',
            'test_5sub (i=1)',
            'test_5sub (i=2)',
            'test_6subok (i=0)',
            'test_6subok (i=1)',
            'test_6subok',
            'test_7xfail',
            'test_8xpass',
        ])
        self.assertEqual(status, 1)
        self.assertEqual(text.splitlines()[0], 'KTAP version 1')
        self.assertIn('1..12', text.splitlines())

    def test_failure_detail_is_diagnostic(self):
        _, text = self.run_sample()
        self.assertIn('# AssertionError: 1 != 2', text.splitlines())
        self.assertIn('# RuntimeError: boom', text.splitlines())

    def test_counts_through_parse(self):
        _, text = self.run_sample()
        s = ktap.parse(lines_of(text))
        self.assertEqual((s.passed, s.failed, s.skipped), (6, 5, 1))

    def test_slow_test_timed(self):
        """a test at or past `slow` seconds gets a line with its time, a
        quicker one none (a clock that advances 1 s per reading: a test's
        start and stop are 1 s apart, so 1 s is at the threshold)"""
        ticks = iter(range(100))
        for slow, timed in ((1.0, True), (1.5, False)):
            out = io.StringIO()
            suite = unittest.defaultTestLoader.loadTestsFromName(
                'test_1pass', self.Sample)
            ktap.run_unittest(suite, ktap.Ktap(out), slow=slow,
                              clock=lambda: next(ticks))
            lines = out.getvalue().splitlines()
            # the module's name depends on how the tests were started
            timing = [ln for ln in lines if ln.startswith('# ')
                      and ln.endswith('RunUnittestTest.Sample.test_1pass: '
                                      '1.0 s')]
            self.assertEqual(len(timing), 1 if timed else 0, lines)

    def test_before_each_test_before_setup(self):
        """`before` sees every test, each before its own setUp()"""
        seen = []

        class Order(unittest.TestCase):
            def setUp(self):
                seen.append(('setUp', self.id().rsplit('.', 1)[-1]))

            def test_a(self):
                pass

            def test_b(self):
                pass

        suite = unittest.defaultTestLoader.loadTestsFromTestCase(Order)
        ktap.run_unittest(suite, ktap.Ktap(io.StringIO()),
                          before=lambda t: seen.append(
                              ('before', t.id().rsplit('.', 1)[-1])))
        self.assertEqual(seen, [('before', 'test_a'), ('setUp', 'test_a'),
                                ('before', 'test_b'), ('setUp', 'test_b')])

    def test_default_writer_is_stdout(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            k = ktap.run_unittest(unittest.TestSuite())
        self.assertEqual(out.getvalue(), 'KTAP version 1\n')
        self.assertEqual(k.num, 0)


if __name__ == '__main__':
    unittest.main()
