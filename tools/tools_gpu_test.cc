// The tools with dev = gpu: `time` builds a tiny net on the device and
// times every layer there; `check` says it built the net on the cpu (tag
// gpu: needs a CUDA device).
#include <string>

#include "gtest/gtest.h"
#include "tools/tool_test_util.h"

namespace umbra {
namespace tools {
namespace {

constexpr char kTiny[] = "tools/testdata/tiny_mlp.conf";

TEST(TimeGpuTest, TimesEveryLayerOnTheGpu) {
  const ToolRun run = RunToolBinary(
      "tools/time", {kTiny, "dev=gpu:0", "--iterations=3", "--warmup=1"});
  ASSERT_EQ(run.status, 0) << run.err;
  ExpectStartsAndContains(
      run.out,
      "config: tools/testdata/tiny_mlp.conf\n"
      "device: gpu:0",
      {"; input (2,1,1,4)\n", "\nfc1              fullc          ",
       "\nfc2              fullc          ", "\ntotal (median pass)  ",
       "per batch of 2, "});
}

TEST(CheckGpuTest, SaysTheNetIsBuiltOnTheCpu) {
  const ToolRun run = RunToolBinary("tools/check", {kTiny, "dev=gpu:0"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("\ndevice: gpu:0 (the net is built on the cpu: "
                         "shapes and memory are the same on either device); "
                         "updater: adam\n"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace tools
}  // namespace umbra
