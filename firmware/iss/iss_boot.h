/*
 * iss_boot.h - the boot block: how the platform and the firmware running on
 * the instruction-set simulator (iss CPU mode) talk outside the event loop.
 *
 * The block sits at a fixed address at the top of SRAM. Before the program
 * starts, the platform writes the magic, the version and the firmware's
 * configuration; the program initialises the FTL, fills in the addresses the
 * platform needs (its statistics, its stop flag, its call entry) and parks
 * (SYSCTL.PARK). The platform then makes functional calls (preconditioning,
 * end-of-run queries) by running iss_call() on the simulator with the
 * arguments here, and starts the event loop by resuming the parked program.
 *
 * The same header is compiled by the platform (x86-64) and the firmware
 * (RV32, ilp32). Every field is a 32- or 64-bit integer or a double at its
 * natural alignment, which both ABIs lay out identically; struct ftl_config
 * and struct ftl_stats follow the same rule (ftl.h), and the sizes are
 * checked at compile time on both sides and again at boot.
 */
#ifndef SSDVP_ISS_BOOT_H
#define SSDVP_ISS_BOOT_H

#include <stdint.h>

#include "ftl.h"
#include "ssdvp_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ISS_BOOT_SIZE 0x10000u
#define ISS_BOOT_ADDR ((uint32_t)SSDVP_SRAM_BASE + (uint32_t)SSDVP_SRAM_SIZE - ISS_BOOT_SIZE)
#define ISS_BOOT_MAGIC 0x76647373u /* "ssdv" */
#define ISS_BOOT_VERSION 5u
#define ISS_BOOT_TOKENS 4096u /* tokens per functional write call */

/* Layout sizes on both ABIs (change them with the structs). */
#define ISS_FTL_CONFIG_BYTES 376u
#define ISS_FTL_STATS_BYTES 1352u

/* Functional calls: iss_call(op) with arguments in the boot block. */
enum iss_call_op {
  ISS_CALL_WRITE = 1,            /* arg[0] lba, arg32[0] n, arg32[1] stream, tokens[] in; ret = 0/-1 */
  ISS_CALL_TRIM = 2,             /* arg[0] lba, arg[1] n; ret = 0/-1 */
  ISS_CALL_GC_ACTIVE_NS = 3,     /* arg[0] now_ns; ret64 */
  ISS_CALL_CLASSES = 4,          /* ret */
  ISS_CALL_ERASE_SPREAD = 5,     /* ret_u32[0] min, ret_u32[1] max, ret_double mean */
  ISS_CALL_SET_GC_THRESHOLD = 6, /* arg32[0] blocks; ret = 0/-1 */
  ISS_CALL_STATE_SAVE = 7,       /* ftl_state_save into tokens[]; ret = its bytes or -1 (a saved drive) */
  ISS_CALL_STATE_LOAD = 8,       /* arg32[0] bytes of ftl_state_save's image in tokens[]; ret = 0/-1 */
  ISS_CALL_POWER_FAIL = 9,       /* arg32[0] budget pages; ret_u32[0] = pages not programmed; ret = 0 */
  ISS_CALL_READ = 10             /* arg[0] lba, arg32[0] n, tokens[] out; ret = 0/-1 */
};

/* How the program starts (iss_boot.power_up). */
enum iss_power_up {
  ISS_POWER_UP_FIRST = 0,  /* a new drive: ftl_init */
  ISS_POWER_UP_RECOVER = 1 /* after a power cut: ftl_recover from the flash */
};

struct iss_boot {
  /* written by the platform before the program runs */
  uint32_t magic;
  uint32_t version;
  uint32_t config_bytes; /* sizeof(struct ftl_config) on the platform */
  uint32_t stats_bytes;  /* sizeof(struct ftl_stats) on the platform */
  uint32_t power_up;     /* enum iss_power_up */
  uint32_t reserved1;
  struct ftl_config config;

  /* written by the program at boot */
  int32_t init_result; /* ftl_init's result; 1 while booting */
  uint32_t fw_config_bytes;
  uint32_t fw_stats_bytes;
  uint32_t stats_addr;  /* struct ftl_stats, read by the platform at any time */
  uint32_t stop_addr;   /* the FTL's stop flag (int), set by the platform */
  uint32_t call_entry;  /* int32_t iss_call(uint32_t op) */
  uint32_t call_return; /* where iss_call returns to (the platform stops there) */
  uint32_t reserved0;

  /* functional calls */
  uint64_t arg[2];
  uint32_t arg32[2];
  uint32_t ret_u32[2]; /* (a call's int32_t result is its return value) */
  uint64_t ret64;
  double ret_double;
  uint32_t tokens[ISS_BOOT_TOKENS];
};

#ifdef __cplusplus
static_assert(sizeof(struct ftl_config) == ISS_FTL_CONFIG_BYTES, "ftl_config changed: update ISS_FTL_CONFIG_BYTES");
static_assert(sizeof(struct ftl_stats) == ISS_FTL_STATS_BYTES, "ftl_stats changed: update ISS_FTL_STATS_BYTES");
static_assert(sizeof(struct iss_boot) <= ISS_BOOT_SIZE, "the boot block must fit its region");
}
#else
_Static_assert(sizeof(struct ftl_config) == ISS_FTL_CONFIG_BYTES, "ftl_config changed: update ISS_FTL_CONFIG_BYTES");
_Static_assert(sizeof(struct ftl_stats) == ISS_FTL_STATS_BYTES, "ftl_stats changed: update ISS_FTL_STATS_BYTES");
_Static_assert(sizeof(struct iss_boot) <= ISS_BOOT_SIZE, "the boot block must fit its region");
#endif

#endif /* SSDVP_ISS_BOOT_H */
