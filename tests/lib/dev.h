/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/lib/dev.h - the Arbel PCI function as user space reaches it:
 * found in sysfs, its config space through the "config" file, its BARs
 * mapped through "resourceN", BAR0's big-endian registers.
 *
 * Mapping a BAR that a driver holds needs the guest's iomem=relaxed (the
 * test VM boots with it).  Nothing here touches the HCR or the reset
 * register on its own.
 */
#ifndef ARBEL_TESTS_DEV_H
#define ARBEL_TESTS_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARBEL_PCI_VENDOR	0x15b3	/* Mellanox */
#define ARBEL_PCI_DEVICE	0x6282	/* InfiniHost III Ex, mem-free */
#define ARBEL_BAR0_SIZE		(1u << 20)

/*
 * BAR0 registers user space may touch (Documentation/arbel-stub.rst,
 * "BAR0"): the HCR, seven big-endian dwords, the last of which holds the
 * go bit, and the reset register.
 */
#define ARBEL_HCR_BASE		0x80680
#define ARBEL_HCR_CTRL		(ARBEL_HCR_BASE + 0x18)	/* dword 6 */
#define ARBEL_HCR_GO		(1u << 23)
#define ARBEL_HCR_E		(1u << 22)	/* event: completion by EQE */
#define ARBEL_RESET_REG		0xf0010
#define ARBEL_RESET_VALUE	1

/* PCI command register (config offset 4) and its bits */
#define ARBEL_PCI_COMMAND	0x04
#define ARBEL_PCI_CMD_MEMORY	0x0002
#define ARBEL_PCI_CMD_MASTER	0x0004

#define ARBEL_SYSFS_PCI		"/sys/bus/pci/devices"

struct arbel_dev {
	char bdf[32];		/* e.g. "0000:00:03.0" */
	char dir[256];		/* /sys/bus/pci/devices/<bdf> */
	volatile void *bar0;	/* set by arbel_dev_map_bar(d, 0, ...) */
	size_t bar0_len;
	int cfg_fd;		/* <dir>/config, opened on first use */
};

/**
 * arbel_dev_find() - find the Arbel PCI function, or die
 * @d: filled in (nothing mapped yet)
 * @bdf_or_NULL: a PCI address ("0000:00:03.0"), or NULL for the first
 *	15b3:6282 function in address order
 */
void arbel_dev_find(struct arbel_dev *d, const char *bdf_or_NULL);

/**
 * arbel_dev_lookup() - arbel_dev_find() that returns instead of dying
 * @d: filled in if found
 * @bdf_or_NULL: as for arbel_dev_find()
 *
 * Return: 0, or -ENODEV.
 */
int arbel_dev_lookup(struct arbel_dev *d, const char *bdf_or_NULL);

/**
 * arbel_dev_try_map_bar() - arbel_dev_map_bar() that returns NULL on failure
 * @d: the device
 * @idx: BAR number
 * @len: set to the mapped length, may be NULL
 *
 * Return: the mapping, or NULL with errno set.
 */
volatile void *arbel_dev_try_map_bar(struct arbel_dev *d, int idx, size_t *len);

/**
 * arbel_dev_map_bar() - map BAR @idx through sysfs resource@idx, or die
 * @d: the device
 * @idx: BAR number (0, 2, ...)
 * @len: set to the mapped length (the BAR's size), may be NULL
 *
 * BAR0 is also kept in @d for arbel_be32_read()/arbel_be32_write().  The
 * BAR is only reachable while memory decoding is on (see
 * arbel_dev_enable_mem()).
 *
 * Return: the mapping.
 */
volatile void *arbel_dev_map_bar(struct arbel_dev *d, int idx, size_t *len);

/**
 * arbel_dev_resource() - size and flags of resource @idx (sysfs "resource")
 * @d: the device
 * @idx: line of the "resource" file (0..5 are the BARs)
 * @size: set to the size, 0 if the resource is unused or unreadable
 * @flags: set to the flags column (IORESOURCE_*), may be NULL
 */
void arbel_dev_resource(struct arbel_dev *d, int idx, uint64_t *size,
			uint64_t *flags);

/**
 * arbel_dev_cfg_read16() - read a little-endian 16-bit config register
 * @d: the device
 * @off: byte offset in config space
 *
 * Dies if the config file cannot be read.
 */
uint16_t arbel_dev_cfg_read16(struct arbel_dev *d, unsigned int off);

/**
 * arbel_dev_cfg_write16() - write a 16-bit config register, or die
 * @d: the device
 * @off: byte offset in config space
 * @val: the value
 */
void arbel_dev_cfg_write16(struct arbel_dev *d, unsigned int off, uint16_t val);

/**
 * arbel_dev_set_bus_master() - memory decoding on, bus mastering @on
 * @d: the device
 * @on: turn bus mastering (the device's DMA) on or off
 */
void arbel_dev_set_bus_master(struct arbel_dev *d, bool on);

/**
 * arbel_dev_enable_mem() - make sure memory decoding is on, or die
 * @d: the device
 *
 * The firmware leaves it on and a driver's pci_disable_device() does not
 * clear it.  If it is off it turns on only that bit through the config
 * file, never through sysfs "enable" (that would leave an enable count
 * behind).  Off while a driver is bound is an error.
 */
void arbel_dev_enable_mem(struct arbel_dev *d);

/**
 * arbel_dev_enable() - write 1 to sysfs "enable" (pci_enable_device())
 * @d: the device, with no driver bound
 *
 * For programs that drive the device themselves.  The kernel keeps an
 * enable count: this is not undone on exit.
 *
 * Return: 0, or a negative errno (the caller decides if that matters).
 */
int arbel_dev_enable(struct arbel_dev *d);

/**
 * arbel_dev_driver_bound() - whether a driver is bound to the device
 * @d: the device
 */
bool arbel_dev_driver_bound(struct arbel_dev *d);

/**
 * arbel_dev_attr() - the number in one of the device's sysfs files
 * @d: the device
 * @name: the file in its sysfs directory ("vendor", "class", ...)
 *
 * Return: as arbel_sysfs_ulong().
 */
unsigned long arbel_dev_attr(const struct arbel_dev *d, const char *name);

/**
 * arbel_sysfs_ulong() - the number in a sysfs (or debugfs, procfs) file
 * @path: the file
 *
 * Return: its first line read with strtoul base 0 ("0x15b3", "42"), or
 * ~0UL if the file cannot be read.
 */
unsigned long arbel_sysfs_ulong(const char *path);

/**
 * arbel_be32_read() - read a big-endian 32-bit register of BAR0
 * @d: the device, BAR0 mapped
 * @off: byte offset in BAR0, 4-byte aligned
 */
uint32_t arbel_be32_read(struct arbel_dev *d, uint32_t off);

/**
 * arbel_be32_write() - write a big-endian 32-bit register of BAR0
 * @d: the device, BAR0 mapped
 * @off: byte offset in BAR0, 4-byte aligned
 * @val: the value
 *
 * The write is ordered before any later access (a full barrier).
 */
void arbel_be32_write(struct arbel_dev *d, uint32_t off, uint32_t val);

#endif /* ARBEL_TESTS_DEV_H */
