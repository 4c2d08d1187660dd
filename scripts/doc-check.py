#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Parse every Documentation/*.rst with docutils; any warning or error
fails.  kernel-doc directives are accepted (their sources are checked by
scripts/kernel-doc in lint)."""
import glob
import os
import sys

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


directives.register_directive("kernel-doc", KernelDoc)
top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = 0
for path in sorted(glob.glob(os.path.join(top, "Documentation", "*.rst"))):
    name = os.path.relpath(path, top)
    try:
        docutils.core.publish_string(
            open(path, encoding="utf-8").read(), source_path=name,
            writer_name="null",
            settings_overrides={"report_level": 2, "halt_level": 2,
                                "warning_stream": sys.stdout})
        passed += 1
    except Exception as e:  # docutils raises SystemMessage at halt_level
        print(f"{name}: {e}")
        failed += 1
print(f"docs: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
