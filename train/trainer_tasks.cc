// The trainer's inference tasks: pred, extract and eval (export is in
// trainer_export.cc).
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
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
  int node = kNetOutput;
  if (extract) {
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
          absl::StrCat("no node named ", QuoteShort(name), " in the net",
                       param::UnknownNameSuggestion(
                           name, checked_.config.net.NamedNodes(), "Nodes",
                           "the netconfig")),
          {"extract_node"});
    }
  }
  // Created before the model is read: a missing directory stops the task
  // before any work (the constructor refused an existing file at the pred
  // line; one that appeared since is a FileExistsError).
  NewFile file(path, extract
                         ? absl::StrCat("the output of node '",
                                        checked_.param.extract_node_name, "'")
                         : std::string("predictions"));
  LoadModelForInference();
  long rows_written = 0;
  pred_data_->BeforeFirst();
  while (pred_data_->Next()) {
    const index_t rows = FeedBatch(pred_data_->Value(), false);
    model_->Forward(false);
    const Tensor<cpu, 2, float> scores = model_->HostRows(node, rows);
    const index_t width = scores.size(1);
    std::string lines;
    for (index_t i = 0; i < rows; ++i) {
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
  out_ << (extract
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
