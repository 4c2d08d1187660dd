/*
 * arbel-stub: an emulated Mellanox InfiniHost III Ex (MT25208, "Arbel",
 * mem-free mode) HCA and its firmware, for testing the arbel driver.
 *
 * The umbrella header, for the glue (arbel-pci.c) only: it includes every
 * module's header.  Every other file includes the base headers
 * (arbel-hw.h, arbel-state.h, arbel-dbgwin.h) and the headers of its own
 * and lower layers only; Documentation/arbel-stub.rst "Layers" has the
 * order and scripts/stub-layers.py checks it.
 *
 * Written from Documentation/arbel-hw.rst only; it shares no code or headers
 * with any driver.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_STUB_H
#define HW_ARBEL_STUB_H

#include "arbel-hw.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "arbel-fault.h"
#include "arbel-life.h"
#include "arbel-dma.h"
#include "arbel-irq.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-mpt.h"
#include "arbel-eq.h"
#include "arbel-catas.h"
#include "arbel-mad.h"
#include "arbel-objects.h"
#include "arbel-wqe.h"
#include "arbel-dp.h"
#include "arbel-fw.h"
#include "arbel-cmd.h"
#include "arbel-hcr.h"
#include "arbel-debug.h"

#endif
