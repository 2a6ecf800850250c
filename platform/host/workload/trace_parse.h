// trace_parse.h - internal helpers of the trace readers: a buffered line
// reader and allocation-free field parsers. Not part of the public API.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace ssdvp::host::detail {

using u128 = unsigned __int128;

// Reads a text file line by line through one buffer. Lines are returned
// without their terminator ("\n" or "\r\n"); a last line without a newline is
// returned too; a UTF-8 byte-order mark at the start of the file is dropped.
// A returned view stays valid until the next call.
class LineReader {
 public:
  static constexpr size_t kInitialBuffer = 1u << 20;
  static constexpr size_t kMaxLine = 16u << 20;  // longer "lines" mean a binary file

  explicit LineReader(const std::string& path);  // throws TraceError
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool next(std::string_view& line);
  void rewind();
  uint64_t line_number() const { return line_; }  // of the last line returned
  const std::string& path() const { return path_; }

 private:
  bool fill();  // false at end of file

  std::string path_;
  std::FILE* f_ = nullptr;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  uint64_t line_ = 0;
};

// A short, printable excerpt of an input line for an error message: at most
// `max` characters, a byte outside printable ASCII as \xNN, and when cut
// "..." and the whole length ("... (10485760 bytes)"). Binary input or a huge
// line never reaches the terminal raw.
std::string excerpt(std::string_view s, size_t max = 80);

inline bool is_space(char c) { return c == ' ' || c == '\t'; }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

inline bool is_blank(std::string_view s) {
  for (char c : s)
    if (!is_space(c) && c != '\r') return false;
  return true;
}

// Splits on runs of blanks. Fills at most `max` fields and returns how many
// fields the line has, capped at max + 1 (so "more than max" is detectable).
inline size_t split_ws(std::string_view line, std::string_view* f, size_t max) {
  size_t n = 0, i = 0;
  const size_t len = line.size();
  while (true) {
    while (i < len && is_space(line[i])) ++i;
    if (i >= len) return n;
    size_t j = i;
    while (j < len && !is_space(line[j])) ++j;
    if (n == max) return n + 1;
    f[n++] = line.substr(i, j - i);
    i = j;
  }
}

// Splits on commas, trimming blanks around each field. Same return convention
// as split_ws. An empty line has one (empty) field.
inline size_t split_csv(std::string_view line, std::string_view* f, size_t max) {
  size_t n = 0, i = 0;
  while (true) {
    const size_t c = line.find(',', i);
    const std::string_view field = line.substr(i, c == std::string_view::npos ? std::string_view::npos : c - i);
    if (n == max) return n + 1;
    f[n++] = trim(field);
    if (c == std::string_view::npos) return n;
    i = c + 1;
  }
}

inline bool parse_u64(std::string_view s, uint64_t& v) {
  if (s.empty()) return false;
  const char* e = s.data() + s.size();
  auto r = std::from_chars(s.data(), e, v);
  return r.ec == std::errc() && r.ptr == e;
}

inline bool parse_u32(std::string_view s, uint32_t& v) {
  if (s.empty()) return false;
  const char* e = s.data() + s.size();
  auto r = std::from_chars(s.data(), e, v);
  return r.ec == std::errc() && r.ptr == e;
}

// Hexadecimal with an optional 0x/0X prefix.
inline bool parse_hex_u64(std::string_view s, uint64_t& v) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return false;
  const char* e = s.data() + s.size();
  auto r = std::from_chars(s.data(), e, v, 16);
  return r.ec == std::errc() && r.ptr == e;
}

// Parses a non-negative decimal number ("12", "0.000251", "1.5e3", ".5") and
// returns round-half-up(value * 10^scale) exactly, in 128 bits. False on a
// syntax error (including a sign, "nan", "inf") or on overflow.
bool parse_decimal_scaled(std::string_view s, int scale, u128& out);

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace ssdvp::host::detail
