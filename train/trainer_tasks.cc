// The trainer's inference tasks: pred, extract and eval.
#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "train/checkpoint.h"
#include "train/trainer.h"

namespace umbra {
namespace train {

void Trainer::LoadModelForInference() {
  std::string path = checked_.param.model_in;
  if (path.empty()) {
    std::optional<std::string> newest = NewestCheckpoint(ModelDir());
    if (!newest) {
      throw CheckpointError(absl::StrCat(
          "no model to run: set model_in = <checkpoint>, or train first (no "
          "NNNN.model in model_dir '",
          ModelDir(), "')"));
    }
    path = *newest;
  }
  const Checkpoint checkpoint = ReadCheckpoint(path);
  model_->LoadWeights(checkpoint, path);
  if (!checked_.param.silent) {
    out_ << "loaded '" << path << "' (round " << checkpoint.round() << ")\n";
  }
}

void Trainer::Predict() {
  LoadModelForInference();
  const std::string& path = checked_.config.PredIterator()->name;
  const std::string temp = path + ".tmp";
  std::ofstream file(temp);
  if (!file) {
    throw TrainingError(
        absl::StrCat("cannot write predictions to '", temp, "'"));
  }
  int node = kNetOutput;
  if (checked_.param.task == kTaskExtract) {
    const std::string& name = checked_.param.extract_node_name;
    if (name.empty()) {
      throw TrainingError(
          "task = extract needs extract_node_name = <node> (a node of the "
          "netconfig, e.g. the name after -> in a layer line)");
    }
    node = checked_.config.net.FindNode(name);
    if (node < 0) {
      throw GlobalError(
          checked_.config, "extract_node_name",
          absl::StrCat("no node named '", name, "' in the net; nodes: ",
                       absl::StrJoin(checked_.config.net.NamedNodes(), ", ")),
          {"extract_node"});
    }
  }
  long rows_written = 0;
  pred_data_->BeforeFirst();
  while (pred_data_->Next()) {
    const index_t rows = FeedBatch(pred_data_->Value(), false);
    model_->Forward(false);
    const Tensor<cpu, 2, float> scores = model_->HostRows(node, rows);
    const index_t width = scores.size(1);
    for (index_t i = 0; i < rows; ++i) {
      if (checked_.param.task == kTaskExtract || checked_.param.output_prob ||
          width == 1) {
        for (index_t j = 0; j < width; ++j) {
          file << (j ? " " : "") << absl::StrFormat("%g", scores[i][j]);
        }
      } else {
        index_t best = 0;
        for (index_t j = 1; j < width; ++j) {
          if (scores[i][j] > scores[i][best]) best = j;
        }
        file << best;
      }
      file << "\n";
    }
    rows_written += rows;
  }
  file.close();
  if (!file || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    throw TrainingError(
        absl::StrCat("cannot write predictions to '", path, "'"));
  }
  out_ << (checked_.param.task == kTaskExtract
               ? "extracted node '" + checked_.param.extract_node_name + "' of "
               : std::string("predicted "))
       << rows_written << " instances to '" << path << "'\n";
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
