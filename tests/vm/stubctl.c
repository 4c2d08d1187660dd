// SPDX-License-Identifier: GPL-2.0
/*
 * stubctl: read and write arbel-stub's debug window (BAR0 + 0xc0000, see
 * Documentation/arbel-stub.rst) from inside the test VM, while arbel.ko is
 * bound or not.  The window is mapped through sysfs resource0 (the guest
 * boots with iomem=relaxed so that this works while the driver holds the
 * BAR).  Nothing here touches the HCR or the reset register unless asked
 * (the "reset" command, refused while a driver is bound).
 *
 *   stubctl [-d BDF] [-q] COMMAND [ARGS]
 *
 *   show                      every counter and fault setting, key=value
 *   get KEY                   one value (decimal), e.g. "stubctl get fa_pages"
 *   expect KEY=VAL...         exit 1 unless every KEY has value VAL
 *   expect-unmapped           exit 1 unless icm_pages, fa_pages, aux_pages
 *                             and hw_mpts are all 0
 *   expect-mapped             exit 1 unless fa_pages, aux_pages, icm_pages
 *                             are all non-zero (a brought-up HCA)
 *   fail OP STATUS [EVERY]    fail opcode OP with STATUS; EVERY 0 (default)
 *                             = the next one only, N = every Nth
 *   hold OP|any MS|forever    hold go on OP for MS ms (virtual clock)
 *   hold-opcode OP            retarget the hold without releasing a held
 *                             command (OP may be an opcode never used)
 *   release                   FI_HOLD_MS = 0 (a held command then runs)
 *   corrupt OP OFFSET LEN [EVERY]
 *   clear                     FI_CLEAR: every fault off (counters kept)
 *   mark N                    put a "XLATE key=0x4d4bNNNN" line in the
 *                             stub's trace (a zero-length translation:
 *                             no DMA), to cut the trace into phases
 *   reset                     write the reset register (no driver bound)
 *   read OFF / write OFF VAL  raw access, OFF relative to the window
 *   opcode NAME|NUM           print the opcode number (hex)
 *
 * OP is a PRM name (QUERY_FW, MAP_ICM, ...) or a number (0x4, 4).
 * Exit status: 0 ok, 1 assertion failed, 2 usage or system error.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BAR0_SIZE		(1u << 20)
#define HCR_BASE		0x80680u
#define HCR_CTRL		(HCR_BASE + 0x18)
#define HCR_GO			(1u << 23)
#define RESET_REG		0xf0010u
#define DBG			0xc0000u
#define DBG_SIZE		0x1000u
#define DBG_ID_VALUE		0x41524244u	/* "ARBD" */

/* debug window registers (offsets in the window) */
enum {
	R_ID = 0x000, R_VERSION = 0x004, R_FW_STATE = 0x008,
	R_CMD_COUNT = 0x00c, R_ICM_PAGES = 0x010, R_FA_PAGES = 0x014,
	R_AUX_PAGES = 0x018, R_HW_MPTS = 0x01c, R_ICM_SIZE_HI = 0x020,
	R_ICM_SIZE_LO = 0x024, R_LOG_MPT_SZ = 0x028, R_MPT_BASE_HI = 0x030,
	R_MPT_BASE_LO = 0x034, R_MTT_BASE_HI = 0x038, R_MTT_BASE_LO = 0x03c,
	R_MTT_END_HI = 0x040, R_MTT_END_LO = 0x044,
	R_XL_KEY = 0x100, R_XL_ACCESS = 0x104, R_XL_LEN = 0x110,
	R_XL_GO = 0x120, R_XL_COUNT = 0x134,
	R_FI_FAIL_OPCODE = 0x200, R_FI_FAIL_STATUS = 0x204,
	R_FI_FAIL_EVERY = 0x208, R_FI_FAILED = 0x20c, R_FI_HOLD_MS = 0x210,
	R_FI_HOLD_OPCODE = 0x214, R_FI_CORRUPT_OPCODE = 0x220,
	R_FI_CORRUPT_OFFSET = 0x224, R_FI_CORRUPT_LEN = 0x228,
	R_FI_CORRUPT_EVERY = 0x22c, R_FI_CORRUPTED = 0x230, R_FI_CLEAR = 0x23c,
};

#define MARK_KEY_BASE		0x4d4b0000u	/* "MK" */

static const struct {
	const char *name;
	unsigned int op;
} opcodes[] = {
	{ "SYS_EN", 0x001 }, { "SYS_DIS", 0x002 }, { "QUERY_DEV_LIM", 0x003 },
	{ "QUERY_FW", 0x004 }, { "QUERY_DDR", 0x005 },
	{ "QUERY_ADAPTER", 0x006 }, { "INIT_HCA", 0x007 },
	{ "CLOSE_HCA", 0x008 }, { "INIT_IB", 0x009 }, { "CLOSE_IB", 0x00a },
	{ "SW2HW_MPT", 0x00d }, { "QUERY_MPT", 0x00e }, { "HW2SW_MPT", 0x00f },
	{ "READ_MTT", 0x010 }, { "WRITE_MTT", 0x011 }, { "MAP_EQ", 0x012 },
	{ "SW2HW_EQ", 0x013 }, { "HW2SW_EQ", 0x014 }, { "MAD_IFC", 0x024 },
	{ "SYNC_TPT", 0x02f }, { "NOP", 0x031 }, { "RUN_FW", 0xff6 },
	{ "DISABLE_LAM", 0xff7 }, { "ENABLE_LAM", 0xff8 },
	{ "UNMAP_ICM", 0xff9 }, { "MAP_ICM", 0xffa },
	{ "UNMAP_ICM_AUX", 0xffb }, { "MAP_ICM_AUX", 0xffc },
	{ "SET_ICM_SIZE", 0xffd }, { "UNMAP_FA", 0xffe }, { "MAP_FA", 0xfff },
};

/* keys of "show", "get" and "expect" */
struct key {
	const char *name;
	unsigned int hi, lo;	/* hi == lo: a 32-bit register */
	bool hcr;		/* read from the HCR, not the window */
};

static const struct key keys[] = {
	{ "id", R_ID, R_ID, false },
	{ "version", R_VERSION, R_VERSION, false },
	{ "fw_state", R_FW_STATE, R_FW_STATE, false },
	{ "cmd_count", R_CMD_COUNT, R_CMD_COUNT, false },
	{ "icm_pages", R_ICM_PAGES, R_ICM_PAGES, false },
	{ "fa_pages", R_FA_PAGES, R_FA_PAGES, false },
	{ "aux_pages", R_AUX_PAGES, R_AUX_PAGES, false },
	{ "hw_mpts", R_HW_MPTS, R_HW_MPTS, false },
	{ "icm_size", R_ICM_SIZE_HI, R_ICM_SIZE_LO, false },
	{ "log_mpt_sz", R_LOG_MPT_SZ, R_LOG_MPT_SZ, false },
	{ "mpt_base", R_MPT_BASE_HI, R_MPT_BASE_LO, false },
	{ "mtt_base", R_MTT_BASE_HI, R_MTT_BASE_LO, false },
	{ "mtt_end", R_MTT_END_HI, R_MTT_END_LO, false },
	{ "xl_count", R_XL_COUNT, R_XL_COUNT, false },
	{ "fi_fail_opcode", R_FI_FAIL_OPCODE, R_FI_FAIL_OPCODE, false },
	{ "fi_fail_status", R_FI_FAIL_STATUS, R_FI_FAIL_STATUS, false },
	{ "fi_fail_every", R_FI_FAIL_EVERY, R_FI_FAIL_EVERY, false },
	{ "fi_failed", R_FI_FAILED, R_FI_FAILED, false },
	{ "fi_hold_ms", R_FI_HOLD_MS, R_FI_HOLD_MS, false },
	{ "fi_hold_opcode", R_FI_HOLD_OPCODE, R_FI_HOLD_OPCODE, false },
	{ "fi_corrupt_opcode", R_FI_CORRUPT_OPCODE, R_FI_CORRUPT_OPCODE, false },
	{ "fi_corrupted", R_FI_CORRUPTED, R_FI_CORRUPTED, false },
	/* the go bit of the HCR: 1 while a command runs or is held */
	{ "hcr_go", 0, 0, true },
};

static const char *prog = "stubctl";
static char devdir[512];
static volatile uint8_t *bar0;
static bool quiet;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static uint32_t rd(unsigned int off)
{
	return __builtin_bswap32(*(volatile uint32_t *)(bar0 + off));
}

static void wr(unsigned int off, uint32_t val)
{
	*(volatile uint32_t *)(bar0 + off) = __builtin_bswap32(val);
	__sync_synchronize();
}

static uint32_t drd(unsigned int off)
{
	return rd(DBG + off);
}

static void dwr(unsigned int off, uint32_t val)
{
	wr(DBG + off, val);
}

static unsigned long read_hex_file(const char *dir, const char *name)
{
	char path[600], buf[64];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		v = strtoul(buf, NULL, 16);
	fclose(f);
	return v;
}

/* the first 15b3:6282 function, or the one given with -d */
static void find_device(const char *bdf)
{
	struct dirent *de;
	DIR *d;

	if (bdf) {
		snprintf(devdir, sizeof(devdir), "/sys/bus/pci/devices/%s", bdf);
		if (access(devdir, F_OK))
			die("no PCI device %s", bdf);
		return;
	}
	d = opendir("/sys/bus/pci/devices");
	if (!d)
		die("opendir /sys/bus/pci/devices: %s", strerror(errno));
	while ((de = readdir(d))) {
		char dir[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s",
			 de->d_name);
		if (read_hex_file(dir, "vendor") == 0x15b3 &&
		    read_hex_file(dir, "device") == 0x6282) {
			memcpy(devdir, dir, sizeof(devdir));
			closedir(d);
			return;
		}
	}
	closedir(d);
	die("no 15b3:6282 device in /sys/bus/pci/devices");
}

static bool driver_bound(void)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof(path), "%s/driver", devdir);
	return lstat(path, &st) == 0;
}

/*
 * Memory decoding must be on to reach the BAR.  The firmware leaves it on
 * and the driver's pci_disable_device() does not clear it; if it is off
 * (no driver bound), turn on only that bit through the config file, never
 * through "enable" (that would leave an enable count behind).
 */
static void ensure_mem_decode(void)
{
	char path[600];
	uint16_t cmd;
	int fd;

	snprintf(path, sizeof(path), "%s/config", devdir);
	fd = open(path, O_RDWR);
	if (fd < 0)
		fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	if (pread(fd, &cmd, 2, 4) != 2)
		die("read PCI command register: %s", strerror(errno));
	if (!(cmd & 0x2)) {
		if (driver_bound())
			die("memory decoding is off although a driver is bound");
		cmd |= 0x2;
		if (pwrite(fd, &cmd, 2, 4) != 2)
			die("enable memory decoding: %s", strerror(errno));
	}
	close(fd);
}

static void map_bar0(void)
{
	char path[600];
	void *p;
	int fd;

	ensure_mem_decode();
	snprintf(path, sizeof(path), "%s/resource0", devdir);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	p = mmap(NULL, BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap %s: %s (iomem=relaxed missing?)", path,
		    strerror(errno));
	close(fd);
	bar0 = p;
	if (drd(R_ID) != DBG_ID_VALUE)
		die("debug window id is 0x%08x, not 0x%08x (not arbel-stub?)",
		    drd(R_ID), DBG_ID_VALUE);
}

static unsigned long parse_num(const char *s, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end)
		die("bad %s '%s'", what, s);
	return v;
}

static unsigned int parse_opcode(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(opcodes) / sizeof(opcodes[0]); i++)
		if (!strcasecmp(s, opcodes[i].name))
			return opcodes[i].op;
	if (s[0] >= '0' && s[0] <= '9') {
		unsigned long v = parse_num(s, "opcode");

		if (v && v <= 0xfff)
			return v;
	}
	die("unknown opcode '%s'", s);
}

static const struct key *find_key(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(name, keys[i].name))
			return &keys[i];
	die("unknown key '%s' (see 'stubctl show')", name);
}

static uint64_t key_value(const struct key *k)
{
	if (k->hcr)
		return !!(rd(HCR_CTRL) & HCR_GO);
	if (k->hi == k->lo)
		return drd(k->lo);
	return ((uint64_t)drd(k->hi) << 32) | drd(k->lo);
}

static void show(void)
{
	size_t i;

	printf("device=%s\n", strrchr(devdir, '/') + 1);
	printf("driver_bound=%d\n", driver_bound());
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key *k = &keys[i];
		uint64_t v = key_value(k);

		if (k->hi != k->lo || !strncmp(k->name, "fi_", 3) ||
		    !strcmp(k->name, "id"))
			printf("%s=0x%llx\n", k->name, (unsigned long long)v);
		else
			printf("%s=%llu\n", k->name, (unsigned long long)v);
	}
}

static int expect(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		unsigned long long want, got;
		char name[64];

		if (!eq || (size_t)(eq - argv[i]) >= sizeof(name))
			die("expect: '%s' is not KEY=VALUE", argv[i]);
		memcpy(name, argv[i], eq - argv[i]);
		name[eq - argv[i]] = 0;
		want = parse_num(eq + 1, "value");
		got = key_value(find_key(name));
		if (got != want) {
			printf("%s=%llu (expected %llu)\n", name, got, want);
			bad = 1;
		}
	}
	return bad;
}

static int expect_unmapped(void)
{
	uint32_t icm = drd(R_ICM_PAGES), fa = drd(R_FA_PAGES);
	uint32_t aux = drd(R_AUX_PAGES), mpts = drd(R_HW_MPTS);

	if (icm || fa || aux || mpts) {
		printf("still mapped: icm_pages=%u fa_pages=%u aux_pages=%u hw_mpts=%u fw_state=%u\n",
		       icm, fa, aux, mpts, drd(R_FW_STATE));
		return 1;
	}
	if (!quiet)
		printf("nothing mapped (fw_state=%u)\n", drd(R_FW_STATE));
	return 0;
}

static int expect_mapped(void)
{
	uint32_t icm = drd(R_ICM_PAGES), fa = drd(R_FA_PAGES);
	uint32_t aux = drd(R_AUX_PAGES);

	if (!icm || !fa || !aux) {
		printf("not brought up: icm_pages=%u fa_pages=%u aux_pages=%u fw_state=%u\n",
		       icm, fa, aux, drd(R_FW_STATE));
		return 1;
	}
	if (!quiet)
		printf("mapped: icm_pages=%u fa_pages=%u aux_pages=%u fw_state=%u\n",
		       icm, fa, aux, drd(R_FW_STATE));
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-d BDF] [-q] COMMAND [ARGS]\n"
		"  show | get KEY | expect KEY=VAL... | expect-unmapped | expect-mapped\n"
		"  fail OP STATUS [EVERY] | hold OP|any MS|forever | hold-opcode OP\n"
		"  release | corrupt OP OFFSET LEN [EVERY] | clear | mark N | reset\n"
		"  read OFF | write OFF VAL | opcode NAME\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *bdf = NULL, *cmd;
	int opt;

	while ((opt = getopt(argc, argv, "+d:qh")) != -1) {
		switch (opt) {
		case 'd':
			bdf = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	cmd = argv[0];
	argc--;
	argv++;

	if (!strcmp(cmd, "opcode")) {	/* no device needed */
		if (argc != 1)
			usage();
		printf("0x%03x\n", parse_opcode(argv[0]));
		return 0;
	}

	find_device(bdf);
	map_bar0();

	if (!strcmp(cmd, "show")) {
		show();
	} else if (!strcmp(cmd, "get")) {
		if (argc != 1)
			usage();
		printf("%llu\n", (unsigned long long)key_value(find_key(argv[0])));
	} else if (!strcmp(cmd, "expect")) {
		if (argc < 1)
			usage();
		return expect(argc, argv);
	} else if (!strcmp(cmd, "expect-unmapped")) {
		return expect_unmapped();
	} else if (!strcmp(cmd, "expect-mapped")) {
		return expect_mapped();
	} else if (!strcmp(cmd, "fail")) {
		unsigned int op;

		if (argc < 2 || argc > 3)
			usage();
		op = parse_opcode(argv[0]);
		/* status and period first: arming the opcode makes it live */
		dwr(R_FI_FAIL_STATUS, parse_num(argv[1], "status"));
		dwr(R_FI_FAIL_EVERY, argc > 2 ? parse_num(argv[2], "every") : 0);
		dwr(R_FI_FAIL_OPCODE, op);
	} else if (!strcmp(cmd, "hold")) {
		uint32_t ms;

		if (argc != 2)
			usage();
		ms = !strcmp(argv[1], "forever") ? 0xffffffffu :
			parse_num(argv[1], "milliseconds");
		dwr(R_FI_HOLD_OPCODE,
		    !strcmp(argv[0], "any") ? 0 : parse_opcode(argv[0]));
		dwr(R_FI_HOLD_MS, ms);
	} else if (!strcmp(cmd, "hold-opcode")) {
		if (argc != 1)
			usage();
		dwr(R_FI_HOLD_OPCODE, parse_opcode(argv[0]));
	} else if (!strcmp(cmd, "release")) {
		dwr(R_FI_HOLD_MS, 0);
	} else if (!strcmp(cmd, "corrupt")) {
		if (argc < 3 || argc > 4)
			usage();
		dwr(R_FI_CORRUPT_OFFSET, parse_num(argv[1], "offset"));
		dwr(R_FI_CORRUPT_LEN, parse_num(argv[2], "length"));
		dwr(R_FI_CORRUPT_EVERY,
		    argc > 3 ? parse_num(argv[3], "every") : 0);
		dwr(R_FI_CORRUPT_OPCODE, parse_opcode(argv[0]));
	} else if (!strcmp(cmd, "clear")) {
		dwr(R_FI_CLEAR, 1);
	} else if (!strcmp(cmd, "mark")) {
		unsigned long n;

		if (argc != 1)
			usage();
		n = parse_num(argv[0], "mark");
		if (n > 0xffff)
			die("mark must be 0..0xffff");
		dwr(R_XL_KEY, MARK_KEY_BASE | n);
		dwr(R_XL_ACCESS, 1);
		dwr(R_XL_LEN, 0);	/* refused before any ICM or DMA access */
		dwr(R_XL_GO, 1);
	} else if (!strcmp(cmd, "reset")) {
		if (driver_bound())
			die("reset: a driver is bound to %s", devdir);
		wr(RESET_REG, 1);
	} else if (!strcmp(cmd, "read")) {
		unsigned long off;

		if (argc != 1)
			usage();
		off = parse_num(argv[0], "offset");
		if (off >= DBG_SIZE || (off & 3))
			die("offset 0x%lx outside the window or unaligned", off);
		printf("0x%08x\n", drd(off));
	} else if (!strcmp(cmd, "write")) {
		unsigned long off;

		if (argc != 2)
			usage();
		off = parse_num(argv[0], "offset");
		if (off >= DBG_SIZE || (off & 3))
			die("offset 0x%lx outside the window or unaligned", off);
		dwr(off, parse_num(argv[1], "value"));
	} else {
		usage();
	}
	return 0;
}
