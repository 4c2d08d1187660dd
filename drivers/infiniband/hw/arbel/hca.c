// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mem-free firmware bring-up and teardown, in the PRM's order:
 * QUERY_FW, ENABLE_LAM (refused: no attached memory), MAP_FA + RUN_FW,
 * QUERY_DEV_LIM, the ICM profile, SET_ICM_SIZE + MAP_ICM_AUX, MAP_ICM of
 * every table's reserved chunks, INIT_HCA, QUERY_ADAPTER.  Teardown runs
 * the exact reverse, and so does every failure path.
 */

#include <linux/device.h>
#include <linux/log2.h>

#include <arbel/status.h>
#include "arbel.h"

static const char * const arbel_table_names[ARBEL_ICM_NR_TABLES] = {
	[ARBEL_ICM_MPT] = "MPT", [ARBEL_ICM_MTT] = "MTT",
	[ARBEL_ICM_QPC] = "QPC", [ARBEL_ICM_EQPC] = "EQPC",
	[ARBEL_ICM_RDB] = "RDB", [ARBEL_ICM_SRQC] = "SRQC",
	[ARBEL_ICM_CQC] = "CQC", [ARBEL_ICM_EQC] = "EQC",
	[ARBEL_ICM_MCG] = "MCG", [ARBEL_ICM_UAR_SCR] = "UAR_SCR",
	[ARBEL_ICM_EEC] = "EEC", [ARBEL_ICM_EEEC] = "EEEC",
};

/*
 * Before freeing what the HCA was given: if a command timed out or a
 * teardown command was refused, the firmware may still be working and
 * writing host memory: reset the HCA first.
 */
static void arbel_quiesce_failed(struct arbel_dev *adev)
{
	if (arbel_cmd_failed(&adev->cmd))
		arbel_dev_fail(adev, "a firmware command failed");
}

/*
 * A refused or lost teardown command escalates to a reset.  The transport
 * logged the refusal with its status, or the timeout; -EIO means the
 * device had failed before, which was logged then.
 */
static void arbel_teardown_failed(struct arbel_dev *adev, u16 opcode,
				  int err)
{
	if (err != -EIO)
		dev_err(&adev->pdev->dev, "%s failed during teardown: %d\n",
			arbel_opcode_name(opcode), err);
	arbel_dev_fail(adev, arbel_opcode_name(opcode));
}

/*
 * Free the firmware area or aux ICM once its UNMAP_FA / UNMAP_ICM_AUX
 * (@unmap_err, the command's result) said the firmware let go; if it did
 * not, the HCA is reset first.
 */
static void arbel_area_give_back(struct arbel_dev *adev,
				 struct arbel_icm_area *area, u16 opcode,
				 int unmap_err)
{
	if (unmap_err)
		arbel_teardown_failed(adev, opcode, unmap_err);
	arbel_icm_area_free(&adev->pdev->dev, area);
}

static int arbel_load_fw(struct arbel_dev *adev)
{
	struct device *dev = &adev->pdev->dev;
	int err;

	err = arbel_fw_query_fw(&adev->cmd, &adev->fw);
	if (err)
		return err;
	if (!adev->fw.fw_pages) {
		dev_err(dev, "QUERY_FW reports a firmware area of 0 pages\n");
		return -EIO;
	}

	err = arbel_fw_enable_lam(&adev->cmd);
	if (!err) {
		dev_err(dev, "ENABLE_LAM succeeded: the HCA has attached memory; only mem-free mode is supported\n");
		return -ENODEV;
	}
	if (err != -EAGAIN)
		return err;

	err = arbel_icm_area_map(&adev->cmd, dev, &adev->fw_area,
				 adev->fw.fw_pages, ARBEL_CMD_MAP_FA);
	if (err)
		goto err_unmap;
	err = arbel_fw_run_fw(&adev->cmd);
	if (err)
		goto err_unmap;
	return 0;

err_unmap:
	arbel_quiesce_failed(adev);
	arbel_area_give_back(adev, &adev->fw_area, ARBEL_CMD_UNMAP_FA,
			     arbel_fw_unmap_fa(&adev->cmd));
	return err;
}

static void arbel_unload_fw(struct arbel_dev *adev)
{
	arbel_area_give_back(adev, &adev->fw_area, ARBEL_CMD_UNMAP_FA,
			     arbel_fw_unmap_fa(&adev->cmd));
}

static int arbel_check_dev_lim(struct arbel_dev *adev)
{
	const struct arbel_dev_lim *lim = &adev->lim;
	struct device *dev = &adev->pdev->dev;

	if (lim->mpt_entry_sz != ARBEL_MPT_ENTRY_SIZE ||
	    lim->mtt_entry_sz != ARBEL_MTT_ENTRY_SIZE) {
		dev_err(dev, "unexpected MPT/MTT entry sizes %u/%u\n",
			lim->mpt_entry_sz, lim->mtt_entry_sz);
		return -ENODEV;
	}
	if (lim->log_min_page_size > PAGE_SHIFT) {
		dev_err(dev, "HCA minimum page size 2^%u exceeds PAGE_SIZE\n",
			lim->log_min_page_size);
		return -ENODEV;
	}
	if (lim->uar_size > pci_resource_len(adev->pdev, ARBEL_UAR_BAR)) {
		dev_err(dev, "UAR size %llu exceeds BAR%d\n", lim->uar_size,
			ARBEL_UAR_BAR);
		return -ENODEV;
	}
	return 0;
}

/*
 * Unmap the tables' reserved chunks (a refused UNMAP_ICM holds its chunk
 * and marks the device failed), reset a failed HCA, then free.
 */
static void arbel_tables_cleanup(struct arbel_dev *adev, int n)
{
	int i;

	for (i = n; i-- > 0;)
		arbel_icm_table_release(&adev->icm[i]);
	arbel_quiesce_failed(adev);
	for (i = n; i-- > 0;)
		arbel_icm_table_cleanup(&adev->icm[i]);
}

static int arbel_tables_init(struct arbel_dev *adev)
{
	int i, err;

	for (i = 0; i < ARBEL_ICM_NR_TABLES; i++) {
		adev->icm[i].max_block = adev->icm_max_block;
		err = arbel_icm_table_init(&adev->icm[i], &adev->cmd,
					   &adev->pdev->dev,
					   &adev->layout.t[i]);
		if (err) {
			dev_err(&adev->pdev->dev, "mapping the %s table failed: %d\n",
				arbel_table_names[i], err);
			arbel_tables_cleanup(adev, i + 1);
			return err;
		}
	}
	return 0;
}

static int arbel_init_icm(struct arbel_dev *adev, u8 log_num_mpts,
			  u8 log_num_mtts)
{
	struct device *dev = &adev->pdev->dev;
	u8 max_mpts, max_mtts;
	u64 aux_pages;
	int err;

	err = arbel_fw_query_dev_lim(&adev->cmd, &adev->lim);
	if (err)
		return err;
	err = arbel_check_dev_lim(adev);
	if (err)
		return err;

	max_mpts = arbel_profile_max_log_mpts(&adev->lim);
	max_mtts = arbel_profile_max_log_mtts(&adev->lim);
	if (log_num_mpts > max_mpts) {
		dev_info(dev, "log_num_mpt %u lowered to %u\n", log_num_mpts,
			 max_mpts);
		log_num_mpts = max_mpts;
	}
	if (log_num_mtts > max_mtts) {
		dev_info(dev, "log_num_mtt %u lowered to %u\n", log_num_mtts,
			 max_mtts);
		log_num_mtts = max_mtts;
	}
	err = arbel_icm_profile(&adev->lim, log_num_mpts, log_num_mtts,
				PAGE_SIZE, &adev->layout);
	if (err) {
		dev_err(dev, "no ICM profile for 2^%u MPTs and 2^%u MTTs: %d\n",
			log_num_mpts, log_num_mtts, err);
		return err;
	}

	err = arbel_fw_set_icm_size(&adev->cmd, adev->layout.total,
				    &aux_pages);
	if (err)
		return err;
	/* aux ICM is the firmware's bookkeeping of the ICM: never larger */
	if (aux_pages > adev->layout.total / ARBEL_ICM_PAGE_SIZE) {
		dev_err(dev, "SET_ICM_SIZE asks for %llu aux pages for %llu bytes of ICM\n",
			aux_pages, adev->layout.total);
		return -EINVAL;
	}
	err = arbel_icm_area_map(&adev->cmd, dev, &adev->aux, aux_pages,
				 ARBEL_CMD_MAP_ICM_AUX);
	if (err)
		goto err_unmap_aux;

	err = arbel_tables_init(adev);
	if (err)
		goto err_unmap_aux;
	return 0;

err_unmap_aux:
	arbel_quiesce_failed(adev);
	arbel_area_give_back(adev, &adev->aux, ARBEL_CMD_UNMAP_ICM_AUX,
			     arbel_fw_unmap_icm_aux(&adev->cmd));
	return err;
}

static void arbel_cleanup_icm(struct arbel_dev *adev)
{
	arbel_tables_cleanup(adev, ARBEL_ICM_NR_TABLES);
	arbel_area_give_back(adev, &adev->aux, ARBEL_CMD_UNMAP_ICM_AUX,
			     arbel_fw_unmap_icm_aux(&adev->cmd));
}

static u64 arbel_icm_mapped_kib(struct arbel_dev *adev)
{
	u64 pages = 0;
	int i;

	for (i = 0; i < ARBEL_ICM_NR_TABLES; i++)
		pages += arbel_icm_table_mapped_pages(&adev->icm[i]);
	return pages * ARBEL_ICM_PAGE_SIZE / SZ_1K;
}

/**
 * arbel_hca_init() - bring the firmware up and initialise the HCA
 * @adev: the HCA, reset, with its command transport ready
 * @log_num_mpts: MPT table size wanted (log2), lowered to the device's
 * @log_num_mtts: MTT entries wanted (log2), lowered to the device's
 *
 * Context: process; sleeps.
 * Return: 0, or a negative errno with everything undone.
 */
int arbel_hca_init(struct arbel_dev *adev, u8 log_num_mpts, u8 log_num_mtts)
{
	struct device *dev = &adev->pdev->dev;
	int err;

	err = arbel_load_fw(adev);
	if (err)
		return err;
	err = arbel_init_icm(adev, log_num_mpts, log_num_mtts);
	if (err)
		goto err_fw;

	err = arbel_fw_init_hca(&adev->cmd, &adev->layout);
	if (err)
		goto err_icm;
	err = arbel_fw_query_adapter(&adev->cmd, adev->board_id,
				     sizeof(adev->board_id), &adev->inta_pin);
	if (err)
		goto err_close;

	dev_info(dev, "firmware %u.%u.%u, board %s: %u MPTs, %u MTT entries, ICM %llu KiB laid out, %llu KiB mapped, FA %llu KiB, aux %llu KiB\n",
		 adev->fw.major, adev->fw.minor, adev->fw.subminor,
		 adev->board_id, 1U << adev->layout.t[ARBEL_ICM_MPT].log_num,
		 1U << adev->layout.t[ARBEL_ICM_MTT].log_num,
		 adev->layout.total / SZ_1K, arbel_icm_mapped_kib(adev),
		 arbel_icm_area_size(&adev->fw_area) / SZ_1K,
		 arbel_icm_area_size(&adev->aux) / SZ_1K);
	return 0;

err_close:
	if (arbel_fw_close_hca(&adev->cmd))
		arbel_dev_fail(adev, "CLOSE_HCA after a failed bring-up");
err_icm:
	arbel_quiesce_failed(adev);
	arbel_cleanup_icm(adev);
err_fw:
	arbel_quiesce_failed(adev);
	arbel_unload_fw(adev);
	return err;
}

/**
 * arbel_hca_cleanup() - undo arbel_hca_init()
 * @adev: the HCA
 *
 * Context: process; sleeps.
 */
void arbel_hca_cleanup(struct arbel_dev *adev)
{
	int err = arbel_fw_close_hca(&adev->cmd);

	if (err)
		arbel_teardown_failed(adev, ARBEL_CMD_CLOSE_HCA, err);
	arbel_cleanup_icm(adev);
	arbel_unload_fw(adev);
}

/**
 * arbel_hca_ports_up() - INIT_IB on the ports the ib_device has
 * @adev: the HCA, its EQ taking events (the ports report going active)
 *
 * mthca brings a port's link up when its QP0 reaches RTR; arbel brings
 * every port up at bring-up instead, before ib_mad makes the special QPs,
 * so that the ports carry traffic from the first (the firmware sends
 * nothing out of a port without INIT_IB).
 *
 * Context: process; sleeps.
 * Return: 0, or the errno of INIT_IB with every port taken down again.
 */
int arbel_hca_ports_up(struct arbel_dev *adev)
{
	u8 ports = min_t(u8, adev->lim.num_ports, ARBEL_MAX_PORTS), port;
	int err;

	for (port = 1; port <= ports; port++) {
		err = arbel_fw_init_ib(&adev->cmd, port, &adev->lim);
		if (err) {
			dev_err(&adev->pdev->dev, "INIT_IB of port %u failed: %d\n",
				port, err);
			while (--port)
				arbel_fw_close_ib(&adev->cmd, port);
			return err;
		}
	}
	return 0;
}

/**
 * arbel_hca_ports_down() - undo arbel_hca_ports_up()
 * @adev: the HCA
 *
 * Context: process; sleeps.
 */
void arbel_hca_ports_down(struct arbel_dev *adev)
{
	u8 ports = min_t(u8, adev->lim.num_ports, ARBEL_MAX_PORTS), port;
	int err;

	for (port = 1; port <= ports; port++) {
		err = arbel_fw_close_ib(&adev->cmd, port);
		if (err && !arbel_cmd_failed(&adev->cmd))
			dev_warn(&adev->pdev->dev,
				 "CLOSE_IB of port %u failed: %d\n", port, err);
	}
}
