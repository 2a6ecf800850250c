// log_test.cpp - log lines carry the simulated time and the instance name,
// and go through SystemC's report handler (its controls apply).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <systemc>

#include "common/log.h"

namespace {

struct Talker : sc_core::sc_module {
  ssdvp::Logger log_;
  explicit Talker(sc_core::sc_module_name n) : sc_module(n), log_(name(), ssdvp::LogLevel::debug) { SC_THREAD(run); }
  SC_HAS_PROCESS(Talker);
  void run() {
    wait(sc_core::sc_time(1234567, sc_core::SC_PS));
    SSDVP_LOG(log_, warn, "die %d: late", 3);
    SSDVP_LOG(log_, error, "bad descriptor 0x%x", 0x40);  // must not throw
    SSDVP_LOG(log_, debug, "debug detail");
    SSDVP_LOG(log_, trace, "not shown at debug");
  }
};

TEST(Log, LinesCarrySimulatedTimeAndInstanceAndGoThroughSystemC) {
  const std::string file = testing::TempDir() + "ssdvp_log_test.log";
  std::remove(file.c_str());
  sc_core::sc_report_handler::set_log_file_name(file.c_str());
  Talker top("top");
  testing::internal::CaptureStderr();
  sc_core::sc_start();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("[warn] 1.234567 us top: die 3: late\n"), std::string::npos) << err;
  EXPECT_NE(err.find("[error] 1.234567 us top: bad descriptor 0x40\n"), std::string::npos) << err;
  EXPECT_NE(err.find("[debug] 1.234567 us top: debug detail\n"), std::string::npos) << err;
  EXPECT_EQ(err.find("not shown"), std::string::npos) << err;
  // SystemC's own controls: the log file got the same lines
  std::ifstream f(file);
  std::stringstream got;
  got << f.rdbuf();
  EXPECT_NE(got.str().find("[warn] 1.234567 us top: die 3: late"), std::string::npos) << got.str();
  // counted as SystemC reports of that type
  EXPECT_EQ(sc_core::sc_report_handler::get_count("ssdvp/top"), 3);
}

TEST(Log, OneInstanceSilencedWithSetActions) {
  sc_core::sc_report_handler::set_actions("ssdvp/quiet", sc_core::SC_DO_NOTHING);
  ssdvp::Logger quiet("quiet"), loud("loud");
  testing::internal::CaptureStderr();
  quiet.log(ssdvp::LogLevel::warn, "hidden");
  loud.log(ssdvp::LogLevel::warn, "shown");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "[warn] 0.000000 us loud: shown\n");
}

TEST(Log, FormatOfALine) {
  EXPECT_EQ(ssdvp::format_log_line(ssdvp::LogLevel::info, 3000000000001ULL, "ssd0.flash", "x"),
            "[info] 3000000.000001 us ssd0.flash: x");
}

}  // namespace
