// shared_lbas.h - what a read may return when several hosts (flows) write
// the same LBAs through their own queues with nothing ordering them.
//
// NVMe orders nothing across queues (nor within one): a flow's driver keeps
// its own conflicting commands apart (host_driver.h), but two flows whose
// LBA ranges overlap may have writes (and deallocations) to one LBA in flight
// at once, and a read of one flow may race a write of the other. The rule,
// per LBA, in the host's event order (a command counts from its submission
// to the host reaping its completion):
//
//   - a write W is ordered after a write U when U completed before W was
//     submitted; the drive then holds W's data (or a later write's) once W
//     completes, and U's is gone for every read submitted after that;
//   - two writes whose lifetimes overlapped are unordered: once both have
//     completed, either may be what the drive holds, until a write ordered
//     after both completes;
//   - a read R may return any write not ordered before another write that
//     completed before R was submitted, and any write in flight at some
//     time during R (submitted before R's completion); a deallocation is a
//     write of the deallocated token;
//   - a read that nothing raced (every acceptable write completed before it
//     was submitted, none submitted since) tells which one the drive holds:
//     from then on only that one is acceptable;
//   - a write that completed with Command Aborted due to SQ Deletion (08h)
//     was never fetched: it never happened.
//
// Only LBAs where this leaves more than the scoreboard's single expected
// token are tracked here (an entry per LBA with a write in flight, several
// candidates, or a candidate other than the scoreboard's latest); every other
// LBA is checked by the scoreboard alone. Not thread-safe: SystemC threads.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "host/scoreboard.h"

namespace ssdvp {

class SharedLbas {
 public:
  explicit SharedLbas(Scoreboard& sb) : sb_(sb) {}

  // A command is submitted: its sequence number (one per command).
  uint64_t begin() { return ++seq_; }
  // Before the scoreboard records it: a write (or deallocation: token
  // SSDVP_TOKEN_DEALLOCATED) of command `cmd` to lba, replacing `before`
  // (the scoreboard's expected token for lba just before).
  void write(uint64_t cmd, uint64_t lba, uint32_t before, uint32_t token);
  // Its completion reaped; never_executed: aborted before the drive had it (08h).
  void write_done(uint64_t cmd, uint64_t lba, bool never_executed);
  // A read command submitted / its completion handled (after its checks).
  void read_begin(uint64_t cmd) { reads_.insert(cmd); }
  void read_end(uint64_t cmd);
  // Checks the token read for lba by read command `cmd` (counted in the
  // scoreboard); false on a mismatch. *expected (if given): one acceptable token.
  bool check(uint64_t cmd, uint64_t lba, uint32_t token, uint32_t* expected = nullptr);

  // Writes submitted while another write to the same LBA was in flight, and
  // reads checked while more than one token was acceptable.
  uint64_t races() const { return races_; }
  uint64_t ambiguous_reads() const { return ambiguous_; }
  // Reads that returned an acceptable content other than the scoreboard's
  // latest write: a scoreboard without this rule would have counted them as
  // mismatches.
  uint64_t older_accepted() const { return older_; }
  size_t tracked() const { return map_.size(); }

 private:
  struct Cand {
    uint32_t token;
    uint64_t submit, done = 0, dead = 0;  // sequence numbers; 0: not yet
  };
  using Entry = std::vector<Cand>;
  void tidy(uint64_t lba, Entry& e);  // drops what no read can return; the entry when it says nothing
  void sweep();                       // tidy() of every entry, once per so many reads (amortized)
  Scoreboard& sb_;
  uint64_t seq_ = 0;
  std::unordered_map<uint64_t, Entry> map_;
  std::multiset<uint64_t> reads_;  // in-flight reads' sequence numbers
  uint64_t races_ = 0, ambiguous_ = 0, older_ = 0;
  uint64_t reads_since_sweep_ = 0;
};

}  // namespace ssdvp
