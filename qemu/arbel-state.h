/*
 * arbel-stub: the device's state, one struct per module.
 *
 * ArbelState embeds one struct per module; each is read and written only by
 * the files of the module named in its comment (scripts/stub-layers.py
 * checks the "s->member" accesses).  Other modules go through that module's
 * functions.  "props" holds the device properties: set before realize, read
 * by anyone, written by no one.  Documentation/arbel-stub.rst, "Layers".
 *
 * A base header, like arbel-hw.h: every layer may include it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_STATE_H
#define HW_ARBEL_STATE_H

#include "hw/pci/pci.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "arbel-hw.h"

/*
 * Hash functions for the GHashTables whose keys come in runs -- ICM leaf
 * numbers (arbel-icm.c), MTT entry addresses, MPT slots, QP numbers,
 * guest page frames: the key mixed (Fibonacci hashing) before GLib takes
 * it modulo its table size.  With the key itself as its hash (g_int64_hash,
 * g_direct_hash) some layouts put runs on the same slots, and every lookup
 * paid the probing: arbel.ko's ICM layout did, and its context reads took
 * twice as long as ib_mthca's (Documentation/benchmarks.rst, "The stub's
 * hash tables").
 */
static inline guint arbel_hash_mix(uint64_t v)
{
    return (guint)((v * 0x9e3779b97f4a7c15ULL) >> 32);
}

/* for keys that point to a uint64_t (with g_int64_equal) */
static inline guint arbel_hash_u64(gconstpointer key)
{
    return arbel_hash_mix(*(const uint64_t *)key);
}

/* for keys that are the number itself (with g_direct_equal) */
static inline guint arbel_hash_direct(gconstpointer key)
{
    return arbel_hash_mix((uintptr_t)key);
}

#define TYPE_ARBEL_STUB "arbel-stub"
OBJECT_DECLARE_SIMPLE_TYPE(ArbelState, ARBEL_STUB)

/* Fault injection settings (properties and debug window) */
typedef struct ArbelFaults {
    uint32_t fail_opcode;   /* 0 = off */
    uint32_t fail_status;
    uint32_t fail_every;    /* 0 = next matching command only */
    uint32_t fail_seen;     /* matching commands seen */
    uint32_t failed;        /* failures injected so far */
    uint32_t hold_ms;       /* 0 = off; UINT32_MAX = until released */
    uint32_t hold_opcode;   /* 0 = any */
    uint32_t corrupt_opcode;/* 0 = off */
    uint32_t corrupt_offset;
    uint32_t corrupt_len;
    uint32_t corrupt_every; /* 0 = next matching command only */
    uint32_t corrupt_seen;
    uint32_t corrupted;
} ArbelFaults;

/* Device properties (arbel-pci.c defines them); read-only after realize */
typedef struct ArbelProps {
    uint64_t node_guid;
    uint64_t port_guid;
    uint32_t fw_pages;
    uint8_t num_ports;      /* 1 or 2 */
    uint16_t lid;           /* port 1's LID; port n has lid + n - 1 */
    PCIDevice *cable;       /* another arbel-stub the ports are cabled to */
    bool msix;              /* MSI-X capability present */
    ArbelFaults faults;     /* fault injection armed at reset */
} ArbelProps;

/* arbel-trace.c: the command trace */
typedef struct ArbelTrace {
    uint64_t seq;           /* events so far ("#N") */
} ArbelTrace;

/* arbel-irq.c: interrupt raising */
typedef struct ArbelIrq {
    uint64_t int_pending;   /* INTx pins raised, not yet cleared */
    uint8_t inta_pin;       /* the pin wired to INTA (QUERY_ADAPTER 0x10) */
} ArbelIrq;

/*
 * arbel-life.c: the card's life cycle as tests drive it through the debug
 * window -- pulled from its slot, what it did since its last reset -- and
 * the guest pages the driver handed to the HCA (firmware area, aux ICM,
 * ICM), which no mailbox and no data DMA may touch.
 */
#define ARBEL_LIFE_COUNTS 4     /* ArbelLifeCount (arbel-life.h) */
typedef struct ArbelLife {
    bool pulled;            /* reads all-ones; writes, DMA, interrupts lost */
    bool expect;            /* tests: ownership reports are expected */
    uint32_t count[ARBEL_LIFE_COUNTS];
    GHashTable *owned;      /* guest page frame -> its owner */
} ArbelLife;

/* The ICM tables INIT_HCA describes (arbel-fw.c reads them) */
typedef enum ArbelTableId {
    ARBEL_TBL_QPC, ARBEL_TBL_EEC, ARBEL_TBL_SRQC, ARBEL_TBL_CQC,
    ARBEL_TBL_EQPC, ARBEL_TBL_EEEC, ARBEL_TBL_EQC, ARBEL_TBL_RDB,
    ARBEL_TBL_MC, ARBEL_TBL_MPT, ARBEL_TBL_MTT, ARBEL_TBL_UAR_SCR,
    ARBEL_TBL_UARC, ARBEL_TBL_NR,
} ArbelTableId;

typedef struct ArbelTable {
    uint64_t base;          /* ICM virtual address */
    uint64_t size;          /* bytes; 0: INIT_HCA does not say */
    uint32_t log_num;       /* log2 of the objects, where INIT_HCA has it */
} ArbelTable;

/* arbel-icm.c: ICM address translation and the table layout */
typedef struct ArbelIcm {
    GHashTable *pages;      /* ICM page number / 512 -> ArbelIcmLeaf */
    uint64_t mapped;        /* pages mapped */
    ArbelTable tbl[ARBEL_TBL_NR];   /* every table, as INIT_HCA set it */
} ArbelIcm;

/* arbel-tpt.c, arbel-xlate.c: MPT/MTT tables and the translation engine */
typedef struct ArbelTpt {
    uint64_t mpt_base;
    uint32_t log_mpt_sz;
    uint64_t mtt_base;
    uint64_t mtt_end;       /* end of the MTT area (exclusive) */
    unsigned long *hw_mpt;  /* bitmap: slots made HW-owned by SW2HW_MPT */
    GHashTable *mpt_cache;  /* the TPT cache: MPT slot -> 64-byte entry, */
    GHashTable *mtt_cache;  /*   MTT entry address -> its 8 bytes */
    GHashTable *mpt_fw;     /* MPT slot -> the 64 bytes the firmware (or
                             * the last check of a CPU's entry) saw */
    uint64_t cache_hits;
    uint64_t cache_misses;
    uint64_t cache_syncs;   /* SYNC_TPT (whole-cache invalidations) */
} ArbelTpt;

/* One request to the translation engine (arbel_xlate_rw) */
typedef struct ArbelXlReq {
    uint32_t key;
    uint32_t access;        /* ARBEL_XL_ACC_* */
    uint64_t va;
    uint64_t len;
    bool to_region;         /* write the region (else read it) */
    bool check_only;        /* translate, move nothing */
    bool check_pd;          /* the region's PD must be @pd (a QP's) */
    uint32_t pd;
    bool via_window;        /* the region behind a window (arbel-mw.c) */
    uint32_t index;         /* out: MPT slot */
    uint64_t pa;            /* out: PA of the first byte */
} ArbelXlReq;

/* An event queue as the firmware tracks it (its context lives in ICM) */
typedef struct ArbelEq {
    bool hw;                /* SW2HW_EQ done, HW2SW_EQ not yet */
    bool armed;             /* next EQE raises the interrupt */
    uint8_t status;         /* 0 OK, 9 overflow, 0xa write failure */
    uint32_t lkey;          /* of the EQ buffer's region */
    uint64_t start;         /* virtual address of the buffer */
    uint32_t log_size;      /* log2 of the number of EQEs */
    uint8_t intr;           /* INTx pin (< 128) or 128 + MSI-X vector */
    uint32_t prod;          /* producer index */
    uint32_t cons;          /* consumer index (set-CI doorbell) */
    uint32_t posted;        /* EQEs written, for the trace */
} ArbelEq;

/* arbel-eq.c: event queues */
typedef struct ArbelEqs {
    ArbelEq eq[ARBEL_MAX_EQS];
    int8_t ev_eq[64];       /* event type -> EQ number, -1 = not mapped */
} ArbelEqs;

/* arbel-mcg.c: the multicast group table's shape, as INIT_HCA set it */
typedef struct ArbelMcg {
    uint32_t hash_sz;       /* MGHT entries: the hash's range */
    uint32_t entry_size;    /* bytes of one MGM entry */
} ArbelMcg;

/* arbel-catas.c: port events and the catastrophic-error buffer */
typedef struct ArbelCatas {
    uint32_t buf[ARBEL_CATAS_SIZE]; /* as QUERY_FW reports it; host order */
    uint32_t injected;      /* catastrophic errors injected */
    uint32_t port_events;   /* port state changes posted */
} ArbelCatas;

/* A contiguous guest-physical chunk (FA / aux memory) */
typedef struct ArbelChunk {
    uint64_t pa;
    uint64_t size;
} ArbelChunk;

/* arbel-fw.c, arbel-fwmem.c: firmware state and the memory it was given */
typedef struct ArbelFw {
    ArbelFwState state;
    GArray *fa;             /* ArbelChunk */
    GArray *aux;            /* ArbelChunk */
    uint64_t fa_pages;
    uint64_t aux_pages;
    uint64_t icm_size;      /* 0 = SET_ICM_SIZE not done */
    uint64_t aux_needed;
} ArbelFw;

/* arbel-ctx.c: the kinds of objects whose contexts live in ICM */
typedef enum ArbelCtxKind {
    ARBEL_CTX_EQ,
    ARBEL_CTX_CQ,
    ARBEL_CTX_SRQ,
    ARBEL_CTX_KINDS
} ArbelCtxKind;

/* arbel-ctx.c: the objects the hardware owns, by kind */
typedef struct ArbelCtxs {
    GHashTable *hw[ARBEL_CTX_KINDS];    /* num: SW2HW done, HW2SW not yet */
} ArbelCtxs;

/*
 * arbel-qp.c: what the firmware keeps of a QP (or EE) beside its context:
 * its state and the data path's positions in its work queues
 */
typedef struct ArbelQp {
    uint8_t state;          /* ARBEL_QPS_* */
    bool stalled;           /* an RNR NAK holds the send queue */
    bool comm_est;          /* the communication established event fired */
    bool sqd_event;         /* RTS2SQD asked for the SQ-drained event */
    uint8_t rnr_naks;       /* RNR NAKs the head WQE got (saturating) */
    int64_t rnr_due;        /* stalled: when to try again (virtual ns) */
    uint16_t sq_next;       /* the next send WQE to execute (a counter) */
    uint16_t sq_end;        /* one past the last WQE a doorbell posted */
    uint16_t db_head;       /* the latest send doorbell's first WQE, */
    uint8_t db_op;          /*   its opcode, */
    uint8_t db_size;        /*   its size in 16-byte units */
    uint16_t rq_next;       /* receive WQEs consumed (a counter) */
} ArbelQp;

/* arbel-qp.c: QP (and EE) records and the special QPs */
typedef struct ArbelQps {
    GHashTable *state;      /* qpn | is_ee << 24 -> ArbelQp; absent: RST */
    uint32_t special[4];    /* CONF_SPECIAL_QP base by op_mod, 0 = none */
} ArbelQps;

/* arbel-srq.c: the data path's position in a hardware-owned SRQ */
typedef struct ArbelSrqRt {
    uint16_t consumed;      /* WQEs taken (the doorbell record counts) */
    int32_t last;           /* the last WQE taken, -1: none yet */
} ArbelSrqRt;

typedef struct ArbelSrqs {
    GHashTable *rt;         /* srqn -> ArbelSrqRt */
} ArbelSrqs;

/* arbel-sq.c: the send engine's timer and counters */
typedef struct ArbelDp {
    QEMUTimer *rnr_timer;   /* retries the QPs an RNR NAK stalled */
    PCIDevice *peer;        /* the device at the cable's other end */
    GHashTable *stalled;    /* qpn -> qpn: the QPs it retries */
    uint64_t cqes;          /* CQEs written */
    uint64_t wqes;          /* send WQEs executed */
    uint64_t recvs;         /* receive WQEs consumed */
    uint64_t errors;        /* error CQEs written */
    uint64_t bytes;         /* payload bytes moved */
} ArbelDp;

/* arbel-cq.c: what arbel_cq_commit() checks a prepared CQE's place by */
typedef struct ArbelCqs {
    uint64_t gen;           /* CQ contexts written back */
    uint32_t last;          /* the CQ of the last one */
} ArbelCqs;

/* arbel-sa.c: the subnet administrator's multicast groups */
#define ARBEL_SA_MAX_GROUPS     64
#define ARBEL_SA_MAX_MEMBERS    16

typedef struct ArbelSaMember {
    uint8_t gid[16];        /* the member port's GID */
    uint8_t join;           /* JoinState bits: full, non, send-only */
} ArbelSaMember;

typedef struct ArbelSaGroup {
    bool used;
    bool permanent;         /* the SM's own (IPoIB broadcast): kept empty */
    uint8_t mgid[16];
    uint16_t mlid;
    uint32_t qkey;
    uint16_t pkey;
    uint8_t mtu, rate, sl, tclass, hop, scope, plt;
    uint32_t flow;
    unsigned int n;         /* members */
    ArbelSaMember m[ARBEL_SA_MAX_MEMBERS];
} ArbelSaGroup;

typedef struct ArbelSa {
    bool ready;             /* the broadcast group created */
    uint16_t next_mlid;
    uint32_t next_mgid;     /* for joins that ask the SA for an MGID */
    uint64_t queries;       /* SA MADs answered, for the trace */
    ArbelSaGroup g[ARBEL_SA_MAX_GROUPS];
} ArbelSa;

/* arbel-ib.c: the IB ports (INIT_IB / CLOSE_IB / SET_IB) */
typedef struct ArbelPorts {
    bool up[3];             /* [port]: INIT_IB done, CLOSE_IB not yet */
    uint32_t cap_mask[3];   /* [port]: SET_IB capability mask */
    uint16_t lid[3];        /* [port]: a SubnSet(PortInfo) LID, 0: none */
    uint16_t sm_lid[3];     /* [port]: its SM LID, 0: none */
    uint32_t inits;         /* INIT_IB commands accepted, for the trace */
} ArbelPorts;

/* arbel-cmd.c: command dispatch */
typedef struct ArbelDispatch {
    uint32_t cmd_count;
} ArbelDispatch;

/* arbel-hcr.c: the HCR and its completion model */
typedef struct ArbelHcr {
    uint32_t reg[7];
    bool busy;
    ArbelCmd pending;
    QEMUTimer *hold_timer;
} ArbelHcr;

/* arbel-dbgwin.c: the debug window's translation request */
typedef struct ArbelDbg {
    uint32_t xl_key;
    uint32_t xl_access;
    uint64_t xl_va;
    uint32_t xl_len;
    uint32_t xl_dir;
    uint64_t xl_buf;
    uint32_t xl_result;
    uint64_t xl_pa;
    uint32_t xl_index;
    uint32_t xl_count;
} ArbelDbg;

/* arbel-pci.c: doorbells rung as two 32-bit stores, first halves held */
typedef struct ArbelUar {
    GHashTable *latch;      /* doorbell address -> first dword | 1 << 32 */
} ArbelUar;

struct ArbelState {
    PCIDevice parent_obj;

    MemoryRegion bar0;      /* arbel-pci.c */
    MemoryRegion bar2;      /* arbel-pci.c */
    ArbelUar uar;           /* arbel-pci.c */

    ArbelProps props;
    ArbelTrace trace;
    ArbelFaults faults;
    ArbelIrq irq;
    ArbelLife life;
    ArbelIcm icm;
    ArbelTpt tpt;
    ArbelEqs eqs;
    ArbelCtxs ctxs;
    ArbelQps qps;
    ArbelSrqs srqs;
    ArbelCqs cqs;
    ArbelDp dp;
    ArbelSa sa;             /* arbel-sa.c; the fabric's, on its first device */
    ArbelPorts ports;
    ArbelCatas catas;
    ArbelMcg mcg;
    ArbelFw fw;
    ArbelDispatch disp;
    ArbelHcr hcr;
    ArbelDbg dbg;
};

#endif
