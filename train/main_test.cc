// The //train binary as a user runs it: exit status and messages for bad
// input, paths relative to BUILD_WORKING_DIRECTORY, and a short training.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "train/device.h"
#include "train/net/checkpoint.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::NewTestDir;
using testing::WriteText;

struct Result {
  int status;
  std::string output;  // stdout and stderr
};

// Runs the binary (from the test's runfiles) with `args` in a shell.
Result RunBinary(const std::string& args, const std::string& env = "") {
  const std::string binary =
      std::string(std::getenv("TEST_SRCDIR")) + "/umbra/train/train";
  const std::string command =
      absl::StrCat(env, " '", binary, "' ", args, " 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    output.append(buffer, n);
  }
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(MainTest, UsageAndMissingConfig) {
  Result none = RunBinary("");
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.output.find("usage: train CONFIG"), std::string::npos);
  Result help = RunBinary("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("continue_training"), std::string::npos)
      << help.output;
  Result missing = RunBinary("/nonexistent/my.conf");
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.output.rfind("error: ", 0), 0u) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/my.conf"), std::string::npos)
      << missing.output;
}

TEST(MainTest, BadInputIsAMessageNotACrash) {
  const std::string dir = NewTestDir("main_bad");
  const std::string config = BlobsConfig(dir);
  WriteText(dir + "/net.conf", config);
  Result typo = RunBinary(dir + "/net.conf num_rond=3");
  EXPECT_EQ(typo.status, 1);
  EXPECT_NE(typo.output.find("command line: argument 2"), std::string::npos)
      << typo.output;
  EXPECT_NE(typo.output.find("did you mean 'num_round'"), std::string::npos)
      << typo.output;
  // No machine has a gpu 99: a CUDA build says so, a CPU build how to get
  // a CUDA build.
  Result gpu = RunBinary(dir + "/net.conf dev=gpu:99");
  EXPECT_EQ(gpu.status, 1);
  EXPECT_NE(gpu.output.find(BuiltWithCuda() ? "dev = gpu:99: cannot start the "
                                              "GPU: SetDevice<gpu>(99): no "
                                              "such device"
                                            : "--config=cuda"),
            std::string::npos)
      << gpu.output;
  MakeDirectories(dir + "/models");
  WriteText(dir + "/models/0001.model", "garbage");
  Result corrupt = RunBinary(dir + "/net.conf continue=1");
  EXPECT_EQ(corrupt.status, 1);
  EXPECT_NE(corrupt.output.find("0001.model"), std::string::npos)
      << corrupt.output;
}

TEST(MainTest, PathsAreRelativeToTheCallersDirectory) {
  const std::string dir = NewTestDir("main_relative");
  std::string config = BlobsConfig(dir);
  // Relative paths: data and model_dir under the caller's directory.
  const std::string absolute = dir + "/";
  for (size_t at; (at = config.find(absolute)) != std::string::npos;) {
    config.erase(at, absolute.size());
  }
  WriteText(dir + "/net.conf", config);
  Result run = RunBinary("net.conf num_round=2",
                         absl::StrCat("BUILD_WORKING_DIRECTORY='", dir, "'"));
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("[2]\telapsed:"), std::string::npos) << run.output;
  EXPECT_TRUE(std::ifstream(dir + "/models/0002.model").good());
}

}  // namespace
}  // namespace train
}  // namespace umbra
