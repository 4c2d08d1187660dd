#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write the driver's in-tree form as a `git format-patch` series against
a kernel tree (make patch KSRC=... [PATCH_OUT=...]).

The series adds drivers/infiniband/hw/arbel/ to the tree KSRC:
  0001  the driver: its sources, the headers of include/arbel/ beside them
        (`#include <arbel/x.h>` becomes `#include "x.h"`), without compat.h
        (in a tree there is one kernel: its entries are resolved for KSRC's
        version and written into the files that use them), the
        Kconfig and Makefile, the hooks in drivers/infiniband/Kconfig and
        drivers/infiniband/hw/Makefile, and a MAINTAINERS entry;
  0002  the KUnit suites of kunit/ as drivers/infiniband/hw/arbel/tests/
        and the driver's .kunitconfig, so that
        `./tools/testing/kunit/kunit.py run --kunitconfig=drivers/infiniband/hw/arbel`
        runs them.  The command-flow suites (they need arbel-stub in QEMU)
        stay out of tree.

The series is built in a scratch git repository holding only the files of
KSRC it changes, so it applies to KSRC with `git apply` or `patch -p1`.
Author and dates are fixed: the same inputs give the same series.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRV = "drivers/infiniband/hw/arbel"
HOOKED = ["MAINTAINERS", "drivers/infiniband/Kconfig",
          "drivers/infiniband/hw/Makefile"]
# kunit/ files that need arbel-stub: not part of the in-tree series
FLOW = {"flow.c", "flow.h", "cmdflow_test.c", "fwflow_test.c",
        "icmflow_test.c", "mttflow_test.c"}
DATE = "Tue, 1 Dec 2026 00:00:00 +0000"

MSG1 = """RDMA/arbel: add a driver for the Mellanox InfiniHost III Ex (Arbel)

Add arbel, a driver for the Mellanox InfiniHost III Ex HCA (MT25208,
PCI 15b3:6282) in native mem-free mode whose job is memory
registration: it brings the firmware up (QUERY_FW, RUN_FW, the ICM
tables), and turns verbs requests into MPT and MTT entries that the
firmware holds, through the HCA command register.

The hardware interface (BARs, command register, opcodes, status codes,
MPT and MTT layouts) is in prm.h; the pure layers (MPT encoding, HCR
packing, status table, ICM profile, key and MTT allocators) have their
own headers so that KUnit suites can test them.

The driver sits outside the "if !UML" block of drivers/infiniband/Kconfig
so that its KUnit suites run on UML; it depends on PCI and 64BIT.
"""

MSG2 = """RDMA/arbel: add KUnit suites

Add the KUnit suites of the arbel driver in tests/: MPT entry
encoding, keys and access flags, HCR packing and the status table, the
ICM profile, the key and MTT allocators, the page-size choice and the
board ID decoding, with a .kunitconfig so that they run on UML with

  ./tools/testing/kunit/kunit.py run \\
	--kunitconfig=drivers/infiniband/hw/arbel
"""

MAINT1 = """ARBEL (MELLANOX INFINIHOST III EX) RDMA DRIVER
M:	{ident}
L:	linux-rdma@vger.kernel.org
S:	Maintained
F:	drivers/infiniband/hw/arbel/
"""


def run(cmd, cwd, env=None, capture=False):
    r = subprocess.run(cmd, cwd=cwd, env=env, check=True, text=True,
                       stdout=subprocess.PIPE if capture else None)
    return r.stdout if capture else None


def kversion(ksrc):
    with open(os.path.join(ksrc, "Makefile"), encoding="utf-8") as f:
        head = f.read(2000)
    v = [int(re.search(r"^%s = (\d+)" % k, head, re.M).group(1))
         for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")]
    return tuple(v)


def resolve_compat(text, ver):
    """compat.h for one kernel: keep the branch of each
    `#if LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c)` (or `<`) that ver
    takes.  Returns (its #include lines, {macro: (params, body)}); params
    is None for an object-like macro."""
    out, stack = [], []
    cond = re.compile(r"#if LINUX_VERSION_CODE (>=|<) KERNEL_VERSION\("
                      r"(\d+), (\d+), (\d+)\)")
    for line in text.splitlines():
        m = cond.match(line)
        if m:
            newer = ver >= tuple(int(x) for x in m.groups()[1:])
            stack.append(newer if m.group(1) == ">=" else not newer)
            continue
        if stack and line.startswith("#else"):
            stack[-1] = not stack[-1]
            continue
        if stack and line.startswith("#endif"):
            stack.pop()
            continue
        if "LINUX_VERSION_CODE" in line or "KERNEL_VERSION" in line:
            sys.exit("make-patch: compat.h: cannot resolve: " + line)
        if all(stack):
            out.append(line)
    includes, macros = [], {}
    body = re.sub(r"/\*.*?\*/", "", "\n".join(out), flags=re.S)
    for line in body.splitlines():
        m = re.match(r"#define (\w+)\(([^)]*)\) (.*)", line)
        obj = re.match(r"#define (\w+) (\w+)$", line)
        if line.startswith("#include") and "linux/version.h" not in line:
            includes.append(line)
        elif m:
            params = [x.strip() for x in m.group(2).split(",")]
            macros[m.group(1)] = (params, m.group(3))
        elif obj:
            macros[obj.group(1)] = (None, obj.group(2))
        elif line.strip() and not re.match(
                r"#(ifndef|define) *_ARBEL_COMPAT|#endif\s*$|"
                r"#include <linux/version.h>",
                line):
            sys.exit("make-patch: compat.h: cannot inline: " + line)
    return includes, macros


def call_args(text, start):
    """The top-level arguments of the call whose '(' is at start, and the
    index after its ')'."""
    depth, args, cur = 0, [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i].strip())
                return args, i + 1
        elif c == "," and depth == 1:
            args.append(text[cur:i].strip())
            cur = i + 1
    sys.exit("make-patch: unbalanced call")


def inline_compat(text, includes, macros):
    """A source without compat.h: its include replaced by the resolved
    includes, each compat macro's calls by the macro's body."""
    text = text.replace('#include "compat.h"\n',
                        "".join(i + "\n" for i in includes))
    for name, (params, body) in macros.items():
        if params is None:
            text = re.sub(r"\b%s\b" % name, body, text)
            continue
        while True:
            m = re.search(r"\b%s\(" % name, text)
            if not m:
                break
            args, end = call_args(text, m.end() - 1)
            new = body
            for p_, a in zip(params, args):
                new = re.sub(r"\b%s\b" % p_, lambda _m, a=a: a, new)
            text = text[:m.start()] + new + text[end:]
    return text


def in_tree_source(text):
    return re.sub(r"#include <arbel/([a-z_]+\.h)>", r'#include "\1"', text)


def kconfig_blocks(text):
    """SPDX head and the config blocks of the driver's Kconfig, by name."""
    parts = re.split(r"^(?=config )", text, flags=re.M)
    blocks = {}
    for p in parts[1:]:
        blocks[p.split()[1]] = p.rstrip("\n") + "\n"
    return parts[0], blocks


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def hook_kconfig(text):
    line = 'source "drivers/infiniband/hw/arbel/Kconfig"\n'
    new, n = re.subn(r"^(endif # !UML\n)", lambda m: m.group(1) + line,
                     text, count=1, flags=re.M)
    if n != 1:
        sys.exit("make-patch: no 'endif # !UML' in drivers/infiniband/Kconfig")
    return new


def hook_makefile(text):
    line = "obj-$(CONFIG_INFINIBAND_ARBEL)\t\t+= arbel/\n"
    new, n = re.subn(r"^(obj-\$\(CONFIG_INFINIBAND_MTHCA\).*\n)",
                     lambda m: m.group(1) + line, text, count=1, flags=re.M)
    if n != 1:
        sys.exit("make-patch: no mthca line in drivers/infiniband/hw/Makefile")
    return new


def add_maintainers(text, entry):
    """Insert entry before the first section whose title sorts after it
    (a title: a line after a blank line, followed by an "X:\t" line)."""
    title = entry.splitlines()[0]
    for m in re.finditer(r"(?<=\n\n)([A-Z0-9][^\n]*)\n(?=[A-Z]:\t)", text):
        if not re.match(r"[A-Z]:\t", m.group(1)) and m.group(1) > title:
            return text[:m.start()] + entry + "\n" + text[m.start():]
    sys.exit("make-patch: no place for the MAINTAINERS entry")


def tracked(rel):
    """The files git tracks directly in the directory rel of the project
    (never build outputs left beside them)."""
    out = run(["git", "ls-files", "--", rel], cwd=TOP, capture=True)
    return sorted(os.path.basename(p) for p in out.splitlines()
                  if os.path.dirname(p) == rel)


def driver_files(ver):
    """{path in the tree: text} of patch 1 (without the hooks)."""
    files = {}
    src = os.path.join(TOP, DRV)
    includes, macros = resolve_compat(read(os.path.join(src, "compat.h")), ver)
    for name in tracked(DRV):
        if name == "compat.h":
            continue
        text = read(os.path.join(src, name))
        if name.endswith((".c", ".h")):
            text = inline_compat(in_tree_source(text), includes, macros)
        files[f"{DRV}/{name}"] = text
    inc = os.path.join(TOP, "include", "arbel")
    for name in tracked("include/arbel"):
        path = f"{DRV}/{name}"
        if path in files:
            sys.exit(f"make-patch: {name} is both a driver file and a header")
        files[path] = in_tree_source(read(os.path.join(inc, name)))
    head, blocks = kconfig_blocks(files[f"{DRV}/Kconfig"])
    files[f"{DRV}/Kconfig"] = head + blocks["INFINIBAND_ARBEL"]
    mk = files[f"{DRV}/Makefile"]
    mk = re.sub(r"#\n# Used both inside.*\n", "", mk)
    files[f"{DRV}/Makefile"] = mk
    return files, head, blocks


def test_files(blocks, mk):
    files = {}
    src = os.path.join(TOP, "kunit")
    names = [n for n in tracked("kunit")
             if n.endswith((".c", ".h")) and n not in FLOW]
    for name in names:
        files[f"{DRV}/tests/{name}"] = in_tree_source(read(os.path.join(src, name)))
    kmk = read(os.path.join(src, "Makefile"))
    kmk = kmk.split("\n# Command-flow suites")[0]
    kmk = re.sub(r"^CFLAGS_.*\n", "", kmk, flags=re.M)
    kmk = re.sub(r"^#.*\n", "", kmk, flags=re.M)
    kmk = ("# SPDX-License-Identifier: GPL-2.0-only\n\n"
           "ccflags-y := -I$(srctree)/drivers/infiniband/hw/arbel\n\n"
           + kmk.lstrip("\n").rstrip("\n") + "\n")
    files[f"{DRV}/tests/Makefile"] = kmk
    files[f"{DRV}/Kconfig"] = None  # filled by the caller
    files[f"{DRV}/.kunitconfig"] = read(os.path.join(src, ".kunitconfig"))
    files[f"{DRV}/Makefile"] = (mk.rstrip("\n") + "\n\n"
                                "obj-$(CONFIG_INFINIBAND_ARBEL_KUNIT_TEST) += tests/\n")
    return files


def commit(repo, files, msg, env):
    for path, text in files.items():
        write(os.path.join(repo, path), text)
    run(["git", "add", "-A"], repo)
    subprocess.run(["git", "commit", "-q", "-s", "-F", "-"], cwd=repo,
                   env=env, input=msg, text=True, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ksrc", required=True, help="the kernel tree")
    ap.add_argument("--out", required=True, help="where the series goes")
    a = ap.parse_args()
    ksrc = os.path.abspath(a.ksrc)
    ver = kversion(ksrc)

    name = run(["git", "config", "user.name"], TOP, capture=True).strip()
    email = run(["git", "config", "user.email"], TOP, capture=True).strip()
    ident = f"{name} <{email}>"
    env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
               GIT_AUTHOR_DATE=DATE, GIT_COMMITTER_DATE=DATE)

    with tempfile.TemporaryDirectory(prefix="arbel-patch-") as repo:
        run(["git", "init", "-q"], repo)
        for path in HOOKED:
            write(os.path.join(repo, path), read(os.path.join(ksrc, path)))
        run(["git", "add", "-A"], repo)
        run(["git", "commit", "-q", "-m", "base"], repo, env)

        files, head, blocks = driver_files(ver)
        files["MAINTAINERS"] = add_maintainers(
            read(os.path.join(repo, "MAINTAINERS")),
            MAINT1.format(ident=ident))
        files["drivers/infiniband/Kconfig"] = hook_kconfig(
            read(os.path.join(repo, "drivers/infiniband/Kconfig")))
        files["drivers/infiniband/hw/Makefile"] = hook_makefile(
            read(os.path.join(repo, "drivers/infiniband/hw/Makefile")))
        commit(repo, files, MSG1, env)

        tfiles = test_files(blocks, files[f"{DRV}/Makefile"])
        tfiles[f"{DRV}/Kconfig"] = (files[f"{DRV}/Kconfig"] + "\n"
                                    + blocks["INFINIBAND_ARBEL_KUNIT_TEST"])
        maint = read(os.path.join(repo, "MAINTAINERS"))
        tfiles["MAINTAINERS"] = maint.replace(
            "F:\tdrivers/infiniband/hw/arbel/\n",
            "F:\tdrivers/infiniband/hw/arbel/\n"
            "F:\tdrivers/infiniband/hw/arbel/tests/\n", 1)
        commit(repo, tfiles, MSG2, env)

        os.makedirs(a.out, exist_ok=True)
        for old in os.listdir(a.out):
            if old.endswith(".patch"):
                os.unlink(os.path.join(a.out, old))
        run(["git", "format-patch", "-q", "--no-signature",
             "-o", os.path.abspath(a.out), "HEAD~2"], repo, env)
    for p in sorted(os.listdir(a.out)):
        print(os.path.join(a.out, p))


if __name__ == "__main__":
    main()
