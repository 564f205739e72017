// `time` on the gpu: a tiny net built on the device and every layer timed
// there (tag gpu: needs a CUDA device).
#include <string>

#include "gtest/gtest.h"
#include "tools/tool_test_util.h"

namespace umbra {
namespace tools {
namespace {

TEST(TimeGpuTest, TimesEveryLayerOnTheGpu) {
  const ToolRun run =
      RunToolBinary("tools/time", {"tools/testdata/tiny_mlp.conf", "dev=gpu:0",
                                   "--iterations=3", "--warmup=1"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("config: tools/testdata/tiny_mlp.conf\n"
                          "device: gpu:0",
                          0),
            0u)
      << run.out;
  for (const char* line :
       {"; input (2,1,1,4)\n", "\nfc1              fullc          ",
        "\nfc2              fullc          ", "\ntotal (median pass)  ",
        "per batch of 2, "}) {
    EXPECT_NE(run.out.find(line), std::string::npos) << line << "\n" << run.out;
  }
}

}  // namespace
}  // namespace tools
}  // namespace umbra
