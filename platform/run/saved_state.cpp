// saved_state.cpp - see saved_state.h.
#include "run/saved_state.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "common/config.h"
#include "common/param_table.h"
#include "host/host_driver.h"
#include "host/scoreboard.h"
#include "run/simulation.h"
#include "soc/ssd_soc.h"
#include "workload.h"

namespace ssdvp {

namespace {

// Sparse image: magic, total bytes, chunk bytes; then (chunk index, chunk)
// for every chunk that is not all zero; then UINT64_MAX.
constexpr char kMagic[8] = {'S', 'S', 'D', 'V', 'P', 'I', 'M', 'G'};
constexpr uint64_t kChunk = 1u << 20;

bool all_zero(const uint8_t* p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w) return false;
  }
  for (; i < n; ++i)
    if (p[i]) return false;
  return true;
}

// A checksum of an image's bytes as stored (chunk indices and data), a word
// at a time (FNV-1a's prime over 64-bit words, the tail byte-wise): a saved
// drive with a flipped byte must fail to load, not run on and report
// "integrity mismatches" that look like a firmware bug.
struct Checksum {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 29;
    }
    for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  }
  std::string hex() const {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
    return b;
  }
};

struct File {
  std::FILE* f = nullptr;
  std::string path;
  File(const std::string& p, const char* mode) : f(std::fopen(p.c_str(), mode)), path(p) {
    if (!f) throw std::runtime_error("cannot open " + p + ": " + std::strerror(errno));
  }
  ~File() {
    if (f) std::fclose(f);
  }
  void write(const void* p, size_t n) {
    if (n && std::fwrite(p, 1, n, f) != n)
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  }
  void read(void* p, size_t n) {
    if (n && std::fread(p, 1, n, f) != n) throw std::runtime_error(path + ": truncated or unreadable image");
  }
  void close() {
    const int r = std::fclose(f);
    f = nullptr;
    if (r != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  }
};

// Returns the bytes written (the chunks that hold data).
uint64_t write_image(const std::string& path, const uint8_t* p, uint64_t n, Checksum& sum) {
  File f(path, "wb");
  const uint64_t head[2] = {n, kChunk};
  f.write(kMagic, sizeof kMagic);
  f.write(head, sizeof head);
  uint64_t stored = 0;
  for (uint64_t i = 0; i * kChunk < n; ++i) {
    const uint64_t len = std::min(kChunk, n - i * kChunk);
    if (all_zero(p + i * kChunk, len)) continue;
    f.write(&i, 8);
    f.write(p + i * kChunk, len);
    sum.add(&i, 8);
    sum.add(p + i * kChunk, len);
    stored += len;
  }
  const uint64_t end = UINT64_MAX;
  f.write(&end, 8);
  f.close();
  return stored;
}

// Chunks the image lacks are zero (cleared only where they are not already:
// untouched pages of a fresh store stay untouched).
void zero_chunks(uint8_t* p, uint64_t n, uint64_t from, uint64_t to) {
  for (uint64_t i = from; i < to && i * kChunk < n; ++i) {
    const uint64_t len = std::min(kChunk, n - i * kChunk);
    if (!all_zero(p + i * kChunk, len)) std::memset(p + i * kChunk, 0, len);
  }
}

void read_image(const std::string& path, uint8_t* p, uint64_t n, Checksum& sum) {
  File f(path, "rb");
  char magic[8];
  uint64_t head[2];
  f.read(magic, 8);
  f.read(head, sizeof head);
  if (std::memcmp(magic, kMagic, 8) != 0) throw std::runtime_error(path + ": not an ssdvp image");
  if (head[0] != n || head[1] != kChunk)
    throw std::runtime_error(path + ": an image of " + std::to_string(head[0]) + " bytes, this drive's store has " +
                             std::to_string(n));
  const uint64_t chunks = (n + kChunk - 1) / kChunk;
  uint64_t next = 0;  // chunks below it are loaded or cleared
  for (;;) {
    uint64_t i;
    f.read(&i, 8);
    if (i == UINT64_MAX) break;
    if (i >= chunks || i < next)
      throw std::runtime_error(path + ": chunk " + std::to_string(i) + " out of order or beyond the store");
    zero_chunks(p, n, next, i);
    f.read(p + i * kChunk, std::min(kChunk, n - i * kChunk));
    sum.add(&i, 8);
    sum.add(p + i * kChunk, std::min(kChunk, n - i * kChunk));
    next = i + 1;
  }
  zero_chunks(p, n, next, chunks);
}

std::string text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

}  // namespace

nlohmann::json drive_shaping_keys(const Config& cfg, bool workload_preconditioned) {
  // the flags of the keys' rows (platform/run/params.def, firmware/api/ftl_params.def)
  const unsigned shapes =
      param_flags::shapes_drive | (workload_preconditioned ? param_flags::shapes_preconditioned : 0u);
  nlohmann::json keys = nlohmann::json::object();
  for (const auto& p : cfg.params())
    if (p.flags & shapes) keys[p.key] = p.value;
  return keys;
}

nlohmann::json check_saved_header(const std::string& dir, const nlohmann::json& keys) {
  namespace fs = std::filesystem;
  const fs::path p = fs::path(dir) / "state.json";
  std::ifstream in(p);
  if (!in) throw ConfigError("--load-state " + dir + ": no saved drive there (" + p.string() + " is missing)");
  nlohmann::json h;
  try {
    in >> h;
  } catch (const std::exception& e) {
    throw ConfigError("--load-state " + dir + ": " + p.string() + " is not valid JSON (" + e.what() + ")");
  }
  if (h.value("format", "") != "ssdvp-saved-drive" || !h.contains("version") || !h.contains("keys"))
    throw ConfigError("--load-state " + dir + ": " + p.string() + " is not an ssdvp saved drive");
  if (h["version"] != kSavedStateVersion)
    throw ConfigError("--load-state " + dir + ": saved drive format version " + text(h["version"]) +
                      ", this ssdvp reads version " + std::to_string(kSavedStateVersion) + " (save it again)");
  const nlohmann::json& saved = h["keys"];
  for (auto it = keys.begin(); it != keys.end(); ++it) {
    if (!saved.contains(it.key()))
      throw ConfigError("config key '" + it.key() + "': the saved drive in " + dir +
                        " does not record it (saved by another ssdvp version: save it again)");
    if (saved[it.key()] != it.value())
      throw ConfigError("config key '" + it.key() + "': the drive saved in " + dir + " was made with '" +
                        text(saved[it.key()]) + "', this run has '" + text(it.value()) +
                        "' (it shapes the saved drive: age a drive with this value, or load one that has it)");
  }
  for (auto it = saved.begin(); it != saved.end(); ++it)
    if (!keys.contains(it.key()))
      throw ConfigError("config key '" + it.key() + "': the drive saved in " + dir + " depends on it ('" +
                        text(it.value()) + "'), this run does not (preconditioning differs)");
  return h;
}

void write_drive(const std::string& dir, SsdSoc& soc, Scoreboard& sb, nlohmann::json header) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path d(dir);
  fs::remove(d / "state.json");  // a half-written drive has no header
  const std::vector<uint8_t> fw = soc.cpu().save_firmware();
  nlohmann::json images = nlohmann::json::object();
  {
    File f((d / "firmware.img").string(), "wb");
    f.write(fw.data(), fw.size());
    f.close();
    Checksum sum;
    sum.add(fw.data(), fw.size());
    images["firmware"] = {{"bytes", fw.size()}, {"checksum", sum.hex()}};
  }
  {
    Checksum sum;
    const uint64_t stored = write_image((d / "dram.img").string(), soc.dram.data(), soc.dram.size(), sum);
    images["dram"] = {{"bytes", soc.dram.size()}, {"stored", stored}, {"checksum", sum.hex()}};
  }
  {
    // One image per die.
    uint64_t total = 0, stored = 0;
    Checksum sum;  // over the dies in order
    const uint32_t dies = soc.geometry().dies();
    for (uint32_t i = 0; i < dies; ++i) {
      NandDie& die = soc.flash.die_store(i);
      stored +=
          write_image((d / ("nand" + std::to_string(i) + ".img")).string(), die.store(), die.reserved_bytes(), sum);
      total += die.reserved_bytes();
    }
    images["nand"] = {{"dies", dies}, {"bytes", total}, {"stored", stored}, {"checksum", sum.hex()}};
  }
  {
    Checksum sum;
    const uint64_t stored =
        write_image((d / "scoreboard.img").string(), reinterpret_cast<uint8_t*>(sb.versions()), sb.lbas() * 4, sum);
    images["scoreboard"] = {{"bytes", sb.lbas() * 4}, {"stored", stored}, {"checksum", sum.hex()}};
  }
  header["format"] = "ssdvp-saved-drive";
  header["version"] = kSavedStateVersion;
  header["images"] = images;
  header["flash"] = {{"reads", soc.flash.reads()}, {"programs", soc.flash.programs()}, {"erases", soc.flash.erases()}};
  header["firmware_time_ns"] = soc.cpu().firmware_time_ns();
  const auto& g = soc.geometry();
  header["geometry"] = {{"channels", g.channels},
                        {"dies", g.dies()},
                        {"total_blocks", g.total_blocks()},
                        {"logical_lbas", soc.logical_lbas()},
                        {"lba_size", soc.lba_size()}};
  {
    std::ofstream f(d / ".state.json.tmp");
    f << header.dump(2) << "\n";
    if (!f) throw std::runtime_error("cannot write " + (d / "state.json").string());
  }
  fs::rename(d / ".state.json.tmp", d / "state.json");
}

void read_drive(const std::string& dir, SsdSoc& soc, Scoreboard& sb, const nlohmann::json& header) {
  namespace fs = std::filesystem;
  const fs::path d(dir);
  const auto& g = soc.geometry();
  const auto& hg = header.at("geometry");
  if (hg.at("dies") != g.dies() || hg.at("total_blocks") != g.total_blocks() ||
      hg.at("logical_lbas") != soc.logical_lbas() || hg.at("lba_size") != soc.lba_size())
    throw std::runtime_error(dir + ": the saved drive's geometry is not this run's (" + hg.dump() + ")");
  const auto& images = header.at("images");
  auto verify = [&](const char* image, const Checksum& sum, const std::string& files) {
    if (images.at(image).value("checksum", "") != sum.hex())
      throw std::runtime_error(dir + ": " + files + " does not match its checksum in state.json (the saved drive " +
                               "is damaged or was edited: save it again)");
  };
  {
    Checksum sum;
    read_image((d / "dram.img").string(), soc.dram.data(), soc.dram.size(), sum);
    verify("dram", sum, "dram.img");
  }
  {
    Checksum sum;
    for (uint32_t i = 0; i < g.dies(); ++i) {
      NandDie& die = soc.flash.die_store(i);
      read_image((d / ("nand" + std::to_string(i) + ".img")).string(), die.store(), die.reserved_bytes(), sum);
    }
    verify("nand", sum, "nand*.img");
  }
  {
    Checksum sum;
    read_image((d / "scoreboard.img").string(), reinterpret_cast<uint8_t*>(sb.versions()), sb.lbas() * 4, sum);
    verify("scoreboard", sum, "scoreboard.img");
  }
  std::vector<uint8_t> fw(images.at("firmware").at("bytes").get<size_t>());
  {
    File f((d / "firmware.img").string(), "rb");
    f.read(fw.data(), fw.size());
    Checksum sum;
    sum.add(fw.data(), fw.size());
    verify("firmware", sum, "firmware.img");
  }
  soc.cpu().load_firmware(fw);
  const auto& fl = header.at("flash");
  soc.flash.set_op_counts(fl.at("reads").get<uint64_t>(), fl.at("programs").get<uint64_t>(),
                          fl.at("erases").get<uint64_t>());
  soc.cpu().set_functional_time_ns(header.at("firmware_time_ns").get<uint64_t>());
}

// ---- Simulation's side (simulation.h) ---------------------------------------

void Simulation::set_state_options(const StateOptions& o) {
  plan_.save_state = !o.save_dir.empty();
  plan_.load_state = !o.load_dir.empty();
  plan_.precondition_only = o.precondition_only;
  plan_.check();  // what a saved drive does not carry (run_plan.cpp)
  state_ = o;
  if (o.save_dir.empty() && o.load_dir.empty()) return;
  const nlohmann::json keys = state_keys();
  if (!o.load_dir.empty()) loaded_header_ = check_saved_header(o.load_dir, keys);
}

nlohmann::json Simulation::state_keys() const {
  nlohmann::json keys = drive_shaping_keys(cfg_, keys_.wl_requests > 0 || keys_.wl_fraction > 0);
  // precondition.free_pool auto takes the host's loop mode into account.
  const bool reserve = keys_.free_pool == "reserve" || (keys_.free_pool == "auto" && host_->closed_loop());
  keys["precondition.free_pool"] =
      keys_.free_pool +
      (keys_.free_pool == "auto" ? reserve ? " (reserve: closed-loop host)" : " (threshold: open-loop host)" : "");
  return keys;
}

void Simulation::save_drive_state() {
  nlohmann::json h;
  h["ssdvp_version"] = ssdvp_version();
  h["keys"] = state_keys();
  h["precondition"] = {{"lba_writes", precond_writes_}};
  write_drive(state_.save_dir, *soc_, *sb_, h);
}

void Simulation::load_drive_state() {
  const nlohmann::json& h = loaded_header_;
  if (h.value("ssdvp_version", "") != ssdvp_version())
    std::fprintf(stderr, "ssdvp: warning: the drive in %s was saved by ssdvp %s, this is %s\n", state_.load_dir.c_str(),
                 h.value("ssdvp_version", "?").c_str(), ssdvp_version().c_str());
  read_drive(state_.load_dir, *soc_, *sb_, h);
  precond_writes_ = h.at("precondition").at("lba_writes").get<uint64_t>();
  // The workload continues where preconditioning left it: its first requests
  // are read again (not run), as precondition() read them.
  const uint64_t n = keys_.workload_requests(*workload_);
  host::IoRequest r;
  for (uint64_t i = 0; i < n && workload_->next(r); ++i) {
  }
}

}  // namespace ssdvp
