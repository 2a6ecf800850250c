// request_recorder.h - a file-model sink that keeps every request it is
// handed, for the file model and journal tests.
#pragma once

#include <vector>

#include "file_model.h"

namespace ssdvp::fs {

struct Rec {
  std::vector<host::IoRequest> v;
  FileSystem::Sink sink() {
    return [this](const host::IoRequest& r) { v.push_back(r); };
  }
};

}  // namespace ssdvp::fs
