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

#include <lzma.h>
#include <zlib.h>

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
// detection reads its first lines, a looped trace rewinds. A compressed trace
// (xz or gzip, known by its first bytes, whatever its name) is read through
// its decompressor. Either is copied once, at its first open, into an
// unlinked temporary file (on disk, not in memory: a piped or unpacked trace
// may be larger than memory), decompressed on the way; every later open of
// the same path reads that copy from its start.

enum class Packing { plain, gzip, xz };

Packing packing_of(const unsigned char* b, size_t n) {
  static const unsigned char kXz[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
  if (n >= 6 && std::memcmp(b, kXz, 6) == 0) return Packing::xz;
  if (n >= 2 && b[0] == 0x1F && b[1] == 0x8B) return Packing::gzip;
  return Packing::plain;
}

// The packing of a regular file from its first bytes (plain when shorter).
Packing packing_of_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Packing::plain;  // the caller's fopen names the error
  unsigned char b[6];
  const size_t n = std::fread(b, 1, sizeof b, f);
  std::fclose(f);
  return packing_of(b, n);
}

const char* packing_name(Packing p) { return p == Packing::xz ? "xz" : p == Packing::gzip ? "gzip" : "plain"; }

// Writes all of [data, data + n) to fd; false with errno set on an error.
bool write_all(int fd, const char* data, size_t n) {
  for (size_t off = 0; off < n;) {
    const ssize_t w = ::write(fd, data + off, n - off);
    if (w < 0) return false;
    off += static_cast<size_t>(w);
  }
  return true;
}

// A decompressor fed chunks of the input; it writes what it decodes to fd.
// Throws TraceError naming the path and the byte offset of a damaged input.
class Unpacker {
 public:
  Unpacker(const std::string& path, Packing p, int fd) : path_(path), packing_(p), fd_(fd), out_(1u << 20) {
    if (p == Packing::xz) {
      if (lzma_stream_decoder(&xz_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
        throw TraceError(path + ": cannot start the xz decoder");
    } else if (p == Packing::gzip) {
      if (inflateInit2(&gz_, 15 + 32) != Z_OK) throw TraceError(path + ": cannot start the gzip decoder");
    }
  }
  ~Unpacker() {
    if (packing_ == Packing::xz) lzma_end(&xz_);
    if (packing_ == Packing::gzip) inflateEnd(&gz_);
  }
  Unpacker(const Unpacker&) = delete;
  Unpacker& operator=(const Unpacker&) = delete;

  // One chunk of input; `last` at the end of the input (n may be 0).
  void feed(const char* in, size_t n, bool last) {
    if (packing_ == Packing::plain) {
      emit(in, n);
    } else if (packing_ == Packing::xz) {
      feed_xz(in, n, last);
    } else {
      feed_gzip(in, n, last);
    }
    consumed_ += n;
  }

 private:
  void emit(const char* data, size_t n) {
    if (!write_all(fd_, data, n))
      throw TraceError(path_ + ": cannot copy the trace to a temporary file: " + std::strerror(errno));
  }
  [[noreturn]] void damaged(const std::string& what) const {
    throw TraceError(path_ + ": expected a complete " + packing_name(packing_) + " stream, got " + what +
                     " (within compressed bytes " + std::to_string(consumed_) + "-" +
                     std::to_string(consumed_ + chunk_) + ")");
  }
  void feed_xz(const char* in, size_t n, bool last) {
    chunk_ = n;
    xz_.next_in = reinterpret_cast<const uint8_t*>(in);
    xz_.avail_in = n;
    for (;;) {
      xz_.next_out = reinterpret_cast<uint8_t*>(out_.data());
      xz_.avail_out = out_.size();
      const lzma_ret r = lzma_code(&xz_, last ? LZMA_FINISH : LZMA_RUN);
      emit(out_.data(), out_.size() - xz_.avail_out);
      if (r == LZMA_STREAM_END) return;
      if (r == LZMA_BUF_ERROR) {  // no progress possible: more input needed
        if (last) damaged("a truncated stream");
        return;
      }
      if (r != LZMA_OK)
        damaged(r == LZMA_DATA_ERROR     ? "damaged data"
                : r == LZMA_FORMAT_ERROR ? "an unknown format"
                : r == LZMA_MEM_ERROR    ? "a stream too large for memory"
                                         : "decoder error " + std::to_string(r));
      if (!last && xz_.avail_in == 0 && xz_.avail_out != 0) return;  // all of this chunk decoded
    }
  }
  void feed_gzip(const char* in, size_t n, bool last) {
    chunk_ = n;
    gz_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    gz_.avail_in = static_cast<uInt>(n);
    for (;;) {
      if (gz_done_) {
        if (gz_.avail_in == 0) break;
        if (inflateReset(&gz_) != Z_OK) damaged("a decoder error");  // another gzip member follows
        gz_done_ = false;
      }
      gz_.next_out = reinterpret_cast<Bytef*>(out_.data());
      gz_.avail_out = static_cast<uInt>(out_.size());
      const int r = inflate(&gz_, Z_NO_FLUSH);
      emit(out_.data(), out_.size() - gz_.avail_out);
      if (r == Z_STREAM_END) {
        gz_done_ = true;
        continue;
      }
      if (r == Z_BUF_ERROR || (r == Z_OK && gz_.avail_in == 0 && gz_.avail_out != 0)) break;
      if (r != Z_OK) damaged(r == Z_DATA_ERROR ? "damaged data" : "a decoder error " + std::to_string(r));
    }
    if (last && !gz_done_) damaged("a truncated stream");
  }

  std::string path_;
  Packing packing_;
  int fd_;
  std::vector<char> out_;
  lzma_stream xz_ = LZMA_STREAM_INIT;
  z_stream gz_{};
  bool gz_done_ = false;
  uint64_t consumed_ = 0;
  size_t chunk_ = 0;
};

// Copies `in` (from its current position) into fd, decompressing per its
// first bytes.
void spool_into(const std::string& path, std::FILE* in, int fd) {
  std::vector<char> buf(1u << 20);
  size_t n = std::fread(buf.data(), 1, buf.size(), in);
  Unpacker u(path, packing_of(reinterpret_cast<const unsigned char*>(buf.data()), n), fd);
  for (;;) {
    if (n == 0) {
      if (std::ferror(in)) throw TraceError(path + ": read error: " + std::strerror(errno));
      u.feed(buf.data(), 0, true);
      return;
    }
    u.feed(buf.data(), n, false);
    n = std::fread(buf.data(), 1, buf.size(), in);
  }
}

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
      throw TraceError(path + ": cannot copy the trace to a temporary file in " + tmpl + ": " + std::strerror(errno));
    }
    ::unlink(tmpl.c_str());  // ours alone; gone when the process ends, however it ends
    try {
      spool_into(path, in, fd);
    } catch (...) {
      std::fclose(in);
      ::close(fd);
      throw;
    }
    std::fclose(in);
    it = spools.emplace(path, fd).first;
  }
  // a new open file description: its own offset, independent of other readers
  std::FILE* f = std::fopen(("/proc/self/fd/" + std::to_string(it->second)).c_str(), "rb");
  if (!f) throw TraceError(path + ": cannot reopen the copy of the trace: " + std::strerror(errno));
  return f;
}

}  // namespace

LineReader::LineReader(const std::string& path) : path_(path) {
  struct stat st {};
  const bool piped = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  if (piped || (S_ISREG(st.st_mode) && packing_of_file(path) != Packing::plain)) {
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
