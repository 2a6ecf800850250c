/*
 * iss_main.c - the firmware's start on the controller's RV32 core (iss mode).
 *
 * picolibc's crt0 sets up the C runtime and calls main(), which boots the FTL
 * from the configuration in the boot block (iss_boot.h), publishes the
 * addresses the platform needs, parks while the platform preconditions the
 * drive through iss_call(), and runs the event loop when resumed. The FTL
 * state is a static object in SRAM; its tables are in DRAM (ftl_init).
 *
 * After a power cut the platform starts the program again at its entry point
 * (crt0 initialises .data and .bss again: what SRAM held is lost) with
 * power_up = ISS_POWER_UP_RECOVER: main() then rebuilds the FTL from the
 * flash (ftl_recover) in simulated time, parks while the platform checks
 * every LBA (ISS_CALL_READ), and runs the event loop when resumed, as native
 * mode's power-up thread does (platform/soc/controller.cpp).
 */
#include "ftl_internal.h"
#include "iss_boot.h"
#include "iss_hal.h"

static struct ftl the_ftl;
static struct iss_hal the_hal;

static struct iss_boot *boot(void) { return (struct iss_boot *)(uintptr_t)ISS_BOOT_ADDR; }

int32_t iss_call(uint32_t op);
int32_t iss_call(uint32_t op) {
  struct iss_boot *b = boot();
  struct ftl *f = &the_ftl;
  switch (op) {
    case ISS_CALL_WRITE:
      if (b->arg32[0] > ISS_BOOT_TOKENS) return -1;
      return ftl_func_write_stream(f, b->arg[0], b->arg32[0], b->tokens, b->arg32[1]);
    case ISS_CALL_TRIM: return ftl_func_trim(f, b->arg[0], b->arg[1]);
    case ISS_CALL_GC_ACTIVE_NS: b->ret64 = ftl_gc_active_ns(f, b->arg[0]); return 0;
    case ISS_CALL_SET_GC_THRESHOLD: return ftl_func_set_gc_threshold(f, b->arg32[0]);
    case ISS_CALL_CLASSES: return (int32_t)ftl_classes(f);
    case ISS_CALL_ERASE_SPREAD: {
      uint32_t lo, hi;
      double mean;
      ftl_erase_spread(f, &lo, &mean, &hi);
      b->ret_u32[0] = lo;
      b->ret_u32[1] = hi;
      b->ret_double = mean;
      return 0;
    }
    case ISS_CALL_STATE_SAVE: /* a saved drive (docs/state.md): the image goes through the boot block */
      if (ftl_state_bytes() > sizeof b->tokens || ftl_state_save(f, b->tokens) != 0) return -1;
      return (int32_t)ftl_state_bytes();
    case ISS_CALL_STATE_LOAD:
      if (b->arg32[0] > sizeof b->tokens) return -1;
      return ftl_state_load(f, b->tokens, b->arg32[0]);
    case ISS_CALL_POWER_FAIL: /* the power-fail interrupt of a drive with power-loss protection */
      b->ret_u32[0] = ftl_power_fail(f, b->arg32[0]);
      return 0;
    case ISS_CALL_READ:
      if (b->arg32[0] > ISS_BOOT_TOKENS) return -1;
      return ftl_func_read(f, b->arg[0], b->arg32[0], b->tokens);
    default: return -1;
  }
}

int main(void) {
  struct iss_boot *b = boot();
  b->fw_config_bytes = sizeof(struct ftl_config);
  b->fw_stats_bytes = sizeof(struct ftl_stats);
  b->call_entry = (uint32_t)(uintptr_t)&iss_call;
  b->call_return = (uint32_t)(uintptr_t)&iss_call_return;
  b->stats_addr = (uint32_t)(uintptr_t)&the_ftl.stats;
  b->stop_addr = (uint32_t)(uintptr_t)&the_ftl.stop;
  if (b->magic != ISS_BOOT_MAGIC || b->version != ISS_BOOT_VERSION || b->config_bytes != sizeof(struct ftl_config) ||
      b->stats_bytes != sizeof(struct ftl_stats)) {
    b->init_result = -2; /* the platform names the mismatch */
    iss_exit(2);
  }
  iss_hal_init(&the_hal, b->config.dram_base, b->config.dram_size);
  b->init_result = b->power_up == ISS_POWER_UP_RECOVER ? ftl_recover(&the_ftl, &the_hal.hal, &b->config)
                                                       : ftl_init(&the_ftl, &the_hal.hal, &b->config);
  if (b->init_result != 0) iss_exit(1);
  iss_park();
  ftl_main(&the_ftl);
  return 0;
}
