// For tests: the independent judges of an exported model, run as
// processes. ONNX Runtime (npm's onnxruntime-node under the system `node`,
// through //third_party/onnxruntime:run_onnx.js) computes a model's output,
// and the ONNX checker of Debian's python3-onnx (/usr/bin/python3) checks
// it. Both need the test's runfiles: data = ["//third_party/onnxruntime:
// run_onnx.js", "@onnxruntime_node"].
//
// Example:
//
//   OnnxTensor out = RunOnnxRuntime("m.onnx", {{"in", input}}, dir);
//   EXPECT_EQ(OnnxCheckerProblem("m.onnx"), "");
#ifndef UMBRA_TRAIN_ONNX_ONNX_RUNTIME_H_
#define UMBRA_TRAIN_ONNX_ONNX_RUNTIME_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace umbra {
namespace train {
namespace testing {

// A float32 tensor, row-major.
struct OnnxTensor {
  std::vector<int64_t> shape;
  std::vector<float> values;
};

// The first output of the model at `model` on `inputs` (by graph input
// name), computed by ONNX Runtime; its files go to `work_dir`. Throws
// std::runtime_error with ONNX Runtime's message when it fails.
OnnxTensor RunOnnxRuntime(const std::string& model,
                          const std::map<std::string, OnnxTensor>& inputs,
                          const std::string& work_dir);

// "" when onnx.checker.check_model(full_check=True) accepts the model at
// `model`, else the checker's message.
std::string OnnxCheckerProblem(const std::string& model);

}  // namespace testing
}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_ONNX_ONNX_RUNTIME_H_
