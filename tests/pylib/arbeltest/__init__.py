# SPDX-License-Identifier: GPL-2.0
"""Python side of arbel's tests: KTAP, the PRM's MPT layout, the stub.

Modules: ktap (results), prm (the MPT entry decoded from the PRM's struct
text), paths (data files on the host and in the VM).
"""
