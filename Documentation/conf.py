# SPDX-License-Identifier: GPL-2.0
"""Sphinx configuration of arbel's Documentation/ (make htmldocs).

The kernel-doc comments of the sources are rendered by the kernel's own
Sphinx extension, Documentation/sphinx/kerneldoc.py, and its
scripts/kernel-doc, from the extracted kernel tree named by $ARBEL_KTREE
(scripts/htmldocs.sh sets it: scripts/ktree.sh --no-hook).  The C
domain's list of attributes to skip is the kernel's own, read from the
tree's Documentation/conf.py.
"""
import ast
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ktree = os.environ.get("ARBEL_KTREE")
if not ktree:
    sys.exit("conf.py: set ARBEL_KTREE to an extracted kernel tree "
             "(scripts/htmldocs.sh does)")
sys.path.insert(0, os.path.join(ktree, "Documentation", "sphinx"))


def kernel_c_id_attributes(path):
    """The c_id_attributes list of the kernel's Documentation/conf.py."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "c_id_attributes"
                for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit(f"conf.py: no c_id_attributes in {path}")


project = "arbel"
copyright = "the arbel authors; GPL-2.0"
extensions = ["kerneldoc"]
kerneldoc_bin = os.path.join(ktree, "scripts", "kernel-doc")
kerneldoc_srctree = top
kerneldoc_verbosity = 1
c_id_attributes = kernel_c_id_attributes(
    os.path.join(ktree, "Documentation", "conf.py"))
master_doc = "index"
exclude_patterns = []
html_theme = "alabaster"
html_static_path = []
