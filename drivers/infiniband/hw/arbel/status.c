// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware status codes -> errno, and names for opcodes and statuses (for
 * logs, debugfs and tracepoints).
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include <arbel/status.h>

struct arbel_status_info {
	u8 status;
	int err;
	const char *name;
};

#define ARBEL_STATUS_INFO(name, err) \
	{ ARBEL_STAT_##name, err, #name },

static const struct arbel_status_info arbel_statuses[] = {
	ARBEL_STATUS_LIST(ARBEL_STATUS_INFO, ARBEL_STATUS_INFO)
};

static const struct arbel_status_info *arbel_status_find(u8 status)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(arbel_statuses); i++)
		if (arbel_statuses[i].status == status)
			return &arbel_statuses[i];
	return NULL;
}

/**
 * arbel_status_to_errno() - the errno a firmware status stands for
 * @status: HCR status byte
 *
 * Context: any.
 * Return: 0 for OK, a negative errno for every status the PRM names, and
 * -EINVAL for any other status.
 */
int arbel_status_to_errno(u8 status)
{
	const struct arbel_status_info *info = arbel_status_find(status);

	return info ? info->err : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_status_to_errno);

/**
 * arbel_status_known() - whether the PRM names a firmware status
 * @status: HCR status byte
 *
 * Context: any.
 * Return: true for the statuses in the PRM's table.
 */
bool arbel_status_known(u8 status)
{
	return arbel_status_find(status);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_status_known);

/**
 * arbel_status_name() - the PRM name of a firmware status
 * @status: HCR status byte
 *
 * Context: any.
 * Return: a static string, "UNKNOWN" for statuses the PRM does not name.
 */
const char *arbel_status_name(u8 status)
{
	const struct arbel_status_info *info = arbel_status_find(status);

	return info ? info->name : "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(arbel_status_name);

struct arbel_opcode_info {
	u16 opcode;
	const char *name;
};

#define ARBEL_OPCODE_INFO(name) { ARBEL_CMD_##name, #name },

static const struct arbel_opcode_info arbel_opcodes[] = {
	ARBEL_OPCODE_LIST(ARBEL_OPCODE_INFO, ARBEL_OPCODE_INFO)
};

/**
 * arbel_opcode_name() - the PRM name of a firmware opcode
 * @opcode: 12-bit opcode
 *
 * Context: any.
 * Return: a static string such as "SW2HW_MPT", or "UNKNOWN".
 */
const char *arbel_opcode_name(u16 opcode)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(arbel_opcodes); i++)
		if (arbel_opcodes[i].opcode == opcode)
			return arbel_opcodes[i].name;
	return "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(arbel_opcode_name);
