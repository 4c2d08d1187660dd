/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between the kernels arbel builds against (Debian 12's 6.1
 * and 6.12), in one place.  Each entry names the release that changed.
 */
#ifndef _ARBEL_COMPAT_H_
#define _ARBEL_COMPAT_H_

#include <linux/version.h>

/* 6.12: asm/unaligned.h moved to linux/unaligned.h */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 6.10: __assign_str() takes only the field; the source is __string()'s */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define arbel_assign_str(field, src) __assign_str(field)
#else
#define arbel_assign_str(field, src) __assign_str(field, src)
#endif

/* 6.8: PCI_IRQ_LEGACY became PCI_IRQ_INTX (the old name went in 6.10) */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
#define PCI_IRQ_INTX PCI_IRQ_LEGACY
#endif

/*
 * 6.11: create_cq takes the uverbs attribute bundle instead of the udata;
 * the udata is its first member, so a kernel CQ's NULL bundle gives a
 * NULL udata (as the drivers in the tree take it)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define arbel_cq_attrs uverbs_attr_bundle
#define arbel_cq_udata(x) (&(x)->driver_udata)
#else
#define arbel_cq_attrs ib_udata
#define arbel_cq_udata(x) (x)
#endif

#endif /* _ARBEL_COMPAT_H_ */
