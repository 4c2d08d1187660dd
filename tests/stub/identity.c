// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "identity": what the PCI function shows before
 * any command -- IDs, class, BARs, the debug window -- and a doorbell rung
 * on a UAR page, which the stub traces (trace_checks.py, "doorbell").
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>

#include "conformance.h"

#define RES_MEM_64	0x00100000	/* IORESOURCE_MEM_64 */
/*
 * a send doorbell (offset 0x10, Documentation/arbel-stub.rst "Queue
 * objects") on UAR page 1
 */
#define DB_UAR		1
#define DB_SEND		0x10
#define DB_VALUE	0x0000000a00000101ull

void suite_identity(void)
{
	uint64_t size, flags;

	ktap_print_msg("suite: identity");
	ktap_test_check(arbel_dev_attr(dev, "vendor") == ARBEL_PCI_VENDOR &&
			arbel_dev_attr(dev, "device") == ARBEL_PCI_DEVICE,
			"pci ids 15b3:6282", "%04lx:%04lx",
			arbel_dev_attr(dev, "vendor"), arbel_dev_attr(dev, "device"));
	ktap_test_check((arbel_dev_attr(dev, "class") >> 8) == 0x0c06,
			"class InfiniBand 0x0c06", "class 0x%06lx",
			arbel_dev_attr(dev, "class"));
	arbel_dev_resource(dev, 0, &size, &flags);
	ktap_test_check(size == ARBEL_BAR0_SIZE && (flags & RES_MEM_64),
			"BAR0 64-bit 1 MiB", "size 0x%" PRIx64 " flags 0x%"
			PRIx64, size, flags);
	arbel_dev_resource(dev, 2, &size, &flags);
	ktap_test_check(size >= (8u << 20) && (flags & RES_MEM_64),
			"BAR2 64-bit UAR", "size 0x%" PRIx64 " flags 0x%"
			PRIx64, size, flags);
	arbel_dev_resource(dev, 4, &size, &flags);
	ktap_test_check(size == 0, "no BAR4 (DDR hidden)", "size 0x%" PRIx64,
			size);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_ID) == ARBEL_DBG_ID_VALUE,
			"debug window id 'ARBD'", "0x%08x",
			arbel_dbg_read(dev, ARBEL_DBG_ID));
}

/* one 64-bit big-endian store, as mthca_write64() rings a doorbell */
void suite_doorbell(void)
{
	volatile uint8_t *uar;
	size_t len;

	ktap_print_msg("suite: doorbell");
	uar = arbel_dev_map_bar(dev, 2, &len);
	*(volatile uint64_t *)(uar + DB_UAR * 4096 + DB_SEND) =
		htobe64(DB_VALUE);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_ID) == ARBEL_DBG_ID_VALUE,
			"UAR doorbell accepted, device still answers", "0x%08x",
			arbel_dbg_read(dev, ARBEL_DBG_ID));
}
