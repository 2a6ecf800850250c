// nbd_proto.h - the NBD wire protocol as pure functions over bytes.
//
// Written from the NBD protocol document (doc/proto.md of the NBD project):
// fixed newstyle negotiation and simple replies, big-endian ("network byte
// order") fields. Nothing here touches a socket, throws or asserts: every
// decoder returns a code for what it found, so a fuzzer can drive it with any
// bytes (docs/models/nbd.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ssdvp::nbd {

// Handshake magics.
constexpr uint64_t kNbdMagic = 0x4e42444d41474943ull;  // "NBDMAGIC"
constexpr uint64_t kOptMagic = 0x49484156454f5054ull;  // "IHAVEOPT"
constexpr uint64_t kRepMagic = 0x0003e889045565a9ull;  // option reply magic
constexpr uint32_t kRequestMagic = 0x25609513u;
constexpr uint32_t kSimpleReplyMagic = 0x67446698u;

// Handshake flags (server) and client flags.
constexpr uint16_t kFlagFixedNewstyle = 1u << 0, kFlagNoZeroes = 1u << 1;
constexpr uint32_t kClientFixedNewstyle = 1u << 0, kClientNoZeroes = 1u << 1;

// Options.
enum Opt : uint32_t {
  OPT_EXPORT_NAME = 1,
  OPT_ABORT = 2,
  OPT_LIST = 3,
  OPT_PEEK_EXPORT = 4,
  OPT_STARTTLS = 5,
  OPT_INFO = 6,
  OPT_GO = 7,
  OPT_STRUCTURED_REPLY = 8,
  OPT_LIST_META_CONTEXT = 9,
  OPT_SET_META_CONTEXT = 10,
  OPT_EXTENDED_HEADERS = 11,
};
// Option reply types.
constexpr uint32_t REP_ACK = 1, REP_SERVER = 2, REP_INFO = 3;
constexpr uint32_t REP_ERR_UNSUP = 0x80000001u, REP_ERR_POLICY = 0x80000002u, REP_ERR_INVALID = 0x80000003u,
                   REP_ERR_UNKNOWN = 0x80000006u, REP_ERR_SHUTDOWN = 0x80000007u, REP_ERR_TOO_BIG = 0x80000009u;
// NBD_REP_INFO types.
constexpr uint16_t INFO_EXPORT = 0, INFO_NAME = 1, INFO_DESCRIPTION = 2, INFO_BLOCK_SIZE = 3;

// Transmission flags.
constexpr uint16_t TF_HAS_FLAGS = 1u << 0, TF_READ_ONLY = 1u << 1, TF_SEND_FLUSH = 1u << 2, TF_SEND_FUA = 1u << 3,
                   TF_SEND_TRIM = 1u << 5, TF_SEND_WRITE_ZEROES = 1u << 6, TF_CAN_MULTI_CONN = 1u << 8;

// Commands and command flags.
enum Cmd : uint16_t {
  CMD_READ = 0,
  CMD_WRITE = 1,
  CMD_DISC = 2,
  CMD_FLUSH = 3,
  CMD_TRIM = 4,
  CMD_CACHE = 5,
  CMD_WRITE_ZEROES = 6,
  CMD_BLOCK_STATUS = 7,
  CMD_RESIZE = 8
};
constexpr uint16_t CMD_FLAG_FUA = 1u << 0, CMD_FLAG_NO_HOLE = 1u << 1, CMD_FLAG_DF = 1u << 2,
                   CMD_FLAG_REQ_ONE = 1u << 3, CMD_FLAG_FAST_ZERO = 1u << 4;

// Error values in replies (the protocol's, equal to Linux errno values).
enum Err : uint32_t {
  E_OK = 0,
  E_PERM = 1,
  E_IO = 5,
  E_NOMEM = 12,
  E_INVAL = 22,
  E_NOSPC = 28,
  E_OVERFLOW = 75,
  E_NOTSUP = 95,
  E_SHUTDOWN = 108
};

constexpr size_t kRequestHeader = 28;  // magic, flags, type, cookie, offset, length
constexpr size_t kSimpleReplyHeader = 16;

struct Request {
  uint16_t flags = 0;
  uint16_t type = 0;
  uint64_t cookie = 0;  // "handle" in older versions of the document
  uint64_t offset = 0;
  uint32_t length = 0;
};

// What the server may accept; the limits a request is checked against.
struct Limits {
  uint64_t export_size = 0;
  uint32_t min_block = 1;           // offsets and lengths of data commands are multiples of this
  uint32_t max_payload = 1u << 25;  // READ/WRITE length at most this
};

// decode_request's verdicts. kOk: a valid request (a WRITE's payload of
// `length` bytes follows on the wire). Every other code except kShort and
// kBadMagic still fills `out` so the server can reply with reply_error(code)
// to that cookie; for a WRITE it must first read and discard the payload
// (kTooBig: the connection is better closed, as the payload is not read).
enum class Decode : int {
  kOk = 0,
  kShort,           // fewer than kRequestHeader bytes
  kBadMagic,        // not a request: the connection must be closed
  kUnknownCommand,  // not a command this server knows (the reply is NBD_EINVAL)
  kBadFlags,        // a flag not valid for this command
  kOutOfRange,      // offset + length beyond the export
  kUnaligned,       // offset or length not a multiple of min_block
  kTooBig,          // READ/WRITE longer than max_payload
  kZeroLength,      // a data command of length 0 (answered without touching the drive)
};
const char* to_string(Decode d);

// Decodes one request header from bytes[0..n). Pure: no allocation, no throw.
Decode decode_request(const uint8_t* bytes, size_t n, const Limits& lim, Request* out);
// The NBD error to reply for a decode verdict (E_OK for kOk and kZeroLength).
uint32_t reply_error(Decode d, uint16_t type);

// Encoders (big-endian).
void put16(std::vector<uint8_t>& b, uint16_t v);
void put32(std::vector<uint8_t>& b, uint32_t v);
void put64(std::vector<uint8_t>& b, uint64_t v);
uint16_t get16(const uint8_t* p);
uint32_t get32(const uint8_t* p);
uint64_t get64(const uint8_t* p);

// The server's greeting: NBDMAGIC, IHAVEOPT, handshake flags.
std::vector<uint8_t> greeting();
std::vector<uint8_t> request_bytes(const Request& r);  // the client side (tests, fuzzing)
std::vector<uint8_t> simple_reply(uint32_t error, uint64_t cookie);
std::vector<uint8_t> option_reply(uint32_t option, uint32_t type, const std::vector<uint8_t>& data);

// Option data of NBD_OPT_INFO / NBD_OPT_GO: export name and requested info
// types. Returns false when the data is malformed (lengths that do not add up).
bool parse_info_request(const uint8_t* data, size_t n, std::string* name, std::vector<uint16_t>* infos);

}  // namespace ssdvp::nbd
