// SPDX-License-Identifier: GPL-2.0
/*
 * tests/lib/dev.c - find the Arbel in sysfs, its config space, its BARs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "util.h"

unsigned long arbel_sysfs_ulong(const char *path)
{
	char buf[64] = "";
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return ~0UL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] ? strtoul(buf, NULL, 0) : ~0UL;
}

/* the number in the file @name of the device directory @dir */
static unsigned long dev_attr(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return arbel_sysfs_ulong(path);
}

unsigned long arbel_dev_attr(const struct arbel_dev *d, const char *name)
{
	return dev_attr(d->dir, name);
}

static void dev_init(struct arbel_dev *d, const char *bdf)
{
	memset(d, 0, sizeof(*d));
	d->cfg_fd = -1;
	if (snprintf(d->bdf, sizeof(d->bdf), "%s", bdf) >= (int)sizeof(d->bdf))
		arbel_die("PCI address '%s' too long", bdf);
	snprintf(d->dir, sizeof(d->dir), "%s/%s", ARBEL_SYSFS_PCI, d->bdf);
}

static bool dev_is_arbel(const char *dir)
{
	return dev_attr(dir, "vendor") == ARBEL_PCI_VENDOR &&
	       dev_attr(dir, "device") == ARBEL_PCI_DEVICE;
}

static int dev_filter(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

int arbel_dev_lookup(struct arbel_dev *d, const char *bdf_or_NULL)
{
	struct dirent **names;
	bool found = false;
	int i, n;

	if (bdf_or_NULL) {
		dev_init(d, bdf_or_NULL);
		return access(d->dir, F_OK) ? -ENODEV : 0;
	}
	n = scandir(ARBEL_SYSFS_PCI, &names, dev_filter, alphasort);
	if (n < 0)
		return -ENODEV;
	for (i = 0; i < n; i++) {
		if (!found) {
			dev_init(d, names[i]->d_name);
			found = dev_is_arbel(d->dir);
		}
		free(names[i]);
	}
	free(names);
	return found ? 0 : -ENODEV;
}

void arbel_dev_find(struct arbel_dev *d, const char *bdf_or_NULL)
{
	if (arbel_dev_lookup(d, bdf_or_NULL) == 0)
		return;
	if (bdf_or_NULL)
		arbel_die("no PCI device %s", bdf_or_NULL);
	arbel_die("no %04x:%04x device in %s", ARBEL_PCI_VENDOR,
		  ARBEL_PCI_DEVICE, ARBEL_SYSFS_PCI);
}

void arbel_dev_resource(struct arbel_dev *d, int idx, uint64_t *size,
			uint64_t *flags)
{
	char path[512], line[256];
	unsigned long long start, end, fl;
	int i = 0;
	FILE *f;

	*size = 0;
	if (flags)
		*flags = 0;
	snprintf(path, sizeof(path), "%s/resource", d->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (i++ != idx)
			continue;
		if (sscanf(line, "%llx %llx %llx", &start, &end, &fl) == 3) {
			*size = (start || end) ? end - start + 1 : 0;
			if (flags)
				*flags = fl;
		}
		break;
	}
	fclose(f);
}

/* map resource@idx (its path left in @path); NULL with errno on failure */
static void *dev_map_resource(struct arbel_dev *d, int idx, char *path,
			      size_t path_size, uint64_t *size)
{
	void *p;
	int fd, err;

	snprintf(path, path_size, "%s/resource%d", d->dir, idx);
	arbel_dev_resource(d, idx, size, NULL);
	if (!*size) {
		errno = ENODEV;
		return NULL;
	}
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	errno = err;
	return p == MAP_FAILED ? NULL : p;
}

static volatile void *dev_bar_mapped(struct arbel_dev *d, int idx, void *p,
				     uint64_t size, size_t *len)
{
	if (idx == 0) {
		d->bar0 = p;
		d->bar0_len = size;
	}
	if (len)
		*len = size;
	return p;
}

volatile void *arbel_dev_try_map_bar(struct arbel_dev *d, int idx, size_t *len)
{
	char path[512];
	uint64_t size;
	void *p;

	p = dev_map_resource(d, idx, path, sizeof(path), &size);
	return p ? dev_bar_mapped(d, idx, p, size, len) : NULL;
}

volatile void *arbel_dev_map_bar(struct arbel_dev *d, int idx, size_t *len)
{
	char path[512];
	uint64_t size;
	void *p;

	p = dev_map_resource(d, idx, path, sizeof(path), &size);
	if (!p && errno == ENODEV)
		arbel_die("%s has no BAR %d", d->bdf, idx);
	if (!p)
		arbel_die("map %s: %s (iomem=relaxed missing?)", path,
			  strerror(errno));
	return dev_bar_mapped(d, idx, p, size, len);
}

static int dev_cfg_fd(struct arbel_dev *d)
{
	char path[512];

	if (d->cfg_fd >= 0)
		return d->cfg_fd;
	snprintf(path, sizeof(path), "%s/config", d->dir);
	d->cfg_fd = open(path, O_RDWR);
	if (d->cfg_fd < 0)
		d->cfg_fd = open(path, O_RDONLY);
	if (d->cfg_fd < 0)
		arbel_die("open %s: %s", path, strerror(errno));
	return d->cfg_fd;
}

uint16_t arbel_dev_cfg_read16(struct arbel_dev *d, unsigned int off)
{
	uint16_t v;

	if (pread(dev_cfg_fd(d), &v, 2, off) != 2)
		arbel_die("%s: config read at 0x%x: %s", d->bdf, off,
			  strerror(errno));
	return le16toh(v);
}

void arbel_dev_cfg_write16(struct arbel_dev *d, unsigned int off, uint16_t val)
{
	uint16_t v = htole16(val);

	if (pwrite(dev_cfg_fd(d), &v, 2, off) != 2)
		arbel_die("%s: config write at 0x%x: %s", d->bdf, off,
			  strerror(errno));
}

void arbel_dev_set_bus_master(struct arbel_dev *d, bool on)
{
	uint16_t cmd = arbel_dev_cfg_read16(d, ARBEL_PCI_COMMAND);

	cmd |= ARBEL_PCI_CMD_MEMORY;
	if (on)
		cmd |= ARBEL_PCI_CMD_MASTER;
	else
		cmd &= ~ARBEL_PCI_CMD_MASTER;
	arbel_dev_cfg_write16(d, ARBEL_PCI_COMMAND, cmd);
}

int arbel_dev_enable(struct arbel_dev *d)
{
	char path[512];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/enable", d->dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

bool arbel_dev_driver_bound(struct arbel_dev *d)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/driver", d->dir);
	return lstat(path, &st) == 0;
}

void arbel_dev_enable_mem(struct arbel_dev *d)
{
	uint16_t cmd = arbel_dev_cfg_read16(d, ARBEL_PCI_COMMAND);

	if (cmd & ARBEL_PCI_CMD_MEMORY)
		return;
	if (arbel_dev_driver_bound(d))
		arbel_die("memory decoding is off although a driver is bound");
	arbel_dev_cfg_write16(d, ARBEL_PCI_COMMAND, cmd | ARBEL_PCI_CMD_MEMORY);
}

static volatile uint32_t *dev_reg(struct arbel_dev *d, uint32_t off)
{
	if (!d->bar0)
		arbel_die("BAR0 of %s is not mapped", d->bdf);
	if ((off & 3) || (size_t)off + 4 > d->bar0_len)
		arbel_die("BAR0 offset 0x%x unaligned or outside the BAR", off);
	return (volatile uint32_t *)((volatile uint8_t *)d->bar0 + off);
}

uint32_t arbel_be32_read(struct arbel_dev *d, uint32_t off)
{
	return be32toh(*dev_reg(d, off));
}

void arbel_be32_write(struct arbel_dev *d, uint32_t off, uint32_t val)
{
	*dev_reg(d, off) = htobe32(val);
	__sync_synchronize();
}
