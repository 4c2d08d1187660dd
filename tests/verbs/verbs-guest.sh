#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of tests/verbs/run.sh: runs in the test VM (arbel.ko loaded)
# and prints each step's output between "=== NAME ===" and
# "=== end NAME rc=N ===" lines; the host side judges them.
#
#   verbs-guest.sh [ARGS for arbel-verbs-test]
#
# Steps: hugepages, ibv_devices, ibv_devinfo -v, rdma dev, the C test,
# rdma-core's pyverbs tests (if /opt/rdma-core/tests exists: VM_PYTHON=1),
# rdma res show after everything.

# shellcheck disable=SC2317 # functions called through section

section() {
	local name=$1 rc
	shift
	echo "=== $name ==="
	"$@" 2>&1
	rc=$?
	echo "=== end $name rc=$rc ==="
}

hugepages() {
	if ! grep -q '^HugePages_Total' /proc/meminfo; then
		echo "no hugetlbfs in this kernel"
		return 0
	fi
	echo "${NR_HUGEPAGES:-80}" >/proc/sys/vm/nr_hugepages
	grep -E '^(HugePages_Total|HugePages_Free|Hugepagesize)' /proc/meminfo
	cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
}

pyverbs() {
	cd /opt/rdma-core || return 1
	python3 tests/run_tests.py -v test_device test_pd
}

section hugepages hugepages
section ibv_devices ibv_devices
section ibv_devinfo ibv_devinfo -v
section rdma-dev rdma dev
section verbs-test arbel-verbs-test "$@"
if [ -d /opt/rdma-core/tests ]; then
	section pyverbs pyverbs
fi
section rdma-res rdma res show
exit 0
