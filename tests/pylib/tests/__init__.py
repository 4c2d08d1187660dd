# SPDX-License-Identifier: GPL-2.0
"""unittest tests of arbeltest, the tests' own library, and of
scripts/report.py (make check's stage pylib).  Run them with
"python3 tests/pylib/tests" for KTAP, or with
"python3 -m unittest discover -s tests/pylib/tests -t tests/pylib"."""
