#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make htmldocs and the docs stage of make check: render Documentation/
with Sphinx (Debian's python3-sphinx) and the kernel's kernel-doc
extension from the kernel tree KTREE, into build/htmldocs/.

KTAP on stdout, one result each:
  - sphinx-build -W (any Sphinx, docutils or kernel-doc warning fails);
  - per driver .c file: each of its non-static functions has its
    kernel-doc rendered (an entry with the id c.NAME in the HTML).
"""
import argparse
import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "pylib"))
from arbeltest.ktap import Ktap  # noqa: E402

# a function definition at the start of a line: "type name(args)\n{"
FUNC_RE = re.compile(r"^([A-Za-z_][^;{}()#]*?)\b([a-z_][a-z0-9_]*)\(([^;{}]*?)\)\s*\n\{",
                     re.M)


def non_static_functions(path):
    """Names of the functions path defines without static."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [m.group(2) for m in FUNC_RE.finditer(text)
            if "static" not in m.group(1).split()]


def rendered_ids(html_dir):
    ids = set()
    for path in glob.glob(os.path.join(html_dir, "*.html")):
        with open(path, encoding="utf-8") as f:
            ids.update(re.findall(r'id="c\.([A-Za-z0-9_]+)"', f.read()))
    return ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ktree", required=True, help="extracted kernel tree")
    ap.add_argument("--out", default=os.path.join(TOP, "build", "htmldocs"))
    a = ap.parse_args()
    ktap = Ktap()
    env = dict(os.environ, ARBEL_KTREE=a.ktree)
    cmd = ["/usr/bin/python3", "-m", "sphinx", "-W", "--keep-going", "-q",
           "-E", "-b", "html", "-d", os.path.join(a.out, ".doctrees"),
           os.path.join(TOP, "Documentation"), a.out]
    run = subprocess.run(cmd, env=env, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, check=False)
    sys.stderr.write(run.stdout)
    ktap.check(run.returncode == 0, "sphinx-build -W Documentation/",
               lambda: run.stdout or f"exit status {run.returncode}")
    ids = rendered_ids(a.out)
    drv = os.path.join(TOP, "drivers", "infiniband", "hw", "arbel")
    total = 0
    for path in sorted(glob.glob(os.path.join(drv, "*.c"))):
        name = os.path.relpath(path, TOP)
        funcs = non_static_functions(path)
        if not funcs:
            continue
        total += len(funcs)
        missing = [f for f in funcs if f not in ids]
        ktap.check(not missing,
                   f"{name}: kernel-doc of its {len(funcs)} non-static "
                   "functions rendered",
                   lambda: "not rendered: " + " ".join(missing))
    ktap.check(total > 0, "the driver's non-static functions found",
               "none found in " + os.path.relpath(drv, TOP))
    sys.exit(ktap.finish())


if __name__ == "__main__":
    main()
