// SPDX-License-Identifier: GPL-2.0
/*
 * stubctl: read and write arbel-stub's debug window (its register map is
 * qemu/arbel-dbgwin.h, described in Documentation/arbel-stub.rst) from
 * inside the test VM, while arbel.ko is bound or not.  The window is mapped through sysfs resource0 (the guest
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
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dbgwin.h"
#include "util.h"

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
	unsigned int off;	/* in the window; of the _HI half if wide */
	bool wide;		/* a _HI/_LO pair */
	bool hcr;		/* the HCR's go bit, not a window register */
};

#define REG32(name, reg)	{ name, ARBEL_DBG_##reg, false, false }
#define REG64(name, reg)	{ name, ARBEL_DBG_##reg##_HI, true, false }

static const struct key keys[] = {
	REG32("id", ID),
	REG32("version", VERSION),
	REG32("fw_state", FW_STATE),
	REG32("cmd_count", CMD_COUNT),
	REG32("icm_pages", ICM_PAGES),
	REG32("fa_pages", FA_PAGES),
	REG32("aux_pages", AUX_PAGES),
	REG32("hw_mpts", HW_MPTS),
	REG64("icm_size", ICM_SIZE),
	REG32("log_mpt_sz", LOG_MPT_SZ),
	REG64("mpt_base", MPT_BASE),
	REG64("mtt_base", MTT_BASE),
	REG64("mtt_end", MTT_END),
	REG32("xl_count", XL_COUNT),
	REG32("tpt_hits", TPT_HITS),
	REG32("tpt_misses", TPT_MISSES),
	REG32("tpt_syncs", TPT_SYNCS),
	REG32("dp_wqes", DP_WQES),
	REG32("dp_errors", DP_ERRORS),
	REG32("dp_recvs", DP_RECVS),
	REG32("dp_bytes", DP_BYTES),
	REG32("lc_accesses", LC_ACCESSES),
	REG32("lc_dmas", LC_DMAS),
	REG32("lc_irqs", LC_IRQS),
	REG32("fi_fail_opcode", FI_FAIL_OPCODE),
	REG32("fi_fail_status", FI_FAIL_STATUS),
	REG32("fi_fail_every", FI_FAIL_EVERY),
	REG32("fi_failed", FI_FAILED),
	REG32("fi_hold_ms", FI_HOLD_MS),
	REG32("fi_hold_opcode", FI_HOLD_OPCODE),
	REG32("fi_corrupt_opcode", FI_CORRUPT_OPCODE),
	REG32("fi_corrupted", FI_CORRUPTED),
	/* the go bit of the HCR: 1 while a command runs or is held */
	{ "hcr_go", 0, false, true },
};

static struct arbel_dev dev;
static bool quiet;

static unsigned int parse_opcode(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opcodes); i++)
		if (!strcasecmp(s, opcodes[i].name))
			return opcodes[i].op;
	if (s[0] >= '0' && s[0] <= '9') {
		unsigned long v = arbel_parse_num(s, "opcode");

		if (v && v <= 0xfff)
			return v;
	}
	arbel_die("unknown opcode '%s'", s);
}

static const struct key *find_key(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(name, keys[i].name))
			return &keys[i];
	arbel_die("unknown key '%s' (see 'stubctl show')", name);
}

static uint64_t key_value(const struct key *k)
{
	if (k->hcr)
		return !!(arbel_be32_read(&dev, ARBEL_HCR_CTRL) & ARBEL_HCR_GO);
	if (k->wide)
		return arbel_dbg_read64(&dev, k->off);
	return arbel_dbg_read(&dev, k->off);
}

static void show(void)
{
	size_t i;

	printf("device=%s\n", dev.bdf);
	printf("driver_bound=%d\n", arbel_dev_driver_bound(&dev));
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct key *k = &keys[i];
		uint64_t v = key_value(k);

		if (k->wide || !strncmp(k->name, "fi_", 3) ||
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
			arbel_die("expect: '%s' is not KEY=VALUE", argv[i]);
		memcpy(name, argv[i], eq - argv[i]);
		name[eq - argv[i]] = 0;
		want = arbel_parse_num(eq + 1, "value");
		got = key_value(find_key(name));
		if (got != want) {
			printf("%s=%llu (expected %llu)\n", name, got, want);
			bad = 1;
		}
	}
	return bad;
}

struct mapped {
	uint32_t icm, fa, aux, mpts, state;
};

static void read_mapped(struct mapped *m)
{
	m->icm = arbel_dbg_read(&dev, ARBEL_DBG_ICM_PAGES);
	m->fa = arbel_dbg_read(&dev, ARBEL_DBG_FA_PAGES);
	m->aux = arbel_dbg_read(&dev, ARBEL_DBG_AUX_PAGES);
	m->mpts = arbel_dbg_read(&dev, ARBEL_DBG_HW_MPTS);
	m->state = arbel_dbg_read(&dev, ARBEL_DBG_FW_STATE);
}

static int expect_unmapped(void)
{
	struct mapped m;

	read_mapped(&m);
	if (m.icm || m.fa || m.aux || m.mpts) {
		printf("still mapped: icm_pages=%u fa_pages=%u aux_pages=%u hw_mpts=%u fw_state=%u\n",
		       m.icm, m.fa, m.aux, m.mpts, m.state);
		return 1;
	}
	if (!quiet)
		printf("nothing mapped (fw_state=%u)\n", m.state);
	return 0;
}

static int expect_mapped(void)
{
	struct mapped m;

	read_mapped(&m);
	if (!m.icm || !m.fa || !m.aux) {
		printf("not brought up: icm_pages=%u fa_pages=%u aux_pages=%u fw_state=%u\n",
		       m.icm, m.fa, m.aux, m.state);
		return 1;
	}
	if (!quiet)
		printf("mapped: icm_pages=%u fa_pages=%u aux_pages=%u fw_state=%u\n",
		       m.icm, m.fa, m.aux, m.state);
	return 0;
}

/* a zero-length translation: refused before any ICM or DMA access */
static void mark(unsigned long n)
{
	struct arbel_xlate_req req = {
		.key = MARK_KEY_BASE | n,
		.access = ARBEL_XL_ACC_LOCAL_READ,
		.len = 0,
	};

	if (n > 0xffff)
		arbel_die("mark must be 0..0xffff");
	arbel_xlate(&dev, &req, NULL);
}

static unsigned long window_offset(const char *s)
{
	unsigned long off = arbel_parse_num(s, "offset");

	if (off >= ARBEL_DBG_SIZE || (off & 3))
		arbel_die("offset 0x%lx outside the window or unaligned", off);
	return off;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-d BDF] [-q] COMMAND [ARGS]\n"
		"  show | get KEY | expect KEY=VAL... | expect-unmapped | expect-mapped\n"
		"  fail OP STATUS [EVERY] | hold OP|any MS|forever | hold-opcode OP\n"
		"  release | corrupt OP OFFSET LEN [EVERY] | clear | mark N | reset\n"
		"  read OFF | write OFF VAL | opcode NAME\n",
		program_invocation_short_name);
	exit(ARBEL_EXIT_ERROR);
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

	arbel_dbg_open(&dev, bdf);

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
		if (argc < 2 || argc > 3)
			usage();
		arbel_fi_fail(&dev, parse_opcode(argv[0]),
			      arbel_parse_num(argv[1], "status"),
			      argc > 2 ? arbel_parse_num(argv[2], "every") : 0);
	} else if (!strcmp(cmd, "hold")) {
		uint32_t ms;

		if (argc != 2)
			usage();
		ms = !strcmp(argv[1], "forever") ? ARBEL_FI_HOLD_FOREVER :
			arbel_parse_num(argv[1], "milliseconds");
		arbel_fi_hold(&dev, !strcmp(argv[0], "any") ? 0 :
			      parse_opcode(argv[0]), ms);
	} else if (!strcmp(cmd, "hold-opcode")) {
		if (argc != 1)
			usage();
		arbel_dbg_write(&dev, ARBEL_DBG_FI_HOLD_OPCODE,
				parse_opcode(argv[0]));
	} else if (!strcmp(cmd, "release")) {
		arbel_fi_release(&dev);
	} else if (!strcmp(cmd, "corrupt")) {
		if (argc < 3 || argc > 4)
			usage();
		arbel_fi_corrupt(&dev, parse_opcode(argv[0]),
				 arbel_parse_num(argv[1], "offset"),
				 arbel_parse_num(argv[2], "length"),
				 argc > 3 ? arbel_parse_num(argv[3], "every") : 0);
	} else if (!strcmp(cmd, "clear")) {
		arbel_fi_clear(&dev);
	} else if (!strcmp(cmd, "mark")) {
		if (argc != 1)
			usage();
		mark(arbel_parse_num(argv[0], "mark"));
	} else if (!strcmp(cmd, "reset")) {
		if (arbel_dev_driver_bound(&dev))
			arbel_die("reset: a driver is bound to %s", dev.dir);
		arbel_be32_write(&dev, ARBEL_RESET_REG, ARBEL_RESET_VALUE);
	} else if (!strcmp(cmd, "read")) {
		if (argc != 1)
			usage();
		printf("0x%08x\n", arbel_dbg_read(&dev, window_offset(argv[0])));
	} else if (!strcmp(cmd, "write")) {
		unsigned long off;

		if (argc != 2)
			usage();
		off = window_offset(argv[0]);
		arbel_dbg_write(&dev, off, arbel_parse_num(argv[1], "value"));
	} else {
		usage();
	}
	return 0;
}
