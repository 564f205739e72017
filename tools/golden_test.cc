// Golden tests: each tool binary run on the example configs (and on bad
// input), its stdout or stderr compared with a file under tools/testdata/
// (and paramdoc's with tools/config_reference.md), so the docs and the
// tools' output never drift unnoticed.
#include <ostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tools/tool_test_util.h"

namespace umbra {
namespace tools {
namespace {

struct GoldenCase {
  std::string binary;  // "tools/check"
  std::vector<std::string> args;
  // Compared with stdout when the status is 0, else with stderr.
  int status;
  std::string golden;
};

// How gtest names a case in its messages.
void PrintTo(const GoldenCase& c, std::ostream* out) {
  *out << c.binary;
  for (const std::string& arg : c.args) *out << " " << arg;
}

// The shell command that rewrites the golden file (bazel-bin/tools/NAME
// runs from the workspace root; `bazel run` would mix its own messages
// into stderr).
std::string RegenerateCommand(const GoldenCase& c) {
  const std::string name = c.binary.substr(c.binary.find('/') + 1);
  std::string command =
      "bazel build //tools:" + name + " && bazel-bin/" + c.binary;
  for (const std::string& arg : c.args) command += " " + arg;
  return command + (c.status == 0 ? " > " : " 2> ") + c.golden;
}

class GoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, OutputMatches) {
  const GoldenCase& c = GetParam();
  const ToolRun run = RunToolBinary(c.binary, c.args);
  ASSERT_EQ(run.status, c.status) << "stdout:\n"
                                  << run.out << "stderr:\n"
                                  << run.err;
  ExpectMatchesGolden(c.status == 0 ? run.out : run.err, c.golden,
                      RegenerateCommand(c));
}

INSTANTIATE_TEST_SUITE_P(
    Tools, GoldenTest,
    ::testing::Values(
        GoldenCase{"tools/paramdoc", {}, 0, "tools/config_reference.md"},
        GoldenCase{"tools/check",
                   {"tools/testdata/bad_key.conf"},
                   1,
                   "tools/testdata/bad_key.check.txt"},
        GoldenCase{"tools/check",
                   {"tools/testdata/no_shape.conf"},
                   1,
                   "tools/testdata/no_shape.check.txt"},
        GoldenCase{"tools/check",
                   {"tools/testdata/bad_shape.conf"},
                   1,
                   "tools/testdata/bad_shape.check.txt"}));

// The example configs (data of //train, exported to //tools).
const char kMlp[] = "train/configs/fashion_mnist_mlp.conf";
const char kLenet[] = "train/configs/fashion_mnist_lenet.conf";
const char kBnCnn[] = "train/configs/fashion_mnist_bn_cnn.conf";

INSTANTIATE_TEST_SUITE_P(
    ExampleConfigs, GoldenTest,
    ::testing::Values(
        GoldenCase{"tools/check",
                   {kMlp},
                   0,
                   "tools/testdata/fashion_mnist_mlp.check.txt"},
        GoldenCase{"tools/check",
                   {kLenet},
                   0,
                   "tools/testdata/fashion_mnist_lenet.check.txt"},
        GoldenCase{"tools/check",
                   {kBnCnn},
                   0,
                   "tools/testdata/fashion_mnist_bn_cnn.check.txt"},
        GoldenCase{"tools/check",
                   {kMlp, "batch_size=256", "updater=adam"},
                   0,
                   "tools/testdata/fashion_mnist_mlp_adam.check.txt"},
        GoldenCase{"tools/check",
                   {kMlp, "updater=adma"},
                   1,
                   "tools/testdata/bad_updater.check.txt"}));

TEST(TimeTest, TimesEveryLayer) {
  const ToolRun run = RunToolBinary(
      "tools/time", {kMlp, "batch_size=8", "--iterations=3", "--warmup=0"});
  ASSERT_EQ(run.status, 0) << run.err;
  ExpectStartsAndContains(
      run.out, "CPU: ",
      {"\n  matrix products: OpenBLAS, ", "\nFMA peak: ", " GFLOP/s (AVX",
       "; copy: ",
       "\nconfig: train/configs/fashion_mnist_mlp.conf\ndevice: cpu (",
       "\nlayer            type             forward ms  backward ms   GFLOP/s "
       " peak      GB/s  copy\n",
       "\nfc1              fullc          ", "\nrelu_1           relu (fused) ",
       "\nsoftmax_5        softmax        ", "\ntotal (median pass)  ",
       "per batch of 8, ", " images/s, 1.0 MFLOP per image"});
}

// No machine has a gpu 99: a CUDA build says so, a build without CUDA how
// to get one; neither times the cpu instead.
TEST(TimeTest, GpuNeedsACudaBuildAndTheDevice) {
  const ToolRun run = RunToolBinary("tools/time", {kMlp, "dev=gpu:99"});
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_EQ(run.out, "");
#ifdef UMBRA_USE_CUDA
  const char kExpected[] =
      "dev = gpu:99: cannot start the GPU: SetDevice<gpu>(99): no such device";
#else
  const char kExpected[] =
      "built without CUDA; rebuild and run it with `bazel run -c opt "
      "--config=cuda";
#endif
  EXPECT_NE(run.err.find(kExpected), std::string::npos) << run.err;
}

TEST(HelpTest, EveryToolHasHelpAndRefusesUnknownFlags) {
  for (const char* tool : {"tools/paramdoc", "tools/check", "tools/inspect",
                           "tools/time", "tools/plot", "tools/device_info"}) {
    const ToolRun help = RunToolBinary(tool, {"--help"});
    EXPECT_EQ(help.status, 0) << tool;
    EXPECT_EQ(help.out.rfind("usage: ", 0), 0u) << tool << ": " << help.out;
    const ToolRun bad = RunToolBinary(tool, {"--no-such-flag"});
    EXPECT_EQ(bad.status, 2) << tool;
    EXPECT_EQ(bad.err.rfind("error: unknown flag '--no-such-flag'", 0), 0u)
        << tool << ": " << bad.err;
  }
}

TEST(DeviceInfoTest, SaysWhatItSees) {
  const ToolRun run = RunToolBinary("tools/device_info", {});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("\nCPU: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("threads: "), std::string::npos) << run.out;
#ifdef UMBRA_USE_CUDA
  EXPECT_TRUE(run.out.find("GPUs: ") != std::string::npos ||
              run.out.find("no GPU visible: ") != std::string::npos)
      << run.out;
#else
  EXPECT_EQ(run.out.rfind("CUDA: this binary was built without CUDA", 0), 0u)
      << run.out;
  EXPECT_NE(run.out.find("bazel run --config=cuda //tools:device_info"),
            std::string::npos);
#endif
}

}  // namespace
}  // namespace tools
}  // namespace umbra
