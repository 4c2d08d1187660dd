// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance: drive the arbel-stub QEMU device directly from guest
 * user space (no driver) and check it behaves like the firmware described
 * in the project's PRM notes.
 *
 * The device is found in sysfs by 15b3:6282; BAR0 is mapped through
 * resource0; DMA memory is mlock'ed anonymous pages whose physical
 * addresses come from /proc/self/pagemap.  Expected values come from the
 * PRM notes (opcodes, offsets, status codes) and from the stub's documented
 * contract (Documentation/arbel-stub.rst), never from the stub itself.
 *
 * Output: "ok N - name" / "not ok N - name: detail", then
 * "conformance: N passed, N failed".  Exit status 1 on any failure.
 *
 * Usage: arbel-conformance [-v] [--node-guid G --port-guid G] [BDF]
 *        arbel-conformance --prop-fault EVERY STATUS [BDF]
 *            checks a stub started with fail-opcode=0x31 (NOP),
 *            fail-status=STATUS, fail-every=EVERY as device properties
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- device facts (PRM notes) ---- */
#define VENDOR_ID		0x15b3
#define DEVICE_ID		0x6282
#define BAR0_SIZE		(1u << 20)
#define HCR_BASE		0x80680
#define RESET_REG		0xf0010
#define HCR_GO			(1u << 23)
#define HCR_E			(1u << 22)

#define OP_QUERY_DEV_LIM	0x003
#define OP_QUERY_FW		0x004
#define OP_QUERY_ADAPTER	0x006
#define OP_INIT_HCA		0x007
#define OP_CLOSE_HCA		0x008
#define OP_SW2HW_MPT		0x00d
#define OP_QUERY_MPT		0x00e
#define OP_HW2SW_MPT		0x00f
#define OP_READ_MTT		0x010
#define OP_WRITE_MTT		0x011
#define OP_MAD_IFC		0x024
#define OP_SYNC_TPT		0x02f
#define OP_NOP			0x031
#define OP_RUN_FW		0xff6
#define OP_ENABLE_LAM		0xff8
#define OP_UNMAP_ICM		0xff9
#define OP_MAP_ICM		0xffa
#define OP_UNMAP_ICM_AUX	0xffb
#define OP_MAP_ICM_AUX		0xffc
#define OP_SET_ICM_SIZE		0xffd
#define OP_UNMAP_FA		0xffe
#define OP_MAP_FA		0xfff

#define ST_OK			0x00
#define ST_INTERNAL_ERR		0x01
#define ST_BAD_OP		0x02
#define ST_BAD_PARAM		0x03
#define ST_BAD_SYS_STATE	0x04
#define ST_BAD_RESOURCE		0x05
#define ST_RESOURCE_BUSY	0x06
#define ST_BAD_RES_STATE	0x09
#define ST_BAD_INDEX		0x0a
#define ST_REG_BOUND		0x21
#define ST_LAM_NOT_PRE		0x22
#define ST_TIMEOUT		0x100

/* MPT dword 0 bits (arbelprm_mpt_st) */
#define MPT_RW			(1u << 8)
#define MPT_PA			(1u << 9)
#define MPT_LR			(1u << 10)
#define MPT_LW			(1u << 11)
#define MPT_RR			(1u << 12)
#define MPT_RWR			(1u << 13)
#define MPT_A			(1u << 14)
#define MPT_SW_OWNS		(0xfu << 28)
#define MPT_ZB			(1u << 26)	/* dword 3 */

/* ---- debug window (Documentation/arbel-stub.rst) ---- */
#define DBG			0xc0000
#define DBG_ID			(DBG + 0x000)
#define DBG_FW_STATE		(DBG + 0x008)
#define DBG_ICM_PAGES		(DBG + 0x010)
#define DBG_FA_PAGES		(DBG + 0x014)
#define DBG_AUX_PAGES		(DBG + 0x018)
#define DBG_HW_MPTS		(DBG + 0x01c)
#define DBG_MTT_END_LO		(DBG + 0x044)
#define XL_KEY			(DBG + 0x100)
#define XL_ACCESS		(DBG + 0x104)
#define XL_VA_HI		(DBG + 0x108)
#define XL_VA_LO		(DBG + 0x10c)
#define XL_LEN			(DBG + 0x110)
#define XL_DIR			(DBG + 0x114)
#define XL_BUF_HI		(DBG + 0x118)
#define XL_BUF_LO		(DBG + 0x11c)
#define XL_GO			(DBG + 0x120)
#define XL_RESULT		(DBG + 0x124)
#define XL_PA_HI		(DBG + 0x128)
#define XL_PA_LO		(DBG + 0x12c)
#define XL_INDEX		(DBG + 0x130)
#define FI_FAIL_OPCODE		(DBG + 0x200)
#define FI_FAIL_STATUS		(DBG + 0x204)
#define FI_FAIL_EVERY		(DBG + 0x208)
#define FI_FAILED		(DBG + 0x20c)
#define FI_HOLD_MS		(DBG + 0x210)
#define FI_HOLD_OPCODE		(DBG + 0x214)
#define FI_CORRUPT_OPCODE	(DBG + 0x220)
#define FI_CORRUPT_OFFSET	(DBG + 0x224)
#define FI_CORRUPT_LEN		(DBG + 0x228)
#define FI_CORRUPT_EVERY	(DBG + 0x22c)
#define FI_CLEAR		(DBG + 0x23c)

#define XL_ACC_LOCAL_READ	1
#define XL_ACC_LOCAL_WRITE	2
#define XL_ACC_REMOTE_READ	3
#define XL_ACC_REMOTE_WRITE	4
#define XL_ACC_ATOMIC		5

#define XL_OK			0
#define XL_NOT_RUNNING		1
#define XL_MPT_UNMAPPED		3
#define XL_SW_OWNED		4
#define XL_KEY_MISMATCH		5
#define XL_ACCESS_DENIED	7
#define XL_RANGE		8
#define XL_MTT_NOT_PRESENT	11

/* ---- the ICM layout this test uses ---- */
#define LOG_MPT			8		/* 256 MPTs, 16 KiB */
#define NUM_MPT			(1u << LOG_MPT)
#define RSVD_MPT		16		/* 2^4, from the notes */
#define RSVD_MTT		16		/* 2^4 entries, QUERY_DEV_LIM */
#define MPT_BASE		0x0ULL		/* 4 pages; page 3 left unmapped */
#define MTT_BASE		0x8000ULL	/* not at 0: absolute addressing */
#define EQC_BASE		0x10000ULL	/* ends the MTT area */
#define ICM_SIZE		0x20000ULL
#define MTT_MAPPED_PAGES	2		/* 0x8000, 0x9000; 0xa000 unmapped */

#define PAGE			4096u
#define POOL_PAGES		384

static volatile uint8_t *bar0;
static char devdir[512];
static int verbose;
static uint64_t want_node_guid, want_port_guid;
static int passed, failed, checkno;

struct page {
	uint8_t *va;
	uint64_t pa;
};

static struct page pool[POOL_PAGES];
static int pool_next;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "arbel-conformance: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	printf("conformance: %d passed, %d failed\n", passed, failed + 1);
	exit(1);
}

static void check(bool cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	checkno++;
	if (cond) {
		passed++;
		printf("ok %d - %s\n", checkno, name);
		return;
	}
	failed++;
	printf("not ok %d - %s: ", checkno, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- register access: big-endian 32-bit ---- */
static uint32_t rd(uint32_t off)
{
	return be32toh(*(volatile uint32_t *)(bar0 + off));
}

static void wr(uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(bar0 + off) = htobe32(val);
	__sync_synchronize();
}

/* ---- sysfs ---- */
static unsigned long sysfs_ulong(const char *file)
{
	char path[600], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", devdir, file);
	f = fopen(path, "r");
	if (!f)
		return ~0UL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoul(buf, NULL, 0);
}

static void find_device(const char *bdf)
{
	DIR *d;
	struct dirent *e;

	if (bdf) {
		snprintf(devdir, sizeof(devdir), "/sys/bus/pci/devices/%s", bdf);
		return;
	}
	d = opendir("/sys/bus/pci/devices");
	if (!d)
		die("cannot open /sys/bus/pci/devices: %s", strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(devdir, sizeof(devdir), "/sys/bus/pci/devices/%s",
			 e->d_name);
		if (sysfs_ulong("vendor") == VENDOR_ID &&
		    sysfs_ulong("device") == DEVICE_ID) {
			closedir(d);
			return;
		}
	}
	closedir(d);
	die("no %04x:%04x device found", VENDOR_ID, DEVICE_ID);
}

static int cfg_fd = -1;

static uint16_t cfg_read16(unsigned int off)
{
	uint16_t v = 0;

	if (pread(cfg_fd, &v, 2, off) != 2)
		die("config read: %s", strerror(errno));
	return le16toh(v);
}

static void cfg_write16(unsigned int off, uint16_t val)
{
	uint16_t v = htole16(val);

	if (pwrite(cfg_fd, &v, 2, off) != 2)
		die("config write: %s", strerror(errno));
}

static void set_bus_master(bool on)
{
	uint16_t cmd = cfg_read16(4);

	cmd |= 0x2;	/* memory space */
	if (on)
		cmd |= 0x4;
	else
		cmd &= ~0x4;
	cfg_write16(4, cmd);
}

/* size and flags of resource i from the sysfs "resource" file */
static void resource_info(int idx, uint64_t *size, uint64_t *flags)
{
	char path[600], line[256];
	FILE *f;
	int i = 0;

	*size = 0;
	*flags = 0;
	snprintf(path, sizeof(path), "%s/resource", devdir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, fl;

		if (i++ != idx)
			continue;
		if (sscanf(line, "%llx %llx %llx", &s, &e, &fl) == 3) {
			*size = (s || e) ? e - s + 1 : 0;
			*flags = fl;
		}
	}
	fclose(f);
}

static void map_bar0(void)
{
	char path[600];
	int fd;

	snprintf(path, sizeof(path), "%s/enable", devdir);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) != 1 && verbose)
			fprintf(stderr, "enable: %s\n", strerror(errno));
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/config", devdir);
	cfg_fd = open(path, O_RDWR);
	if (cfg_fd < 0)
		die("open %s: %s", path, strerror(errno));
	set_bus_master(true);

	snprintf(path, sizeof(path), "%s/resource0", devdir);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	bar0 = mmap(NULL, BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (bar0 == MAP_FAILED)
		die("mmap resource0: %s", strerror(errno));
	close(fd);
}

/* ---- DMA memory: locked pages with their physical addresses ---- */
static void pool_init(void)
{
	uint8_t *mem;
	int fd, i;

	mem = mmap(NULL, (size_t)POOL_PAGES * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap pool: %s", strerror(errno));
	if (mlock(mem, (size_t)POOL_PAGES * PAGE))
		die("mlock: %s", strerror(errno));
	memset(mem, 0, (size_t)POOL_PAGES * PAGE);
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		die("open pagemap: %s", strerror(errno));
	for (i = 0; i < POOL_PAGES; i++) {
		uint64_t ent;
		uintptr_t va = (uintptr_t)(mem + (size_t)i * PAGE);

		if (pread(fd, &ent, 8, (off_t)(va / PAGE) * 8) != 8)
			die("pagemap read: %s", strerror(errno));
		if (!(ent & (1ULL << 63)) || !(ent & ((1ULL << 55) - 1)))
			die("page %d not present or PFN hidden (need root)", i);
		pool[i].va = mem + (size_t)i * PAGE;
		pool[i].pa = (ent & ((1ULL << 55) - 1)) * PAGE;
	}
	close(fd);
}

static struct page *page_alloc(void)
{
	if (pool_next >= POOL_PAGES)
		die("out of DMA pages");
	memset(pool[pool_next].va, 0, PAGE);
	return &pool[pool_next++];
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return be16toh(v);
}

/* ---- HCR ---- */
static void hcr_post(uint16_t op, uint8_t op_mod, uint64_t in_param,
		     uint32_t in_mod, uint64_t out_param, bool e)
{
	wr(HCR_BASE + 0x00, in_param >> 32);
	wr(HCR_BASE + 0x04, (uint32_t)in_param);
	wr(HCR_BASE + 0x08, in_mod);
	wr(HCR_BASE + 0x0c, out_param >> 32);
	wr(HCR_BASE + 0x10, (uint32_t)out_param);
	wr(HCR_BASE + 0x14, 0xffffu << 16);
	wr(HCR_BASE + 0x18, HCR_GO | (e ? HCR_E : 0) |
	   ((uint32_t)op_mod << 12) | op);
}

static bool hcr_wait(unsigned int timeout_ms)
{
	uint64_t end = now_ms() + timeout_ms;

	while (rd(HCR_BASE + 0x18) & HCR_GO) {
		if (now_ms() > end)
			return false;
		usleep(200);
	}
	return true;
}

static unsigned int cmd_full(uint16_t op, uint8_t op_mod, uint64_t in_param,
			     uint32_t in_mod, uint64_t out_param, bool e,
			     uint64_t *imm)
{
	hcr_post(op, op_mod, in_param, in_mod, out_param, e);
	if (!hcr_wait(5000))
		return ST_TIMEOUT;
	if (imm)
		*imm = ((uint64_t)rd(HCR_BASE + 0x0c) << 32) |
		       rd(HCR_BASE + 0x10);
	return rd(HCR_BASE + 0x18) >> 24;
}

static unsigned int cmd(uint16_t op, uint8_t op_mod, uint64_t in_param,
			uint32_t in_mod, uint64_t out_param)
{
	return cmd_full(op, op_mod, in_param, in_mod, out_param, false, NULL);
}

static void CHECK_ST(unsigned int got, unsigned int want, const char *name)
{
	check(got == want, name, "status 0x%02x, expected 0x%02x", got, want);
}

/* ---- state shared by the tests ---- */
static struct page *inbox, *outbox;
static uint32_t fw_pages;
static uint64_t aux_pages;
static struct page *icm_mpt[4], *icm_mtt[MTT_MAPPED_PAGES];

static void reset_device(void)
{
	wr(RESET_REG, 1);
	msleep(10);
}

/* MAP_FA / MAP_ICM_AUX / MAP_ICM of single pages */
static unsigned int map_pages(uint16_t op, struct page **pages, int n,
			      uint64_t icm_va)
{
	int i;

	memset(inbox->va, 0, PAGE);
	for (i = 0; i < n; i++) {
		put64(inbox->va + 16 * i, op == OP_MAP_ICM ?
		      icm_va + (uint64_t)i * PAGE : 0);
		put64(inbox->va + 16 * i + 8, pages[i]->pa);	/* log2 0 */
	}
	return cmd(op, 0, inbox->pa, n, 0);
}

static unsigned int map_fa(void)
{
	struct page *pg[256];
	uint32_t i;

	for (i = 0; i < fw_pages && i < 256; i++)
		pg[i] = page_alloc();
	return map_pages(OP_MAP_FA, pg, fw_pages, 0);
}

static void init_hca_mbox(uint8_t *m, uint64_t mpt_base, unsigned int log_mpt,
			  uint64_t mtt_base)
{
	memset(m, 0, 0x200);
	put64(m + 0x80, EQC_BASE);	/* EQC base, log 0 */
	put64(m + 0xf0, mpt_base);
	m[0xfb] = log_mpt;
	put64(m + 0x100, mtt_base);
}

static void mpt_build(uint8_t *e, uint32_t flags, uint32_t page_size,
		      uint32_t key, uint32_t pd, uint64_t start, uint64_t len,
		      uint64_t mtt)
{
	memset(e, 0, 64);
	put32(e + 0, MPT_SW_OWNS | MPT_RW | flags);
	put32(e + 4, page_size);
	put32(e + 8, key);
	put32(e + 12, pd);
	put64(e + 16, start);
	put64(e + 24, len);
	put32(e + 44, (uint32_t)(mtt >> 32) & 0x3f);
	put32(e + 48, (uint32_t)mtt);
}

static unsigned int sw2hw(uint32_t index, const uint8_t *entry)
{
	memcpy(inbox->va, entry, 64);
	return cmd(OP_SW2HW_MPT, 0, inbox->pa, index, 0);
}

/* guest-memory view of ICM: MPT slot */
static uint8_t *icm_mpt_slot(uint32_t index)
{
	uint64_t va = MPT_BASE + (uint64_t)index * 64;

	return icm_mpt[va / PAGE]->va + va % PAGE;
}

static uint8_t *icm_mtt_entry(uint64_t icm_va)
{
	uint64_t off = icm_va - MTT_BASE;

	return icm_mtt[off / PAGE]->va + off % PAGE;
}

static unsigned int write_mtt(uint64_t target, const uint64_t *ents, int n)
{
	int i;

	memset(inbox->va, 0, PAGE);
	put64(inbox->va, target);
	for (i = 0; i < n; i++)
		put64(inbox->va + 16 + 8 * i, ents[i]);
	return cmd(OP_WRITE_MTT, 0, inbox->pa, n, 0);
}

/* key for slot index with tag t (hw form index | t << LOG_MPT) */
static uint32_t hw_key(uint32_t index, uint32_t tag)
{
	return index | (tag << LOG_MPT);
}

static uint32_t lkey_of(uint32_t hw)
{
	return (hw << 8) | (hw >> 24);
}

static unsigned int xlate(uint32_t key, unsigned int acc, uint64_t va,
			  uint32_t len, unsigned int dir, uint64_t buf)
{
	wr(XL_KEY, key);
	wr(XL_ACCESS, acc);
	wr(XL_VA_HI, va >> 32);
	wr(XL_VA_LO, (uint32_t)va);
	wr(XL_LEN, len);
	wr(XL_DIR, dir);
	wr(XL_BUF_HI, buf >> 32);
	wr(XL_BUF_LO, (uint32_t)buf);
	wr(XL_GO, 1);
	return rd(XL_RESULT);
}

/* ================================================================== */

static void test_identity(void)
{
	uint64_t size, flags;

	check(sysfs_ulong("vendor") == VENDOR_ID &&
	      sysfs_ulong("device") == DEVICE_ID, "pci ids 15b3:6282",
	      "%04lx:%04lx", sysfs_ulong("vendor"), sysfs_ulong("device"));
	check((sysfs_ulong("class") >> 8) == 0x0c06, "class InfiniBand 0x0c06",
	      "class 0x%06lx", sysfs_ulong("class"));
	resource_info(0, &size, &flags);
	check(size == BAR0_SIZE && (flags & 0x00100000), "BAR0 64-bit 1 MiB",
	      "size 0x%" PRIx64 " flags 0x%" PRIx64, size, flags);
	resource_info(2, &size, &flags);
	check(size >= (8u << 20) && (flags & 0x00100000), "BAR2 64-bit UAR",
	      "size 0x%" PRIx64 " flags 0x%" PRIx64, size, flags);
	resource_info(4, &size, &flags);
	check(size == 0, "no BAR4 (DDR hidden)", "size 0x%" PRIx64, size);
	check(rd(DBG_ID) == 0x41524244, "debug window id 'ARBD'", "0x%08x",
	      rd(DBG_ID));
}

static void test_pre_run(void)
{
	unsigned int st;
	uint8_t *o = outbox->va;

	reset_device();
	check(rd(DBG_FW_STATE) == 0 && !(rd(HCR_BASE + 0x18) & HCR_GO),
	      "after reset: firmware not running, go clear", "state %u",
	      rd(DBG_FW_STATE));
	CHECK_ST(cmd(OP_NOP, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		 "NOP before RUN_FW -> bad system state");
	CHECK_ST(cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa), ST_BAD_SYS_STATE,
		 "QUERY_DEV_LIM before RUN_FW -> bad system state");
	CHECK_ST(cmd(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0), ST_BAD_SYS_STATE,
		 "SET_ICM_SIZE before RUN_FW -> bad system state");

	memset(o, 0xee, PAGE);
	st = cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	fw_pages = get16(o + 0x00);
	check(st == ST_OK && get16(o + 0x02) == 5 && get16(o + 0x06) == 3 &&
	      get16(o + 0x04) == 0,
	      "QUERY_FW: version 5.3.0 (major 0x02, subminor 0x04, minor 0x06)",
	      "status 0x%02x, %u.%u.%u", st, get16(o + 2), get16(o + 6),
	      get16(o + 4));
	check(fw_pages > 0 && fw_pages <= 256, "QUERY_FW: fw_pages at 0x00",
	      "fw_pages %u", fw_pages);
	check(o[0x0f] > 0 && o[0x0f] < 16, "QUERY_FW: log max cmds at 0x0f",
	      "0x%02x", o[0x0f]);
	check((get64(o + 0x20) & (BAR0_SIZE - 1)) != HCR_BASE &&
	      get64(o + 0x40) && get64(o + 0x48),
	      "QUERY_FW: clr_int / eq_arm / eq_set_ci bases", "%" PRIx64
	      " %" PRIx64 " %" PRIx64, get64(o + 0x20), get64(o + 0x40),
	      get64(o + 0x48));

	CHECK_ST(cmd(OP_ENABLE_LAM, 0, 0, 0, outbox->pa), ST_LAM_NOT_PRE,
		 "ENABLE_LAM -> 0x22 no local memory");
	CHECK_ST(cmd(0x7fe, 0, 0, 0, 0), ST_BAD_OP,
		 "unknown opcode -> bad opcode");
	CHECK_ST(cmd_full(OP_QUERY_FW, 0, 0, 0, outbox->pa, true, NULL),
		 ST_BAD_PARAM, "e bit set (no EQs) -> bad parameter");
	CHECK_ST(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		 "RUN_FW before MAP_FA -> bad system state");
	CHECK_ST(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa + 0x10), ST_BAD_PARAM,
		 "misaligned outbox -> bad parameter");
	CHECK_ST(cmd(OP_MAP_FA, 0, 0, 1, 0), ST_BAD_PARAM,
		 "MAP_FA with null mailbox -> bad parameter");

	/* a 2-page chunk (log2size 1) at an address not 8 KiB aligned */
	{
		struct page *p = page_alloc();
		uint64_t pa = p->pa | 0x1000;

		memset(inbox->va, 0, PAGE);
		put64(inbox->va + 8, (pa & ~0x1fffULL) + 0x1000 + 1);
		CHECK_ST(cmd(OP_MAP_FA, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
			 "MAP_FA chunk not aligned to its size -> bad parameter");
	}
	set_bus_master(false);
	st = cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	set_bus_master(true);
	CHECK_ST(st, ST_INTERNAL_ERR,
		 "bus mastering off: mailbox command -> internal error");
	check(rd(DBG_FA_PAGES) == 0, "refused MAP_FA maps nothing", "%u pages",
	      rd(DBG_FA_PAGES));
}

static void test_bring_up(void)
{
	uint8_t *o = outbox->va;
	struct page *pg[8];
	unsigned int st, i;
	uint64_t imm = 0;

	CHECK_ST(map_fa(), ST_OK, "MAP_FA fw_pages single pages");
	check(rd(DBG_FA_PAGES) == fw_pages, "FA page counter",
	      "%u, expected %u", rd(DBG_FA_PAGES), fw_pages);
	CHECK_ST(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_OK, "RUN_FW");
	check(rd(DBG_FW_STATE) == 1, "state running", "%u", rd(DBG_FW_STATE));
	CHECK_ST(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		 "RUN_FW twice -> bad system state");
	pg[0] = page_alloc();
	CHECK_ST(map_pages(OP_MAP_FA, pg, 1, 0), ST_BAD_SYS_STATE,
		 "MAP_FA while running -> bad system state");
	CHECK_ST(cmd(OP_NOP, 0, 0, 0, 0), ST_OK, "NOP");

	memset(o, 0, PAGE);
	st = cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa);
	CHECK_ST(st, ST_OK, "QUERY_DEV_LIM");
	check((o[0x1d] & 0x3f) == 17, "DEV_LIM log max MPT (0x1d) = 17",
	      "%u", o[0x1d] & 0x3f);
	check((o[0x22] & 0xf) == 4, "DEV_LIM log rsvd MPT (0x22) = 4", "%u",
	      o[0x22] & 0xf);
	check((1u << (o[0x20] >> 4)) == RSVD_MTT,
	      "DEV_LIM log rsvd MTT (0x20 high nibble) = 4", "%u",
	      o[0x20] >> 4);
	check(get16(o + 0x92) == 64 && get16(o + 0x90) == 8,
	      "DEV_LIM MPT entry 64 (0x92), MTT entry 8 (0x90)", "%u %u",
	      get16(o + 0x92), get16(o + 0x90));
	check(o[0x4b] == 12, "DEV_LIM min page size 4K (0x4b)", "%u",
	      o[0x4b]);
	check((1ULL << ((o[0x49] & 0x3f) + 20)) <= (8u << 20) &&
	      o[0x21] >= 32 && get64(o + 0xa0) >= ICM_SIZE &&
	      (o[0x65] & 0x3f) >= 16,
	      "DEV_LIM UAR size <= BAR2, max MR, max ICM, max PD",
	      "uar %u mr %u icm 0x%" PRIx64 " pd %u", o[0x49], o[0x21],
	      get64(o + 0xa0), o[0x65]);
	CHECK_ST(cmd(OP_QUERY_ADAPTER, 0, 0, 0, outbox->pa), ST_OK,
		 "QUERY_ADAPTER");

	CHECK_ST(cmd(OP_SW2HW_MPT, 0, inbox->pa, RSVD_MPT, 0),
		 ST_BAD_SYS_STATE, "SW2HW_MPT before INIT_HCA -> bad state");
	CHECK_ST(cmd(OP_WRITE_MTT, 0, inbox->pa, 2, 0), ST_BAD_SYS_STATE,
		 "WRITE_MTT before INIT_HCA -> bad state");
	CHECK_ST(map_pages(OP_MAP_ICM, pg, 1, 0), ST_BAD_SYS_STATE,
		 "MAP_ICM before SET_ICM_SIZE -> bad state");
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_SYS_STATE,
		 "INIT_HCA before SET_ICM_SIZE -> bad state");
	CHECK_ST(cmd(OP_SET_ICM_SIZE, 0, ICM_SIZE + 0x10, 0, 0), ST_BAD_PARAM,
		 "SET_ICM_SIZE not page multiple -> bad parameter");
	st = cmd_full(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, false, &imm);
	aux_pages = imm;
	check(st == ST_OK && aux_pages >= 1 && aux_pages <= 8,
	      "SET_ICM_SIZE returns aux pages (imm)", "status 0x%02x aux %"
	      PRIu64, st, aux_pages);
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_SYS_STATE,
		 "INIT_HCA before MAP_ICM_AUX -> bad state");
	if (aux_pages > 8)
		aux_pages = 8;
	for (i = 0; i < aux_pages; i++)
		pg[i] = page_alloc();
	CHECK_ST(map_pages(OP_MAP_ICM_AUX, pg, aux_pages, 0), ST_OK,
		 "MAP_ICM_AUX");
	check(rd(DBG_AUX_PAGES) == aux_pages, "aux page counter", "%u",
	      rd(DBG_AUX_PAGES));

	/* MAP_ICM refusals */
	pg[0] = page_alloc();
	memset(inbox->va, 0, PAGE);
	put64(inbox->va, 0x800);
	put64(inbox->va + 8, pg[0]->pa);
	CHECK_ST(cmd(OP_MAP_ICM, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
		 "MAP_ICM va not page aligned -> bad parameter");
	CHECK_ST(map_pages(OP_MAP_ICM, pg, 1, ICM_SIZE), ST_BAD_PARAM,
		 "MAP_ICM beyond ICM size -> bad parameter");
	memset(inbox->va, 0, PAGE);
	put64(inbox->va, 0x4000);
	put64(inbox->va + 8, (pg[0]->pa & ~0x3fffULL) + 0x1000 + 2);
	CHECK_ST(cmd(OP_MAP_ICM, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
		 "MAP_ICM 16K chunk misaligned -> bad parameter");

	/* MPT pages 0..2 (page 3 stays unmapped), MTT pages 0x8000, 0x9000 */
	for (i = 0; i < 4; i++)
		icm_mpt[i] = page_alloc();
	CHECK_ST(map_pages(OP_MAP_ICM, icm_mpt, 3, MPT_BASE), ST_OK,
		 "MAP_ICM MPT pages");
	for (i = 0; i < MTT_MAPPED_PAGES; i++)
		icm_mtt[i] = page_alloc();
	CHECK_ST(map_pages(OP_MAP_ICM, icm_mtt, MTT_MAPPED_PAGES, MTT_BASE),
		 ST_OK, "MAP_ICM MTT pages");
	check(rd(DBG_ICM_PAGES) == 3 + MTT_MAPPED_PAGES, "ICM page counter",
	      "%u", rd(DBG_ICM_PAGES));
	CHECK_ST(map_pages(OP_MAP_ICM, icm_mtt, 1, MTT_BASE), ST_BAD_PARAM,
		 "MAP_ICM of a mapped page -> bad parameter");

	/* INIT_HCA refusals, then the real one */
	init_hca_mbox(inbox->va, MPT_BASE, 17, MTT_BASE);
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_PARAM,
		 "INIT_HCA MPT table beyond ICM size -> bad parameter");
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, ICM_SIZE + 0x1000);
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_PARAM,
		 "INIT_HCA MTT base beyond ICM size -> bad parameter");
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa + 0x100, 0, 0), ST_BAD_PARAM,
		 "INIT_HCA misaligned mailbox -> bad parameter");
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_OK, "INIT_HCA");
	check(rd(DBG_FW_STATE) == 2, "state HCA initialised", "%u",
	      rd(DBG_FW_STATE));
	check(rd(DBG_MTT_END_LO) == EQC_BASE,
	      "MTT area ends at the next table base", "0x%x",
	      rd(DBG_MTT_END_LO));
	CHECK_ST(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_SYS_STATE,
		 "INIT_HCA twice -> bad state");
	CHECK_ST(cmd(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0), ST_BAD_SYS_STATE,
		 "SET_ICM_SIZE after INIT_HCA -> bad state");
	CHECK_ST(cmd(OP_UNMAP_FA, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		 "UNMAP_FA while HCA initialised -> bad state");
}

static void test_mpt(void)
{
	const uint32_t idx = RSVD_MPT + 1;
	const uint64_t mtt = MTT_BASE + RSVD_MTT * 8;
	uint8_t e[64], bad[64];
	uint8_t *slot = icm_mpt_slot(idx);
	unsigned int st;
	int i;

	mpt_build(e, MPT_LR | MPT_LW, 0, hw_key(idx, 0x5a), 0x42,
		  0x7000, 0x2000, mtt);

	/* refusals first (the slot stays software-owned) */
	CHECK_ST(sw2hw(3, e), ST_BAD_RESOURCE,
		 "SW2HW_MPT reserved index -> 0x05");
	CHECK_ST(sw2hw(NUM_MPT, e), ST_BAD_INDEX,
		 "SW2HW_MPT index >= 2^log_mpt_sz -> 0x0a");
	mpt_build(bad, MPT_LR, 0, hw_key(NUM_MPT - 1, 1), 1, 0, 0x1000, mtt);
	CHECK_ST(sw2hw(NUM_MPT - 1, bad), ST_BAD_RESOURCE,
		 "SW2HW_MPT slot in unmapped ICM -> 0x05");
	memcpy(bad, e, 64);
	put32(bad + 8, hw_key(idx + 1, 0x5a));
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT mem_key index bits != slot -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 32, 0x1234);
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM, "SW2HW_MPT lkey != 0 -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 4, 20);
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT page_size 20 -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 4, 1u << 7);
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT region with type 1 -> 0x03");
	memcpy(bad, e, 64);
	put32(bad, get32(bad) | 1);
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT reserved bit (dword0 bit 0) -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 60, 1);
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT reserved dword 15 -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 48, RSVD_MTT * 8);	/* relative offset, not absolute */
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT mtt_adr relative to MTT base (not absolute) -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 48, (uint32_t)MTT_BASE);
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT MTTs in the reserved range -> 0x03");
	memcpy(bad, e, 64);
	put32(bad + 48, (uint32_t)EQC_BASE - 8);	/* 2 pages need 2 MTTs */
	CHECK_ST(sw2hw(idx, bad), ST_BAD_PARAM,
		 "SW2HW_MPT MTT range past the MTT area -> 0x03");
	memcpy(inbox->va, e, 64);
	CHECK_ST(cmd(OP_SW2HW_MPT, 0, inbox->pa + 0x40, idx, 0), ST_BAD_PARAM,
		 "SW2HW_MPT misaligned mailbox -> 0x03");
	check(rd(DBG_HW_MPTS) == 0, "refused SW2HW_MPT leaves no entry",
	      "%u HW-owned", rd(DBG_HW_MPTS));

	/* success and ICM placement */
	memset(icm_mpt[0]->va, 0xa5, PAGE);
	memset(icm_mpt[1]->va, 0xa5, PAGE);
	for (i = 0; i < 64; i++)	/* keep ownership nibble SW for idx */
		slot[i] = 0xf0;
	CHECK_ST(sw2hw(idx, e), ST_OK, "SW2HW_MPT valid region");
	{
		uint8_t want[64];

		memcpy(want, e, 64);
		want[0] &= 0x0f;	/* status nibble 0: hardware-owned */
		check(!memcmp(slot, want, 64), "SW2HW_MPT entry in ICM at "
		      "mpt_base + index * 64, status HW-owned",
		      "dword0 0x%08x key 0x%08x", get32(slot), get32(slot + 8));
		check(slot[-1] == 0xa5 && slot[64] == 0xa5,
		      "SW2HW_MPT touches only its 64 bytes", "%02x %02x",
		      slot[-1], slot[64]);
	}
	check(rd(DBG_HW_MPTS) == 1, "HW-owned MPT counter 1", "%u",
	      rd(DBG_HW_MPTS));
	CHECK_ST(sw2hw(idx, e), ST_BAD_RES_STATE,
		 "SW2HW_MPT on a HW-owned slot -> 0x09");

	memset(outbox->va, 0, PAGE);
	st = cmd(OP_QUERY_MPT, 0, 0, idx, outbox->pa);
	check(st == ST_OK && !memcmp(outbox->va, slot, 64),
	      "QUERY_MPT returns the stored entry", "status 0x%02x", st);
	CHECK_ST(cmd(OP_QUERY_MPT, 0, 0, NUM_MPT + 5, outbox->pa),
		 ST_BAD_INDEX, "QUERY_MPT index out of range -> 0x0a");

	/* windows bound (win_cnt, dword 9, kept by the HCA in ICM) */
	put32(slot + 36, 2);
	CHECK_ST(cmd(OP_HW2SW_MPT, 1, 0, idx, 0), ST_REG_BOUND,
		 "HW2SW_MPT region with windows bound -> 0x21");
	put32(slot + 36, 0);

	memset(outbox->va, 0, PAGE);
	CHECK_ST(cmd(OP_HW2SW_MPT, 2, 0, idx, outbox->pa), ST_BAD_OP,
		 "HW2SW_MPT op_mod 2 -> bad opcode modifier");
	st = cmd(OP_HW2SW_MPT, 0, 0, idx, outbox->pa);
	{
		uint8_t want[64];

		memcpy(want, e, 64);
		want[0] &= 0x0f;
		check(st == ST_OK && !memcmp(outbox->va, want, 64),
		      "HW2SW_MPT op_mod 0 returns the entry", "status 0x%02x",
		      st);
	}
	check((slot[0] >> 4) == 0xf, "HW2SW_MPT: ICM status nibble SW (0xF)",
	      "0x%02x", slot[0]);
	check(rd(DBG_HW_MPTS) == 0, "HW-owned MPT counter back to 0", "%u",
	      rd(DBG_HW_MPTS));
	CHECK_ST(cmd(OP_HW2SW_MPT, 1, 0, idx, 0), ST_BAD_RES_STATE,
		 "HW2SW_MPT on a SW-owned slot -> 0x09");
	CHECK_ST(sw2hw(idx, e), ST_OK, "SW2HW_MPT again after HW2SW_MPT");
	memset(outbox->va, 0x3c, PAGE);
	st = cmd(OP_HW2SW_MPT, 1, 0, idx, outbox->pa);
	check(st == ST_OK && outbox->va[0] == 0x3c && outbox->va[63] == 0x3c,
	      "HW2SW_MPT op_mod 1 writes no outbox", "status 0x%02x", st);
}

static void test_mtt(void)
{
	const uint64_t t = MTT_BASE + RSVD_MTT * 8 + 0x40;
	uint64_t ents[4], sentinel = 0x1122334455667788ULL;
	unsigned int st;
	int i;

	for (i = 0; i < 3; i++)
		ents[i] = pool[10 + i].pa | 1;
	ents[3] = 0;
	memcpy(icm_mtt_entry(t + 24), &sentinel, 8);
	CHECK_ST(write_mtt(t, ents, 4), ST_OK,
		 "WRITE_MTT 3 entries + zero pad (in_mod 4)");
	check(get64(icm_mtt_entry(t)) == ents[0] &&
	      get64(icm_mtt_entry(t + 8)) == ents[1] &&
	      get64(icm_mtt_entry(t + 16)) == ents[2],
	      "WRITE_MTT entries land at the absolute ICM address", "%" PRIx64,
	      get64(icm_mtt_entry(t)));
	check(!memcmp(icm_mtt_entry(t + 24), &sentinel, 8),
	      "WRITE_MTT does not write the pad entry", "%" PRIx64,
	      get64(icm_mtt_entry(t + 24)));

	memset(outbox->va, 0, PAGE);
	st = cmd(OP_READ_MTT, 0, t, 3, outbox->pa);
	check(st == ST_OK && get64(outbox->va) == ents[0] &&
	      get64(outbox->va + 8) == ents[1] &&
	      get64(outbox->va + 16) == ents[2], "READ_MTT round trip",
	      "status 0x%02x", st);

	CHECK_ST(write_mtt(MTT_BASE, ents, 2), ST_BAD_RESOURCE,
		 "WRITE_MTT into reserved MTTs -> 0x05");
	CHECK_ST(write_mtt(RSVD_MTT * 8 + 0x40, ents, 2), ST_BAD_PARAM,
		 "WRITE_MTT target relative to MTT base -> 0x03");
	CHECK_ST(write_mtt(t + 4, ents, 2), ST_BAD_PARAM,
		 "WRITE_MTT target not 8-byte aligned -> 0x03");
	CHECK_ST(write_mtt(EQC_BASE - 8, ents, 2), ST_BAD_PARAM,
		 "WRITE_MTT past the MTT area -> 0x03");
	ents[1] &= ~1ULL;
	CHECK_ST(write_mtt(t, ents, 3), ST_BAD_PARAM,
		 "WRITE_MTT entry without present bit -> 0x03");
	ents[1] |= 1;
	ents[2] = 0;
	CHECK_ST(write_mtt(t, ents, 3), ST_BAD_PARAM,
		 "WRITE_MTT zero pad with odd count -> 0x03");
	ents[2] = pool[12].pa | 1;
	CHECK_ST(cmd(OP_WRITE_MTT, 0, inbox->pa, 511, 0), ST_BAD_PARAM,
		 "WRITE_MTT more than 510 entries -> 0x03");
	CHECK_ST(write_mtt(MTT_BASE + MTT_MAPPED_PAGES * PAGE, ents, 2),
		 ST_BAD_RESOURCE, "WRITE_MTT into unmapped ICM -> 0x05");
	CHECK_ST(cmd(OP_SYNC_TPT, 0, 0, 0, 0), ST_OK, "SYNC_TPT");
}

static void test_xlate(void)
{
	const uint32_t idx = RSVD_MPT + 2, tag = 0x33;
	const uint64_t mtt = MTT_BASE + 0x200;
	const uint64_t start = 0x10000000ULL + 0x100;
	const uint32_t len = 2 * PAGE;
	struct page *data[3], *buf = page_alloc();
	uint32_t key = lkey_of(hw_key(idx, tag));
	uint64_t ents[4];
	uint8_t e[64];
	unsigned int r;
	int i;

	for (i = 0; i < 3; i++) {
		data[i] = page_alloc();
		memset(data[i]->va, 0x10 + i, PAGE);
		ents[i] = data[i]->pa | 1;
	}
	ents[3] = 0;
	CHECK_ST(write_mtt(mtt, ents, 4), ST_OK, "WRITE_MTT for the region");
	mpt_build(e, MPT_LR | MPT_LW | MPT_RR, 0, hw_key(idx, tag), 7, start,
		  len, mtt);
	CHECK_ST(sw2hw(idx, e), ST_OK, "SW2HW_MPT region lr|lw|rr");

	memset(buf->va, 0, PAGE);
	data[0]->va[0x100] = 0xab;
	r = xlate(key, XL_ACC_LOCAL_READ, start, 16, 0, buf->pa);
	check(r == XL_OK && buf->va[0] == 0xab && buf->va[1] == 0x10,
	      "xlate local read at start", "result %u byte %02x", r,
	      buf->va[0]);
	check((((uint64_t)rd(XL_PA_HI) << 32) | rd(XL_PA_LO)) ==
	      data[0]->pa + 0x100 && rd(XL_INDEX) == idx,
	      "xlate reports PA via MTT and slot", "pa 0x%x index %u",
	      rd(XL_PA_LO), rd(XL_INDEX));
	memset(buf->va, 0, PAGE);
	r = xlate(key, XL_ACC_REMOTE_READ, start + PAGE - 0x100 - 2, 4, 0,
		  buf->pa);
	check(r == XL_OK && buf->va[0] == 0x10 && buf->va[1] == 0x10 &&
	      buf->va[2] == 0x11 && buf->va[3] == 0x11,
	      "xlate read across a page boundary follows the MTT",
	      "result %u %02x%02x%02x%02x", r, buf->va[0], buf->va[1],
	      buf->va[2], buf->va[3]);
	memset(buf->va, 0xcd, 8);
	r = xlate(key, XL_ACC_LOCAL_WRITE, start + len - 8, 8, 1, buf->pa);
	check(r == XL_OK && data[2]->va[0xf8] == 0xcd &&
	      data[2]->va[0xff] == 0xcd && data[2]->va[0x100] == 0x12,
	      "xlate local write at the end lands in the third page",
	      "result %u", r);
	r = xlate(lkey_of(hw_key(idx, tag + 1)), XL_ACC_LOCAL_READ, start, 4,
		  0, buf->pa);
	check(r == XL_KEY_MISMATCH, "xlate wrong key tag -> refused",
	      "result %u", r);
	r = xlate(key, XL_ACC_REMOTE_WRITE, start, 4, 1, buf->pa);
	check(r == XL_ACCESS_DENIED, "xlate remote write without rw -> refused",
	      "result %u", r);
	r = xlate(key, XL_ACC_ATOMIC, start, 8, 0, buf->pa);
	check(r == XL_ACCESS_DENIED, "xlate atomic without a -> refused", "result %u",
	      r);
	r = xlate(key, XL_ACC_LOCAL_READ, start - 1, 4, 0, buf->pa);
	check(r == XL_RANGE, "xlate below start -> out of range", "result %u",
	      r);
	r = xlate(key, XL_ACC_LOCAL_READ, start + len - 2, 4, 0, buf->pa);
	check(r == XL_RANGE, "xlate past the end -> out of range", "result %u",
	      r);
	r = xlate(lkey_of(hw_key(NUM_MPT - 2, 0)), XL_ACC_LOCAL_READ, 0, 4, 0,
		  buf->pa);
	check(r == XL_MPT_UNMAPPED, "xlate key in unmapped MPT ICM -> refused",
	      "result %u", r);
	r = xlate(lkey_of(hw_key(RSVD_MPT + 9, 0)), XL_ACC_LOCAL_READ, 0, 4, 0,
		  buf->pa);
	check(r == XL_SW_OWNED, "xlate never-written slot -> SW-owned",
	      "result %u", r);

	CHECK_ST(cmd(OP_HW2SW_MPT, 1, 0, idx, 0), ST_OK, "HW2SW_MPT region");
	r = xlate(key, XL_ACC_LOCAL_READ, start, 4, 0, buf->pa);
	check(r == XL_SW_OWNED, "xlate after HW2SW_MPT -> SW-owned",
	      "result %u", r);

	/* zero-based: va is an offset from 0 */
	mpt_build(e, MPT_LR, 0, hw_key(idx, tag + 1), 7, start, len, mtt);
	put32(e + 12, 7 | MPT_ZB);
	CHECK_ST(sw2hw(idx, e), ST_OK, "SW2HW_MPT zero-based region");
	key = lkey_of(hw_key(idx, tag + 1));
	r = xlate(key, XL_ACC_LOCAL_READ, PAGE + 0x10, 1, 0, buf->pa);
	check(r == XL_OK && buf->va[0] == 0x11 &&
	      rd(XL_PA_LO) == (uint32_t)(data[1]->pa + 0x10),
	      "xlate zero-based offset", "result %u pa 0x%x", r,
	      rd(XL_PA_LO));
	r = xlate(key, XL_ACC_LOCAL_READ, len, 1, 0, buf->pa);
	check(r == XL_RANGE, "xlate zero-based past length -> out of range",
	      "result %u", r);
	r = xlate(lkey_of(hw_key(idx, tag)), XL_ACC_LOCAL_READ, 0, 1, 0,
		  buf->pa);
	check(r == XL_KEY_MISMATCH, "xlate old key after re-registration",
	      "result %u", r);
	CHECK_ST(cmd(OP_HW2SW_MPT, 1, 0, idx, 0), ST_OK, "HW2SW_MPT zb region");

	/* physical region: no translation */
	mpt_build(e, MPT_LR | MPT_PA | MPT_A, 0, hw_key(idx + 1, 1), 7, 0,
		  ~0ULL, 0);
	CHECK_ST(sw2hw(idx + 1, e), ST_OK, "SW2HW_MPT physical region (pa=1)");
	data[1]->va[0x20] = 0x5e;
	r = xlate(lkey_of(hw_key(idx + 1, 1)), XL_ACC_LOCAL_READ,
		  data[1]->pa + 0x20, 1, 0, buf->pa);
	check(r == XL_OK && buf->va[0] == 0x5e,
	      "xlate physical region reads the PA itself", "result %u %02x",
	      r, buf->va[0]);
	CHECK_ST(cmd(OP_HW2SW_MPT, 1, 0, idx + 1, 0), ST_OK,
		 "HW2SW_MPT physical region");

	/* MTT entries never written -> not present */
	mpt_build(e, MPT_LR, 0, hw_key(idx + 2, 0), 7, 0, PAGE,
		  MTT_BASE + 0x800);
	CHECK_ST(sw2hw(idx + 2, e), ST_OK, "SW2HW_MPT over unwritten MTTs");
	r = xlate(lkey_of(hw_key(idx + 2, 0)), XL_ACC_LOCAL_READ, 0, 4, 0,
		  buf->pa);
	check(r == XL_MTT_NOT_PRESENT, "xlate MTT not present -> refused",
	      "result %u", r);
	CHECK_ST(cmd(OP_HW2SW_MPT, 1, 0, idx + 2, 0), ST_OK,
		 "HW2SW_MPT last region");
	check(rd(DBG_HW_MPTS) == 0, "no HW-owned MPT left", "%u",
	      rd(DBG_HW_MPTS));
}

/* MAD_IFC: SubnGet of the SMA attributes (IBA layouts) */
static unsigned int mad_get(uint8_t mclass, uint16_t attr, uint32_t mod,
			    uint32_t port)
{
	uint8_t *m = inbox->va;

	memset(m, 0, 256);
	m[0] = 1;			/* base version */
	m[1] = mclass;
	m[2] = 1;			/* class version */
	m[3] = 0x01;			/* Get */
	put32(m + 8, 0x1234);		/* TID */
	put32(m + 12, 0x5678);
	m[16] = attr >> 8;
	m[17] = attr & 0xff;
	put32(m + 20, mod);
	memset(outbox->va, 0, 256);
	return cmd(OP_MAD_IFC, 0, inbox->pa, port, outbox->pa);
}

static void test_mad(void)
{
	uint8_t *r = outbox->va, *d = outbox->va + 64;
	uint64_t node_guid, port_guid;
	unsigned int st;

	st = mad_get(0x01, 0x0011, 0, 1);
	node_guid = get64(d + 12);
	port_guid = get64(d + 20);
	check(st == ST_OK && r[3] == 0x81 && get16(r + 4) == 0 &&
	      get32(r + 12) == 0x5678 && d[0] == 1 && d[2] == 1 && d[3] >= 1 &&
	      get16(d + 30) == 0x6282 && (get32(d + 36) & 0xffffff) == 0x02c9,
	      "MAD_IFC NodeInfo: GetResp, CA, device 0x6282, vendor 0x0002c9",
	      "status 0x%02x method 0x%02x mad status 0x%04x type %u dev 0x%x "
	      "vendor 0x%x", st, r[3], get16(r + 4), d[2], get16(d + 30),
	      get32(d + 36) & 0xffffff);
	check(node_guid && port_guid &&
	      (!want_node_guid || node_guid == want_node_guid) &&
	      (!want_port_guid || port_guid == want_port_guid),
	      "MAD_IFC NodeInfo GUIDs (node-guid / port-guid properties)",
	      "node 0x%" PRIx64 " port 0x%" PRIx64, node_guid, port_guid);
	st = mad_get(0x01, 0x0015, 1, 1);
	check(st == ST_OK && get16(r + 4) == 0 && d[28] == 1 &&
	      (d[32] & 0xf) >= 1 && (d[32] & 0xf) <= 4 && get16(d + 16),
	      "MAD_IFC PortInfo: local port 1, valid state, LID",
	      "status 0x%02x mad 0x%04x port %u state %u lid %u", st,
	      get16(r + 4), d[28], d[32] & 0xf, get16(d + 16));
	st = mad_get(0x01, 0x0014, 0, 1);
	check(st == ST_OK && get64(d) == port_guid,
	      "MAD_IFC GUIDInfo block 0 entry 0 = port GUID", "0x%" PRIx64,
	      get64(d));
	st = mad_get(0x01, 0x0016, 0, 1);
	check(st == ST_OK && get16(d) == 0xffff,
	      "MAD_IFC P_KeyTable entry 0 = 0xffff", "0x%04x", get16(d));
	st = mad_get(0x01, 0x0010, 0, 1);
	check(st == ST_OK && d[0] >= ' ', "MAD_IFC NodeDescription", "'%.16s'",
	      (char *)d);
	st = mad_get(0x81, 0x0011, 0, 1);
	check(st == ST_OK && (get16(r + 4) & 0x8000) && get64(d + 12) ==
	      node_guid, "MAD_IFC directed-route NodeInfo: D bit set",
	      "status 0x%02x mad 0x%04x", st, get16(r + 4));
	st = mad_get(0x01, 0xff00, 0, 1);
	check(st == ST_OK && (get16(r + 4) & 0x1c) == 0x0c,
	      "MAD_IFC unsupported attribute -> MAD status 0x000c", "0x%04x",
	      get16(r + 4));
	CHECK_ST(mad_get(0x01, 0x0011, 0, 2), ST_BAD_PARAM,
		 "MAD_IFC port 2 -> bad parameter");
}

static void test_faults(void)
{
	unsigned int st[6], i;
	uint64_t t0;

	wr(FI_CLEAR, 1);
	wr(FI_FAIL_STATUS, ST_RESOURCE_BUSY);
	wr(FI_FAIL_EVERY, 0);
	wr(FI_FAIL_OPCODE, OP_NOP);
	st[0] = cmd(OP_NOP, 0, 0, 0, 0);
	st[1] = cmd(OP_NOP, 0, 0, 0, 0);
	check(st[0] == ST_RESOURCE_BUSY && st[1] == ST_OK,
	      "fault: fail next NOP once with 0x06", "%02x %02x", st[0], st[1]);
	check(cmd(OP_SYNC_TPT, 0, 0, 0, 0) == ST_OK,
	      "fault: other opcodes unaffected", "SYNC_TPT failed");

	wr(FI_FAIL_STATUS, ST_INTERNAL_ERR);
	wr(FI_FAIL_EVERY, 3);
	wr(FI_FAIL_OPCODE, OP_NOP);
	for (i = 0; i < 6; i++)
		st[i] = cmd(OP_NOP, 0, 0, 0, 0);
	check(st[0] == 0 && st[1] == 0 && st[2] == 1 && st[3] == 0 &&
	      st[4] == 0 && st[5] == 1, "fault: fail every 3rd NOP",
	      "%x %x %x %x %x %x", st[0], st[1], st[2], st[3], st[4], st[5]);
	check(rd(FI_FAILED) == 3, "fault: failure counter", "%u",
	      rd(FI_FAILED));
	wr(FI_CLEAR, 1);

	wr(FI_HOLD_OPCODE, OP_NOP);
	wr(FI_HOLD_MS, 0xffffffff);
	hcr_post(OP_NOP, 0, 0, 0, 0, false);
	msleep(300);
	check(rd(HCR_BASE + 0x18) & HCR_GO, "fault: hold go (go still set "
	      "after 300 ms)", "go clear: 0x%08x", rd(HCR_BASE + 0x18));
	wr(HCR_BASE + 0x08, 0x1234);
	check(rd(HCR_BASE + 0x08) != 0x1234,
	      "HCR writes ignored while go is set", "in_mod 0x%x",
	      rd(HCR_BASE + 0x08));
	wr(FI_HOLD_MS, 0);
	check(hcr_wait(100) && (rd(HCR_BASE + 0x18) >> 24) == ST_OK,
	      "fault: releasing the hold completes the command", "0x%08x",
	      rd(HCR_BASE + 0x18));

	wr(FI_HOLD_MS, 1000);
	t0 = now_ms();
	hcr_post(OP_NOP, 0, 0, 0, 0, false);
	msleep(50);
	i = rd(HCR_BASE + 0x18) & HCR_GO;
	check(i && hcr_wait(10000) && now_ms() - t0 >= 800,
	      "fault: timed hold (1000 ms) then completion", "go %u after %"
	      PRIu64 " ms", i, now_ms() - t0);
	wr(FI_HOLD_MS, 0);
	wr(FI_HOLD_OPCODE, 0);

	wr(FI_CORRUPT_OFFSET, 2);
	wr(FI_CORRUPT_LEN, 2);
	wr(FI_CORRUPT_EVERY, 0);
	wr(FI_CORRUPT_OPCODE, OP_QUERY_FW);
	cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	st[0] = get16(outbox->va + 2);
	cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	st[1] = get16(outbox->va + 2);
	check(st[0] == (5 ^ 0xffff) && st[1] == 5,
	      "fault: corrupt outbox once (bytes 2..3 flipped)",
	      "0x%04x then 0x%04x", st[0], st[1]);
	wr(FI_CLEAR, 1);
}

static void test_teardown(void)
{
	unsigned int st;

	CHECK_ST(cmd(OP_CLOSE_HCA, 0, 0, 0, 0), ST_OK, "CLOSE_HCA");
	check(rd(DBG_FW_STATE) == 1, "state back to running", "%u",
	      rd(DBG_FW_STATE));
	CHECK_ST(cmd(OP_SW2HW_MPT, 0, inbox->pa, RSVD_MPT, 0),
		 ST_BAD_SYS_STATE, "SW2HW_MPT after CLOSE_HCA -> bad state");
	CHECK_ST(cmd(OP_UNMAP_ICM_AUX, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		 "UNMAP_ICM_AUX with ICM mapped -> bad state");
	CHECK_ST(cmd(OP_UNMAP_FA, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		 "UNMAP_FA with ICM mapped -> bad state");
	CHECK_ST(cmd(OP_UNMAP_ICM, 0, MPT_BASE, 4, 0), ST_BAD_PARAM,
		 "UNMAP_ICM of an unmapped page -> bad parameter");
	CHECK_ST(cmd(OP_UNMAP_ICM, 0, MPT_BASE + 0x10, 1, 0), ST_BAD_PARAM,
		 "UNMAP_ICM misaligned -> bad parameter");
	CHECK_ST(cmd(OP_UNMAP_ICM, 0, MPT_BASE, 3, 0), ST_OK,
		 "UNMAP_ICM MPT pages");
	CHECK_ST(cmd(OP_UNMAP_ICM, 0, MTT_BASE, MTT_MAPPED_PAGES, 0), ST_OK,
		 "UNMAP_ICM MTT pages");
	CHECK_ST(cmd(OP_UNMAP_ICM_AUX, 0, 0, 0, 0), ST_OK, "UNMAP_ICM_AUX");
	CHECK_ST(cmd(OP_UNMAP_FA, 0, 0, 0, 0), ST_OK, "UNMAP_FA");
	st = rd(DBG_ICM_PAGES) | rd(DBG_AUX_PAGES) | rd(DBG_FA_PAGES);
	check(st == 0 && rd(DBG_FW_STATE) == 0,
	      "teardown: nothing left mapped, firmware stopped",
	      "icm %u aux %u fa %u state %u", rd(DBG_ICM_PAGES),
	      rd(DBG_AUX_PAGES), rd(DBG_FA_PAGES), rd(DBG_FW_STATE));
}

static void test_reset(void)
{
	struct page *pg[2];
	uint64_t imm;

	/* bring up partly, register an MPT, then reset */
	map_fa();
	cmd(OP_RUN_FW, 0, 0, 0, 0);
	cmd_full(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, false, &imm);
	pg[0] = page_alloc();
	map_pages(OP_MAP_ICM_AUX, pg, 1, 0);
	map_pages(OP_MAP_ICM, icm_mpt, 3, MPT_BASE);
	map_pages(OP_MAP_ICM, icm_mtt, 2, MTT_BASE);
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0);
	{
		uint8_t e[64];

		mpt_build(e, MPT_LR, 0, hw_key(RSVD_MPT, 0), 1, 0, 0, 0);
		put32(e, get32(e) | MPT_PA);
		sw2hw(RSVD_MPT, e);
	}
	check(rd(DBG_FW_STATE) == 2 && rd(DBG_HW_MPTS) == 1,
	      "second bring-up works", "state %u mpts %u", rd(DBG_FW_STATE),
	      rd(DBG_HW_MPTS));
	wr(RESET_REG, 2);
	check(rd(DBG_FW_STATE) == 2, "reset register: value other than 1 "
	      "ignored", "state %u", rd(DBG_FW_STATE));

	wr(FI_HOLD_MS, 0xffffffff);
	hcr_post(OP_NOP, 0, 0, 0, 0, false);
	reset_device();
	wr(FI_HOLD_MS, 0);
	check(!(rd(HCR_BASE + 0x18) & HCR_GO), "reset clears a held go bit",
	      "0x%08x", rd(HCR_BASE + 0x18));
	check(rd(DBG_FW_STATE) == 0 && rd(DBG_ICM_PAGES) == 0 &&
	      rd(DBG_AUX_PAGES) == 0 && rd(DBG_FA_PAGES) == 0 &&
	      rd(DBG_HW_MPTS) == 0, "reset drops all mappings and MPTs",
	      "state %u icm %u aux %u fa %u mpts %u", rd(DBG_FW_STATE),
	      rd(DBG_ICM_PAGES), rd(DBG_AUX_PAGES), rd(DBG_FA_PAGES),
	      rd(DBG_HW_MPTS));
	CHECK_ST(cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa), ST_BAD_SYS_STATE,
		 "after reset: QUERY_DEV_LIM -> bad state");
	check(xlate(0, XL_ACC_LOCAL_READ, 0, 4, 0, outbox->pa) ==
	      XL_NOT_RUNNING, "after reset: translation refused",
	      "result %u", rd(XL_RESULT));

	/* only aligned 32-bit accesses count */
	wr(HCR_BASE + 0x08, 0x11223344);
	*(volatile uint8_t *)(bar0 + HCR_BASE + 0x08) = 0x99;
	*(volatile uint16_t *)(bar0 + HCR_BASE + 0x0a) = 0x9999;
	check(rd(HCR_BASE + 0x08) == 0x11223344,
	      "8/16-bit HCR writes are ignored", "0x%08x",
	      rd(HCR_BASE + 0x08));
	CHECK_ST(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa), ST_OK,
		 "QUERY_FW works after reset");
}

/* faults set by device properties: fail-opcode=0x31 (NOP) */
static void test_prop_fault(unsigned int every, unsigned int status)
{
	unsigned int i, st, bad = 0;

	reset_device();
	check(rd(FI_FAIL_OPCODE) == OP_NOP && rd(FI_FAIL_STATUS) == status &&
	      rd(FI_FAIL_EVERY) == every,
	      "fault properties visible in the debug window (kept by reset)",
	      "opcode 0x%x status 0x%x every %u", rd(FI_FAIL_OPCODE),
	      rd(FI_FAIL_STATUS), rd(FI_FAIL_EVERY));
	CHECK_ST(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa), ST_OK, "QUERY_FW");
	fw_pages = get16(outbox->va);
	CHECK_ST(map_fa(), ST_OK, "MAP_FA");
	CHECK_ST(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_OK, "RUN_FW");
	for (i = 1; i <= 3 * every; i++) {
		st = cmd(OP_NOP, 0, 0, 0, 0);
		if (st != ((i % every) ? ST_OK : status))
			bad = i;
	}
	check(!bad, "property fail-every: every Nth NOP fails",
	      "NOP #%u wrong", bad);
	check(rd(FI_FAILED) == 3, "property faults counted", "%u",
	      rd(FI_FAILED));
	reset_device();
}

int main(int argc, char **argv)
{
	const char *bdf = NULL;
	unsigned int pf_every = 0, pf_status = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--node-guid") && i + 1 < argc) {
			want_node_guid = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--port-guid") && i + 1 < argc) {
			want_port_guid = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--prop-fault") && i + 2 < argc) {
			pf_every = strtoul(argv[i + 1], NULL, 0);
			pf_status = strtoul(argv[i + 2], NULL, 0);
			i += 2;
			if (!pf_every)
				die("--prop-fault: EVERY must be > 0");
		} else {
			bdf = argv[i];
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_device(bdf);
	map_bar0();
	pool_init();
	inbox = page_alloc();
	outbox = page_alloc();
	/* pages 10..12 are used as MTT targets by test_mtt */
	pool_next = 16;

	if (pf_every) {
		test_prop_fault(pf_every, pf_status);
		printf("conformance: %d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}
	test_identity();
	test_pre_run();
	test_bring_up();
	test_mpt();
	test_mtt();
	test_xlate();
	test_mad();
	test_faults();
	test_teardown();
	test_reset();
	reset_device();

	printf("conformance: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
