# SPDX-License-Identifier: GPL-2.0
"""scripts/graph_check.py, the include/call cycle check, on small synthetic
trees written here: it must find a call cycle between two .c files, an
include cycle between headers, a call cycle through a header's inline body
and a Python import cycle, and pass trees where prototypes, static
functions and same-named functions of other programs make no edge."""

import os
import shutil
import tempfile
import unittest

from . import scriptload


@scriptload.needs('graph_check.py')
class GraphCheckTest(unittest.TestCase):

    def setUp(self):
        self.mod = scriptload.load('graph_check.py')
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return name

    def c_cycle(self, files, libs=()):
        graph = self.mod.c_graph(self.dir, sorted(files), [], libs)
        return self.mod.find_cycle(graph)

    def test_call_cycle(self):
        files = [
            self.write('d/a.h', 'int a_get(void);\n'),
            self.write('d/b.h', 'int b_get(void);\n'),
            self.write('d/a.c', '#include "a.h"\n#include "b.h"\n'
                       'int a_get(void)\n{\n\treturn b_get();\n}\n'),
            self.write('d/b.c', '#include "a.h"\n#include "b.h"\n'
                       'int b_get(void)\n{\n\treturn a_get();\n}\n'),
        ]
        cycle = self.c_cycle(files)
        self.assertEqual(sorted(set(cycle)), ['d/a.c', 'd/b.c'])

    def test_downward_calls_only(self):
        # a.c calls b.c; b.c names a_get only in a comment and a string,
        # and calls a static function of the same name as one of a.c's
        files = [
            self.write('d/b.h', 'int b_get(void);\n'),
            self.write('d/a.c', '#include "b.h"\n'
                       'int a_get(void)\n{\n\treturn b_get();\n}\n'),
            self.write('d/b.c', '#include "b.h"\n/* a_get() calls us */\n'
                       'static int a_put(void)\n{\n\treturn 0;\n}\n'
                       'int b_get(void)\n{\n\treturn a_put() + '
                       'sizeof("a_get");\n}\n'),
            self.write('d/c.c', 'static int a_put(void)\n{\n\treturn 1;\n}\n'
                       'int c_get(void)\n{\n\treturn a_put();\n}\n'),
        ]
        self.assertIsNone(self.c_cycle(files))
        graph = self.mod.c_graph(self.dir, sorted(files), [], [])
        self.assertEqual(graph['d/a.c'], {'d/b.c', 'd/b.h'})

    def test_include_cycle(self):
        files = [
            self.write('d/x.h', '#include "y.h"\n'),
            self.write('d/y.h', '#include "x.h"\n'),
        ]
        self.assertEqual(sorted(set(self.c_cycle(files))), ['d/x.h', 'd/y.h'])

    def test_inline_body_in_header(self):
        # b.h's inline calls a.c, a.c calls b.c, b.c includes b.h
        files = [
            self.write('d/b.h', 'int a_get(void);\n'
                       'static inline int b_twice(void)\n{\n'
                       '\treturn 2 * a_get();\n}\n'),
            self.write('d/a.c', 'int b_get(void);\n'
                       'int a_get(void)\n{\n\treturn b_get();\n}\n'),
            self.write('d/b.c', '#include "b.h"\n'
                       'int b_get(void)\n{\n\treturn 1;\n}\n'),
        ]
        self.assertEqual(sorted(set(self.c_cycle(files))),
                         ['d/a.c', 'd/b.c', 'd/b.h'])

    def test_other_programs_functions(self):
        # p/ and q/ are two programs each defining cmd(); lib/ is shared
        files = [
            self.write('lib/l.c', 'int l_run(void)\n{\n\treturn 0;\n}\n'),
            self.write('p/main.c', 'int cmd(void)\n{\n\treturn l_run();\n}\n'),
            self.write('q/main.c', 'int cmd(void)\n{\n\treturn l_run();\n}\n'),
            self.write('lib/m.c', 'int m_run(int cmd)\n{\n\treturn cmd;\n}\n'),
        ]
        graph = self.mod.c_graph(self.dir, sorted(files), [], ['lib'])
        self.assertEqual(graph['p/main.c'], {'lib/l.c'})
        self.assertEqual(graph['lib/m.c'], set())

    def test_python_import_cycle(self):
        files = [
            self.write('t/judge.py', 'import os\nimport test_judge\n'),
            self.write('t/test_judge.py', 'import judge\n'),
            self.write('pkg/lib/__init__.py', ''),
            self.write('pkg/lib/util.py', 'from . import other\n'),
            self.write('pkg/lib/other.py', 'X = 1\n'),
        ]
        graph = self.mod.py_graph(self.dir, sorted(files), ['pkg'])
        self.assertEqual(graph['pkg/lib/util.py'], {'pkg/lib/other.py'})
        self.assertEqual(sorted(set(self.mod.find_cycle(graph))),
                         ['t/judge.py', 't/test_judge.py'])
        graph['t/test_judge.py'] = set()
        self.assertIsNone(self.mod.find_cycle(graph))


if __name__ == '__main__':
    unittest.main()
