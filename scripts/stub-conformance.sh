#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The arbel-stub conformance suite (tests/stub/run.sh): builds QEMU with the
# stub (cached) and the guest program, boots the VM and checks the
# emulated firmware.  Its last line is "conformance: N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/stub/run.sh"
