# SPDX-License-Identifier: GPL-2.0-only
#
# arbel: the project's entry points.  The kernel's build system reads
# Kbuild, never this file.
#
#   make                 build arbel.ko against KDIR (see README)
#   make check           every test (see README); STAGES=verbs,mthca runs
#                        those and what they need, LIST=1 lists the stages
#                        (the table: scripts/stages.py)
#   make demo            the emulated Arbel in a VM
#   make vm-run CMD=...  run CMD as root in the VM (LOAD=1, STUB=...)
#   make module-check    W=1 + sparse build against the test kernel
#   make lint            checkpatch --strict on every C file and header
#   make htmldocs        Documentation/ rendered by Sphinx, build/htmldocs
#   make deb             build/deb/arbel-dkms_<version>_all.deb (DKMS)
#   make kunit           the KUnit suites (UML)
#   make debug-check     the failure-path verbs suites on the debug kernel
#                        (KASAN, lockdep, kmemleak, fault injection)
#   make qemu            build QEMU with arbel-stub
#   make install         install arbel.ko for KDIR
#   make patch KSRC=...  the in-tree form: a patch series against a kernel
#                        tree, in build/patches (or PATCH_OUT)
#   make clean

.PHONY: all modules install check module-check lint kunit qemu vm-run \
	demo clean patch htmldocs deb debug-check

all: modules

modules:
	scripts/build-module.sh

install:
	scripts/build-module.sh --install

module-check:
	scripts/build-module.sh --test

check:
	STAGES="$(STAGES)" LIST="$(LIST)" scripts/check.sh

lint:
	scripts/checkpatch.sh

deb:
	scripts/build-deb.sh

htmldocs:
	scripts/htmldocs.sh

kunit:
	scripts/kunit.sh

debug-check:
	scripts/debug-check.sh

qemu:
	scripts/build-qemu.sh

PATCH_OUT ?= build/patches
patch:
	@test -n "$(KSRC)" || { echo "make patch: set KSRC=<kernel tree>" >&2; exit 2; }
	scripts/make-patch.py --ksrc "$(KSRC)" --out "$(PATCH_OUT)"

vm-run:
	scripts/build-module.sh --test
	scripts/vm/run.sh

demo:
	scripts/demo.sh

clean:
	scripts/build-module.sh --clean
	rm -rf build
