# SPDX-License-Identifier: GPL-2.0
"""scripts/stages.py: the table of make check's stages and its scheduler."""

import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))

import stages  # noqa: E402
from stages import Stage  # noqa: E402


def table(*rows):
    """Stages from (name, cost, needs) rows, all in the lanes."""
    return [Stage(n, 'true', n, cost=c, needs=needs) for n, c, needs in rows]


class TableTest(unittest.TestCase):
    def test_the_table_is_valid(self):
        self.assertEqual(stages.validate(), [])

    def test_every_stage_of_before_is_there(self):
        # the names make check had before the table, and the host check
        # (dkms went into deb: its DKMS builds and the PCI alias)
        names = {s.name for s in stages.STAGES}
        for n in ('pylib testlib bench module-6.12 module lint docs '
                  'intree intree-6.12 kunit-x86 verbs-6.12 mthca-6.12 '
                  'conformance-6.12 bringup-6.12 verbs mthca conformance '
                  'bringup deb debug host').split():
            self.assertIn(n, names)

    def test_first_stages_keep_their_order(self):
        first = [s.name for s in stages.STAGES if s.phase == 'first']
        self.assertEqual(first, ['pylib', 'testlib', 'bench'])

    def test_the_module_builds_never_overlap(self):
        # both build in drivers/: module waits for module-6.12
        self.assertIn('module-6.12', stages.BY_NAME['module'].needs)

    def test_vm_stages_on_612_use_on(self):
        for s in stages.STAGES:
            if s.name.endswith('-6.12') and s.phase == 'lanes' and \
                    not s.name.startswith('module') and \
                    not s.name.startswith('intree'):
                self.assertTrue(s.cmd.startswith('on 6.12 '), s.name)

    def test_a_need_on_nothing_is_refused(self):
        t = table(('a', 1, ['nothing']))
        self.assertTrue(any('nothing' in b for b in stages.validate(t)))

    def test_a_cycle_is_refused(self):
        t = table(('a', 1, ['b']), ('b', 1, ['a']))
        self.assertTrue(any('cycle' in b for b in stages.validate(t)))

    def test_a_lane_stage_without_cost_is_refused(self):
        t = table(('a', 0, []))
        self.assertTrue(stages.validate(t))

    def test_a_first_stage_needing_a_lane_stage_is_refused(self):
        t = [Stage('a', 'true', 'a', phase='first', needs=['b']),
             Stage('b', 'true', 'b', cost=1)]
        self.assertTrue(any('later' in b for b in stages.validate(t)))


class SelectTest(unittest.TestCase):
    def test_empty_is_everything(self):
        self.assertEqual(stages.select(''), stages.STAGES)

    def test_needs_come_along_and_host_always(self):
        names = [s.name for s in stages.select('verbs,mthca')]
        self.assertEqual(names, ['module-6.12', 'module', 'mthca', 'verbs',
                                 'host'])

    def test_blanks_separate_too(self):
        self.assertEqual([s.name for s in stages.select('verbs-6.12 lint')],
                         ['module-6.12', 'lint', 'verbs-6.12', 'host'])

    def test_module_brings_module_612(self):
        self.assertEqual([s.name for s in stages.select('verbs')],
                         ['module-6.12', 'module', 'verbs', 'host'])

    def test_needs_of_needs(self):
        names = [s.name for s in stages.select('debug')]
        self.assertEqual(names, ['kunit-x86', 'debug', 'host'])

    def test_unknown_name(self):
        with self.assertRaises(ValueError):
            stages.select('verbs,nosuch')


class ScheduleTest(unittest.TestCase):
    def test_longest_first_onto_the_lane_that_frees_first(self):
        t = table(('a', 2, []), ('b', 10, []), ('c', 3, []), ('d', 4, []))
        plan, end = stages.simulate(t, 2)
        # b on lane 2 (not niced) first; d, c, a fill lane 1
        self.assertEqual(plan, [['d', 'c', 'a'], ['b']])
        self.assertEqual(end, 10)

    def test_one_lane_runs_by_rank(self):
        t = table(('a', 2, []), ('b', 10, []))
        plan, end = stages.simulate(t, 1)
        self.assertEqual(plan, [['b', 'a']])
        self.assertEqual(end, 12)

    def test_needs_are_honoured(self):
        # x is short but y (long) needs it: x goes first, y right after
        t = table(('x', 1, []), ('y', 10, ['x']), ('z', 5, []),
                  ('w', 5, []))
        plan, end = stages.simulate(t, 2)
        self.assertEqual(plan[1][0], 'x')
        order = [n for lane in plan for n in lane]
        self.assertIn('y', order)
        self.assertEqual(end, 11)

    def test_a_stage_never_starts_before_what_it_needs_ends(self):
        t = table(('a', 5, []), ('b', 1, ['a']), ('c', 1, []))
        sched = stages.Scheduler(t, 2)
        first = sched.take()
        self.assertEqual(first.name, 'a')
        self.assertEqual(sched.take().name, 'c')
        self.assertIsNone(sched.take())       # b waits for a
        sched.finish('c')
        self.assertIsNone(sched.take())
        sched.finish('a')
        self.assertEqual(sched.take().name, 'b')

    def test_needs_outside_the_set_are_met(self):
        t = table(('a', 1, ['module']))
        sched = stages.Scheduler(t, 2)
        self.assertEqual(sched.take().name, 'a')

    def test_rank_is_the_longest_path_ahead(self):
        t = table(('a', 1, []), ('b', 10, ['a']), ('c', 3, ['a']))
        self.assertEqual(stages.ranks(t), {'a': 11, 'b': 10, 'c': 3})

    def test_the_table_fits_the_warm_budget(self):
        # the first stages, the lanes and the host check: 14 minutes
        # before the two traffic stages (mthca-traffic: 50 s each,
        # measured), 16 with them; 19.5 since the costs are the warm run
        # of 2026-12-07 (the life cycle on the debug kernel): CI allows a
        # warm run 20 (Documentation/timings.rst)
        lane = [s for s in stages.STAGES if s.phase == 'lanes']
        _, end = stages.simulate(lane, 2)
        rest = sum(s.cost for s in stages.STAGES if s.phase != 'lanes')
        self.assertLess(end + rest, 19.5 * 60)

    def test_measured_costs_replace_the_table(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'check-a.secs'), 'w') as f:
                f.write('42\n')
            cost = stages.measured_cost(d)
            t = table(('a', 1, []), ('b', 7, []))
            self.assertEqual([cost(s) for s in t], [42, 7])


class RunTest(unittest.TestCase):
    def test_run_starts_every_stage_and_keeps_lane_outputs(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, 'check.sh')
            with open(fake, 'w') as f:
                f.write('#!/bin/sh\necho "ran $2"\n')
            os.chmod(fake, 0o755)
            t = table(('a', 3, []), ('b', 2, ['a']), ('c', 1, []))
            with open(os.devnull, 'w') as log:
                started = stages.run(t, 2, d, fake, log=log, poll=0.05)
            self.assertEqual(started.index('a') < started.index('b'), True)
            self.assertEqual(sorted(started), ['a', 'b', 'c'])
            out = ''
            for k in (1, 2):
                with open(os.path.join(d, f'check-lane-{k}.out')) as f:
                    out += f.read()
            for n in 'abc':
                self.assertIn(f'ran {n}', out)


class DocsTest(unittest.TestCase):
    def test_a_matching_block_passes(self):
        text = f'x\n{stages.BEGIN}\n\n{stages.rst()}\n{stages.END}\ny\n'
        self.assertEqual(stages.check_docs(text), [])

    def test_a_stale_block_fails(self):
        stale = stages.rst().replace('**verbs**', '**verbz**')
        text = f'{stages.BEGIN}\n\n{stale}\n{stages.END}\n'
        self.assertTrue(stages.check_docs(text))

    def test_a_missing_block_fails(self):
        self.assertTrue(stages.check_docs('no list here\n'))

    def test_every_stage_is_in_the_list(self):
        text = stages.rst()
        for s in stages.STAGES:
            self.assertIn(f'**{s.name}**', text)

    def test_the_documentation_matches_the_table(self):
        path = os.path.join(TOP, 'Documentation', 'check.rst')
        with open(path, encoding='utf-8') as f:
            self.assertEqual(stages.check_docs(f.read()), [])

    def test_list_prints_a_line_per_stage(self):
        out = subprocess.run([sys.executable,
                              os.path.join(TOP, 'scripts', 'stages.py'),
                              'list', '--stages', 'verbs'],
                             capture_output=True, text=True, check=True)
        lines = out.stdout.splitlines()
        self.assertEqual([ln.split()[0] for ln in lines[1:]],
                         ['module-6.12', 'module', 'verbs', 'host'])


if __name__ == '__main__':
    unittest.main()
