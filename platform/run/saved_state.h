// saved_state.h - a saved drive: `ssdvp run --save-state DIR` writes the
// drive as preconditioning left it, `--load-state DIR` starts a run from it
// instead of preconditioning (docs/state.md).
//
// DIR holds state.json (format version, ssdvp version, geometry, the config
// keys that shape the drive, what preconditioning did) and the images:
// nand<i>.img per die (its store: data tokens, OOB LPNs and sequence numbers,
// write pointers, erase counts), dram.img (the controller DRAM: L2P, block
// table, free lists, GC candidates and jobs, page buffers), firmware.img (the
// firmware's state outside DRAM) and scoreboard.img (the host's record of
// every LBA's version). The images are sparse: 1 MiB chunks that are all
// zero are not written, so an untouched part of a store costs nothing.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ssdvp {

class Config;
class SsdSoc;
class Scoreboard;

// state.json's "version": raised whenever the images' layout changes.
constexpr int kSavedStateVersion = 2;  // 2: every image has a checksum

struct StateOptions {
  std::string save_dir;            // --save-state: after preconditioning
  std::string load_dir;            // --load-state: instead of preconditioning
  bool precondition_only = false;  // --precondition-only: stop after saving
};

// The config keys (resolved values) a saved drive's contents depend on: the
// keys whose row has the flag shapes_drive (geometry, the ftl.* settings,
// DRAM size, CPU mode, the preconditioning keys) and, when preconditioning ran
// the workload's first requests, shapes_preconditioned (the workload's keys);
// platform/run/params.def and firmware/api/ftl_params.def. Timing keys
// (flash.timing.*, nvme.*, pcie.*, cpu.cost.*, host.*) are free to differ.
nlohmann::json drive_shaping_keys(const Config& cfg, bool workload_preconditioned);

// Reads DIR/state.json and checks it against this run's keys. Throws
// ConfigError naming the first key that differs (or the directory or
// format that is wrong) before anything is loaded.
nlohmann::json check_saved_header(const std::string& dir, const nlohmann::json& keys);

// Writes the images and then state.json (header plus what this adds).
// Throws std::runtime_error on an I/O error.
void write_drive(const std::string& dir, SsdSoc& soc, Scoreboard& sb, nlohmann::json header);
// Loads the images into a booted SoC (functional mode) and the scoreboard.
// Throws std::runtime_error on a short or corrupt image.
void read_drive(const std::string& dir, SsdSoc& soc, Scoreboard& sb, const nlohmann::json& header);

}  // namespace ssdvp
