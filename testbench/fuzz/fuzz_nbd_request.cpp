// fuzz_nbd_request.cpp - libFuzzer harness: the NBD server's request decoder
// (platform/nbd/nbd_proto.h, decode_request), a pure function over the
// 28-byte request header a client sends.
//
// Input: the first byte picks the limits (minimum block 1, 512 or 4096, a
// maximum payload of 4 KiB or 32 MiB); the next 8 bytes, when present, are
// the export size (big-endian); the rest is the header as on the wire (it may
// be short or long: only the first 28 bytes are a header).
//
// Properties besides "no crash, no sanitizer report":
//  - kShort exactly when fewer than 28 bytes; kBadMagic exactly when the
//    magic differs; otherwise the decoded fields re-encode to the same bytes;
//  - kOk means: a known command, only its allowed flags, a data command's
//    range inside the export, aligned, non-zero, a READ/WRITE within the
//    payload limit;
//  - reply_error is E_OK only for kOk and kZeroLength, one of the NBD errors
//    otherwise; to_string names every verdict; the decoder is deterministic.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "nbd/nbd_proto.h"

namespace nbd = ssdvp::nbd;

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_nbd_request: property broken: %s\n", what);
  std::abort();
}

bool known_error(uint32_t e) {
  return e == nbd::E_PERM || e == nbd::E_IO || e == nbd::E_NOMEM || e == nbd::E_INVAL || e == nbd::E_NOSPC ||
         e == nbd::E_OVERFLOW || e == nbd::E_NOTSUP || e == nbd::E_SHUTDOWN;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nbd::Limits lim;
  lim.export_size = 1ull << 30;
  if (size >= 1) {
    static const uint32_t blocks[4] = {1, 512, 4096, 0};  // 0: the decoder treats it as 1
    lim.min_block = blocks[data[0] & 3];
    lim.max_payload = (data[0] & 4) ? 4096u : (1u << 25);
    ++data, --size;
  }
  if (size >= 8) {
    lim.export_size = nbd::get64(data);
    data += 8, size -= 8;
  }
  nbd::Request r;
  const nbd::Decode d = nbd::decode_request(data, size, lim, &r);
  nbd::Request r2;
  if (nbd::decode_request(data, size, lim, &r2) != d) fail("not deterministic");
  if (std::strlen(nbd::to_string(d)) == 0 || std::strcmp(nbd::to_string(d), "?") == 0) fail("verdict without a name");

  if ((d == nbd::Decode::kShort) != (size < nbd::kRequestHeader)) fail("kShort iff fewer than 28 bytes");
  if (d == nbd::Decode::kShort) return 0;
  if ((d == nbd::Decode::kBadMagic) != (nbd::get32(data) != nbd::kRequestMagic)) fail("kBadMagic iff wrong magic");
  if (d == nbd::Decode::kBadMagic) return 0;

  const std::vector<uint8_t> again = nbd::request_bytes(r);
  if (again.size() != nbd::kRequestHeader || std::memcmp(again.data(), data, nbd::kRequestHeader) != 0)
    fail("decoded fields do not re-encode to the header");

  const uint32_t err = nbd::reply_error(d, r.type);
  if ((err == nbd::E_OK) != (d == nbd::Decode::kOk || d == nbd::Decode::kZeroLength))
    fail("E_OK iff ok or zero length");
  if (err != nbd::E_OK && !known_error(err)) fail("reply error not an NBD error");

  if (d == nbd::Decode::kOk || d == nbd::Decode::kZeroLength) {
    uint16_t allowed = 0;
    bool ranged = true;
    switch (r.type) {
      case nbd::CMD_READ: allowed = nbd::CMD_FLAG_DF; break;
      case nbd::CMD_WRITE:
      case nbd::CMD_TRIM: allowed = nbd::CMD_FLAG_FUA; break;
      case nbd::CMD_WRITE_ZEROES: allowed = nbd::CMD_FLAG_FUA | nbd::CMD_FLAG_NO_HOLE; break;
      case nbd::CMD_FLUSH:
      case nbd::CMD_DISC: ranged = false; break;
      default: fail("accepted an unknown command");
    }
    if (r.flags & ~allowed) fail("accepted a flag not valid for the command");
    if (ranged) {
      if (r.offset > lim.export_size || r.length > lim.export_size - r.offset) fail("accepted a range past the end");
      const uint32_t b = lim.min_block ? lim.min_block : 1;
      if (r.offset % b || r.length % b) fail("accepted an unaligned range");
      if ((r.type == nbd::CMD_READ || r.type == nbd::CMD_WRITE) && r.length > lim.max_payload)
        fail("accepted a payload above the limit");
      if ((r.length == 0) != (d == nbd::Decode::kZeroLength)) fail("kZeroLength iff a data command of length 0");
    } else if (d == nbd::Decode::kZeroLength) {
      fail("kZeroLength for a command without a range");
    }
  }
  return 0;
}
