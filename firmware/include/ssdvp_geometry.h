/*
 * ssdvp_geometry.h - the default flash geometry, in one place for both sides:
 * the platform's FlashGeometry (models/flash/flash_geometry.h: the flash.*
 * and nvme.lba_size defaults) and the firmware's ftl_config_default
 * (firmware/ftl/ftl_init.c). platform/run/params.def restates them for
 * `ssdvp params`; the ParamRegistry tests fail if it disagrees.
 */
#ifndef SSDVP_GEOMETRY_H
#define SSDVP_GEOMETRY_H

#define SSDVP_GEO_CHANNELS 8u            /* flash.channels */
#define SSDVP_GEO_DIES_PER_CHANNEL 8u    /* flash.dies_per_channel */
#define SSDVP_GEO_PLANES_PER_DIE 1u      /* flash.planes_per_die */
#define SSDVP_GEO_BLOCKS_PER_PLANE 2400u /* flash.blocks_per_plane */
#define SSDVP_GEO_PAGES_PER_BLOCK 256u   /* flash.pages_per_block */
#define SSDVP_GEO_PAGE_BYTES 8192u       /* flash.page_size */
#define SSDVP_GEO_LBA_BYTES 4096u        /* nvme.lba_size */

#endif
