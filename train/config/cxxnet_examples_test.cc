// Golden tests: cxxnet's example configs (example/MNIST/MNIST.conf and
// MNIST_CONV.conf, doc/layer.md), with data paths adjusted, read into the
// exact structure below; and the mistakes cxxnet let through in them
// (`train_eval`, `lr:eta`) reported.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::ConfigErrorOf;
using testing::MnistSchema;
using ::testing::StartsWith;

// cxxnet's example/MNIST/MNIST_CONV.conf with data paths adjusted.
const char kMnistConv[] = R"(# example configure file for mnist
# training iterator
data = train
iter = mnist
    path_img = "data/mnist/train-images-idx3-ubyte.gz"
    path_label = "data/mnist/train-labels-idx1-ubyte.gz"
    input_flat = 0
    shuffle = 1
iter = end
# evaluation iterator
eval = test
iter = mnist
    input_flat = 0
    path_img = "data/mnist/t10k-images-idx3-ubyte.gz"
    path_label = "data/mnist/t10k-labels-idx1-ubyte.gz"
iter = end

netconfig=start
layer[0->1] = conv:cv1
  kernel_size = 3
  pad = 1
  stride = 2
  nchannel = 32
  random_type = xavier
  no_bias=0
layer[1->2] = max_pooling
  kernel_size = 3
  stride = 2
layer[2->3] = flatten
layer[3->3] = dropout
  threshold = 0.5
layer[3->4] = fullc:fc1
  nhidden = 1000
  init_sigma = 0.01
layer[4->5] = sigmoid:se1
layer[5->6] = fullc:fc2
  nhidden = 10
  init_sigma = 0.01
layer[6->6] = softmax
netconfig=end

# input shape not including batch
input_shape = 1,28,28
batch_size = 100

## global parameters
dev = gpu
save_model = 15
max_round = 15
num_round = 15
train_eval = 1
random_type = gaussian
## learning parameters
eta = 0.1
momentum = 0.9
wd  = 0.0
# evaluation metric
metric = error
eval_train = 1
# end of config
)";

// cxxnet's example/MNIST/MNIST.conf with data paths adjusted.
const char kMnist[] = R"(# example configure file for mnist
# training iterator
data = train
iter = mnist
    path_img = "data/mnist/train-images-idx3-ubyte.gz"
    path_label = "data/mnist/train-labels-idx1-ubyte.gz"
    shuffle = 1
iter = end
# evaluation iterator
eval = test
iter = mnist
    path_img = "data/mnist/t10k-images-idx3-ubyte.gz"
    path_label = "data/mnist/t10k-labels-idx1-ubyte.gz"
iter = end

netconfig=start
layer[0->1] = fullc:fc1
  nhidden = 100
  init_sigma = 0.01
layer[1->2] = sigmoid:se1
layer[2->3] = fullc:fc1
  nhidden = 10
  init_sigma = 0.01
layer[3->3] = softmax
netconfig=end

# input shape not including batch
input_shape = 1,1,784
batch_size = 100

## global parameters
dev = cpu
save_model = 15
max_round = 15
num_round = 15
train_eval = 1
random_type = gaussian
## learning parameters
lr:eta = 0.1
lr:momentum = 0.9
lr:wd  = 0.0
# evaluation metric
metric = error

)";

// The layer example of cxxnet's doc/layer.md (its `layer[2-3]` typo, which
// cxxnet rejected too, written as layer[2->3]).
const char kLayerDoc[] = R"(# global setting
random_type = gaussian
netconfig = start
wmat:lr  = 0.01
wmat:wd  = 0.0005
bias:wd  = 0.000
bias:lr  = 0.02
layer[0->1] = fullc:fc1
  # local setting start
  nhidden = 50
  random_type = xavier
  # local setting end
layer[1->2] = relu
layer[2->3] = fullc
  # local setting start
  nhidden = 6
  init_sigma = 0.005
  wmat:lr = 0.1
  # local setting end
netconfig = end
)";

std::string Entries(const std::vector<ConfigEntry>& entries) {
  std::vector<std::string> parts;
  for (const ConfigEntry& entry : entries) {
    parts.push_back(
        absl::StrCat(entry.location.line, ":", entry.key, "=", entry.value));
  }
  return absl::StrJoin(parts, " ");
}

// Everything a TrainConfig holds, one line per part.
std::string Dump(const TrainConfig& config) {
  std::string out = absl::StrCat("globals: ", Entries(config.globals), "\n");
  for (const LayerDeclaration& layer : config.net.layers) {
    absl::StrAppend(
        &out, "layer ", layer.index, " ", layer.name,
        layer.auto_named ? "*" : "", " (", layer.type, ") ",
        absl::StrJoin(config.net.NodeNames(layer.inputs), ","), "->",
        absl::StrJoin(config.net.NodeNames(layer.outputs), ","), " @",
        layer.declaration.location.line, ": ", Entries(layer.settings), "\n");
  }
  for (const IteratorChain& chain : config.iterators) {
    absl::StrAppend(&out, chain.Describe(), " @",
                    chain.declaration.location.line, "-",
                    chain.end.location.line, "\n");
    for (const IteratorStage& stage : chain.stages) {
      absl::StrAppend(&out, "  iter ", stage.type, " @",
                      stage.declaration.location.line, ": ",
                      Entries(stage.settings), "\n");
    }
  }
  return out;
}

const char kMnistConvDump[] =
    "globals: 43:input_shape=1,28,28 44:batch_size=100 47:dev=gpu "
    "48:save_model=15 49:max_round=15 50:num_round=15 51:train_eval=1 "
    "52:random_type=gaussian 54:eta=0.1 55:momentum=0.9 56:wd=0.0 "
    "58:metric=error 59:eval_train=1\n"
    "layer 0 cv1 (conv) in->1 @19: 20:kernel_size=3 21:pad=1 22:stride=2 "
    "23:nchannel=32 24:random_type=xavier 25:no_bias=0\n"
    "layer 1 max_pooling_1* (max_pooling) 1->2 @26: 27:kernel_size=3 "
    "28:stride=2\n"
    "layer 2 flatten_2* (flatten) 2->3 @29: \n"
    "layer 3 dropout_3* (dropout) 3->3 @30: 31:threshold=0.5\n"
    "layer 4 fc1 (fullc) 3->4 @32: 33:nhidden=1000 34:init_sigma=0.01\n"
    "layer 5 se1 (sigmoid) 4->5 @35: \n"
    "layer 6 fc2 (fullc) 5->6 @36: 37:nhidden=10 38:init_sigma=0.01\n"
    "layer 7 softmax_7* (softmax) 6->6 @39: \n"
    "data train @3-9\n"
    "  iter mnist @4: 5:path_img=data/mnist/train-images-idx3-ubyte.gz "
    "6:path_label=data/mnist/train-labels-idx1-ubyte.gz 7:input_flat=0 "
    "8:shuffle=1\n"
    "eval test @11-16\n"
    "  iter mnist @12: 13:input_flat=0 "
    "14:path_img=data/mnist/t10k-images-idx3-ubyte.gz "
    "15:path_label=data/mnist/t10k-labels-idx1-ubyte.gz\n";

TEST(CxxnetExamplesTest, MnistConvGolden) {
  EXPECT_EQ(Dump(ParseTrainConfigText(kMnistConv, "MNIST_CONV.conf")),
            kMnistConvDump);
}

TEST(CxxnetExamplesTest, CrlfAndByteOrderMarkReadTheSame) {
  const std::string crlf = absl::StrCat(
      "\xEF\xBB\xBF", absl::StrReplaceAll(kMnistConv, {{"\n", "\r\n"}}));
  EXPECT_EQ(Dump(ParseTrainConfigText(crlf, "MNIST_CONV.conf")),
            kMnistConvDump);
}

TEST(CxxnetExamplesTest, MnistConvTrainEvalIsReported) {
  const TrainConfig config =
      ParseTrainConfigText(kMnistConv, "MNIST_CONV.conf");
  EXPECT_THAT(
      ConfigErrorOf([&] { ValidateTrainConfig(config, MnistSchema()); }),
      StartsWith("MNIST_CONV.conf:51: unknown key 'train_eval' in the global "
                 "settings; did you mean 'eval_train'? Valid keys: "));
}

TEST(CxxnetExamplesTest, MnistConvWithoutTheMistakeValidates) {
  const std::string fixed =
      absl::StrReplaceAll(kMnistConv, {{"train_eval = 1\n", "\n"}});
  const TrainConfig config = ParseTrainConfigText(fixed, "MNIST_CONV.conf");
  const KeySchema schema = MnistSchema();
  ValidateTrainConfig(config, schema);
  // What the net builder will hand each layer: matching globals, then own.
  EXPECT_EQ(Entries(LayerSettings(config, config.net.layers[0], schema)),
            "52:random_type=gaussian 54:eta=0.1 55:momentum=0.9 56:wd=0.0 "
            "20:kernel_size=3 21:pad=1 22:stride=2 23:nchannel=32 "
            "24:random_type=xavier 25:no_bias=0");
  EXPECT_EQ(
      Entries(IteratorSettings(config, *config.TrainIterator(), 0, schema)),
      "44:batch_size=100 5:path_img=data/mnist/train-images-idx3-"
      "ubyte.gz 6:path_label=data/mnist/train-labels-idx1-ubyte.gz "
      "7:input_flat=0 8:shuffle=1");
}

TEST(CxxnetExamplesTest, MnistDuplicateLayerNameIsAnError) {
  // cxxnet's NetConfig refused the second fc1 as well.
  EXPECT_EQ(ConfigErrorOf([] { ParseTrainConfigText(kMnist, "MNIST.conf"); }),
            "MNIST.conf:21: 'layer[2->3] = fullc:fc1': duplicate layer name "
            "'fc1': already used at line 17 ('layer[0->1] = fullc:fc1')");
}

TEST(CxxnetExamplesTest, MnistKeysWithoutEffectGetANotice) {
  // With the second layer renamed, the file parses; cxxnet then ignored
  // train_eval and lr:eta, lr:momentum, lr:wd (its lr: prefix never knew
  // them): accepted, with a notice each that says so.
  const std::string renamed = absl::StrReplaceAll(
      kMnist, {{"layer[2->3] = fullc:fc1", "layer[2->3] = fullc:fc2"}});
  TrainConfig config = ParseTrainConfigText(renamed, "MNIST.conf");
  EXPECT_EQ(config.net.layers.size(), 4u);
  EXPECT_EQ(config.FindGlobal("lr:eta")->location.line, 39);
  const std::vector<ConfigNotice> notices = ReadCxxnetForms(&config);
  std::vector<std::string> noticed;
  for (const ConfigNotice& notice : notices) {
    noticed.push_back(absl::StrCat(notice.location.line, ":", notice.key));
  }
  EXPECT_EQ(noticed, (std::vector<std::string>{"36:train_eval", "39:lr:eta",
                                               "40:lr:momentum", "41:lr:wd"}));
  EXPECT_THAT(notices[0].ToString(),
              StartsWith("notice: MNIST.conf:36: 'train_eval' has no effect: "
                         "cxxnet read it only on 2014-04-06"));
  EXPECT_EQ(config.FindGlobal("lr:eta"), nullptr);
  ValidateTrainConfig(config, MnistSchema());
}

TEST(CxxnetExamplesTest, LayerDocExample) {
  const TrainConfig config = ParseTrainConfigText(kLayerDoc, "layer.md");
  EXPECT_EQ(Dump(config),
            "globals: 2:random_type=gaussian 4:wmat:lr=0.01 5:wmat:wd=0.0005 "
            "6:bias:wd=0.000 7:bias:lr=0.02\n"
            "layer 0 fc1 (fullc) in->1 @8: 10:nhidden=50 "
            "11:random_type=xavier\n"
            "layer 1 relu_1* (relu) 1->2 @13: \n"
            "layer 2 fullc_2* (fullc) 2->3 @14: 16:nhidden=6 "
            "17:init_sigma=0.005 18:wmat:lr=0.1\n");
  ValidateTrainConfig(config, MnistSchema());
  // The doc's own typo: cxxnet failed on it too ("invalid layer format").
  EXPECT_THAT(ConfigErrorOf([] {
                ParseTrainConfigText(
                    absl::StrReplaceAll(kLayerDoc, {{"[2->3]", "[2-3]"}}),
                    "layer.md");
              }),
              StartsWith("layer.md:14: 'layer[2-3] = fullc': expected "
                         "layer[in->out]"));
}

TEST(CxxnetExamplesTest, OverridesOnTopOfAnExample) {
  const TrainConfig config = BuildTrainConfig(
      ParseConfigText(kMnistConv, "MNIST_CONV.conf"),
      ParseCommandLineOverrides({"dev=cpu", "num_round=1"}, 2));
  EXPECT_EQ(config.FindGlobal("dev")->value, "cpu");
  EXPECT_EQ(config.FindGlobal("num_round")->location.ToString(),
            "command line: argument 3");
  EXPECT_EQ(config.FindGlobal("max_round")->value, "15");
}

}  // namespace
}  // namespace train
}  // namespace umbra
