#include "train/onnx/onnx_runtime.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace testing {
namespace {

std::string Runfiles() {
  const char* dir = std::getenv("TEST_SRCDIR");
  if (dir == nullptr) throw std::runtime_error("TEST_SRCDIR is not set");
  return dir;
}

// Runs `command` with its stdout and stderr in `log`; returns its status.
int Run(const std::string& command, const std::string& log) {
  return std::system(absl::StrCat(command, " >'", log, "' 2>&1").c_str());
}

}  // namespace

OnnxTensor RunOnnxRuntime(const std::string& model,
                          const std::map<std::string, OnnxTensor>& inputs,
                          const std::string& work_dir) {
  std::vector<std::string> entries;
  for (const auto& [name, tensor] : inputs) {
    const std::string file = absl::StrCat(work_dir, "/", name, ".f32");
    WriteText(file,
              std::string(reinterpret_cast<const char*>(tensor.values.data()),
                          tensor.values.size() * sizeof(float)));
    entries.push_back(absl::StrCat("\"", name, "\": {\"shape\": [",
                                   absl::StrJoin(tensor.shape, ", "),
                                   "], \"file\": \"", file, "\"}"));
  }
  const std::string output = work_dir + "/output.f32";
  const std::string request = work_dir + "/request.json";
  WriteText(request, absl::StrCat("{\"model\": \"", model, "\", \"inputs\": {",
                                  absl::StrJoin(entries, ", "),
                                  "}, \"output\": \"", output, "\"}"));
  const std::string log = work_dir + "/run_onnx.log";
  const std::string runfiles = Runfiles();
  if (Run(absl::StrCat("NODE_PATH='", runfiles,
                       "/onnxruntime_node/node_modules' node '", runfiles,
                       "/umbra/third_party/onnxruntime/run_onnx.js' '", request,
                       "'"),
          log) != 0) {
    throw std::runtime_error(ReadText(log));
  }
  OnnxTensor result;
  std::string dims = ReadText(output + ".shape.json");
  for (absl::string_view dim :
       absl::StrSplit(absl::StripAsciiWhitespace(dims), absl::ByAnyChar("[], "),
                      absl::SkipEmpty())) {
    result.shape.push_back(std::stoll(std::string(dim)));
  }
  const std::string bytes = ReadText(output);
  result.values.resize(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.end(),
            reinterpret_cast<char*>(result.values.data()));
  return result;
}

std::string OnnxCheckerProblem(const std::string& model) {
  const std::string log = model + ".checker.log";
  const int status =
      Run(absl::StrCat("/usr/bin/python3 -c 'import onnx, sys; "
                       "onnx.checker.check_model(onnx.load(sys.argv[1]), "
                       "full_check=True)' '",
                       model, "'"),
          log);
  return status == 0 ? "" : absl::StrCat("checker failed: ", ReadText(log));
}

}  // namespace testing
}  // namespace train
}  // namespace umbra
