#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Parse every Documentation/*.rst with docutils; any warning or error
fails.  kernel-doc and toctree directives are accepted (Sphinx renders
them: the docs stage, scripts/htmldocs.py).  KTAP on stdout, one result
per file.  Then one result for the rule that a code comment cites only
files in the repository (comment_cites.py), one for the stage list of
Documentation/check.rst against make check's table (stages.py), and one
for the VM harness's variables table against its scripts (vmknobs.py)."""
import glob
import io
import os
import sys

from comment_cites import foreign_cites
import stages
import vmknobs

import docutils.core
from docutils.parsers.rst import Directive, directives


class KernelDoc(Directive):
    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True
    option_spec = {}
    has_content = False

    def run(self):
        return []


top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "tests", "pylib"))
from arbeltest.ktap import Ktap  # noqa: E402

class TocTree(KernelDoc):
    required_arguments = 0
    has_content = True
    option_spec = {"maxdepth": directives.unchanged,
                   "glob": directives.flag}


directives.register_directive("kernel-doc", KernelDoc)
directives.register_directive("toctree", TocTree)
ktap = Ktap()
paths = sorted(glob.glob(os.path.join(top, "Documentation", "*.rst")))
if not paths:
    ktap.fail("Documentation/*.rst", "no file found")
for path in paths:
    name = os.path.relpath(path, top)
    warnings = io.StringIO()
    try:
        with open(path, encoding="utf-8") as f:
            docutils.core.publish_string(
                f.read(), source_path=name, writer_name="null",
                settings_overrides={"report_level": 2, "halt_level": 2,
                                    "warning_stream": warnings})
        ktap.check(not warnings.getvalue(), name, warnings.getvalue)
    except Exception as e:  # docutils raises SystemMessage at halt_level
        ktap.fail(name, warnings.getvalue() or str(e))
bad = foreign_cites(top)
ktap.check(not bad, "code comments cite only files in the repository",
           lambda: "\n".join(f"{f}:{n}: {c}" for f, n, c in bad))
check_rst = os.path.join(top, "Documentation", "check.rst")
try:
    with open(check_rst, encoding="utf-8") as f:
        bad = stages.check_docs(f.read())
except OSError as e:
    bad = [str(e)]
ktap.check(not bad, "Documentation/check.rst lists make check's stages "
           "as scripts/stages.py has them", lambda: "\n".join(bad))
bad = vmknobs.check(top)
ktap.check(not bad, "Documentation/vm-harness.rst's variables are "
           "scripts/vm/run.sh's, with their defaults", lambda: "\n".join(bad))
sys.exit(ktap.finish())
