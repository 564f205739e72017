#include "tools/config_reference.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "layers/layer_registry.h"
#include "param/registry.h"
#include "tools/cxxnet_guide.h"
#include "train/data/iterator_registry.h"
#include "train/metrics/metric.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace tools {
namespace {

std::string Cell(const std::string& text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
}

// A link to the struct's section ("### Name": GitHub's anchor is the
// lower-cased name).
std::string StructLink(const std::string& name) {
  return absl::StrCat("[", name, "](#", absl::AsciiStrToLower(name), ")");
}

std::string StructLinks(const std::vector<std::string>& names) {
  std::vector<std::string> links;
  for (const std::string& name : names) links.push_back(StructLink(name));
  return links.empty() ? "-" : absl::StrJoin(links, ", ");
}

// Renders the structs of one group, each once over the whole page.
class StructPrinter {
 public:
  void Print(const std::string& name, std::string* out) {
    if (!printed_.insert(name).second) return;
    const ParamStructInfo info = GetParamStruct(name);
    absl::StrAppend(out, ParamFieldsToMarkdown(info.name, info.fields), "\n");
  }
  void PrintAll(const std::vector<std::string>& names, std::string* out) {
    for (const std::string& name : names) Print(name, out);
  }
  bool printed(const std::string& name) const {
    return printed_.count(name) > 0;
  }

 private:
  std::set<std::string> printed_;
};

void AppendTrainer(StructPrinter* printer, std::string* out) {
  absl::StrAppend(
      out,
      "## Global trainer keys\n\n"
      "Keys the trainer itself reads, written anywhere outside the netconfig "
      "and iterator blocks or as `key=value` on the command line.\n\n");
  printer->Print("TrainerParam", out);
}

void AppendUpdaters(StructPrinter* printer, std::string* out) {
  absl::StrAppend(
      out,
      "## Updaters\n\n"
      "`updater = NAME` picks the rule; its keys are global (a default for "
      "every weight) and may be given per weight tag as `TAG:KEY` (e.g. "
      "`bias:wd = 0`) or under a layer.\n\n"
      "| updater | description | keys |\n| --- | --- | --- |\n");
  std::vector<std::string> structs;
  for (const std::string& type : optim::UpdaterRegistry::List()) {
    const optim::UpdaterTypeInfo& info = optim::UpdaterRegistry::Get(type);
    const std::vector<std::string> names = optim::UpdaterParamStructs(type);
    absl::StrAppend(out, "| `", type, "` | ", Cell(info.description), " | ",
                    StructLinks(names), " |\n");
    for (const std::string& name : names) structs.push_back(name);
  }
  out->append("\n");
  printer->PrintAll(structs, out);
}

void AppendMetrics(std::string* out) {
  absl::StrAppend(
      out,
      "## Metrics\n\n"
      "`metric = NAME`, once per metric; each is reported for the "
      "training batches (when `eval_train`) and every eval set.\n\n");
  for (const std::string& name : metrics::ListMetrics()) {
    absl::StrAppend(out, "- `", name, "`\n");
  }
  out->append("\n");
}

void AppendLayers(StructPrinter* printer, std::string* out) {
  absl::StrAppend(
      out,
      "## Layers\n\n"
      "`layer[IN->OUT] = TYPE:NAME` followed by the layer's keys. A global "
      "key a layer declares is the default for every layer; `TAG:KEY` sets a "
      "WeightParam key for one weight tag. A tag's cxxnet name, given as "
      "\"also\" in the weights column, sets the same weight: `bias:wd = 0` "
      "reaches a prelu slope and a batch_norm beta, `wmat:` a batch_norm "
      "gamma.\n\n"
      "| type | description | keys | weights | loss |\n"
      "| --- | --- | --- | --- | --- |\n");
  std::vector<std::string> structs;
  for (const std::string& type : layers::LayerRegistry::List()) {
    const layers::LayerTypeInfo& info = layers::LayerRegistry::Get(type);
    std::vector<std::string> names;
    for (const param::ParamManager* manager : info.params) {
      names.push_back(manager->name());
      structs.push_back(manager->name());
    }
    absl::StrAppend(
        out, "| `", type, "` | ", Cell(info.description), " | ",
        StructLinks(names), " | ",
        info.weight_tags.empty() ? "-" : layers::WeightTagNames(info), " | ",
        info.is_loss ? "yes" : "", " |\n");
  }
  out->append("\n");
  printer->PrintAll(structs, out);
}

void AppendIterators(StructPrinter* printer, std::string* out) {
  absl::StrAppend(
      out,
      "## Data iterators\n\n"
      "`data = train`, `eval = NAME` or `pred = FILE`, then `iter = TYPE` "
      "stages with their keys, then `iter = end`. Sources read a data set "
      "(batching and augmentation keys included); wrappers take the stage "
      "before.\n\n"
      "| type | kind | description | keys |\n| --- | --- | --- | --- |\n");
  std::vector<std::string> structs;
  for (const std::string& type : train::IteratorRegistry::List()) {
    const train::IteratorTypeInfo& info = train::IteratorRegistry::Get(type);
    const bool source = info.kind == train::IteratorKind::kSource;
    const std::vector<std::string>& names = info.param_structs;
    absl::StrAppend(out, "| `", type, "` | ", source ? "source" : "wrapper",
                    " | ", Cell(info.description), " | ", StructLinks(names),
                    " |\n");
    structs.insert(structs.end(), names.begin(), names.end());
  }
  out->append("\n");
  printer->PrintAll(structs, out);
}

void AppendOthers(StructPrinter* printer, std::string* out) {
  std::vector<std::string> rest;
  for (const std::string& name : ListParamStructs()) {
    if (!printer->printed(name)) rest.push_back(name);
  }
  if (rest.empty()) return;
  absl::StrAppend(out,
                  "## Other parameter structs\n\n"
                  "Registered structs that no group above reads.\n\n");
  printer->PrintAll(rest, out);
}

}  // namespace

std::string ConfigReferenceMarkdown() {
  std::string out =
      "# umbra config reference\n\n"
      "<!-- Generated by `bazel run //tools:paramdoc > "
      "tools/config_reference.md`; do not edit by hand. "
      "//tools:golden_test fails when it differs from paramdoc's output. "
      "-->\n\n"
      "Every key a config may set, from the parameter registry of the "
      "shipped trainer. A config is cxxnet's format: one `key = value` per "
      "line, later lines override earlier ones, and `key=value` arguments "
      "after the config path override the file.\n\n";
  StructPrinter printer;
  AppendTrainer(&printer, &out);
  AppendUpdaters(&printer, &out);
  AppendMetrics(&out);
  AppendLayers(&printer, &out);
  AppendIterators(&printer, &out);
  AppendOthers(&printer, &out);
  absl::StrAppend(&out, ComingFromCxxnetMarkdown());
  // One trailing newline.
  while (out.size() > 1 && out[out.size() - 1] == '\n' &&
         out[out.size() - 2] == '\n') {
    out.pop_back();
  }
  return out;
}

}  // namespace tools
}  // namespace umbra
