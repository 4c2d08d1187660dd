/*
 * arbel-stub: the glue: PCI identity, BARs, register decoding, reset and
 * QOM; the top layer.  Registers go to the HCR (arbel-hcr.c), the debug
 * window (arbel-dbgwin.c), the EQ doorbells (arbel-eq.c) and the
 * clear-interrupt register (arbel-irq.c).
 *
 * BAR0 (1 MiB, 64-bit): HCR at 0x80680, reset register at 0xf0010, debug
 * window at 0xc0000, the clear-interrupt, EQ arm and EQ set-CI registers
 * QUERY_FW reports, and (msix=on, the default) the MSI-X table and PBA.
 * BAR2 (8 MiB, 64-bit): UAR pages (doorbells are traced, not executed).
 * No BAR4: DDR is hidden (mem-free).
 *
 * All registers are big-endian 32-bit; accesses of any other width are
 * ignored and logged as guest errors.  A pulled card (debug window
 * LC_PULLED) reads all-ones in both BARs and config space and loses every
 * write (the MSI-X table, QEMU's, still answers).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "arbel-stub.h"
#include "trace.h"

/* ------------------------------------------------------------------ */
/* Reset                                                                */
/* ------------------------------------------------------------------ */

static void arbel_fw_full_reset(ArbelState *s)
{
    arbel_hcr_reset(s);
    g_hash_table_remove_all(s->uar.latch);
    arbel_fw_reset(s);
    arbel_dbg_reset(s);
    arbel_eq_reset(s);
    arbel_catas_reset(s);
    arbel_life_reset(s);
}

/*
 * A pulled card (debug window LC_PULLED): every read returns all-ones, as
 * a PCIe read of a function that left the bus completes; writes are lost.
 */
static uint64_t arbel_all_ones(unsigned int size)
{
    return MAKE_64BIT_MASK(0, size * 8);
}

/* a BAR0 write a pulled card still takes: the one that plugs it back */
static bool arbel_pulled_write_taken(hwaddr addr)
{
    return addr == ARBEL_DBG_BASE + ARBEL_DBG_LC_PULLED;
}

/*
 * The debug window's LC_PULLED.  A card plugged back powers up reset: the
 * firmware's state gone (a held command with it), bus mastering off until
 * the driver sets it; its BARs stay where they were (as the hot-plug
 * controller's re-enumeration would put them).  After a link glitch the
 * function answers again as it was.
 */
static void arbel_pulled_write(ArbelState *s, uint32_t val)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint16_t cmd;

    switch (val) {
    case ARBEL_LC_PULLED:
        arbel_life_set_pulled(s, true);
        break;
    case ARBEL_LC_BACK:
        if (!arbel_life_pulled(s)) {
            break;
        }
        arbel_life_set_pulled(s, false);
        arbel_fw_full_reset(s);
        trace_arbel_reset(arbel_trace_seq(s));
        cmd = pci_get_word(pdev->config + PCI_COMMAND);
        pci_default_write_config(pdev, PCI_COMMAND,
                                 cmd & ~PCI_COMMAND_MASTER, 2);
        break;
    case ARBEL_LC_GLITCH_OVER:
        arbel_life_set_pulled(s, false);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "arbel-stub: LC_PULLED written with "
                      "%u (0 back, 1 pulled, 2 glitch over)\n", val);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* BAR0                                                                 */
/* ------------------------------------------------------------------ */

/* BAR0 takes aligned 32-bit accesses only; others are guest errors */
static bool arbel_bar0_access_ok(hwaddr addr, unsigned size, const char *what)
{
    if (size != 4 || (addr & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "arbel-stub: BAR0 %s of size %u at 0x%" HWADDR_PRIx
                      " ignored (only aligned 32-bit accesses)\n",
                      what, size, addr);
        return false;
    }
    return true;
}

static uint64_t arbel_bar0_read(void *opaque, hwaddr addr, unsigned size)
{
    ArbelState *s = opaque;

    if (arbel_life_pulled(s)) {
        return arbel_all_ones(size);
    }
    if (!arbel_bar0_access_ok(addr, size, "read")) {
        return 0;
    }
    if (addr >= ARBEL_DBG_BASE && addr < ARBEL_DBG_BASE + ARBEL_DBG_SIZE) {
        return arbel_dbg_read(s, addr - ARBEL_DBG_BASE);
    }
    arbel_life_count(s, ARBEL_LIFE_ACCESSES);
    if (addr >= ARBEL_HCR_BASE && addr < ARBEL_HCR_BASE + ARBEL_HCR_SIZE) {
        return arbel_hcr_read(s, (addr - ARBEL_HCR_BASE) / 4);
    }
    if (addr >= ARBEL_CATAS_BASE &&
        addr < ARBEL_CATAS_BASE + ARBEL_CATAS_SIZE * 4) {
        return arbel_catas_read(s, (addr - ARBEL_CATAS_BASE) / 4);
    }
    /*
     * Everything else reads as zero: the reset register, the
     * clear-interrupt and EQ registers.
     */
    return 0;
}

static void arbel_bar0_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    ArbelState *s = opaque;

    if (arbel_life_pulled(s) && !arbel_pulled_write_taken(addr)) {
        return;
    }
    if (!arbel_bar0_access_ok(addr, size, "write")) {
        return;
    }
    if (addr < ARBEL_DBG_BASE || addr >= ARBEL_DBG_BASE + ARBEL_DBG_SIZE) {
        arbel_life_count(s, ARBEL_LIFE_ACCESSES);
    }
    if (addr >= ARBEL_HCR_BASE && addr < ARBEL_HCR_BASE + ARBEL_HCR_SIZE) {
        arbel_hcr_write(s, (addr - ARBEL_HCR_BASE) / 4, val);
        return;
    }
    if (addr == ARBEL_RESET_REG) {
        if (val == 1) {
            arbel_fw_full_reset(s);
            trace_arbel_reset(arbel_trace_seq(s));
        } else {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "arbel-stub: reset register written with 0x%08x "
                          "(expected big-endian 1)\n", (uint32_t)val);
        }
        return;
    }
    if (addr >= ARBEL_DBG_BASE && addr < ARBEL_DBG_BASE + ARBEL_DBG_SIZE) {
        uint32_t old_hold = arbel_fault_get(s, ARBEL_FI_HOLD_MS);

        if (arbel_pulled_write_taken(addr)) {
            arbel_pulled_write(s, val);
            return;
        }
        arbel_dbg_write(s, addr - ARBEL_DBG_BASE, val);
        if (old_hold && !arbel_fault_get(s, ARBEL_FI_HOLD_MS)) {
            arbel_hcr_release(s);
        }
        return;
    }
    if (addr >= ARBEL_CLR_INT_BASE &&
        addr < ARBEL_CLR_INT_BASE + ARBEL_CLR_INT_SIZE) {
        arbel_irq_clear_write(s, (addr - ARBEL_CLR_INT_BASE) / 4, val);
        return;
    }
    if (addr >= ARBEL_EQ_ARM_BASE &&
        addr < ARBEL_EQ_ARM_BASE + ARBEL_EQ_ARM_SIZE) {
        arbel_eq_arm_write(s, (addr - ARBEL_EQ_ARM_BASE) / 4, val);
        return;
    }
    if (addr >= ARBEL_EQ_SET_CI_BASE &&
        addr < ARBEL_EQ_SET_CI_BASE + ARBEL_EQ_SET_CI_SIZE) {
        if (!(addr & 4)) {
            arbel_eq_set_ci_write(s, (addr - ARBEL_EQ_SET_CI_BASE) / 8, val);
        }
        return;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "arbel-stub: write 0x%08x to unused BAR0 offset 0x%"
                  HWADDR_PRIx "\n", (uint32_t)val, addr);
}

/* BAR0 and BAR2: big-endian registers, any access of 1 to 8 bytes */
#define ARBEL_MMIO_OPS(rd, wr) {                                     \
    .read = (rd),                                                   \
    .write = (wr),                                                  \
    .endianness = DEVICE_BIG_ENDIAN,                                \
    .valid = { .min_access_size = 1, .max_access_size = 8 },        \
    .impl = { .min_access_size = 1, .max_access_size = 8 },         \
}

static const MemoryRegionOps arbel_bar0_ops =
    ARBEL_MMIO_OPS(arbel_bar0_read, arbel_bar0_write);

/* ------------------------------------------------------------------ */
/* BAR2: UAR pages                                                      */
/* ------------------------------------------------------------------ */

static uint64_t arbel_bar2_read(void *opaque, hwaddr addr, unsigned size)
{
    ArbelState *s = opaque;

    if (arbel_life_pulled(s)) {
        return arbel_all_ones(size);
    }
    arbel_life_count(s, ARBEL_LIFE_ACCESSES);
    return 0;
}

static void arbel_bar2_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    ArbelState *s = opaque;
    hwaddr off;

    if (arbel_life_pulled(s)) {
        return;
    }
    arbel_life_count(s, ARBEL_LIFE_ACCESSES);
    if (size != 4 && size != 8) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "arbel-stub: UAR write of size %u at 0x%" HWADDR_PRIx
                      " ignored\n", size, addr);
        return;
    }
    /*
     * Every doorbell is traced.  The send doorbell (0x10) runs the send
     * engine, the CQ doorbell (0x20) arms a CQ: one 64-bit big-endian
     * store as mthca and libmthca ring them on 64-bit hosts, or two 32-bit
     * stores, the high dword first, as mthca_write64 does on 32-bit hosts
     * and iPXE always does; the first is held until the second comes.
     * Arbel has no receive doorbell (receives are posted through doorbell
     * records).  Documentation/arbel-stub.rst, "Data path".
     */
    trace_arbel_doorbell(arbel_trace_seq(s), addr / ARBEL_UAR_PAGE,
                         addr % ARBEL_UAR_PAGE, size, size * 2, val);
    off = addr % ARBEL_UAR_PAGE;
    if (size == 4) {
        hwaddr db = addr & ~(hwaddr)7;
        gpointer key = GUINT_TO_POINTER((guint)db);
        uint64_t *hi = g_hash_table_lookup(s->uar.latch, key);

        if (off % 8 == 0) {
            if (!hi) {
                hi = g_new(uint64_t, 1);
                g_hash_table_insert(s->uar.latch, key, hi);
            }
            *hi = val;
            return;
        }
        if (!hi) {
            arbel_unconfirmed(s, "doorbell low dword at 0x%" HWADDR_PRIx
                              " without its high dword: ignored", addr);
            return;
        }
        val = *hi << 32 | (uint32_t)val;
        g_hash_table_remove(s->uar.latch, key);
        off &= ~(hwaddr)7;
    }
    switch (off) {
    case ARBEL_UAR_SEND_DB:
        arbel_sq_doorbell(s, val >> 32, (uint32_t)val);
        break;
    case ARBEL_UAR_CQ_DB:
        arbel_cq_doorbell(s, val >> 32, (uint32_t)val);
        break;
    default:
        break;
    }
}

static const MemoryRegionOps arbel_bar2_ops =
    ARBEL_MMIO_OPS(arbel_bar2_read, arbel_bar2_write);

/* ------------------------------------------------------------------ */
/* QOM                                                                  */
/* ------------------------------------------------------------------ */

/*
 * The cable joins two devices' fabrics (arbel-fabric.c): the other device
 * must be another arbel-stub, not plugged already, and its LIDs must not
 * be ours -- the built-in subnet manager numbers each device's ports from
 * its own "lid" property.
 */
static bool arbel_cable_ok(ArbelState *s, Error **errp)
{
    const ArbelProps *o;

    if (!s->props.cable) {
        return true;
    }
    if (s->props.cable == PCI_DEVICE(s)) {
        error_setg(errp, "arbel-stub: cable: a device cannot be cabled to "
                   "itself (its ports already reach each other)");
        return false;
    }
    o = &ARBEL_STUB(s->props.cable)->props;
    if (o->cable) {
        error_setg(errp, "arbel-stub: cable: the other device has a cable "
                   "property of its own; set it on one of the two");
        return false;
    }
    if (s->props.lid < o->lid + o->num_ports &&
        o->lid < s->props.lid + s->props.num_ports) {
        error_setg(errp, "arbel-stub: cable: LIDs %u..%u overlap the other "
                   "device's %u..%u; give one of them another lid",
                   s->props.lid, s->props.lid + s->props.num_ports - 1,
                   o->lid, o->lid + o->num_ports - 1);
        return false;
    }
    return true;
}

static void arbel_realize(PCIDevice *pdev, Error **errp)
{
    ERRP_GUARD();
    ArbelState *s = ARBEL_STUB(pdev);

    if (s->props.num_ports < 1 || s->props.num_ports > 2) {
        error_setg(errp, "arbel-stub: ports must be 1 or 2");
        return;
    }
    if (!arbel_cable_ok(s, errp)) {
        return;
    }
    pci_config_set_interrupt_pin(pdev->config, 1);

    memory_region_init_io(&s->bar0, OBJECT(s), &arbel_bar0_ops, s,
                          "arbel-dcs", ARBEL_BAR0_SIZE);
    memory_region_init_io(&s->bar2, OBJECT(s), &arbel_bar2_ops, s,
                          "arbel-uar", ARBEL_BAR2_SIZE);
    pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->bar0);
    pci_register_bar(pdev, 2, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar2);

    if (pci_bus_is_express(pci_get_bus(pdev))) {
        if (pcie_endpoint_cap_init(pdev, 0x60) < 0) {
            error_setg(errp, "arbel-stub: cannot add PCIe capability");
            return;
        }
    }

    if (s->props.msix &&
        msix_init(pdev, ARBEL_MSIX_VECTORS, &s->bar0, 0, ARBEL_MSIX_TABLE,
                  &s->bar0, 0, ARBEL_MSIX_PBA, 0, errp)) {
        return;
    }
    if (s->props.msix) {
        unsigned int i;

        for (i = 0; i < ARBEL_MSIX_VECTORS; i++) {
            msix_vector_use(pdev, i);
        }
    }

    arbel_hcr_init(s);
    arbel_dp_init(s);
    s->uar.latch = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                         g_free);
    arbel_life_init(s);
    arbel_icm_init(s);
    arbel_fwmem_init(s);
    arbel_fault_reset(s);
    arbel_fw_full_reset(s);
    if (s->props.cable) {
        arbel_fabric_plug(s, s->props.cable);
        arbel_fabric_plug(ARBEL_STUB(s->props.cable), pdev);
    }
}

static void arbel_exit(PCIDevice *pdev)
{
    ArbelState *s = ARBEL_STUB(pdev);

    if (s->props.cable) {
        arbel_fabric_plug(ARBEL_STUB(s->props.cable), NULL);
        arbel_fabric_plug(s, NULL);
    }
    arbel_fw_full_reset(s);
    arbel_fw_fini(s);
    arbel_dp_fini(s);
    g_hash_table_destroy(s->uar.latch);
    s->uar.latch = NULL;
    arbel_hcr_fini(s);
    arbel_fwmem_fini(s);
    arbel_icm_fini(s);
    arbel_life_fini(s);
    if (s->props.msix) {
        msix_unuse_all_vectors(pdev);
        msix_uninit(pdev, &s->bar0, &s->bar0);
    }
    if (pci_is_express(pdev)) {
        pcie_cap_exit(pdev);
    }
}

/* config space: all-ones and lost writes while the card is pulled */
static uint32_t arbel_config_read(PCIDevice *pdev, uint32_t addr, int len)
{
    if (arbel_life_pulled(ARBEL_STUB(pdev))) {
        return arbel_all_ones(len);
    }
    return pci_default_read_config(pdev, addr, len);
}

static void arbel_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                               int len)
{
    if (!arbel_life_pulled(ARBEL_STUB(pdev))) {
        pci_default_write_config(pdev, addr, val, len);
    }
}

static void arbel_qdev_reset(DeviceState *dev)
{
    ArbelState *s = ARBEL_STUB(dev);

    arbel_life_set_pulled(s, false);
    arbel_fault_reset(s);
    arbel_fw_full_reset(s);
}

/* ICM mappings and pending commands are not migrated */
static const VMStateDescription arbel_vmstate = {
    .name = TYPE_ARBEL_STUB,
    .unmigratable = 1,
};

static Property arbel_properties[] = {
    DEFINE_PROP_UINT64("node-guid", ArbelState, props.node_guid,
                       0x0002c90300a1b2c0ULL),
    DEFINE_PROP_UINT64("port-guid", ArbelState, props.port_guid,
                       0x0002c90300a1b2c1ULL),
    DEFINE_PROP_BOOL("msix", ArbelState, props.msix, true),
    DEFINE_PROP_UINT32("fw-pages", ArbelState, props.fw_pages,
                       ARBEL_FW_PAGES_DEFAULT),
    DEFINE_PROP_UINT8("ports", ArbelState, props.num_ports,
                      ARBEL_PORTS_DEFAULT),
    DEFINE_PROP_UINT16("lid", ArbelState, props.lid, 1),
    DEFINE_PROP_LINK("cable", ArbelState, props.cable, TYPE_ARBEL_STUB,
                     PCIDevice *),
    DEFINE_PROP_UINT32("fail-opcode", ArbelState, props.faults.fail_opcode, 0),
    DEFINE_PROP_UINT32("fail-status", ArbelState, props.faults.fail_status,
                       ARBEL_ST_INTERNAL_ERR),
    DEFINE_PROP_UINT32("fail-every", ArbelState, props.faults.fail_every, 0),
    DEFINE_PROP_UINT32("hold-go-ms", ArbelState, props.faults.hold_ms, 0),
    DEFINE_PROP_UINT32("hold-opcode", ArbelState, props.faults.hold_opcode, 0),
    DEFINE_PROP_UINT32("corrupt-opcode", ArbelState,
                       props.faults.corrupt_opcode, 0),
    DEFINE_PROP_UINT32("corrupt-offset", ArbelState,
                       props.faults.corrupt_offset, 0),
    DEFINE_PROP_UINT32("corrupt-len", ArbelState, props.faults.corrupt_len, 1),
    DEFINE_PROP_UINT32("corrupt-every", ArbelState,
                       props.faults.corrupt_every, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static void arbel_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = arbel_realize;
    k->exit = arbel_exit;
    k->config_read = arbel_config_read;
    k->config_write = arbel_config_write;
    k->vendor_id = ARBEL_VENDOR_ID;
    k->device_id = ARBEL_DEVICE_ID;
    k->revision = ARBEL_REVISION;
    k->class_id = PCI_CLASS_SERIAL_IB;
    dc->desc = "Mellanox InfiniHost III Ex (MT25208 mem-free) HCA stub";
    dc->reset = arbel_qdev_reset;
    dc->vmsd = &arbel_vmstate;
    device_class_set_props(dc, arbel_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo arbel_info = {
    .name = TYPE_ARBEL_STUB,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(ArbelState),
    .class_init = arbel_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void arbel_register_types(void)
{
    type_register_static(&arbel_info);
}

type_init(arbel_register_types)
