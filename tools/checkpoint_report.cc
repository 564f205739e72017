#include "tools/checkpoint_report.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "param/edit_distance.h"
#include "param/quote.h"

namespace umbra {
namespace tools {
namespace {

using train::Checkpoint;
using train::CheckpointError;
using train::TensorProto;

struct NamedProto {
  const char* kind;
  const TensorProto* tensor;
};

// Weights, then updater state, then layer states, in file order.
std::vector<NamedProto> AllTensors(const Checkpoint& checkpoint) {
  std::vector<NamedProto> all;
  for (const TensorProto& t : checkpoint.weights())
    all.push_back({"weight", &t});
  for (const TensorProto& t : checkpoint.updater().tensors()) {
    all.push_back({"updater", &t});
  }
  for (const TensorProto& t : checkpoint.states()) all.push_back({"state", &t});
  return all;
}

std::string ShapeOf(const TensorProto& tensor) {
  return absl::StrCat("(", absl::StrJoin(tensor.shape(), ","), ")");
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

TensorStats ComputeStats(const std::vector<float>& values) {
  TensorStats stats;
  if (values.empty()) return stats;
  stats.min = std::numeric_limits<double>::infinity();
  stats.max = -std::numeric_limits<double>::infinity();
  double sum = 0.0, squares = 0.0;
  for (float v : values) {
    stats.min = std::min<double>(stats.min, v);
    stats.max = std::max<double>(stats.max, v);
    sum += v;
    squares += static_cast<double>(v) * v;
  }
  stats.mean = sum / values.size();
  stats.norm = std::sqrt(squares);
  return stats;
}

std::vector<float> TensorValues(const TensorProto& tensor) {
  size_t count = 1;
  for (int64_t d : tensor.shape()) count *= static_cast<size_t>(d);
  std::vector<float> values(count);
  train::ReadTensorProto(tensor, values.data(), count,
                         absl::StrCat("tensor '", tensor.name(), "'"));
  return values;
}

std::string DescribeCheckpoint(const std::string& path) {
  // ReadCheckpoint makes every check; the envelope is read again for the
  // fields it does not return.
  const Checkpoint checkpoint = train::ReadCheckpoint(path);
  const std::string bytes = FileBytes(path);
  train::CheckpointFile file;
  file.ParseFromString(bytes);

  std::string out = absl::StrFormat(
      "checkpoint: %s (%d bytes)\nformat version: %d\n"
      "checksum: %016x (FNV-1a 64 of the payload, verified)\n"
      "round: %d\nupdates: %d\n",
      path, bytes.size(), file.format_version(), file.checksum(),
      checkpoint.round(), checkpoint.num_update());
  const train::UpdaterStateProto& updater = checkpoint.updater();
  absl::StrAppendFormat(&out,
                        "updater: %s (%d updates, round %d, %d state "
                        "tensors)\n",
                        updater.type().empty() ? "(none)" : updater.type(),
                        updater.num_update(), updater.round(),
                        updater.tensors_size());
  absl::StrAppendFormat(&out, "rng: seed %d, data passes %d, scheme \"%s\"\n",
                        checkpoint.rng().seed(), checkpoint.rng().data_passes(),
                        checkpoint.rng().scheme());
  absl::StrAppend(&out, "overrides: ",
                  checkpoint.overrides().empty()
                      ? std::string("(none)")
                      : absl::StrJoin(checkpoint.overrides(), " "),
                  "\n");
  absl::StrAppend(&out, "layers (", checkpoint.layers_size(), "):");
  for (const train::LayerProto& layer : checkpoint.layers()) {
    absl::StrAppend(&out, " ", layer.name(), " (", layer.type(), ")");
  }
  out += "\nmetrics:";
  if (checkpoint.metrics().empty()) out += " (none)";
  out += "\n";
  for (const train::RoundMetricsProto& round : checkpoint.metrics()) {
    absl::StrAppend(&out, "  [", round.round(), "]");
    for (const train::MetricValueProto& value : round.values()) {
      absl::StrAppendFormat(&out, " %s:%.6g", value.label(), value.value());
    }
    out += "\n";
  }
  out += "config:\n";
  for (absl::string_view line : absl::StrSplit(
           absl::StripSuffix(checkpoint.config_text(), "\n"), '\n')) {
    absl::StrAppend(&out, line.empty() ? "  |" : "  | ", line, "\n");
  }
  absl::StrAppendFormat(
      &out, "tensors:\n%-8s %-28s %-16s %-8s %12s %12s %12s %12s\n", "kind",
      "name", "shape", "dtype", "min", "max", "mean", "norm");
  for (const NamedProto& named : AllTensors(checkpoint)) {
    const TensorStats stats = ComputeStats(TensorValues(*named.tensor));
    absl::StrAppendFormat(
        &out, "%-8s %-28s %-16s %-8s %12.6g %12.6g %12.6g %12.6g\n", named.kind,
        named.tensor->name(), ShapeOf(*named.tensor), named.tensor->dtype(),
        stats.min, stats.max, stats.mean, stats.norm);
  }
  return out;
}

std::string TensorCsv(const Checkpoint& checkpoint, const std::string& name) {
  std::vector<std::string> names;
  for (const NamedProto& named : AllTensors(checkpoint)) {
    if (named.tensor->name() != name) {
      names.push_back(named.tensor->name());
      continue;
    }
    const TensorProto& tensor = *named.tensor;
    const std::vector<float> values = TensorValues(tensor);
    size_t columns = 1;
    for (int i = 1; i < tensor.shape_size(); ++i) columns *= tensor.shape(i);
    std::string out;
    for (size_t i = 0; i < values.size(); ++i) {
      absl::StrAppendFormat(&out, "%.9g", values[i]);
      out += (i + 1) % columns == 0 ? "\n" : ",";
    }
    return out;
  }
  throw CheckpointError(absl::StrCat(
      "the checkpoint has no tensor ", QuoteShort(name),
      param::UnknownNameSuggestion(name, names, "Its tensors",
                                   "the list that inspect prints without "
                                   "--dump")));
}

}  // namespace tools
}  // namespace umbra
