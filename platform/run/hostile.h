// hostile.h - a hostile NVMe host: sends the SSD what a driver never would
// and checks that each command completes with the status the NVMe base
// specification gives it, or is refused (issue 20 §3, docs/robustness.md).
//
// `ssdvp hostile [-c CONFIG] [--set key=value]...` builds one SSD with this
// host in place of the host driver, runs every case below in order and
// prints one line per case (expected and observed status); exit 0 when all
// hold, 3 when any does not. The cases:
//  - namespace not ready: a read before ftl.ns_ready_after (set to 100us if
//    the config leaves it 0) completes with 82h; the same read succeeds after;
//  - invalid opcode: I/O opcode 42h, admin opcode 7Fh (01h);
//  - invalid field: more LBAs than MDTS, a fused command, an SGL data
//    pointer (PSDT), an unknown write directive type (02h);
//  - invalid namespace: NSID 2 and NSID 0 (0Bh);
//  - LBA out of range: a start at the namespace size, a range crossing its
//    end, a deallocate range past it (80h);
//  - a PRP outside host memory: write, read, and a deallocate range list
//    (04h, Data Transfer Error);
//  - an SQ outside host memory: refused, nothing reaches the firmware
//    (counted in the controller's fetch errors; no CID, so no completion);
//  - a queue deleted while in use: every command submitted to it completes
//    exactly once, with success (fetched already) or 08h (Command Aborted
//    due to SQ Deletion); a doorbell to it afterwards is invalid; the writes
//    that succeeded read back, the aborted ones read as deallocated;
//  - after all of it, a write/read round trip on the first queue still works.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/config.h"

namespace ssdvp {

struct HostileResult {
  std::string name;
  std::string expected;  // e.g. "0x002 Invalid Field", "refused"
  std::string observed;
  bool ok = false;
};

// Runs every case on an SSD built from cfg (the registry is declared and
// unknown keys are rejected as for `ssdvp run`). Throws ConfigError on a bad
// config. The run itself never throws for what the device answers.
std::vector<HostileResult> run_hostile(Config cfg);

// `ssdvp hostile`: runs, prints the table (unless quiet) and returns the
// exit code (0 all cases hold, 3 otherwise).
int hostile_command(const Config& cfg, bool quiet);

}  // namespace ssdvp
