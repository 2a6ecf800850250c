// nbd_proto_test.cpp - the NBD request decoder and option parsing as pure
// functions (platform/nbd/nbd_proto.h): verdicts for each kind of bad
// request, the error each gets, and a fuzz pass over random and mutated bytes.
#include <gtest/gtest.h>

#include <random>

#include "nbd/nbd_proto.h"

using namespace ssdvp::nbd;

namespace {

Limits lim() {
  Limits l;
  l.export_size = 1ull << 30;
  l.min_block = 4096;
  l.max_payload = 1u << 20;
  return l;
}

Decode dec(const Request& r, Request* out = nullptr) {
  const auto b = request_bytes(r);
  return decode_request(b.data(), b.size(), lim(), out);
}

Request req(uint16_t type, uint64_t off, uint32_t len, uint16_t flags = 0) {
  Request r;
  r.type = type;
  r.offset = off;
  r.length = len;
  r.flags = flags;
  r.cookie = 0x1122334455667788ull;
  return r;
}

}  // namespace

TEST(NbdProto, RoundTripsAValidRequest) {
  Request out;
  ASSERT_EQ(dec(req(CMD_WRITE, 8192, 4096, CMD_FLAG_FUA), &out), Decode::kOk);
  EXPECT_EQ(out.type, CMD_WRITE);
  EXPECT_EQ(out.offset, 8192u);
  EXPECT_EQ(out.length, 4096u);
  EXPECT_EQ(out.flags, CMD_FLAG_FUA);
  EXPECT_EQ(out.cookie, 0x1122334455667788ull);
  EXPECT_EQ(dec(req(CMD_FLUSH, 0, 0)), Decode::kOk);
  EXPECT_EQ(dec(req(CMD_DISC, 0, 0)), Decode::kOk);
  EXPECT_EQ(dec(req(CMD_WRITE_ZEROES, 0, 1u << 29, CMD_FLAG_NO_HOLE)), Decode::kOk);  // no payload limit
}

TEST(NbdProto, EachBadRequestGetsItsVerdictAndTheProtocolsError) {
  const auto l = lim();
  Request out;
  EXPECT_EQ(dec(req(CMD_READ, l.export_size, 4096), &out), Decode::kOutOfRange);
  EXPECT_EQ(reply_error(Decode::kOutOfRange, CMD_READ), uint32_t(E_INVAL));
  EXPECT_EQ(reply_error(Decode::kOutOfRange, CMD_WRITE), uint32_t(E_NOSPC));
  EXPECT_EQ(dec(req(CMD_WRITE, l.export_size - 4096, 8192)), Decode::kOutOfRange);
  EXPECT_EQ(dec(req(CMD_READ, UINT64_MAX - 100, 4096)), Decode::kOutOfRange);  // no wrap-around
  EXPECT_EQ(dec(req(CMD_READ, 512, 4096)), Decode::kUnaligned);
  EXPECT_EQ(dec(req(CMD_TRIM, 0, 100)), Decode::kUnaligned);
  EXPECT_EQ(dec(req(CMD_READ, 0, l.max_payload + 4096)), Decode::kTooBig);
  EXPECT_EQ(dec(req(CMD_READ, 0, 0)), Decode::kZeroLength);
  EXPECT_EQ(reply_error(Decode::kZeroLength, CMD_READ), uint32_t(E_OK));
  EXPECT_EQ(dec(req(CMD_BLOCK_STATUS, 0, 4096)), Decode::kUnknownCommand);
  EXPECT_EQ(dec(req(99, 0, 4096), &out), Decode::kUnknownCommand);
  EXPECT_EQ(out.cookie, 0x1122334455667788ull) << "the cookie is filled for the error reply";
  EXPECT_EQ(reply_error(Decode::kUnknownCommand, 99), uint32_t(E_INVAL));
  EXPECT_EQ(dec(req(CMD_READ, 0, 4096, CMD_FLAG_FUA)), Decode::kBadFlags);
  EXPECT_EQ(dec(req(CMD_FLUSH, 0, 0, CMD_FLAG_NO_HOLE)), Decode::kBadFlags);
  auto b = request_bytes(req(CMD_READ, 0, 4096));
  b[0] ^= 0xff;
  EXPECT_EQ(decode_request(b.data(), b.size(), l, nullptr), Decode::kBadMagic);
  EXPECT_EQ(decode_request(b.data(), kRequestHeader - 1, l, nullptr), Decode::kShort);
  EXPECT_EQ(decode_request(nullptr, 100, l, nullptr), Decode::kShort);
}

TEST(NbdProto, InfoRequestParsing) {
  std::vector<uint8_t> d;
  put32(d, 5);
  for (char c : std::string("ssdvp")) d.push_back(uint8_t(c));
  put16(d, 2);
  put16(d, INFO_BLOCK_SIZE);
  put16(d, INFO_NAME);
  std::string name;
  std::vector<uint16_t> infos;
  ASSERT_TRUE(parse_info_request(d.data(), d.size(), &name, &infos));
  EXPECT_EQ(name, "ssdvp");
  EXPECT_EQ(infos, (std::vector<uint16_t>{INFO_BLOCK_SIZE, INFO_NAME}));
  EXPECT_FALSE(parse_info_request(d.data(), d.size() - 1, &name, &infos));  // count does not match
  d[3] = 200;                                                               // name longer than the data
  EXPECT_FALSE(parse_info_request(d.data(), d.size(), &name, &infos));
  EXPECT_FALSE(parse_info_request(d.data(), 3, &name, &infos));
}

// Fuzz: random headers and single-bit/byte mutations of valid ones never
// crash, and a kOk verdict always satisfies every limit.
TEST(NbdProto, FuzzedHeadersNeverYieldAnInvalidOk) {
  std::mt19937_64 rng(18);
  const Limits l = lim();
  uint64_t ok = 0;
  for (int i = 0; i < 200000; ++i) {
    std::vector<uint8_t> b;
    if (i % 2) {
      b.resize(rng() % 40);
      for (auto& x : b) x = uint8_t(rng());
      if (b.size() >= 4 && i % 4 == 1) {  // give most a valid magic to reach the checks
        b[0] = 0x25, b[1] = 0x60, b[2] = 0x95, b[3] = 0x13;
      }
    } else {
      b = request_bytes(
          req(uint16_t(rng() % 10), (rng() % 300000) * 4096, uint32_t((rng() % 300) * 4096), uint16_t(rng() % 32)));
      b[rng() % b.size()] ^= uint8_t(1u << (rng() % 8));
    }
    Request r;
    const Decode d = decode_request(b.data(), b.size(), l, &r);
    if (d == Decode::kOk) {
      ++ok;
      ASSERT_GE(b.size(), kRequestHeader);
      if (r.type != CMD_FLUSH && r.type != CMD_DISC) {
        ASSERT_LE(r.offset, l.export_size);
        ASSERT_LE(uint64_t(r.length), l.export_size - r.offset);
        ASSERT_EQ(r.offset % l.min_block, 0u);
        ASSERT_EQ(r.length % l.min_block, 0u);
        ASSERT_GT(r.length, 0u);
        if (r.type == CMD_READ || r.type == CMD_WRITE) {
          ASSERT_LE(r.length, l.max_payload);
        }
      }
    }
  }
  EXPECT_GT(ok, 1000u) << "the fuzzer should reach valid requests too";
}
