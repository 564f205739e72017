#include "train/config/cxxnet_notices.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "train/config/updater_settings.h"

namespace umbra {
namespace train {
namespace {

enum class Scope { kAnywhere, kLayerSettings };

struct InertKey {
  const char* key;
  Scope scope;
  const char* reason;
};

constexpr char kNoLrSubkey[] =
    "no cxxnet version read it: cxxnet's lr: prefix takes only schedule, "
    "gamma, alpha, step, factor, minimum_lr and start_epoch (the rate, "
    "momentum and decay are eta, momentum and wd)";
constexpr char kServerTuning[] =
    "it tuned the parameter server of cxxnet's multi-device training; "
    "umbra's data parallel training (dist = mpi) sums gradients without one";

constexpr InertKey kInertKeys[] = {
    {"train_eval", Scope::kAnywhere,
     "cxxnet read it only on 2014-04-06 and then renamed it eval_train "
     "(umbra's eval_train, on by default)"},
    {"lr:start_iteration", Scope::kAnywhere,
     "no cxxnet version read it (cxxnet's updater doc meant lr:start_epoch)"},
    {"lr:eta", Scope::kAnywhere, kNoLrSubkey},
    {"lr:momentum", Scope::kAnywhere, kNoLrSubkey},
    {"lr:wd", Scope::kAnywhere, kNoLrSubkey},
    {"sync", Scope::kAnywhere, "cxxnet stored it and never used it"},
    {"init_sparse", Scope::kAnywhere,
     "cxxnet has not used it since it dropped random_type = sparse "
     "(2015-02)"},
    {"reset_net_type", Scope::kAnywhere,
     "cxxnet only wrote the net type into its model files"},
    {"algo", Scope::kAnywhere,
     "it chose cxxnet's cuDNN convolution algorithms on a GPU; umbra's GPU "
     "build measures and picks the fastest itself, and the CPU has none"},
    {"force_contiguous", Scope::kAnywhere,
     "it chose cxxnet's memory layout of fullc weights; umbra's weights are "
     "always contiguous"},
    {"silent", Scope::kLayerSettings,
     "cxxnet's layers never read it (silent is a global and iterator key)"},
    {"fullc_gather", Scope::kAnywhere, kServerTuning},
    {"pull_at_backprop", Scope::kAnywhere, kServerTuning},
    {"bigarray_bound", Scope::kAnywhere, kServerTuning},
    {"test_on_server", Scope::kAnywhere, kServerTuning},
    {"init_on_worker", Scope::kAnywhere, kServerTuning},
    {"reduce_thread", Scope::kAnywhere, kServerTuning},
    {"use_pin_memory", Scope::kAnywhere, kServerTuning},
    {"pull_thread", Scope::kAnywhere, kServerTuning},
    {"push_thread", Scope::kAnywhere, kServerTuning},
};

constexpr char kDataParallel[] =
    "umbra trains data parallel over processes instead, one per GPU or CPU "
    "share, on one machine or many: mpirun -np 4 bazel-bin/train/train "
    "CONFIG dist=mpi (with dev = gpu each rank takes the GPU of its local "
    "rank)";

// The error for an entry that asks for cxxnet's multi-device or
// parameter-server training, or nullopt.
std::optional<ConfigError> DistributedFormError(const ConfigEntry& entry) {
  // What cxxnet's example/MNIST/mpi.conf gave its launcher (dmlc's tracker
  // started the servers and workers with them).
  static constexpr const char* kLauncherKeys[] = {
      "num_servers", "num_workers",       "bin",
      "arg",         "network_interface", "network_port"};
  for (const char* key : kLauncherKeys) {
    if (entry.key == key) {
      return entry.Error(absl::StrCat(
          "'", key,
          "' is a key of cxxnet's parameter-server launcher (its mpi.conf, "
          "read by dmlc's tracker, not by cxxnet); umbra has no parameter "
          "server: ",
          kDataParallel));
    }
  }
  static constexpr const char* kServerKeys[] = {
      "param_server", "update_on_server", "dist_num_worker",
      "dist_worker_rank"};
  for (const char* key : kServerKeys) {
    if (entry.key == key) {
      return entry.Error(absl::StrCat(
          "'", key,
          "' belongs to cxxnet's parameter-server training, which umbra does "
          "not have; ",
          kDataParallel));
    }
  }
  if (entry.key == "dev" &&
      (absl::StartsWith(entry.value, "gpu:") ||
       absl::StartsWith(entry.value, "cpu:")) &&
      entry.value.find_first_of(",-") != std::string::npos) {
    return entry.Error(absl::StrCat(
        "dev = ", entry.value,
        " asks for several devices in one process (cxxnet's multi-device "
        "training); ",
        kDataParallel));
  }
  return std::nullopt;
}

// The reason `key` (perhaps after weight-tag prefixes, `wmat:init_sparse`)
// has no effect where `scope` puts it, or nullptr.
const char* InertReason(const std::string& key, Scope scope) {
  for (const InertKey& inert : kInertKeys) {
    if (inert.scope == Scope::kLayerSettings && scope != inert.scope) continue;
    if (key == inert.key || absl::EndsWith(key, absl::StrCat(":", inert.key))) {
      return inert.reason;
    }
  }
  return nullptr;
}

// cxxnet's `eta:` prefix is its alias of `lr:` (eta:schedule,
// wmat:eta:step): written as `lr:`.
void SpellEtaAsLr(ConfigEntry* entry) {
  const size_t at = entry->key.find("eta:");
  if (at != std::string::npos && (at == 0 || entry->key[at - 1] == ':')) {
    entry->key.replace(at, 4, "lr:");
  }
}

// cxxnet's seed_data seeded the data order and augmentation and seed the
// weights; umbra's blocks read `seed`, and a block's own setting wins over
// the global one: so a global seed_data becomes each block's seed, written
// at the seed_data line. (seed_data inside a block is that block's seed.)
void MoveSeedDataIntoBlocks(TrainConfig* config) {
  std::vector<ConfigEntry> kept;
  for (ConfigEntry& entry : config->globals) {
    if (entry.key != "seed_data") {
      kept.push_back(std::move(entry));
      continue;
    }
    for (IteratorChain& chain : config->iterators) {
      ConfigEntry seed = entry;
      seed.key = "seed";
      // First: the block's own settings come after it and win.
      std::vector<ConfigEntry>& settings = chain.stages.front().settings;
      settings.insert(settings.begin(), seed);
    }
  }
  config->globals = std::move(kept);
  for (IteratorChain& chain : config->iterators) {
    for (IteratorStage& stage : chain.stages) {
      for (ConfigEntry& entry : stage.settings) {
        if (entry.key == "seed_data") entry.key = "seed";
      }
    }
  }
}

// cxxnet's `insanity` is umbra's rrelu. Its calm_start/calm_end schedule
// (narrowing lb and ub batch by batch) only ran with calm_start < 0: it
// starts at step 0 and advances past calm_start only. So calm keys of 0 or
// more are inert; a negative calm_start is refused.
void ReadInsanityLayer(LayerDeclaration* layer,
                       std::vector<ConfigNotice>* notices) {
  if (layer->type != "insanity" && layer->type != "rrelu") return;
  layer->type = "rrelu";
  std::vector<ConfigEntry> kept;
  for (ConfigEntry& entry : layer->settings) {
    if (entry.key != "calm_start" && entry.key != "calm_end") {
      kept.push_back(std::move(entry));
      continue;
    }
    double value = 0;
    if (entry.key == "calm_start" && absl::SimpleAtod(entry.value, &value) &&
        value < 0) {
      throw entry.Error(
          "calm_start < 0 ran cxxnet's calm schedule, which narrows lb and ub "
          "batch by batch; umbra's rrelu keeps them fixed (leave calm_start "
          "out, or set lb and ub to the range wanted)");
    }
    notices->push_back(
        {entry.location, entry.key,
         absl::StrCat("'", entry.key,
                      "' has no effect: cxxnet's calm schedule ran only with "
                      "calm_start < 0")});
  }
  layer->settings = std::move(kept);
}

// cxxnet's pairtest-MASTER-SLAVE ran two implementations of a layer side
// by side and compared them (a test of cxxnet itself); the net trained with
// MASTER's outputs. Read as MASTER, with its master: settings; the slave:
// settings have no effect.
void ReadPairTestLayer(LayerDeclaration* layer,
                       std::vector<ConfigNotice>* notices) {
  if (!absl::StartsWith(layer->type, "pairtest-")) return;
  const std::vector<std::string> parts = absl::StrSplit(layer->type, '-');
  if (parts.size() != 3 || parts[1].empty() || parts[2].empty()) {
    throw layer->declaration.Error(absl::StrCat(
        "'", layer->type,
        "': cxxnet's pairtest layer is pairtest-MASTER-SLAVE (two layer "
        "types); umbra reads it as MASTER"));
  }
  notices->push_back({layer->declaration.location, layer->type,
                      absl::StrCat("'", layer->type, "' compared ", parts[1],
                                   " with ", parts[2],
                                   " on every batch (a test of cxxnet itself); "
                                   "the net is trained as ",
                                   parts[1])});
  layer->type = parts[1];
  std::vector<ConfigEntry> kept;
  for (ConfigEntry& entry : layer->settings) {
    // The keys of cxxnet's Caffe adaptor (src/plugin) are the slave's.
    const bool caffe_key =
        parts[2] == "caffe" &&
        (entry.key == "proto" || entry.key == "mode" || entry.key == "dev");
    if (absl::StartsWith(entry.key, "slave:") || caffe_key) {
      notices->push_back({entry.location, entry.key,
                          absl::StrCat("'", entry.key,
                                       "' has no effect: it set pairtest's "
                                       "slave, which is not trained")});
      continue;
    }
    if (absl::StartsWith(entry.key, "master:")) entry.key.erase(0, 7);
    kept.push_back(std::move(entry));
  }
  layer->settings = std::move(kept);
}

// cxxnet's batch_norm_no_ma is umbra's batch_norm with use_batch_stats = 1
// (test time normalises with the batch's statistics; cxxnet kept no moving
// averages at all).
void ReadBatchNormNoMaLayer(LayerDeclaration* layer) {
  if (layer->type != "batch_norm_no_ma") return;
  layer->type = "batch_norm";
  ConfigEntry batch_stats = layer->declaration;
  batch_stats.key = "use_batch_stats";
  batch_stats.value = "1";
  // First: a use_batch_stats the layer sets itself wins.
  layer->settings.insert(layer->settings.begin(), batch_stats);
}

// cxxnet of 2014 numbered its random types: 0 gaussian, 1 uniform in
// +-sqrt(3 / (in + out)), umbra's xavier (cxxnet since refuses numbers).
void ReadNumberedRandomType(ConfigEntry* entry,
                            std::vector<ConfigNotice>* notices) {
  if (entry->key != "random_type" &&
      !absl::EndsWith(entry->key, ":random_type")) {
    return;
  }
  if (entry->value != "0" && entry->value != "1") return;
  const char* name = entry->value == "0" ? "gaussian" : "xavier";
  notices->push_back({entry->location, entry->key,
                      absl::StrCat(entry->key, " = ", entry->value,
                                   " is cxxnet 2014's number "
                                   "of random_type = ",
                                   name, ", read as ", name)});
  entry->value = name;
}

// cxxnet's cifar iterator of 2014: `path` (a folder, joined to the file
// names as they are), `batch1` ... `batch5` and `test` (= 1: read
// data_batch_K.bin, test_batch.bin, in the order written), pixels / 256.
// Rewritten as umbra's cifar keys: path_data and, unless the block scales
// itself, divideby = 256; its input_flat = 0 and image_mean, which it never
// read, get a notice.
void ReadCifar2014Stage(IteratorStage* stage,
                        std::vector<ConfigNotice>* notices) {
  if (stage->type != "cifar") return;
  const ConfigEntry* path = nullptr;
  for (const ConfigEntry& entry : stage->settings) {
    if (entry.key == "path") path = &entry;
  }
  if (path == nullptr) return;
  static constexpr std::pair<const char*, const char*> kFiles[] = {
      {"batch1", "data_batch_1.bin"}, {"batch2", "data_batch_2.bin"},
      {"batch3", "data_batch_3.bin"}, {"batch4", "data_batch_4.bin"},
      {"batch5", "data_batch_5.bin"}, {"test", "test_batch.bin"}};
  ConfigEntry path_data = *path;
  path_data.key = "path_data";
  path_data.value.clear();
  bool scaled = false;
  std::vector<ConfigEntry> kept;
  for (ConfigEntry& entry : stage->settings) {
    scaled = scaled || entry.key == "divideby" || entry.key == "scale";
    const auto file =
        std::find_if(std::begin(kFiles), std::end(kFiles),
                     [&](const auto& flag) { return entry.key == flag.first; });
    if (file != std::end(kFiles)) {
      if (entry.value == "1") {
        absl::StrAppend(&path_data.value, path_data.value.empty() ? "" : ",",
                        path->value, file->second);
      }
      continue;
    }
    if ((entry.key == "input_flat" && entry.value == "0") ||
        entry.key == "image_mean") {
      notices->push_back(
          {entry.location, entry.key,
           absl::StrCat("'", entry.key, "' has no effect: ",
                        entry.key == "image_mean"
                            ? "cxxnet's cifar iterator never read it"
                            : "the cifar pictures are images (input_flat = "
                              "0) already")});
      continue;
    }
    if (&entry != path) kept.push_back(std::move(entry));
  }
  kept.insert(kept.begin(), path_data);
  if (!scaled) {
    ConfigEntry divideby = path_data;
    divideby.key = "divideby";
    divideby.value = "256";
    kept.push_back(divideby);
  }
  stage->settings = std::move(kept);
}

// `iter = image` was cxxnet's name of `img` until 2014-05.
void RenameImageIterator(IteratorStage* stage,
                         std::vector<ConfigNotice>* notices) {
  if (stage->type != "image") return;
  stage->type = "img";
  notices->push_back({stage->declaration.location, "iter",
                      "iter = image is cxxnet's early name of iter = img, "
                      "read as img"});
}

// image_root under a pack reader: cxxnet passed every key to every iterator,
// and only `img` reads picture files under a folder (Alex.conf of 2014 gave
// it to imgbin).
void DropImageRootOfPacks(IteratorStage* stage,
                          std::vector<ConfigNotice>* notices) {
  if (stage->type != "imgbin" && stage->type != "imginst" &&
      stage->type != "imgrec") {
    return;
  }
  std::vector<ConfigEntry> kept;
  for (ConfigEntry& entry : stage->settings) {
    if (entry.key != "image_root") {
      kept.push_back(std::move(entry));
      continue;
    }
    notices->push_back(
        {entry.location, entry.key,
         absl::StrCat("'image_root' has no effect: iter = ", stage->type,
                      " reads its pictures from its pack, not from files "
                      "under a folder (iter = img does)")});
  }
  stage->settings = std::move(kept);
}

// Drops the inert entries of `entries`, adding a notice for each. net_type
// is inert at 0 and an error otherwise.
void DropFrom(std::vector<ConfigEntry>* entries, Scope scope,
              std::vector<ConfigNotice>* notices) {
  std::vector<ConfigEntry> kept;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    ConfigEntry& entry = (*entries)[i];
    // A later entry (dev=cpu on the command line) overrides this one.
    const bool overridden = std::any_of(
        entries->begin() + i + 1, entries->end(),
        [&](const ConfigEntry& later) { return later.key == entry.key; });
    if (std::optional<ConfigError> error = DistributedFormError(entry);
        error && !overridden) {
      throw *error;
    }
    const std::string written = entry.key;
    SpellEtaAsLr(&entry);
    ReadNumberedRandomType(&entry, notices);
    const char* reason = InertReason(entry.key, scope);
    if (entry.key == "net_type" && !entry.is_default()) {
      if (entry.value != "0") {
        throw entry.Error(
            "net_type = " + entry.value +
            " chose cxxnet's 2014 averaging trainer (CXXAvgNetTrainer), "
            "which umbra does not have; net_type = 0, the only type cxxnet "
            "kept, is umbra's trainer");
      }
      reason =
          "cxxnet's only net type since 2014 (it was written into its "
          "model files)";
    }
    if (reason == nullptr) {
      kept.push_back(std::move(entry));
      continue;
    }
    notices->push_back(
        {entry.location, written,
         absl::StrCat("'", written, "' has no effect: ", reason)});
  }
  *entries = std::move(kept);
}

// The warning for `entry` when it sets adam's beta1 or beta2 to 0.5 or
// more.
void AddAdamBetaWarning(const ConfigEntry& entry,
                        std::vector<ConfigNotice>* warnings) {
  const size_t colon = entry.key.rfind(':');
  const std::string name =
      colon == std::string::npos ? entry.key : entry.key.substr(colon + 1);
  if (name != "beta1" && name != "beta2") return;
  double value = 0;
  if (!absl::SimpleAtod(entry.value, &value) || !(value >= 0.5)) return;
  const bool first = name == "beta1";
  const std::string usual = absl::StrCat(1.0 - value);
  warnings->push_back(
      {entry.location, entry.key,
       absl::StrCat(name, " = ", entry.value,
                    " means here, as in cxxnet, that each step weighs the new ",
                    first ? "gradient" : "squared gradient", " by ",
                    entry.value, " in the ", first ? "first" : "second",
                    "-moment average (the usual ", name, " = ", usual,
                    "); for the usual ", name, " = ", entry.value, " write ",
                    name, " = ", usual),
       /*warning=*/true});
}

}  // namespace

bool InFileOrder(const ConfigNotice& a, const ConfigNotice& b) {
  return a.location.argument != b.location.argument
             ? a.location.argument < b.location.argument
             : a.location.line < b.location.line;
}

std::string ConfigNotice::ToString() const {
  return absl::StrCat(warning ? "warning: " : "notice: ", location.ToString(),
                      ": ", text);
}

std::vector<ConfigNotice> AdamBetaWarnings(const TrainConfig& config) {
  std::vector<ConfigNotice> warnings;
  for (const std::vector<ConfigEntry>* entries : UpdaterEntryLists(config)) {
    for (const ConfigEntry& entry : *entries) {
      AddAdamBetaWarning(entry, &warnings);
    }
  }
  std::stable_sort(warnings.begin(), warnings.end(), InFileOrder);
  return warnings;
}

std::vector<InertCxxnetKey> InertCxxnetKeyList() {
  std::vector<InertCxxnetKey> list = {
      {"net_type", "= 0",
       "cxxnet's only net type since 2014 (other values, its averaging "
       "trainer, are refused)"}};
  for (const InertKey& inert : kInertKeys) {
    list.push_back(
        {inert.key,
         inert.scope == Scope::kLayerSettings ? "in a layer's settings" : "",
         inert.reason});
  }
  return list;
}

std::vector<ConfigNotice> ReadCxxnetForms(TrainConfig* config) {
  std::vector<ConfigNotice> notices;
  MoveSeedDataIntoBlocks(config);
  DropFrom(&config->globals, Scope::kAnywhere, &notices);
  for (LayerDeclaration& layer : config->net.layers) {
    ReadPairTestLayer(&layer, &notices);
    ReadInsanityLayer(&layer, &notices);
    ReadBatchNormNoMaLayer(&layer);
    DropFrom(&layer.settings, Scope::kLayerSettings, &notices);
  }
  for (IteratorChain& chain : config->iterators) {
    for (IteratorStage& stage : chain.stages) {
      RenameImageIterator(&stage, &notices);
      ReadCifar2014Stage(&stage, &notices);
      DropImageRootOfPacks(&stage, &notices);
      DropFrom(&stage.settings, Scope::kAnywhere, &notices);
    }
  }
  std::stable_sort(notices.begin(), notices.end(), InFileOrder);
  return notices;
}

}  // namespace train
}  // namespace umbra
