#include "tools/svg_to_png.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace umbra {
namespace tools {
namespace {

bool OnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  for (absl::string_view dir : absl::StrSplit(path, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = absl::StrCat(dir, "/", program);
    if (access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Runs argv without a shell; returns the exit status (-1: not run).
int RunProgram(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::optional<std::string> SvgToPng(const std::string& svg_path,
                                    const std::string& png_path) {
  const std::vector<std::vector<std::string>> converters = {
      {"rsvg-convert", "-f", "png", "-o", png_path, svg_path},
      {"convert", svg_path, png_path},
      {"inkscape", svg_path, "--export-type=png",
       "--export-filename=" + png_path},
  };
  for (const auto& args : converters) {
    if (!OnPath(args[0])) continue;
    const int status = RunProgram(args);
    if (status != 0) {
      throw std::runtime_error(absl::StrCat("'", absl::StrJoin(args, " "),
                                            "' failed (exit status ", status,
                                            ")"));
    }
    return args[0];
  }
  return std::nullopt;
}

}  // namespace tools
}  // namespace umbra
