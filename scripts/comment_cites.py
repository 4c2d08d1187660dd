# SPDX-License-Identifier: GPL-2.0
"""The rule that a code comment cites only files in the repository.

A comment in a C file of the project (drivers/, include/, kunit/, qemu/,
tests/, examples/, bench/) that names a file -- a word ending in .c, .h,
.rst, .py, .sh or .txt -- must name one that git tracks (by its path or
its file name).  Facts taken from mthca, iPXE or the kernel's own files
are cited in comments as "mthca's <function>" and their sources are named
in Documentation/arbel-hw.rst (or arbel-stub.rst), which may name any
file.  Header names in the kernel's include namespace (linux/, asm/,
rdma/, uapi/, trace/, kunit/) are interfaces, not citations.
"""
import os
import re
import subprocess

CITE_RE = re.compile(r"(?<![\w/.<-])([\w./-]*\w\.(?:c|h|rst|py|sh|txt))\b")
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
KERNEL_INCLUDE = ("linux/", "asm/", "rdma/", "uapi/", "trace/", "kunit/")
DIRS = ("drivers/", "include/", "kunit/", "qemu/", "tests/", "examples/",
        "bench/")


def foreign_cites(top):
    """[(file, line, cited name)] of comments citing untracked files."""
    files = subprocess.run(["git", "ls-files"], cwd=top, text=True,
                           capture_output=True, check=True).stdout.split()
    names = {os.path.basename(f) for f in files}
    bad = []
    for f in files:
        if not f.startswith(DIRS) or not f.endswith((".c", ".h")):
            continue
        path = os.path.join(top, f)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in COMMENT_RE.finditer(text):
            for c in CITE_RE.finditer(m.group(0)):
                cite = c.group(1)
                if cite.startswith(KERNEL_INCLUDE) or cite in files or \
                        os.path.basename(cite) in names:
                    continue
                line = text.count("\n", 0, m.start() + c.start()) + 1
                bad.append((f, line, cite))
    return bad
