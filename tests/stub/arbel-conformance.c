// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance: drive the arbel-stub QEMU device directly from guest
 * user space (no driver) and check it behaves like the firmware the PRM
 * describes (Documentation/arbel-hw.rst) and the stub's documented
 * contract (Documentation/arbel-stub.rst) says.
 *
 * The suites run in order on one device, each building on the state the
 * one before left (conformance.h).  Output is KTAP (tests/lib/ktap.h), one
 * result per check; tests/stub/judge.py judges it with the stub's trace.
 * Exit status 0 if every check passed, 1 if one failed, 2 if the test
 * could not run (it then ends with "Bail out!").
 *
 * Usage: arbel-conformance [-v] [--node-guid G] [--port-guid G] [BDF]
 *        arbel-conformance --prop-fault EVERY STATUS [BDF]
 *            checks a stub started with fail-opcode=0x31 (NOP),
 *            fail-status=STATUS, fail-every=EVERY as device properties
 */
#include <stdio.h>
#include <string.h>

#include "conformance.h"

int main(int argc, char **argv)
{
	uint64_t node_guid = 0, port_guid = 0;
	unsigned int pf_every = 0, pf_status = 0;
	const char *bdf = NULL;
	bool verbose = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--node-guid") && i + 1 < argc) {
			node_guid = arbel_parse_num(argv[++i], "node GUID");
		} else if (!strcmp(argv[i], "--port-guid") && i + 1 < argc) {
			port_guid = arbel_parse_num(argv[++i], "port GUID");
		} else if (!strcmp(argv[i], "--prop-fault") && i + 2 < argc) {
			pf_every = arbel_parse_num(argv[i + 1], "fail-every");
			pf_status = arbel_parse_num(argv[i + 2], "fail-status");
			i += 2;
			if (!pf_every)
				arbel_die("--prop-fault: EVERY must be > 0");
		} else if (argv[i][0] == '-') {
			arbel_die("unknown option '%s'", argv[i]);
		} else {
			bdf = argv[i];
		}
	}
	ktap_print_header();
	conformance_init(bdf, verbose);

	if (pf_every) {
		suite_prop_faults(pf_every, pf_status);
		ktap_finished();
	}
	suite_identity();
	suite_doorbell();
	suite_pre_run();
	suite_bring_up();
	suite_mpt();
	suite_mtt();
	suite_xlate();
	suite_ownership();
	suite_eq();
	suite_cq();
	suite_srq();
	suite_mcg();
	suite_qp();
	suite_ports();
	suite_send();
	suite_rdma();
	suite_mad(node_guid, port_guid);
	suite_faults();
	suite_teardown();
	suite_reset();
	reset_device();
	ktap_finished();
}
