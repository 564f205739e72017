// Test helpers for the tools: run a tool binary (a `data` dependency of
// the test) and capture its exit status, stdout and stderr; read and write
// files; compare output with golden files under tools/testdata/.
//
// Example:
//
//   ToolRun run = RunTool("tools/check", {"train/configs/a.conf"});
//   EXPECT_EQ(run.status, 0) << run.err;
//   ExpectMatchesGolden(run.out, "tools/testdata/a.check.txt",
//                       "bazel-bin/tools/check train/configs/a.conf > "
//                       "tools/testdata/a.check.txt");
//
// Paths are relative to the test's runfiles root (the workspace), which
// is the working directory of a Bazel test.
#ifndef UMBRA_TOOLS_TOOL_TEST_UTIL_H_
#define UMBRA_TOOLS_TOOL_TEST_UTIL_H_

#include <string>
#include <vector>

namespace umbra {
namespace tools {

struct ToolRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs `binary` with `args` (no shell quoting needed) and waits for it.
ToolRun RunToolBinary(const std::string& binary,
                      const std::vector<std::string>& args);

std::string ReadFileOrDie(const std::string& path);
void WriteFileOrDie(const std::string& path, const std::string& text);
// A fresh path under TEST_TMPDIR.
std::string TempPath(const std::string& name);

// EXPECTs `actual` to equal the file at `golden_path`; on a difference it
// reports the first differing line and `regenerate`, the shell command
// that rewrites the file.
void ExpectMatchesGolden(const std::string& actual,
                         const std::string& golden_path,
                         const std::string& regenerate);

// EXPECTs `output` to start with `prefix` and to contain every one of
// `parts`, reporting the output with each miss.
void ExpectStartsAndContains(const std::string& output,
                             const std::string& prefix,
                             const std::vector<std::string>& parts);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_TOOL_TEST_UTIL_H_
