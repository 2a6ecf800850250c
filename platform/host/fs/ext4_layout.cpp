// ext4_layout.cpp - see ext4_layout.h.
#include "ext4_layout.h"

#include <cctype>
#include <fstream>

#include "common/config.h"

namespace ssdvp::fs {
namespace {

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// A decimal number from s at i (moves i past it); false if none.
bool number(const std::string& s, size_t& i, uint64_t& v) {
  const size_t b = i;
  v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + uint64_t(s[i++] - '0');
  }
  return i > b;
}

}  // namespace

Ext4Layout read_ext4_layout(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  auto fail = [&](const std::string& where, const std::string& what) -> void {
    throw ConfigError("config key '" + key + "': " + where + ": " + what);
  };
  if (!in) fail(path, "cannot be read");
  Ext4Layout L;
  L.path = path;
  std::string line;
  bool extents = false;
  for (size_t n = 1; std::getline(in, line); ++n) {
    const std::string at = path + ":" + std::to_string(n);
    auto field = [&](const char* name, uint64_t& v) {
      if (!starts(line, name)) return;
      size_t i = std::string(name).size();
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (!number(line, i, v) || v == 0) fail(at, std::string("'") + name + "' is not a positive number");
    };
    field("Block size:", L.block_size);
    field("Block count:", L.block_count);
    field("Total journal blocks:", L.journal_blocks);
    if (starts(line, "EXTENTS:")) {
      extents = true;
      continue;
    }
    if (!extents) continue;
    // debugfs: "(0-4095):65536-69631, (4096):70000, (ETB0):1234, ..." (logical):physical
    extents = false;
    for (size_t i = 0; i < line.size();) {
      if (line[i] != '(') {
        ++i;
        continue;
      }
      if (starts(line.substr(i), "(ETB")) {  // an extent tree block, not journal data
        i = line.find(')', i);
        if (i == std::string::npos) fail(at, "unterminated '(ETB'");
        continue;
      }
      uint64_t l0 = 0, l1 = 0, p0 = 0, p1 = 0;
      size_t j = i + 1;
      if (!number(line, j, l0)) fail(at, "an extent's logical start is not a number");
      l1 = l0;
      if (j < line.size() && line[j] == '-' && (++j, !number(line, j, l1))) fail(at, "bad logical range");
      if (j + 1 >= line.size() || line[j] != ')' || line[j + 1] != ':')
        fail(at, "expected '):' after the logical range");
      j += 2;
      if (!number(line, j, p0)) fail(at, "an extent's physical start is not a number");
      p1 = p0;
      if (j < line.size() && line[j] == '-' && (++j, !number(line, j, p1))) fail(at, "bad physical range");
      if (l1 < l0 || p1 < p0 || p1 - p0 != l1 - l0) fail(at, "logical and physical ranges differ in length");
      L.journal.push_back({p0, p1 - p0 + 1});
      i = j;
    }
  }
  if (!L.block_size) fail(path, "no 'Block size:' line (dumpe2fs -h output expected)");
  if (!L.block_count) fail(path, "no 'Block count:' line (dumpe2fs -h output expected)");
  if (!L.journal_blocks) fail(path, "no 'Total journal blocks:' line (dumpe2fs -h of a file system with a journal)");
  if (L.journal.empty()) fail(path, "no extents of the journal inode (debugfs -R \"stat <8>\" output expected)");
  uint64_t sum = 0;
  for (const Extent& e : L.journal) sum += e.len;
  if (sum != L.journal_blocks)
    fail(path, "the journal inode's extents hold " + std::to_string(sum) + " blocks, dumpe2fs says " +
                   std::to_string(L.journal_blocks));
  return L;
}

}  // namespace ssdvp::fs
