// ext4_layout.h - what a real mkfs.ext4 made of a volume, read from the
// tools' own output (host.files.ext4.layout; docs/models/host_journal.md):
// `dumpe2fs -h <image>` followed by `debugfs -R "stat <8>" <image>` (the
// journal inode) in one text file, as traces/ext4-896MiB.layout bundles it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "file_model.h"

namespace ssdvp::fs {

struct Ext4Layout {
  std::string path;
  uint64_t block_size = 0, block_count = 0;  // dumpe2fs: "Block size:", "Block count:"
  uint64_t journal_blocks = 0;               // dumpe2fs: "Total journal blocks:"
  std::vector<Extent> journal;               // debugfs: the journal inode's extents, physical blocks in file order
};

// Reads the file; throws ConfigError naming `key` and file:line on anything
// it cannot read (a missing field names the field and the tool it comes from).
Ext4Layout read_ext4_layout(const std::string& path, const std::string& key);

}  // namespace ssdvp::fs
