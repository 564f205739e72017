// The trainer's inference tasks: pred, extract and eval (export is in
// trainer_export.cc).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "param/edit_distance.h"
#include "param/quote.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"

namespace umbra {
namespace train {

Checkpoint Trainer::InferenceCheckpoint(std::string* path) const {
  *path = checked_.param.model_in;
  if (path->empty()) {
    std::optional<std::string> newest = SharedNewestCheckpoint();
    if (!newest) {
      throw CheckpointError(absl::StrCat(
          "no model to run: set model_in = <checkpoint>, or train first (no "
          "NNNN.model in model_dir '",
          ModelDir(), "')"));
    }
    *path = *newest;
  }
  Checkpoint checkpoint = ReadSharedCheckpoint(*path);
  if (!checked_.param.silent) {
    out_ << "loaded '" << *path << "' (round " << checkpoint.round() << ")\n";
  }
  return checkpoint;
}

void Trainer::LoadModelForInference() {
  std::string path;
  const Checkpoint checkpoint = InferenceCheckpoint(&path);
  model_->LoadWeights(checkpoint, path);
}

void Trainer::Predict() {
  const std::string& path = checked_.config.PredIterator()->name;
  const bool extract = checked_.param.task == kTaskExtract;
  // CheckTaskData found the node.
  const int node = extract ? FindExtractNode(checked_.config.net,
                                             checked_.param.extract_node_name)
                           : kNetOutput;
  const bool binary = extract && checked_.param.output_format == kOutputBinary;
  // Created before the model is read: a missing directory stops the task
  // before any work (the constructor refused an existing file at the pred
  // line; one that appeared since is a FileExistsError).
  NewFile file(path, extract
                         ? absl::StrCat("the output of node '",
                                        checked_.param.extract_node_name, "'")
                         : std::string("predictions"));
  std::optional<NewFile> meta;
  if (extract) meta.emplace(path + ".meta", "the shape of the extracted rows");
  LoadModelForInference();
  long rows_written = 0;
  pred_data_->BeforeFirst();
  while (pred_data_->Next()) {
    const index_t rows = FeedBatch(pred_data_->Value(), false);
    model_->Forward(false);
    const Tensor<cpu, 2, float> scores = model_->HostRows(node, rows);
    const index_t width = scores.size(1);
    std::string lines;
    if (binary) {
      // Raw float32, as cxxnet's: this machine's byte order (little-endian
      // on every machine umbra builds for).
      for (index_t i = 0; i < rows; ++i) {
        lines.append(reinterpret_cast<const char*>(scores[i].dptr_),
                     width * sizeof(float));
      }
    }
    for (index_t i = 0; i < rows && !binary; ++i) {
      if (extract || checked_.param.output_prob || width == 1) {
        for (index_t j = 0; j < width; ++j) {
          // %.9g: every float exactly, so nothing is lost in the file.
          absl::StrAppendFormat(&lines, "%s%.9g", j ? " " : "", scores[i][j]);
        }
      } else {
        index_t best = 0;
        for (index_t j = 1; j < width; ++j) {
          if (scores[i][j] > scores[i][best]) best = j;
        }
        absl::StrAppend(&lines, best);
      }
      lines += "\n";
    }
    file.Write(lines);
    rows_written += rows;
  }
  file.Commit();
  if (extract) {
    // cxxnet's FILE.meta: rows,channel,height,width.
    const Shape<4> shape = model_->NodeShape(node);
    meta->Write(absl::StrCat(rows_written, ",", shape[1], ",", shape[2], ",",
                             shape[3], "\n"));
    meta->Commit();
  }
  out_ << (extract
               ? "extracted node '" + checked_.param.extract_node_name + "' of "
               : std::string("predicted "))
       << rows_written << " instances to '" << path << "'\n";
}

void Trainer::WriteWeight() {
  const TrainerParam& param = checked_.param;
  std::string model_path;
  const Checkpoint checkpoint = InferenceCheckpoint(&model_path);
  // Only a layer's wmat, as cxxnet's get_weight.
  const std::string name = param.extract_layer_name + ".wmat";
  const TensorProto* wmat = nullptr;
  std::vector<std::string> layer_weights;
  for (const TensorProto& tensor : checkpoint.weights()) {
    if (tensor.name() == name) wmat = &tensor;
    if (absl::StartsWith(tensor.name(), param.extract_layer_name + ".")) {
      layer_weights.push_back(tensor.name());
    }
  }
  if (wmat == nullptr) {
    throw GlobalError(
        checked_.config, "extract_layer_name",
        absl::StrCat(
            "layer ", QuoteShort(param.extract_layer_name),
            " has no wmat weight in '", model_path, "'",
            layer_weights.empty()
                ? std::string(" (it has no weights)")
                : absl::StrCat(" (its weights: ",
                               absl::StrJoin(layer_weights, ", "), ")")));
  }
  std::vector<int64_t> dims(wmat->shape().begin(), wmat->shape().end());
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  std::vector<float> values(count);
  ReadTensorProto(*wmat, values.data(), values.size(), name);
  // One row per output (fullc: nhidden rows of the input width; conv: one
  // per output channel).
  const int64_t row = dims.empty() || dims[0] == 0 ? 0 : count / dims[0];
  std::string bytes;
  if (param.output_format == kOutputBinary) {
    bytes.assign(reinterpret_cast<const char*>(values.data()),
                 values.size() * sizeof(float));
  } else {
    for (int64_t i = 0; i < count; ++i) {
      absl::StrAppendFormat(&bytes, "%s%.9g", i % row ? " " : "", values[i]);
      if ((i + 1) % row == 0) bytes += "\n";
    }
  }
  NewFile file(param.weight_filename, "weight '" + name + "'");
  NewFile meta(param.weight_filename + ".meta",
               "the dimensions of weight '" + name + "'");
  file.Write(bytes);
  meta.Write(absl::StrCat(absl::StrJoin(dims, " "), "\n"));
  file.Commit();
  meta.Commit();
  out_ << "wrote weight '" << name << "' (" << absl::StrJoin(dims, "x")
       << ") of '" << model_path << "' to '" << param.weight_filename << "'\n";
}

void Trainer::EvaluateTask() {
  LoadModelForInference();
  RoundFigures figures;
  EvaluateSets(&figures);
  std::string line = "[eval]";
  for (const auto& metric : figures.metrics) {
    absl::StrAppend(&line, "\t", metric.first, ":",
                    absl::StrFormat("%g", metric.second));
  }
  out_ << line << "\n";
}

}  // namespace train
}  // namespace umbra
