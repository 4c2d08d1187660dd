# SPDX-License-Identifier: GPL-2.0
"""Python side of arbel's tests: KTAP, the PRM's MPT layout, the stub.

Modules: ktap (KTAP results: write, parse, relay, nest), prm (the MPT
entry decoded from the PRM's struct text), trace (the stub's command
trace), restrack (`rdma -j res show mr`), dbgwin (the stub's debug window
and translation engine, by mmap), mem (pagemap, buffers on 4 KiB / THP /
hugetlb pages), vmout (what scripts/vm/run.sh leaves), mpt_show (prints
MPT entries field by field), paths (data files on the host and in the
VM).
"""
