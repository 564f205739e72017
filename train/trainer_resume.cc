// The trainer's checkpoints: what a run starts from (fresh weights, a
// resume, a finetune) and what it saves.
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "train/model_dir_lock.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"

namespace umbra {
namespace train {

namespace {
constexpr char kRngScheme[] =
    "layers reseeded with RoundSeed(seed, round) each round; data order "
    "replayed over data_passes";
}  // namespace

int Trainer::PrepareTraining() {
  model_->InitWeights(checked_.param.seed);
  std::string resume_path;
  if (checked_.param.task == kTaskTrain) {
    if (checked_.param.continue_training) {
      std::optional<std::string> newest = SharedNewestCheckpoint();
      if (newest) {
        resume_path = *newest;
      } else if (!checked_.param.model_in.empty()) {
        // A first run of a retried job: it starts where model_in says.
        resume_path = checked_.param.model_in;
        if (!checked_.param.silent) {
          out_ << "continue = 1: no checkpoint in '" << ModelDir()
               << "' yet; starting from model_in '" << resume_path << "'\n";
        }
      } else {
        if (ranks_.rank() == 0) RefuseMetricsWithoutCheckpoint();
        if (!checked_.param.silent) {
          out_ << "continue = 1: no checkpoint in '" << ModelDir()
               << "'; starting at round 0\n";
        }
      }
    } else if (!checked_.param.model_in.empty()) {
      resume_path = checked_.param.model_in;
    }
  }
  fresh_start_ = resume_path.empty() && !checked_.param.continue_training;
  const int start_counter = checked_.param.start_counter;
  if (start_counter != 0 && !fresh_start_ && !checked_.param.silent) {
    out_ << "note: start_counter = " << start_counter
         << " has no effect: the run starts where "
         << (resume_path.empty() ? "continue = 1 finds it"
                                 : "its checkpoint '" + resume_path + "' ended")
         << "\n";
  }
  if (checked_.param.task == kTaskFinetune) {
    if (start_counter != 0 && !checked_.param.silent) {
      out_ << "note: start_counter = " << start_counter
           << " has no effect with task = finetune, which starts at round 0 "
              "(as cxxnet's)\n";
    }
    // CheckTaskData made sure of model_in.
    const Checkpoint checkpoint = ReadSharedCheckpoint(checked_.param.model_in);
    const std::vector<std::string> loaded =
        model_->LoadWeightsByName(checkpoint, checked_.param.model_in);
    if (!checked_.param.silent) {
      out_ << "finetune: loaded " << loaded.size() << " weights from '"
           << checked_.param.model_in << "': " << absl::StrJoin(loaded, ", ")
           << "\n";
    }
    return 0;
  }
  if (resume_path.empty()) return fresh_start_ ? start_counter : 0;

  const Checkpoint checkpoint = ReadSharedCheckpoint(resume_path);
  model_->LoadWeights(checkpoint, resume_path);
  model_->LoadUpdater(checkpoint, resume_path);
  for (const RoundMetricsProto& round : checkpoint.metrics()) {
    RoundFigures figures;
    figures.round = round.round();
    for (const MetricValueProto& value : round.values()) {
      figures.metrics.emplace_back(value.label(), value.value());
    }
    history_.push_back(figures);
  }
  if (checkpoint.rng().seed() != checked_.param.seed &&
      !checked_.param.silent) {
    out_ << "note: the checkpoint was trained with seed = "
         << checkpoint.rng().seed()
         << ", this run has seed = " << checked_.param.seed << "\n";
  }
  // Skips the training iterator's passes so that its shuffle (and
  // augmentation) generators stand where the saved run left them; source
  // iterators do it without reading their data.
  const long passes = checkpoint.rng().data_passes();
  for (long pass = 0; pass < passes; ++pass) train_data_->SkipPass();
  data_passes_ = passes;
  if (!checked_.param.silent) {
    out_ << "resumed from '" << resume_path << "' after round "
         << checkpoint.round() << " (" << checkpoint.num_update()
         << " updates)\n";
  }
  return checkpoint.round();
}

void Trainer::RefuseMetricsWithoutCheckpoint() const {
  const std::string metrics = ModelDir() + "/metrics.csv";
  std::ifstream rows(metrics);
  if (!rows || rows.peek() == std::ifstream::traits_type::eof()) return;
  // Killed before its first checkpoint: this run trains its rounds again.
  const LastRun previous = ReadLastRun(ModelDir());
  if (previous.Killed() && previous.saves_checkpoints) return;
  const std::string writer =
      previous.holder.empty()
          ? std::string("(a run with save_model = 0?)")
          : absl::StrCat("(written by the run of ", previous.holder, ", which ",
                         previous.Killed() ? "was killed" : "ended",
                         previous.saves_checkpoints
                             ? " before its first checkpoint"
                             : " and saved no checkpoints",
                         ")");
  throw GlobalError(
      checked_.config, "continue",
      absl::StrCat("continue = 1, but model_dir '", ModelDir(),
                   "' holds metrics.csv and no checkpoint ", writer,
                   ": there is nothing to resume, and starting over would "
                   "drop its rows; set another model_dir, or move "
                   "metrics.csv away to start over"),
      {"model_dir", "save_model"});
}

void Trainer::PrepareModelDir(int first_round, int last_round) {
  const std::string dir = ModelDir();
  if (dir.empty()) {
    throw GlobalError(checked_.config, "model_dir",
                      "model_dir is empty: a training run writes its "
                      "checkpoints and metrics.csv there; name a directory "
                      "(save_model = 0 saves no checkpoints)");
  }
  struct stat info;
  if (stat(dir.c_str(), &info) == 0 && !S_ISDIR(info.st_mode)) {
    throw GlobalError(
        checked_.config, "model_dir",
        absl::StrCat("model_dir '", dir, "' is a file, not a directory"));
  }
  try {
    MakeDirectories(dir);
    model_dir_lock_ =
        std::make_unique<ModelDirLock>(dir, checked_.param.save_model > 0);
  } catch (const std::runtime_error& e) {
    throw GlobalError(checked_.config, "model_dir", e.what());
  }
  const std::vector<std::string> removed = RemoveStaleTemporaries(dir);
  if (!removed.empty() && !checked_.param.silent) {
    out_ << "note: removed " << removed.size() << " temporary file"
         << (removed.size() == 1 ? "" : "s")
         << " that an interrupted run left in '" << dir
         << "': " << absl::StrJoin(removed, ", ") << "\n";
  }
  if (checked_.param.save_model > 0) {
    Checkpoint probe;
    model_->SaveTo(&probe);
    const std::string warning = FreeSpaceWarning(dir, probe.ByteSizeLong());
    if (!warning.empty()) out_ << "warning: " << warning << "\n";
  }
  const auto refuse = [&](const std::string& what) {
    throw GlobalError(
        checked_.config, "model_dir",
        absl::StrCat("model_dir '", dir, "' already holds ", what,
                     " of an earlier run, which this run would overwrite: "
                     "resume that run with continue = 1 (from its newest "
                     "checkpoint), or set another model_dir"),
        {"continue", "model_in"});
  };
  const std::string metrics = dir + "/metrics.csv";
  if (fresh_start_) {
    std::ifstream rows(metrics);
    if (rows && rows.peek() != std::ifstream::traits_type::eof()) {
      refuse("metrics.csv");
    }
    const std::optional<std::string> newest = NewestCheckpoint(dir);
    if (newest) refuse(absl::StrCat("checkpoints (the newest ", *newest, ")"));
    return;
  }
  for (int round = first_round + 1; round <= last_round; ++round) {
    const std::string path = CheckpointPath(dir, round);
    if (std::ifstream(path)) refuse(absl::StrCat("the checkpoint ", path));
  }
  // Rows of rounds after the checkpoint (an interrupted run's) would come
  // twice: this run trains those rounds again.
  const int dropped = DropMetricsAfter(metrics, first_round);
  if (dropped > 0 && !checked_.param.silent) {
    out_ << "note: removed " << dropped << " row" << (dropped == 1 ? "" : "s")
         << " of rounds after round " << first_round << " from " << metrics
         << ": this run trains those rounds again\n";
  }
}

void Trainer::SaveCheckpoint(int rounds_done) {
  Checkpoint checkpoint;
  checkpoint.set_config_text(inputs_.config_text);
  for (const std::string& arg : inputs_.overrides) {
    checkpoint.add_overrides(arg);
  }
  checkpoint.set_round(rounds_done);
  checkpoint.set_num_update(model_->num_update());
  model_->SaveTo(&checkpoint);
  RngStateProto* rng = checkpoint.mutable_rng();
  rng->set_seed(checked_.param.seed);
  rng->set_data_passes(data_passes_);
  rng->set_scheme(kRngScheme);
  for (const RoundFigures& figures : history_) {
    RoundMetricsProto* round = checkpoint.add_metrics();
    round->set_round(figures.round);
    for (const auto& metric : figures.metrics) {
      MetricValueProto* value = round->add_values();
      value->set_label(metric.first);
      value->set_value(metric.second);
    }
  }
  WriteCheckpoint(CheckpointPath(ModelDir(), rounds_done), checkpoint);
}

}  // namespace train
}  // namespace umbra
