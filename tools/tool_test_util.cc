#include "tools/tool_test_util.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace umbra {
namespace tools {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFileOrDie(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

ToolRun RunToolBinary(const std::string& binary,
                      const std::vector<std::string>& args) {
  static int counter = 0;
  const std::string out_path = TempPath(absl::StrCat("run", ++counter, ".out"));
  const std::string err_path = TempPath(absl::StrCat("run", counter, ".err"));
  ToolRun run;
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return run;
  }
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const std::string& arg : args) {
      argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadFileOrDie(out_path);
  run.err = ReadFileOrDie(err_path);
  return run;
}

void ExpectMatchesGolden(const std::string& actual,
                         const std::string& golden_path,
                         const std::string& regenerate) {
  const std::string golden = ReadFileOrDie(golden_path);
  if (actual == golden) return;
  std::vector<std::string> a = absl::StrSplit(actual, '\n');
  std::vector<std::string> g = absl::StrSplit(golden, '\n');
  size_t line = 0;
  while (line < a.size() && line < g.size() && a[line] == g[line]) ++line;
  ADD_FAILURE() << golden_path << " differs from the tool's output at line "
                << line + 1
                << ":\n  file:   " << (line < g.size() ? g[line] : "<end>")
                << "\n  output: " << (line < a.size() ? a[line] : "<end>")
                << "\nIf the change is intended, regenerate it: " << regenerate;
}

void ExpectStartsAndContains(const std::string& output,
                             const std::string& prefix,
                             const std::vector<std::string>& parts) {
  EXPECT_EQ(output.rfind(prefix, 0), 0u) << output;
  for (const std::string& part : parts) {
    EXPECT_NE(output.find(part), std::string::npos) << part << "\n" << output;
  }
}

}  // namespace tools
}  // namespace umbra
