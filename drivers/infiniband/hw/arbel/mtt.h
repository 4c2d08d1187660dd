/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MTT entries: the ICM chunks of the MTT table the driver keeps mapped,
 * where a range of entries lies, and the two ways of filling a range
 * (CPU stores into ICM, or WRITE_MTT commands).  Knows nothing of the
 * regions that use the ranges (mr.c).
 */
#ifndef _ARBEL_MTT_H
#define _ARBEL_MTT_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <rdma/ib_umem.h>

struct arbel_dev;

/**
 * struct arbel_mtt - a range of MTT entries and the page size they map
 * @first: first entry (index in the MTT table)
 * @n: entries; 0 for none
 * @page_shift: log2 of the page each entry maps
 */
struct arbel_mtt {
	u32 first;
	u32 n;
	u8 page_shift;
};

/**
 * struct arbel_mtt_icm - MTT chunks held mapped by the MR layer
 * @buf: CPU address of each chunk of the MTT table, NULL while not held;
 *	 set once (under @lock, with release semantics) and cleared only by
 *	 arbel_mtt_icm_release()
 * @nchunks: chunks in the MTT table
 * @per_chunk: MTT entries per chunk
 * @lock: serialises taking a chunk
 */
struct arbel_mtt_icm {
	void **buf;
	u32 nchunks;
	u32 per_chunk;
	struct mutex lock;	/* taking a chunk */
};

int arbel_mtt_icm_init(struct arbel_dev *adev);
void arbel_mtt_icm_release(struct arbel_dev *adev);
int arbel_mtt_icm_hold(struct arbel_dev *adev, u32 first, u32 n);
u64 arbel_mtt_addr(struct arbel_dev *adev, u32 first);
int arbel_mtt_write(struct arbel_dev *adev, const struct arbel_mtt *mtt,
		    struct ib_umem *umem);
int arbel_mtt_write_direct(struct arbel_dev *adev,
			   const struct arbel_mtt *mtt, struct ib_umem *umem);
int arbel_mtt_write_cmd(struct arbel_dev *adev, const struct arbel_mtt *mtt,
			struct ib_umem *umem);
int arbel_mtt_cpu_map(struct arbel_dev *adev, const struct arbel_mtt *mtt,
		      __be64 **ent);
__be64 arbel_mtt_entry(u64 addr);

#endif /* _ARBEL_MTT_H */
