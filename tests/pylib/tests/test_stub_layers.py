# SPDX-License-Identifier: GPL-2.0
"""scripts/stub-layers.py, the check of arbel-stub's layers, on small
synthetic qemu/ trees written here: it must fail on an upward call, a
same-layer cycle, an upward include, another module's state and a file in
no layer, and pass a tree that only calls down."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

from . import scriptload


HEAD = '#include "qemu/osdep.h"\n#include "arbel-state.h"\n'


@scriptload.needs('stub-layers.py')
class StubLayersTest(unittest.TestCase):

    def setUp(self):
        self.mod = scriptload.load('stub-layers.py')
        self.dir = tempfile.mkdtemp()
        # a clean tree: HCR (layer 7) -> dispatch (6) -> trace (0)
        self.write('arbel-trace.c', HEAD + '#include "arbel-trace.h"\n'
                   'void arbel_trace_cmd(ArbelState *s)\n{\n'
                   '    s->trace.seq++;\n}\n')
        self.write('arbel-cmd.c', HEAD + '#include "arbel-trace.h"\n'
                   'static int arbel_cmd_find(int op)\n{\n    return op;\n}\n'
                   'uint8_t arbel_cmd_execute(ArbelState *s)\n{\n'
                   '    arbel_trace_cmd(s);\n'
                   '    return arbel_cmd_find(s->props.fw_pages);\n}\n')
        self.write('arbel-hcr.c', HEAD + '#include "arbel-cmd.h"\n'
                   'void arbel_hcr_write(ArbelState *s, unsigned int dw)\n'
                   '{\n    s->hcr.reg[dw] = arbel_cmd_execute(s);\n}\n')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), 'w', encoding='utf-8') as f:
            f.write(text)

    def problems(self):
        return {n: p for n, p in self.mod.check(self.dir).items() if p}

    def test_clean_tree_passes(self):
        self.assertEqual(self.problems(), {})

    def test_upward_call_fails(self):
        # the trace (a leaf) calls the HCR: an upward edge
        self.write('arbel-trace.c', HEAD +
                   'void arbel_trace_cmd(ArbelState *s)\n{\n'
                   '    arbel_hcr_write(s, 6);\n}\n')
        probs = self.problems()
        self.assertEqual(list(probs), ['arbel-trace.c'])
        self.assertEqual(len(probs['arbel-trace.c']), 1)
        self.assertIn('calls up: arbel_hcr_write (arbel-hcr.c',
                      probs['arbel-trace.c'][0])

    def test_upward_call_fails_the_stage(self):
        self.write('arbel-trace.c', HEAD +
                   'void arbel_trace_cmd(ArbelState *s)\n{\n'
                   '    arbel_hcr_write(s, 6);\n}\n')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = self.mod.main(['--qemu-dir', self.dir])
        self.assertEqual(rc, 1)
        self.assertIn('not ok 3 qemu/arbel-trace.c', out.getvalue())
        self.assertIn('ok 2 qemu/arbel-hcr.c', out.getvalue())

    def test_function_pointer_counts_as_an_edge(self):
        # naming an upper function in a table is a call in waiting
        self.write('arbel-trace.c', HEAD +
                   'static void *const arbel_trace_hooks[] = {\n'
                   '    arbel_cmd_execute,\n};\n'
                   'void arbel_trace_cmd(ArbelState *s)\n{\n}\n')
        self.assertIn('calls up: arbel_cmd_execute',
                      self.problems()['arbel-trace.c'][0])

    def test_comments_strings_and_statics_are_not_calls(self):
        self.write('arbel-trace.c', HEAD +
                   '/* arbel_hcr_write(s, 6) would call up */\n'
                   'static void arbel_cmd_execute(void)\n{\n}\n'
                   'void arbel_trace_cmd(ArbelState *s)\n{\n'
                   '    puts("arbel_hcr_write(s, 6)");\n'
                   '    arbel_cmd_execute();  // arbel_hcr_write\n}\n')
        self.assertEqual(self.problems(), {})

    def test_same_layer_cycle_fails_one_way_passes(self):
        self.write('arbel-fault.c', HEAD +
                   'void arbel_fault_fail(ArbelState *s)\n{\n'
                   '    arbel_trace_cmd(s);\n}\n')
        self.assertEqual(self.problems(), {})
        self.write('arbel-trace.c', HEAD +
                   'void arbel_trace_cmd(ArbelState *s)\n{\n'
                   '    arbel_fault_fail(s);\n}\n')
        probs = self.problems()
        self.assertEqual(sorted(probs), ['arbel-fault.c', 'arbel-trace.c'])
        self.assertIn('same-layer cycle: arbel_fault_fail',
                      probs['arbel-trace.c'][0])

    def test_upward_include_fails(self):
        self.write('arbel-dma.c', HEAD + '#include "arbel-cmd.h"\n')
        probs = self.problems()
        self.assertEqual(list(probs), ['arbel-dma.c'])
        self.assertIn('includes arbel-cmd.h', probs['arbel-dma.c'][0])

    def test_other_modules_state_fails(self):
        self.write('arbel-eq.c', HEAD +
                   'void arbel_eq_reset(ArbelState *s)\n{\n'
                   '    s->eqs.ev_eq[0] = s->props.num_ports;\n'
                   '    s->tpt.hw_mpt = NULL;\n    s->newthing = 1;\n}\n')
        probs = self.problems()['arbel-eq.c']
        self.assertEqual(len(probs), 2)
        self.assertIn('s->newthing: a member with no owner', probs[0])
        self.assertIn('s->tpt: state of module "tpt"', probs[1])

    def test_device_pointer_not_named_s_fails(self):
        self.write('arbel-eq.c', HEAD +
                   'void arbel_eq_reset(ArbelState *dev)\n{\n'
                   '    dev->tpt.hw_mpt = NULL;\n}\n')
        probs = self.problems()['arbel-eq.c']
        self.assertEqual(len(probs), 1)
        self.assertIn('ArbelState *dev: name the device pointer', probs[0])

    def test_file_in_no_layer_fails(self):
        self.write('arbel-new.c', HEAD + 'void arbel_new(void)\n{\n}\n')
        self.assertIn('not in any layer', self.problems()['arbel-new.c'][0])


if __name__ == '__main__':
    unittest.main()
