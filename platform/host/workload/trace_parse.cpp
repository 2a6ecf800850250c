// trace_parse.cpp - see trace_parse.h.
#include "trace_parse.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "workload.h"

namespace ssdvp::host::detail {

std::string excerpt(std::string_view s, size_t max) {
  static const char kHex[] = "0123456789abcdef";
  std::string r;
  size_t used = 0;
  for (; used < s.size(); ++used) {
    const auto c = static_cast<unsigned char>(s[used]);
    const bool plain = c >= 0x20 && c < 0x7f && c != '\\';
    if (r.size() + (plain ? 1 : 4) > max) break;
    if (plain) {
      r += char(c);
    } else {
      r += "\\x";
      r += kHex[c >> 4];
      r += kHex[c & 15];
    }
  }
  if (used < s.size()) r += "... (" + std::to_string(s.size()) + " bytes)";
  return r;
}

namespace {

// A trace that is not a regular file (`--trace <(zcat t.gz)`, /dev/stdin, a
// FIFO) can be read only once, but a trace is read more than once: format
// detection reads its first lines, a looped trace rewinds. Such a trace is
// copied once, at its first open, into an unlinked temporary file (on disk,
// not in memory: a piped trace may be larger than memory); every later open
// of the same path reads that copy from its start.
std::FILE* open_spooled(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, int> spools;  // path -> fd of the unlinked copy (kept open until exit)
  std::lock_guard<std::mutex> lock(mu);
  auto it = spools.find(path);
  if (it == spools.end()) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode))  // a named FIFO (not <(...) nor /dev/stdin)
      std::fprintf(stderr, "ssdvp: %s is a FIFO: waiting for a writer to open it (Ctrl-C to stop)\n", path.c_str());
    std::FILE* in = std::fopen(path.c_str(), "rb");
    if (!in) throw TraceError(path + ": cannot open trace: " + std::strerror(errno));
    const char* dir = std::getenv("TMPDIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/ssdvp-trace-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) {
      std::fclose(in);
      throw TraceError(path + ": cannot copy the piped trace to a temporary file in " + tmpl + ": " +
                       std::strerror(errno));
    }
    ::unlink(tmpl.c_str());  // ours alone; gone when the process ends, however it ends
    std::vector<char> buf(1u << 20);
    for (;;) {
      const size_t n = std::fread(buf.data(), 1, buf.size(), in);
      if (n == 0) break;
      for (size_t off = 0; off < n;) {
        const ssize_t w = ::write(fd, buf.data() + off, n - off);
        if (w < 0) {
          const int err = errno;
          std::fclose(in);
          ::close(fd);
          throw TraceError(path + ": cannot copy the piped trace to a temporary file: " + std::strerror(err));
        }
        off += static_cast<size_t>(w);
      }
    }
    const bool bad = std::ferror(in);
    std::fclose(in);
    if (bad) {
      ::close(fd);
      throw TraceError(path + ": read error: " + std::strerror(errno));
    }
    it = spools.emplace(path, fd).first;
  }
  // a new open file description: its own offset, independent of other readers
  std::FILE* f = std::fopen(("/proc/self/fd/" + std::to_string(it->second)).c_str(), "rb");
  if (!f) throw TraceError(path + ": cannot reopen the copy of the piped trace: " + std::strerror(errno));
  return f;
}

}  // namespace

LineReader::LineReader(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    f_ = open_spooled(path);
  } else {
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) throw TraceError(path + ": cannot open trace: " + std::strerror(errno));
  }
  buf_.resize(kInitialBuffer);
}

LineReader::~LineReader() {
  if (f_) std::fclose(f_);
}

void LineReader::rewind() {
  if (std::fseek(f_, 0, SEEK_SET) != 0) throw TraceError(path_ + ": cannot rewind: " + std::strerror(errno));
  std::clearerr(f_);
  begin_ = end_ = 0;
  eof_ = false;
  line_ = 0;
}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) {
    if (buf_.size() >= kMaxLine) {
      throw TraceError(path_ + ":" + std::to_string(line_ + 1) + ": expected a text line shorter than " +
                       std::to_string(kMaxLine >> 20) + " MiB (is this a binary file?), got '" +
                       excerpt(std::string_view(buf_.data(), 40), 40) + "...'");
    }
    buf_.resize(buf_.size() * 2);
  }
  const size_t n = std::fread(buf_.data() + end_, 1, buf_.size() - end_, f_);
  if (n == 0) {
    if (std::ferror(f_)) throw TraceError(path_ + ": read error: " + std::strerror(errno));
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

bool LineReader::next(std::string_view& line) {
  size_t scanned = begin_;  // bytes before this offset hold no '\n'
  for (;;) {
    const char* base = buf_.data();
    const void* nl = scanned < end_ ? std::memchr(base + scanned, '\n', end_ - scanned) : nullptr;
    size_t len;
    if (nl) {
      len = static_cast<const char*>(nl) - (base + begin_);
    } else {
      const size_t pending = end_ - begin_;  // no '\n' in these bytes
      if (fill()) {
        scanned = pending;  // fill() moved the pending bytes to the front
        continue;
      }
      if (begin_ >= end_) return false;
      len = end_ - begin_;  // last line without a newline
    }
    const char* p = buf_.data() + begin_;
    begin_ += len + (nl ? 1 : 0);
    if (len > 0 && p[len - 1] == '\r') --len;
    if (line_ == 0 && len >= 3 && static_cast<unsigned char>(p[0]) == 0xEF &&
        static_cast<unsigned char>(p[1]) == 0xBB && static_cast<unsigned char>(p[2]) == 0xBF) {
      p += 3;
      len -= 3;
    }
    ++line_;
    line = std::string_view(p, len);
    return true;
  }
}

bool parse_decimal_scaled(std::string_view s, int scale, u128& out) {
  static constexpr u128 kMantissaCap = static_cast<u128>(1000000000000000000ull) * 1000000000000000000ull;  // 1e36
  size_t i = 0;
  const size_t n = s.size();
  u128 mant = 0;
  int exp10 = 0;
  bool any = false;
  bool dropped_nonzero = false;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    if (mant < kMantissaCap)
      mant = mant * 10 + static_cast<unsigned>(s[i] - '0');
    else {
      ++exp10;
      dropped_nonzero |= s[i] != '0';
    }
    any = true;
    ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      if (mant < kMantissaCap) {
        mant = mant * 10 + static_cast<unsigned>(s[i] - '0');
        --exp10;
      } else
        dropped_nonzero |= s[i] != '0';
      any = true;
      ++i;
    }
  }
  if (!any) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i >= n) return false;
    int e = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      if (e < 10000) e = e * 10 + (s[i] - '0');
      ++i;
    }
    exp10 += neg ? -e : e;
  }
  if (i != n) return false;
  (void)dropped_nonzero;  // below the 36th significant digit: far under 1 ps for any time unit
  int k = exp10 + scale;
  if (mant == 0) {
    out = 0;
    return true;
  }
  if (k >= 0) {
    const u128 max = ~static_cast<u128>(0);
    for (; k > 0; --k) {
      if (mant > max / 10) return false;
      mant *= 10;
    }
    out = mant;
    return true;
  }
  k = -k;
  if (k > 38) {
    out = 0;
    return true;
  }
  u128 div = 1;
  for (int j = 0; j < k; ++j) div *= 10;
  u128 q = mant / div;
  const u128 r = mant % div;
  if (r >= div - r) ++q;  // r * 2 >= div without overflow
  out = q;
  return true;
}

}  // namespace ssdvp::host::detail
