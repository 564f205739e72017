// The trainer's export task: the model of model_in (or model_dir's newest
// checkpoint) as an ONNX file at onnx_path (train/onnx).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "train/net/net_checkpoint.h"
#include "train/onnx/onnx_export.h"
#include "train/trainer.h"

namespace umbra {
namespace train {
namespace {

// "(batch,10)" or "(batch,1,28,28)": an ONNX value's dims.
std::string DimsText(const onnx::ValueInfoProto& value) {
  std::vector<std::string> dims;
  for (const auto& dim : value.type().tensor_type().shape().dim()) {
    dims.push_back(dim.has_dim_param() ? dim.dim_param()
                                       : std::to_string(dim.dim_value()));
  }
  return absl::StrCat(value.name(), " (", absl::StrJoin(dims, ","), ")");
}

}  // namespace

void Trainer::PrepareExport() {
  const std::string& path = checked_.param.onnx_path;
  if (path.empty()) {
    throw GlobalError(checked_.config, "onnx_path",
                      "task = export needs onnx_path = <file.onnx>: where the "
                      "ONNX model is written",
                      {"task"});
  }
  // Before the model is read: a file that cannot be written stops the
  // task at once.
  const std::string parent = std::filesystem::path(path).parent_path();
  const std::string directory = parent.empty() ? "." : parent;
  if (access(directory.c_str(), W_OK) != 0) {
    throw GlobalError(checked_.config, "onnx_path",
                      absl::StrCat("cannot write the ONNX model to '", path,
                                   "': its directory '", directory,
                                   "': ", std::strerror(errno)));
  }
  if (access(path.c_str(), F_OK) == 0 && access(path.c_str(), W_OK) != 0) {
    throw GlobalError(
        checked_.config, "onnx_path",
        absl::StrCat("cannot replace '", path, "': ", std::strerror(errno)));
  }
  export_net_ =
      BuildNet<cpu>(checked_, ExportInputShapes(), /*with_updater=*/false).net;
}

void Trainer::ExportModel() {
  std::string model_path;
  const Checkpoint checkpoint = InferenceCheckpoint(&model_path);
  LoadNetWeights(checkpoint, model_path, export_net_.get());
  const std::string& path = checked_.param.onnx_path;
  const onnx::ModelProto model = ExportOnnx(
      export_net_.get(), absl::StrCat("umbra model of ", model_path));
  WriteOnnxModel(model, path);
  std::vector<std::string> inputs;
  for (const auto& input : model.graph().input()) {
    inputs.push_back(DimsText(input));
  }
  out_ << "exported '" << model_path << "' to '" << path << "': ONNX opset "
       << kOnnxOpset << ", " << model.graph().node_size() << " nodes; input "
       << absl::StrJoin(inputs, ", ") << ", output "
       << DimsText(model.graph().output(0)) << "\n";
}

}  // namespace train
}  // namespace umbra
