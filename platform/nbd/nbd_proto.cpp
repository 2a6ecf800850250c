// nbd_proto.cpp - see nbd_proto.h.
#include "nbd/nbd_proto.h"

namespace ssdvp::nbd {

const char* to_string(Decode d) {
  switch (d) {
    case Decode::kOk: return "ok";
    case Decode::kShort: return "short header";
    case Decode::kBadMagic: return "bad request magic";
    case Decode::kUnknownCommand: return "unknown command";
    case Decode::kBadFlags: return "flag not valid for the command";
    case Decode::kOutOfRange: return "beyond the end of the export";
    case Decode::kUnaligned: return "not aligned to the minimum block size";
    case Decode::kTooBig: return "longer than the maximum payload";
    case Decode::kZeroLength: return "zero length";
  }
  return "?";
}

uint16_t get16(const uint8_t* p) { return uint16_t(uint16_t(p[0]) << 8 | p[1]); }
uint32_t get32(const uint8_t* p) { return uint32_t(get16(p)) << 16 | get16(p + 2); }
uint64_t get64(const uint8_t* p) { return uint64_t(get32(p)) << 32 | get32(p + 4); }
void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  put16(b, uint16_t(v >> 16));
  put16(b, uint16_t(v));
}
void put64(std::vector<uint8_t>& b, uint64_t v) {
  put32(b, uint32_t(v >> 32));
  put32(b, uint32_t(v));
}

Decode decode_request(const uint8_t* bytes, size_t n, const Limits& lim, Request* out) {
  if (!bytes || n < kRequestHeader) return Decode::kShort;
  if (get32(bytes) != kRequestMagic) return Decode::kBadMagic;
  Request r;
  r.flags = get16(bytes + 4);
  r.type = get16(bytes + 6);
  r.cookie = get64(bytes + 8);
  r.offset = get64(bytes + 16);
  r.length = get32(bytes + 24);
  if (out) *out = r;
  uint16_t allowed = 0;
  bool data = true;  // carries an offset/length range
  switch (r.type) {
    case CMD_READ: allowed = CMD_FLAG_DF; break;  // DF is harmless without structured replies
    case CMD_WRITE: allowed = CMD_FLAG_FUA; break;
    case CMD_TRIM: allowed = CMD_FLAG_FUA; break;
    case CMD_WRITE_ZEROES: allowed = CMD_FLAG_FUA | CMD_FLAG_NO_HOLE; break;
    case CMD_FLUSH:
    case CMD_DISC: data = false; break;
    default: return Decode::kUnknownCommand;
  }
  if (r.flags & ~allowed) return Decode::kBadFlags;
  if (!data) return Decode::kOk;
  if ((r.type == CMD_READ || r.type == CMD_WRITE) && r.length > lim.max_payload) return Decode::kTooBig;
  if (r.offset > lim.export_size || r.length > lim.export_size - r.offset) return Decode::kOutOfRange;
  const uint32_t b = lim.min_block ? lim.min_block : 1;
  if (r.offset % b || r.length % b) return Decode::kUnaligned;
  if (r.length == 0) return Decode::kZeroLength;
  return Decode::kOk;
}

uint32_t reply_error(Decode d, uint16_t type) {
  switch (d) {
    case Decode::kOk:
    case Decode::kZeroLength: return E_OK;
    case Decode::kOutOfRange: return (type == CMD_WRITE || type == CMD_WRITE_ZEROES) ? E_NOSPC : E_INVAL;
    case Decode::kTooBig: return (type == CMD_WRITE) ? E_NOMEM : E_INVAL;  // the document suggests ENOMEM or EINVAL
    default: return E_INVAL;
  }
}

std::vector<uint8_t> greeting() {
  std::vector<uint8_t> b;
  put64(b, kNbdMagic);
  put64(b, kOptMagic);
  put16(b, kFlagFixedNewstyle | kFlagNoZeroes);
  return b;
}

std::vector<uint8_t> request_bytes(const Request& r) {
  std::vector<uint8_t> b;
  put32(b, kRequestMagic);
  put16(b, r.flags);
  put16(b, r.type);
  put64(b, r.cookie);
  put64(b, r.offset);
  put32(b, r.length);
  return b;
}

std::vector<uint8_t> simple_reply(uint32_t error, uint64_t cookie) {
  std::vector<uint8_t> b;
  b.reserve(kSimpleReplyHeader);
  put32(b, kSimpleReplyMagic);
  put32(b, error);
  put64(b, cookie);
  return b;
}

std::vector<uint8_t> option_reply(uint32_t option, uint32_t type, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> b;
  put64(b, kRepMagic);
  put32(b, option);
  put32(b, type);
  put32(b, uint32_t(data.size()));
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

bool parse_info_request(const uint8_t* data, size_t n, std::string* name, std::vector<uint16_t>* infos) {
  if (!data || n < 4) return false;
  const uint32_t len = get32(data);
  if (len > n - 4 || n - 4 - len < 2) return false;
  if (name) name->assign(reinterpret_cast<const char*>(data + 4), len);
  const uint16_t count = get16(data + 4 + len);
  if (n - 6 - len != size_t(count) * 2) return false;
  if (infos) {
    infos->clear();
    for (uint16_t i = 0; i < count; ++i) infos->push_back(get16(data + 6 + len + 2 * size_t(i)));
  }
  return true;
}

}  // namespace ssdvp::nbd
