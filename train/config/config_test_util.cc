#include "train/config/config_test_util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "train/config/config.h"

namespace umbra {
namespace train {
namespace testing {

std::string ConfigErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError was thrown";
  return "";
}

std::string BuildError(const std::string& text) {
  return ConfigErrorOf([&] { ParseTrainConfigText(text, "t.conf"); });
}

std::string NewTestDir(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string dir =
      absl::StrCat(root != nullptr ? root : "/tmp", "/", name);
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  std::filesystem::create_directories(dir);
  return dir;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

int LineOf(const std::string& text, const std::string& key) {
  int line = 1;
  for (absl::string_view l : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(l, key + " =")) return line;
    ++line;
  }
  return 0;
}

KeySchema MnistSchema() {
  KeySchema schema;
  schema.AddGlobalKeys({"dev", "batch_size", "input_shape", "num_round",
                        "max_round", "save_model", "model_dir", "continue",
                        "task", "metric", "eval_train", "print_step", "silent",
                        "updater", "extra_data_num", "model_in"});
  const std::vector<std::string> updater = {"eta",
                                            "lr",
                                            "momentum",
                                            "wd",
                                            "lr:schedule",
                                            "lr:gamma",
                                            "lr:step",
                                            "lr:factor",
                                            "lr:alpha",
                                            "lr:minimum_lr",
                                            "lr:start_epoch",
                                            "eta:schedule"};
  std::vector<std::string> weighted = updater;
  for (const char* key :
       {"nhidden", "init_sigma", "init_bias", "random_type", "no_bias"}) {
    weighted.push_back(key);
  }
  schema.AddLayerType("fullc", weighted);
  std::vector<std::string> conv = weighted;
  for (const char* key :
       {"kernel_size", "kernel_height", "kernel_width", "stride", "pad",
        "nchannel", "num_group", "temp_col_max"}) {
    conv.push_back(key);
  }
  schema.AddLayerType("conv", conv);
  for (const char* type : {"max_pooling", "avg_pooling", "sum_pooling"}) {
    schema.AddLayerType(type, {"kernel_size", "kernel_height", "kernel_width",
                               "stride", "pad"});
  }
  for (const char* type :
       {"sigmoid", "relu", "tanh", "flatten", "split", "concat", "ch_concat"}) {
    schema.AddLayerType(type, {});
  }
  schema.AddLayerType("softmax", {"grad_scale"});
  schema.AddLayerType("dropout", {"threshold"});
  schema.AddIteratorType("mnist", {"path_img", "path_label", "shuffle",
                                   "input_flat", "batch_size", "silent"});
  schema.AddIteratorType("threadbuffer", {"buffer_size", "silent"});
  return schema;
}

}  // namespace testing
}  // namespace train
}  // namespace umbra
