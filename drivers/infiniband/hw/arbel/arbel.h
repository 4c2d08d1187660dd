/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver-private state of one Arbel HCA.
 *
 * The headers of this directory are the driver's internal ones: one per
 * layer above the pure layers (cmd.h, fw.h, icm.h, mtt.h, mr.h, eq.h,
 * mad.h, verbs.h; cmd_priv.h between the transport's files; compat.h and
 * trace.h), each including include/arbel/ and the layers below it, and
 * this one, the device.  What is pure -- the hardware interface (prm.h)
 * and the layers that touch no device and run under UML KUnit -- is in
 * include/arbel/ and never includes a header of this directory (see the
 * rule in include/arbel/prm.h).
 */
#ifndef _ARBEL_H
#define _ARBEL_H

#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/pci.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include <arbel/alloc.h>
#include <arbel/prm.h>
#include <arbel/profile.h>
#include "cmd.h"
#include "eq.h"
#include "fw.h"
#include "icm.h"
#include "kq.h"
#include "mtt.h"

#define ARBEL_DRV_NAME		"arbel"
/* ports the ib_device has (and INIT_IB brings up): the MT25208's two */
#define ARBEL_MAX_PORTS		2

/**
 * struct arbel_mcg - the multicast group table (mcg.c)
 * @lock: serialises every change of the table
 * @amgm: the overflow entries in use, [@hash_sz, @num)
 * @hash_sz: entries of the hash table, the first of the table
 * @num: entries in all
 */
struct arbel_mcg {
	struct mutex lock;	/* every change of the table */
	struct ida amgm;
	u32 hash_sz;
	u32 num;
};

/**
 * struct arbel_dev - one Arbel HCA
 * @ibdev: the RDMA core's device while one is registered, else NULL: a
 *	   new one for every bring-up (verbs.c), since an unregistered
 *	   ib_device cannot be registered again
 * @num_ports: ports the ib_device has
 * @pdev: the PCI function
 * @dcs: BAR0, the device configuration space (HCR, reset register)
 * @cmd: the firmware command transport
 * @fw: what QUERY_FW reported
 * @lim: what QUERY_DEV_LIM reported
 * @layout: the ICM profile handed to INIT_HCA
 * @fw_area: the firmware area (MAP_FA)
 * @aux: auxiliary ICM (MAP_ICM_AUX)
 * @icm: the context tables, indexed by enum arbel_icm_table_id
 * @icm_max_block: largest block tried for an ICM chunk (bytes; 0: whole
 *		   chunks), from debugfs arbel/icm_max_block_kib at probe
 * @write_mtt: MTT entries go through WRITE_MTT instead of CPU stores;
 *	       debugfs arbel/<bdf>/write_mtt, read at each registration
 * @board_id: from QUERY_ADAPTER
 * @inta_pin: from QUERY_ADAPTER: the interrupt pin wired to INTA#
 * @debugfs: arbel/<pci-bdf>/
 * @fail_lock: serialises arbel_dev_fail() (the reset; the state itself,
 *	       alive, failed or gone, is the transport's @cmd.state)
 * @fail_work: arbel_dev_fail() as soon as a command fails the device
 *	       (scheduled by the command transport while the device is
 *	       registered)
 * @registered: events may be dispatched to @ibdev: from just before
 *		ib_register_device() until ib_unregister_device() returned
 * @keys: MPT slots and key tags
 * @mtt: free MTT entries
 * @mtt_icm: the MTT table's chunks kept mapped for CPU writes (mtt.c)
 * @pd_ida: PD numbers in [@rsvd_pd, @max_pd)
 * @uar_ida: UAR pages for user contexts in [@rsvd_uar, num_uars)
 * @rsvd_pd: PD numbers the firmware keeps
 * @max_pd: PD numbers in all
 * @rsvd_uar: UARs the firmware or the driver keeps
 * @sys_image_guid: from NodeInfo
 * @vendor_id: from NodeInfo
 * @eq: the event queue (commands, async and fatal events)
 * @num_cqs: CQ numbers in the table; @rsvd_cqs: the firmware's
 * @num_qps: QP numbers in the table; @rsvd_qps: the firmware's
 * @num_srqs: SRQ numbers in the table; @rsvd_srqs: the firmware's
 * @rsvd_cqs: see @num_cqs
 * @rsvd_qps: see @num_qps
 * @rsvd_srqs: see @num_srqs
 * @cq_ida: CQ numbers
 * @qp_ida: QP numbers
 * @srq_ida: SRQ numbers
 * @cq_xa: CQs by number, for their events
 * @qp_xa: QPs by number, for their events
 * @srq_xa: SRQs by number, for their events
 * @fr_xa: fast-registration regions by MPT slot, for LOCAL_INV (frmr.c)
 * @mcg: the multicast group table
 * @port_lock: serialises changes of a port's capability mask
 * @driver_pd: the PD of the driver's own regions (the EQ ring, kernel
 *	       CQs); the verbs PD numbers start after it
 * @kq: the kernel's UAR, doorbell records and special QPs (kbuf.c)
 * @fatal: bit 0: a fatal error was reported (arbel_dev_fatal()) or remove
 *	   began: the recovery is queued once
 * @fatal_why: what the fatal error was, for the log
 * @recover_work: fails the device and brings the HCA up again, the PCI
 *		  function staying bound (main.c)
 * @recover_lock: serialises @recover_work with probe's bring-up, remove
 *		  and shutdown
 * @removing: probe failed, or remove or shutdown began: no recovery any
 *	      more
 * @up: the HCA's state is built (arbel_dev_up() succeeded, not undone)
 */
struct arbel_dev {
	struct ib_device *ibdev;
	u8 num_ports;
	struct pci_dev *pdev;
	void __iomem *dcs;
	struct arbel_cmd_transport cmd;
	struct arbel_fw_info fw;
	struct arbel_dev_lim lim;
	struct arbel_icm_layout layout;
	struct arbel_icm_area fw_area;
	struct arbel_icm_area aux;
	struct arbel_icm_table icm[ARBEL_ICM_NR_TABLES];
	u32 icm_max_block;
	bool write_mtt;
	char board_id[ARBEL_BOARD_ID_LEN + 1];
	u8 inta_pin;
	struct dentry *debugfs;
	struct mutex fail_lock;	/* arbel_dev_fail() */
	struct work_struct fail_work;
	bool registered;
	struct arbel_keys keys;
	struct arbel_mtt_pool mtt;
	struct arbel_mtt_icm mtt_icm;
	struct ida pd_ida;
	struct ida uar_ida;
	u32 rsvd_pd;
	u32 max_pd;
	u32 rsvd_uar;
	__be64 sys_image_guid;
	u32 vendor_id;
	struct arbel_eq eq;
	u32 num_cqs;
	u32 num_qps;
	u32 num_srqs;
	u32 rsvd_cqs;
	u32 rsvd_qps;
	u32 rsvd_srqs;
	struct ida cq_ida;
	struct ida qp_ida;
	struct ida srq_ida;
	struct xarray cq_xa;
	struct xarray qp_xa;
	struct xarray srq_xa;
	struct xarray fr_xa;
	struct arbel_mcg mcg;
	struct mutex port_lock;	/* arbel_modify_port() */
	u32 driver_pd;
	struct arbel_kq kq;
	unsigned long fatal;
	const char *fatal_why;
	struct work_struct recover_work;
	struct mutex recover_lock;	/* @recover_work vs. remove */
	bool removing;
	bool up;
};

/* reset.c: failing the device; below every layer that may need it */
int arbel_hca_reset(struct arbel_dev *adev);
void arbel_dev_fail(struct arbel_dev *adev, const char *why);
void arbel_dev_fatal(struct arbel_dev *adev, const char *why);

/*
 * 0 while the device is alive, -EIO once it failed: a kernel queue's post
 * checks it under the queue's lock (arbel_kq_fatal() waits for those).
 */
static inline int arbel_dev_posting(struct arbel_dev *adev)
{
	return READ_ONCE(adev->cmd.state) == ARBEL_ALIVE ? 0 : -EIO;
}

/*
 * P_Keys a port's table holds: QUERY_DEV_LIM's max_pkey, what INIT_IB
 * gave every port (fw.c).  Reported as max_pkeys and pkey_tbl_len, and
 * the bound of a QP's P_Key index.
 */
static inline u16 arbel_pkey_table_len(const struct arbel_dev *adev)
{
	return 1U << adev->lim.log_max_pkeys;
}

/* hca.c */
int arbel_hca_init(struct arbel_dev *adev, u8 log_num_mpts, u8 log_num_mtts);
void arbel_hca_cleanup(struct arbel_dev *adev);
int arbel_hca_ports_up(struct arbel_dev *adev);
void arbel_hca_ports_down(struct arbel_dev *adev);

#endif /* _ARBEL_H */
