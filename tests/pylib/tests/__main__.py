# SPDX-License-Identifier: GPL-2.0
"""python3 tests/pylib/tests: every test_*.py here, as KTAP on stdout."""

import os
import sys
import unittest

PYLIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PYLIB)

from arbeltest import ktap  # noqa: E402

suite = unittest.defaultTestLoader.discover(
    os.path.join(PYLIB, 'tests'), top_level_dir=PYLIB)
sys.exit(ktap.run_unittest(suite).finish())
