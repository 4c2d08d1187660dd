/*
 * arbel-stub: the fabric's subnet administrator.
 *
 * The built-in subnet manager (arbel-ib.c) gives every port its LID and
 * names itself the SM at the SM LID PortInfo reports; its subnet
 * administrator answers there, as a real one does: a GMP of management
 * class 0x03 (SubnAdm, class version 2) sent to QP1 at the SM LID is
 * taken by the SA instead of that port's QP1 (opensm on the host at that
 * LID gets the SA class the same way), and its answer arrives at the
 * asking port's QP1 from QP1 at the SM LID, Q_Key 0x80010000.  One SA
 * serves the fabric: the groups live on its first device (the one
 * without the "cable" property).
 *
 * Answered (IBTA vol. 1 15.2.5; the layouts and component mask bits of
 * the kernel's SA client -- its record tables and its header --, which
 * ib_sa, ib_cm, IPoIB and rdma_cm use):
 *  - ClassPortInfo Get: base version 1, class version 2, no optional
 *    capabilities, response time value 18;
 *  - NodeRecord and PortInfoRecord Get, by LID (PortInfoRecord: and port
 *    number): the port's NodeInfo and NodeDescription, or PortInfo, as
 *    the SMA (MAD_IFC) reports them; none: ERR_NO_RECORDS, more than one
 *    (no LID given): ERR_TOO_MANY_RECORDS;
 *  - PathRecord Get: from the SGID (or SLID) to the DGID (or DLID), both
 *    ports of the fabric (GID fe80::port GUID): their LIDs, P_Key 0xffff,
 *    SL 0, MTU 2048, rate 20 Gb/s (4x DDR, what PortInfo reports), packet
 *    life 18, reversible; a port the fabric lacks: ERR_NO_RECORDS;
 *  - MCMemberRecord Set (join), Delete (leave) and Get: groups by MGID, an
 *    MLID from 0xc000 each; the IPoIB broadcast group of the default
 *    partition (ff12:401b:ffff::ffff:ffff, Q_Key 0x0b1b, MTU 2048, rate
 *    10 Gb/s) exists from the start, as opensm's default partition makes
 *    it.  A join creates a missing group when it names the fields IBTA
 *    requires for that (Q_Key, P_Key, SL, FlowLabel, TClass:
 *    ERR_REQ_INSUFFICIENT_COMPONENTS otherwise) and is a full member; a
 *    P_Key other than the port's (0xffff), a Q_Key or selector the group
 *    does not meet, a port GID the fabric lacks or an empty JoinState:
 *    ERR_REQ_INVALID.
 * Other attributes get MAD status 0x000c, other methods 0x0008, other
 * versions 0x0004; SA errors are IBTA's class status codes in bits 14:8.
 * Documentation/arbel-stub.rst "Subnet administrator".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "trace.h"
#include "arbel-trace.h"
#include "arbel-objects.h"
#include "arbel-mad.h"
#include "arbel-dp.h"

#define SA_MAD_SIZE             256
#define SA_CLASS                0x03
#define SA_CLASS_VERSION        2
#define MAD_BASE_VERSION        1
#define QP1_QKEY                0x80010000u

#define M_GET                   0x01
#define M_SET                   0x02
#define M_GET_RESP              0x81
#define M_DELETE                0x15
#define M_RESP                  0x80

#define ATTR_CLASS_PORT_INFO    0x0001
#define ATTR_NODE_RECORD        0x0011
#define ATTR_PORT_INFO_RECORD   0x0012
#define ATTR_PATH_RECORD        0x0035
#define ATTR_MCMEMBER_RECORD    0x0038

/* MAD and SA header offsets (IBTA 13.4.2, 15.2.1.1) */
#define MAD_METHOD              3
#define MAD_STATUS              4
#define MAD_ATTR_ID             16
#define MAD_RMPP                24
#define SA_ATTR_OFFSET          44
#define SA_COMP_MASK            48
#define SA_DATA                 56

#define ST_BAD_VERSION          0x0004
#define ST_UNSUP_METHOD         0x0008
#define ST_UNSUP_ATTR           0x000c
#define SA_ERR(code)            ((code) << 8)
#define SA_NO_RESOURCES         SA_ERR(1)
#define SA_REQ_INVALID          SA_ERR(2)
#define SA_NO_RECORDS           SA_ERR(3)
#define SA_TOO_MANY             SA_ERR(4)
#define SA_INSUFFICIENT         SA_ERR(6)

/* the SMA's attributes the records hold (arbel-mad.c) */
#define SMA_NODE_DESC           0x0010
#define SMA_NODE_INFO           0x0011
#define SMA_PORT_INFO           0x0015

/* NodeRecord: LID, NodeInfo, NodeDescription (108 bytes, 112 padded) */
#define NR_NODE_INFO            4
#define NR_NODE_DESC            44
#define NR_SIZE                 112
/* PortInfoRecord: EndportLID, PortNum, PortInfo (68 bytes, 72 padded) */
#define PIR_PORT                2
#define PIR_PORT_INFO           4
#define PIR_SIZE                72
#define REC_M_LID               BIT_ULL(0)
#define PIR_M_PORT              BIT_ULL(1)

/* PathRecord (64 bytes) */
#define PR_DGID                 8
#define PR_SGID                 24
#define PR_DLID                 40
#define PR_SLID                 42
#define PR_REVERSIBLE           49
#define PR_PKEY                 50
#define PR_SL                   53
#define PR_MTU                  54
#define PR_RATE                 55
#define PR_PLT                  56
#define PR_SIZE                 64
#define PR_M_DGID               BIT_ULL(2)
#define PR_M_SGID               BIT_ULL(3)
#define PR_M_DLID               BIT_ULL(4)
#define PR_M_SLID               BIT_ULL(5)
#define PR_M_PKEY               BIT_ULL(13)
#define PR_M_SL                 BIT_ULL(15)
#define PR_M_MTU                (BIT_ULL(16) | BIT_ULL(17))
#define PR_M_RATE               (BIT_ULL(18) | BIT_ULL(19))

/* MCMemberRecord (52 bytes, 56 with padding) */
#define MC_PORT_GID             16
#define MC_QKEY                 32
#define MC_MLID                 36
#define MC_MTU                  38
#define MC_TCLASS               39
#define MC_PKEY                 40
#define MC_RATE                 42
#define MC_PLT                  43
#define MC_SL_FLOW_HOP          44
#define MC_SCOPE_JOIN           48
#define MC_SIZE                 56
#define MC_M_MGID               BIT_ULL(0)
#define MC_M_PORT_GID           BIT_ULL(1)
#define MC_M_QKEY               BIT_ULL(2)
#define MC_M_MTU                (BIT_ULL(4) | BIT_ULL(5))
#define MC_M_TCLASS             BIT_ULL(6)
#define MC_M_PKEY               BIT_ULL(7)
#define MC_M_RATE               (BIT_ULL(8) | BIT_ULL(9))
#define MC_M_PLT                BIT_ULL(11)
#define MC_M_SL                 BIT_ULL(12)
#define MC_M_FLOW               BIT_ULL(13)
#define MC_M_HOP                BIT_ULL(14)
#define MC_M_JOIN               BIT_ULL(16)
#define MC_M_CREATE             (MC_M_QKEY | MC_M_PKEY | MC_M_SL | \
                                 MC_M_FLOW | MC_M_TCLASS)
#define MC_JOIN_FULL            1
#define MC_JOIN_SENDONLY_FULL   8       /* the kernel's SENDONLY_FULLMEMBER */

/* what every port of the fabric offers (PortInfo, arbel-mad.c) */
#define FABRIC_PKEY             0xffff
#define FABRIC_MTU              4       /* 2048 */
#define FABRIC_RATE             6       /* 20 Gb/s: 4x DDR */
#define FABRIC_PLT              18
#define SEL_EXACTLY             2
#define IPOIB_QKEY              0x0b1b
#define IPOIB_RATE              3       /* 10 Gb/s */
#define MLID_FIRST              0xc000

static const uint8_t ipoib_bcast[16] = {
    0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff,
    0xff,
};

/* a port of the fabric, as a path names it */
typedef struct ArbelSaPort {
    uint16_t lid;
    uint64_t guid;
} ArbelSaPort;

/* the fabric's SA state: on its first device */
static ArbelSa *arbel_sa_of(ArbelState *s)
{
    return s->props.cable ? &ARBEL_STUB(s->props.cable)->sa : &s->sa;
}

/* the up port of @s whose GID (fe80::GUID) is @gid, or whose LID is @lid */
static bool arbel_sa_port_on(ArbelState *s, const uint8_t *gid, uint16_t lid,
                             ArbelSaPort *p)
{
    unsigned int n;

    for (n = 1; n <= s->props.num_ports; n++) {
        if (!arbel_ib_port_up(s, n)) {
            continue;
        }
        if (gid ? ldq_be_p(gid) == 0xfe80000000000000ULL &&
                  ldq_be_p(gid + 8) == arbel_ib_port_guid(s, n) :
                  arbel_ib_lid(s, n) == lid) {
            p->lid = arbel_ib_lid(s, n);
            p->guid = arbel_ib_port_guid(s, n);
            return true;
        }
    }
    return false;
}

/* ... of @s or of the device at the cable's other end */
static bool arbel_sa_port(ArbelState *s, const uint8_t *gid, uint16_t lid,
                          ArbelSaPort *p)
{
    return arbel_sa_port_on(s, gid, lid, p) ||
           (s->dp.peer && arbel_sa_port_on(ARBEL_STUB(s->dp.peer), gid, lid,
                                           p));
}

static void arbel_sa_gid(const ArbelSaPort *p, uint8_t *gid)
{
    stq_be_p(gid, 0xfe80000000000000ULL);
    stq_be_p(gid + 8, p->guid);
}

/* IBTA selectors: 0 greater than, 1 less than, 2 exactly, 3 the largest */
static bool arbel_sa_select(uint8_t field, uint8_t have)
{
    uint8_t want = field & 0x3f;

    switch (field >> 6) {
    case 0:
        return have > want;
    case 1:
        return have < want;
    case 2:
        return have == want;
    default:
        return true;
    }
}

/*
 * The value a new group gets for a selector and value the join names
 * (@given: both in the component mask), the fabric's best @max otherwise;
 * false if none in 1 .. @max meets it.
 */
static bool arbel_sa_choose(bool given, uint8_t field, uint8_t max,
                            uint8_t *val)
{
    uint8_t want = field & 0x3f;

    switch (given ? field >> 6 : 3) {
    case 0:
        *val = max;
        return max > want;
    case 1:
        *val = want - 1;
        return want > 1 && want - 1 <= max;
    case 2:
        *val = want;
        return want >= 1 && want <= max;
    default:
        *val = max;
        return true;
    }
}

static uint16_t arbel_sa_path(ArbelState *s, const uint8_t *q, uint64_t mask,
                              uint8_t *r)
{
    ArbelSaPort src, dst;

    if (!(mask & (PR_M_DGID | PR_M_DLID)) ||
        !(mask & (PR_M_SGID | PR_M_SLID))) {
        return SA_INSUFFICIENT;
    }
    if (!arbel_sa_port(s, mask & PR_M_DGID ? q + PR_DGID : NULL,
                       lduw_be_p(q + PR_DLID), &dst) ||
        !arbel_sa_port(s, mask & PR_M_SGID ? q + PR_SGID : NULL,
                       lduw_be_p(q + PR_SLID), &src) ||
        (mask & PR_M_PKEY &&
         (lduw_be_p(q + PR_PKEY) & 0x7fff) != (FABRIC_PKEY & 0x7fff)) ||
        (mask & PR_M_SL && q[PR_SL] & 0xf) ||
        ((mask & PR_M_MTU) == PR_M_MTU &&
         !arbel_sa_select(q[PR_MTU], FABRIC_MTU)) ||
        ((mask & PR_M_RATE) == PR_M_RATE &&
         !arbel_sa_select(q[PR_RATE], FABRIC_RATE))) {
        return SA_NO_RECORDS;
    }
    memcpy(r, q, 8);                        /* the service ID */
    arbel_sa_gid(&dst, r + PR_DGID);
    arbel_sa_gid(&src, r + PR_SGID);
    stw_be_p(r + PR_DLID, dst.lid);
    stw_be_p(r + PR_SLID, src.lid);
    r[PR_REVERSIBLE] = 0x80 | 1;            /* reversible, one path */
    stw_be_p(r + PR_PKEY, FABRIC_PKEY);
    r[PR_MTU] = SEL_EXACTLY << 6 | FABRIC_MTU;
    r[PR_RATE] = SEL_EXACTLY << 6 | FABRIC_RATE;
    r[PR_PLT] = SEL_EXACTLY << 6 | FABRIC_PLT;
    return 0;
}

static ArbelSaGroup *arbel_sa_group(ArbelSa *sa, const uint8_t *mgid)
{
    unsigned int i;

    for (i = 0; i < ARBEL_SA_MAX_GROUPS; i++) {
        if (sa->g[i].used && !memcmp(sa->g[i].mgid, mgid, 16)) {
            return &sa->g[i];
        }
    }
    return NULL;
}

static ArbelSaGroup *arbel_sa_new_group(ArbelSa *sa, const uint8_t *mgid)
{
    unsigned int i;

    for (i = 0; i < ARBEL_SA_MAX_GROUPS; i++) {
        if (!sa->g[i].used) {
            memset(&sa->g[i], 0, sizeof(sa->g[i]));
            sa->g[i].used = true;
            memcpy(sa->g[i].mgid, mgid, 16);
            sa->g[i].scope = mgid[1] & 0xf;
            sa->g[i].mlid = sa->next_mlid++;
            return &sa->g[i];
        }
    }
    return NULL;
}

/* the SM's own groups, made once: IPoIB's broadcast group */
static void arbel_sa_start(ArbelSa *sa)
{
    ArbelSaGroup *g;

    if (sa->ready) {
        return;
    }
    sa->ready = true;
    sa->next_mlid = MLID_FIRST;
    g = arbel_sa_new_group(sa, ipoib_bcast);
    g->permanent = true;
    g->qkey = IPOIB_QKEY;
    g->pkey = FABRIC_PKEY;
    g->mtu = FABRIC_MTU;
    g->rate = IPOIB_RATE;
    g->plt = FABRIC_PLT;
}

static ArbelSaMember *arbel_sa_member(ArbelSaGroup *g, const uint8_t *gid)
{
    unsigned int i;

    for (i = 0; i < g->n; i++) {
        if (!memcmp(g->m[i].gid, gid, 16)) {
            return &g->m[i];
        }
    }
    return NULL;
}

static void arbel_sa_mc_rec(const ArbelSaGroup *g, const uint8_t *port_gid,
                            uint8_t join, uint8_t *r)
{
    memcpy(r, g->mgid, 16);
    memcpy(r + MC_PORT_GID, port_gid, 16);
    stl_be_p(r + MC_QKEY, g->qkey);
    stw_be_p(r + MC_MLID, g->mlid);
    r[MC_MTU] = SEL_EXACTLY << 6 | g->mtu;
    r[MC_TCLASS] = g->tclass;
    stw_be_p(r + MC_PKEY, g->pkey);
    r[MC_RATE] = SEL_EXACTLY << 6 | g->rate;
    r[MC_PLT] = SEL_EXACTLY << 6 | g->plt;
    stl_be_p(r + MC_SL_FLOW_HOP, (uint32_t)g->sl << 28 | g->flow << 8 |
             g->hop);
    r[MC_SCOPE_JOIN] = g->scope << 4 | join;
}

/* a missing group, as a full member's join asks for it */
static uint16_t arbel_sa_create(ArbelSa *sa, const uint8_t *q, uint64_t mask,
                                ArbelSaGroup **gp)
{
    static const uint8_t zero[16];
    uint8_t mgid[16];
    uint32_t sfh = ldl_be_p(q + MC_SL_FLOW_HOP);
    uint8_t mtu, rate;
    ArbelSaGroup *g;

    if ((mask & MC_M_CREATE) != MC_M_CREATE) {
        return SA_INSUFFICIENT;
    }
    if (!(q[MC_SCOPE_JOIN] & (MC_JOIN_FULL | MC_JOIN_SENDONLY_FULL)) ||
        !arbel_sa_choose((mask & MC_M_MTU) == MC_M_MTU, q[MC_MTU],
                         FABRIC_MTU, &mtu) ||
        !arbel_sa_choose((mask & MC_M_RATE) == MC_M_RATE, q[MC_RATE],
                         FABRIC_RATE, &rate)) {
        return SA_REQ_INVALID;
    }
    memcpy(mgid, q, 16);
    if (!(mask & MC_M_MGID) || !memcmp(mgid, zero, 16)) {
        /* the SA chooses the MGID (IBTA 15.2.5.17: a signature the
         * driver never sends; ff12:a01c:ffff:: + a count here) */
        stq_be_p(mgid, 0xff12a01cffff0000ULL);
        stq_be_p(mgid + 8, ++sa->next_mgid);
    } else if (mgid[0] != 0xff) {
        return SA_REQ_INVALID;
    }
    g = arbel_sa_new_group(sa, mgid);
    if (!g) {
        return SA_NO_RESOURCES;
    }
    g->qkey = ldl_be_p(q + MC_QKEY);
    g->pkey = lduw_be_p(q + MC_PKEY);
    g->tclass = q[MC_TCLASS];
    g->sl = sfh >> 28;
    g->flow = sfh >> 8 & 0xfffff;
    g->hop = mask & MC_M_HOP ? sfh & 0xff : 0;
    g->mtu = mtu;
    g->rate = rate;
    g->plt = FABRIC_PLT;
    *gp = g;
    return 0;
}

/* Set (join), Delete (leave) or Get of an MCMemberRecord */
static uint16_t arbel_sa_mc(ArbelState *s, uint8_t method, const uint8_t *q,
                            uint64_t mask, uint8_t *r)
{
    ArbelSa *sa = arbel_sa_of(s);
    uint8_t join = q[MC_SCOPE_JOIN] & 0xf;
    ArbelSaGroup *g = mask & MC_M_MGID ? arbel_sa_group(sa, q) : NULL;
    ArbelSaMember *mb;
    ArbelSaPort port;
    uint16_t st;

    if (method == M_GET) {
        if (!g) {
            return SA_NO_RECORDS;
        }
        arbel_sa_mc_rec(g, q + MC_PORT_GID, 0, r);
        return 0;
    }
    if ((mask & (MC_M_PORT_GID | MC_M_JOIN)) != (MC_M_PORT_GID | MC_M_JOIN)) {
        return SA_INSUFFICIENT;
    }
    if (!join || !arbel_sa_port(s, q + MC_PORT_GID, 0, &port) ||
        (mask & MC_M_PKEY &&
         (lduw_be_p(q + MC_PKEY) & 0x7fff) != (FABRIC_PKEY & 0x7fff))) {
        return SA_REQ_INVALID;
    }
    if (method == M_DELETE) {
        mb = g ? arbel_sa_member(g, q + MC_PORT_GID) : NULL;
        if (!mb) {
            return SA_REQ_INVALID;
        }
        arbel_sa_mc_rec(g, q + MC_PORT_GID, join, r);
        mb->join &= ~join;
        if (!mb->join) {
            *mb = g->m[--g->n];
        }
        if (!g->n && !g->permanent) {
            g->used = false;
        }
        return 0;
    }
    if (!g) {
        st = arbel_sa_create(sa, q, mask, &g);
        if (st) {
            return st;
        }
    } else if ((mask & MC_M_QKEY && ldl_be_p(q + MC_QKEY) != g->qkey) ||
               (mask & MC_M_PKEY && lduw_be_p(q + MC_PKEY) != g->pkey) ||
               ((mask & MC_M_MTU) == MC_M_MTU &&
                !arbel_sa_select(q[MC_MTU], g->mtu)) ||
               ((mask & MC_M_RATE) == MC_M_RATE &&
                !arbel_sa_select(q[MC_RATE], g->rate))) {
        return SA_REQ_INVALID;
    }
    mb = arbel_sa_member(g, q + MC_PORT_GID);
    if (!mb) {
        if (g->n == ARBEL_SA_MAX_MEMBERS) {
            return SA_NO_RESOURCES;
        }
        mb = &g->m[g->n++];
        memcpy(mb->gid, q + MC_PORT_GID, 16);
        mb->join = 0;
    }
    mb->join |= join;
    arbel_sa_mc_rec(g, q + MC_PORT_GID, mb->join, r);
    return 0;
}

/*
 * The NodeRecord or PortInfoRecord of @s's up port whose LID is @lid (of
 * every up port: @by_lid false) into @r, the first one's only; how many
 * ports matched.
 */
static unsigned int arbel_sa_rec_on(ArbelState *s, uint16_t attr,
                                    bool by_lid, uint16_t lid, uint8_t *r)
{
    unsigned int n, found = 0;

    for (n = 1; n <= s->props.num_ports; n++) {
        if (!arbel_ib_port_up(s, n) ||
            (by_lid && arbel_ib_lid(s, n) != lid) || found++) {
            continue;
        }
        stw_be_p(r, arbel_ib_lid(s, n));
        if (attr == ATTR_NODE_RECORD) {
            arbel_mad_attr(s, n, SMA_NODE_INFO, 0, r + NR_NODE_INFO);
            arbel_mad_attr(s, n, SMA_NODE_DESC, 0, r + NR_NODE_DESC);
        } else {
            r[PIR_PORT] = n;
            arbel_mad_attr(s, n, SMA_PORT_INFO, 0, r + PIR_PORT_INFO);
        }
    }
    return found;
}

/* Get of a NodeRecord or PortInfoRecord: exactly one port must match */
static uint16_t arbel_sa_port_rec(ArbelState *s, uint16_t attr,
                                  const uint8_t *q, uint64_t mask, uint8_t *r)
{
    uint8_t other[SA_MAD_SIZE - SA_DATA] = { 0 };
    bool by_lid = mask & REC_M_LID;
    uint16_t lid = lduw_be_p(q);
    unsigned int found;

    found = arbel_sa_rec_on(s, attr, by_lid, lid, r);
    if (s->dp.peer) {
        found += arbel_sa_rec_on(ARBEL_STUB(s->dp.peer), attr, by_lid, lid,
                                 found ? other : r);
    }
    if (found == 1 && attr == ATTR_PORT_INFO_RECORD && mask & PIR_M_PORT &&
        q[PIR_PORT] != r[PIR_PORT]) {
        found = 0;
    }
    if (found != 1) {
        memset(r, 0, SA_MAD_SIZE - SA_DATA);
        return found ? SA_TOO_MANY : SA_NO_RECORDS;
    }
    return 0;
}

/* the answer to @q (a SubnAdm MAD) in @r; its MAD status */
static uint16_t arbel_sa_query(ArbelState *s, const uint8_t *q, uint8_t *r,
                               uint8_t *rec_size)
{
    uint8_t method = q[MAD_METHOD];
    uint16_t attr = lduw_be_p(q + MAD_ATTR_ID);
    uint64_t mask = ldq_be_p(q + SA_COMP_MASK);

    if (q[0] != MAD_BASE_VERSION || q[2] != SA_CLASS_VERSION) {
        return ST_BAD_VERSION;
    }
    switch (attr) {
    case ATTR_CLASS_PORT_INFO:
        if (method != M_GET) {
            return ST_UNSUP_METHOD;
        }
        r[0] = MAD_BASE_VERSION;
        r[1] = SA_CLASS_VERSION;
        stl_be_p(r + 4, FABRIC_PLT);        /* response time value */
        return 0;
    case ATTR_NODE_RECORD:
    case ATTR_PORT_INFO_RECORD:
        if (method != M_GET) {
            return ST_UNSUP_METHOD;
        }
        *rec_size = attr == ATTR_NODE_RECORD ? NR_SIZE : PIR_SIZE;
        return arbel_sa_port_rec(s, attr, q + SA_DATA, mask, r);
    case ATTR_PATH_RECORD:
        if (method != M_GET) {
            return ST_UNSUP_METHOD;
        }
        *rec_size = PR_SIZE;
        return arbel_sa_path(s, q + SA_DATA, mask, r);
    case ATTR_MCMEMBER_RECORD:
        if (method != M_GET && method != M_SET && method != M_DELETE) {
            return ST_UNSUP_METHOD;
        }
        *rec_size = MC_SIZE;
        return arbel_sa_mc(s, method, q + SA_DATA, mask, r);
    default:
        return ST_UNSUP_ATTR;
    }
}

/**
 * arbel_sa_wants - whether @m, leaving @port, is a query for the SA
 * @s: the sending device
 * @port: the port it leaves by
 * @m: the message
 *
 * Return: true for a SubnAdm MAD to QP1 at the port's SM LID.
 */
bool arbel_sa_wants(ArbelState *s, unsigned int port, const ArbelMsg *m)
{
    return m->st == ARBEL_QP_ST_UD && (m->dqpn & ARBEL_QPN_MASK) == 1 &&
           m->dlid == arbel_ib_sm_lid(s, port) && m->len >= SA_MAD_SIZE &&
           m->data[1] == SA_CLASS && !(m->data[MAD_METHOD] & M_RESP);
}

/**
 * arbel_sa_answer - the SA answers query @m from @port: the response
 * arrives at the port's QP1
 * @s: the asking device
 * @port: its port
 * @m: the query (arbel_sa_wants())
 */
void arbel_sa_answer(ArbelState *s, unsigned int port, const ArbelMsg *m)
{
    uint8_t resp[SA_MAD_SIZE] = { 0 };
    uint8_t method = m->data[MAD_METHOD];
    uint8_t rec_size = 0;
    ArbelMsg a = {
        .op = ARBEL_WQE_SEND, .st = ARBEL_QP_ST_UD, .src_qpn = 1,
        .slid = m->dlid, .dlid = m->slid, .dqpn = m->src_qpn,
        .qkey = QP1_QKEY, .pkey = m->pkey, .data = resp,
        .len = SA_MAD_SIZE,
    };
    uint16_t status;

    arbel_sa_start(arbel_sa_of(s));
    memcpy(resp, m->data, MAD_RMPP);        /* the header, the TID */
    status = arbel_sa_query(s, m->data, resp + SA_DATA, &rec_size);
    if (status) {
        memset(resp + SA_DATA, 0, SA_MAD_SIZE - SA_DATA);
    } else {
        stw_be_p(resp + SA_ATTR_OFFSET, rec_size / 8);
        memcpy(resp + SA_COMP_MASK, m->data + SA_COMP_MASK, 8);
    }
    resp[MAD_METHOD] = method == M_SET ? M_GET_RESP : method | M_RESP;
    stw_be_p(resp + MAD_STATUS, status);
    arbel_sa_of(s)->queries++;
    trace_arbel_sa(arbel_trace_seq(s), port, method,
                   lduw_be_p(m->data + MAD_ATTR_ID), status);
    arbel_rq_receive(s, port, &a, NULL);
}
