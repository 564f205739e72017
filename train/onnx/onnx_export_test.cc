// Every layer type, exported alone (with one or two inputs) from a net with
// random weights, statistics and inputs: the ONNX checker accepts the model
// and ONNX Runtime computes what the net's Forward(is_train = false)
// computes (as task = pred runs it) to 1e-5.
#include "train/onnx/onnx_export.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "layers/layer_registry.h"
#include "tensor/test_seed.h"
#include "train/config/config_test_util.h"
#include "train/config/train_config.h"
#include "train/net/checkpoint.h"
#include "train/onnx/layer_exporters.h"
#include "train/onnx/onnx_runtime.h"

namespace umbra {
namespace train {
namespace {

using layers::Layer;
using layers::LayerTypeInfo;

// A net of one layer: `layers` between netconfig start and end; the inputs
// `in` (and in_1 when `second_input` is set) of one instance each.
struct ExportCase {
  std::string name;
  std::string layers;
  Shape<4> input;
  std::vector<int> second_input;
};

void PrintTo(const ExportCase& c, std::ostream* os) { *os << c.name; }

// A fixconn weight file of a 3 x 10 matrix, written once.
std::string FixConnWeightPath() {
  static const std::string path = [] {
    const std::string file = ::testing::TempDir() + "fixconn_3x10.txt";
    std::ofstream(file) << "3 10 4\n0 0 1.5\n1 9 -2\n2 4 0.25\n2 5 3\n";
    return file;
  }();
  return path;
}

std::vector<ExportCase> Cases() {
  const Shape<4> image = Shape4(1, 3, 5, 4);
  const Shape<4> row = Shape4(1, 1, 1, 10);
  std::vector<ExportCase> cases = {
      {"fixconn",
       "layer[in->out] = fixconn\n  nhidden = 3\n  fixconn_weight = \"" +
           FixConnWeightPath() + "\"\n",
       row},
      {"fullc", "layer[in->out] = fullc\n  nhidden = 5\n", Shape4(1, 1, 1, 12)},
      {"fullc_shared",
       "layer[in->h] = fullc:fc1\n  nhidden = 4\nlayer[h->out] = share[fc1]\n",
       Shape4(1, 1, 1, 4)},
      {"fullc_no_bias",
       "layer[in->out] = fullc\n  nhidden = 3\n  no_bias = 1\n", row},
      {"conv",
       "layer[in->out] = conv\n  nchannel = 4\n  kernel_size = 3\n  stride = "
       "2\n  pad = 1\n",
       Shape4(1, 3, 9, 8)},
      {"conv_grouped_dilated",
       "layer[in->out] = conv\n  nchannel = 6\n  ngroup = 2\n  kernel_height "
       "= 3\n  kernel_width = 2\n  dilate = 2\n  pad_y = 1\n  no_bias = 1\n",
       Shape4(1, 4, 9, 7)},
      {"lrn",
       "layer[in->out] = lrn\n  local_size = 3\n  alpha = 0.5\n  beta "
       "= 0.6\n  knorm = 1.5\n",
       Shape4(1, 6, 3, 3)},
      {"flatten", "layer[in->out] = flatten\n", image},
      {"dropout", "layer[in->out] = dropout\n  threshold = 0.4\n", image},
      {"split", "layer[in->a,b] = split\n", image},
      {"softmax", "layer[in->out] = softmax\n", row},
      {"multi_logistic", "layer[in->out] = multi_logistic\n", row},
      {"l2_loss", "layer[in->out] = l2_loss\n", row},
      {"lp_loss", "layer[in->out] = lp_loss\n  p = 3\n", row},
      {"concat",
       "layer[in,in_1->out] = concat\n",
       Shape4(1, 2, 3, 4),
       {2, 3, 5}},
      {"concat_rows", "layer[in,in_1->out] = concat\n", row, {1, 1, 3}},
      {"ch_concat", "layer[in,in_1->out] = ch_concat\n", image, {2, 5, 4}},
      {"eltwise_sum", "layer[in,in_1->out] = eltwise_sum\n", image, {3, 5, 4}},
      {"eltwise_sum_coeff",
       "layer[in,in_1->out] = eltwise_sum\n  coeff = 0.5,-2\n",
       row,
       {1, 1, 10}},
      {"elementwise_sum",
       "layer[in,in_1->out] = elementwise_sum\n",
       image,
       {3, 5, 4}},
      {"eltwise_prod",
       "layer[in,in_1->out] = eltwise_prod\n",
       image,
       {3, 5, 4}},
      {"eltwise_max", "layer[in,in_1->out] = eltwise_max\n", row, {1, 1, 10}},
      {"insanity_max_pooling",
       "layer[in->out] = insanity_max_pooling\n  kernel_size = 3\n  stride = "
       "2\n  keep = 0.5\n",
       Shape4(1, 2, 7, 6)},
  };
  // The pooling types: ceil-mode edge windows (padded, and clipped by an odd
  // size), and the whole plane.
  for (const std::string type : {"max_pooling", "avg_pooling", "sum_pooling"}) {
    cases.push_back({type,
                     absl::StrCat("layer[in->out] = ", type,
                                  "\n  kernel_size = 3\n  stride = 2\n  pad = "
                                  "1\n"),
                     Shape4(1, 2, 7, 6)});
    cases.push_back({type + "_clipped",
                     absl::StrCat("layer[in->out] = ", type,
                                  "\n  kernel_size = 2\n  stride = 2\n"),
                     Shape4(1, 2, 5, 5)});
    cases.push_back(
        {type + "_global",
         absl::StrCat("layer[in->out] = ", type, "\n  global_pool = 1\n"),
         image});
  }
  // Per-element and per-channel types, on images and on rows.
  for (const std::string type : {"relu", "sigmoid", "tanh", "softplus", "xelu",
                                 "rrelu", "prelu", "bias", "batch_norm"}) {
    cases.push_back(
        {type, absl::StrCat("layer[in->out] = ", type, "\n"), image});
    cases.push_back(
        {type + "_rows", absl::StrCat("layer[in->out] = ", type, "\n"), row});
  }
  return cases;
}

constexpr int kInstances = 100;

std::unique_ptr<Network> BuildNet(const ExportCase& c) {
  std::string text;
  std::vector<Shape<4>> inputs = {c.input};
  if (!c.second_input.empty()) {
    text = absl::StrCat("extra_data_num = 1\n");
    inputs.push_back(
        Shape4(1, c.second_input[0], c.second_input[1], c.second_input[2]));
  }
  absl::StrAppend(&text, "netconfig = start\n", c.layers, "netconfig = end\n");
  const TrainConfig config = ParseTrainConfigText(text, "net.conf");
  KeySchema schema;
  AddLayerTypes(&schema);
  schema.AddGlobalKeys({"extra_data_num"});
  ValidateTrainConfig(config, schema);
  for (Shape<4>& input : inputs) input[0] = kInstances;
  return std::make_unique<Network>(config, schema, inputs);
}

// Random weights (xelu's and rrelu's slopes are settings: their defaults),
// moving means and positive moving variances, so that no tensor the
// exporter writes goes untested.
void Randomize(Network* net, std::mt19937* engine) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (auto& weight : net->Weights()) {
    for (index_t i = 0; i < weight.data.size(0); ++i) {
      weight.data[i] = uniform(*engine);
    }
  }
  for (auto& state : net->States()) {
    for (index_t i = 0; i < state.data.size(0); ++i) {
      state.data[i] = state.tag == "moving_var"
                          ? 0.5f + std::abs(uniform(*engine))
                          : uniform(*engine);
    }
  }
}

class OnnxExportTest : public ::testing::TestWithParam<ExportCase> {};

TEST_P(OnnxExportTest, OnnxRuntimeComputesWhatTheNetComputes) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  const ExportCase& c = GetParam();
  std::unique_ptr<Network> net = BuildNet(c);
  Randomize(net.get(), &engine);
  std::map<std::string, testing::OnnxTensor> inputs;
  for (size_t k = 0; k < net->num_inputs(); ++k) {
    Tensor<cpu, 4, float> input = net->input(k);
    testing::OnnxTensor& fed = inputs[k == 0 ? "in" : absl::StrCat("in_", k)];
    fed.shape = {input.size(0), input.size(1), input.size(2), input.size(3)};
    for (index_t i = 0; i < input.shape_.Size(); ++i) {
      input.dptr_[i] = uniform(engine);
      fed.values.push_back(input.dptr_[i]);
    }
  }
  net->Forward(/*is_train=*/false);
  const Tensor<cpu, 2, float> expected = net->Output();

  const std::string dir = testing::NewTestDir("onnx_" + c.name);
  const std::string path = dir + "/model.onnx";
  WriteOnnxModel(ExportOnnx(net.get(), c.name), path);
  EXPECT_EQ(testing::OnnxCheckerProblem(path), "");
  const testing::OnnxTensor got = testing::RunOnnxRuntime(path, inputs, dir);

  ASSERT_EQ(got.shape.front(), kInstances);
  ASSERT_EQ(got.values.size(), expected.shape_.Size());
  float worst = 0.0f;
  for (index_t i = 0; i < expected.size(0); ++i) {
    for (index_t j = 0; j < expected.size(1); ++j) {
      const float want = expected[i][j];
      const float error = std::abs(got.values[i * expected.size(1) + j] - want);
      ASSERT_LE(error, 1e-5f * std::max(1.0f, std::abs(want)))
          << "instance " << i << ", output " << j << ": umbra " << want;
      worst = std::max(worst, error);
    }
  }
  RecordProperty("max_abs_error", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(EveryLayerType, OnnxExportTest,
                         ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ExportCase>& info) {
                           return info.param.name;
                         });

// A new layer type needs an exporter and a case above.
TEST(OnnxExportCoverageTest, EveryShippedLayerTypeHasAnExporterAndACase) {
  std::set<std::string> tested;
  for (const ExportCase& c : Cases()) {
    tested.insert(
        c.layers.substr(c.layers.find("= ") + 2,
                        c.layers.find('\n') - c.layers.find("= ") - 2));
  }
  for (const std::string& type : layers::LayerRegistry::List()) {
    if (type.rfind("test_", 0) == 0) continue;  // this test's own type
    EXPECT_NE(FindLayerExporter(type), nullptr) << type;
    EXPECT_EQ(tested.count(type), 1u) << type << " has no export case";
  }
}

// A type without an ONNX form (this test's own).
template <typename xpu, typename DType>
class OpaqueLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description = "out = in, with no ONNX form (tests only).";
    return info;
  }
  void Forward(bool is_train) override {
    Copy(this->out(0).data, this->in(0).data);
  }
  void Backprop(bool prop_grad) override {}

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    return in_shapes;
  }
};
UMBRA_REGISTER_LAYER("test_opaque", OpaqueLayer);

TEST(OnnxExportTest, RefusesALayerWithoutAnOnnxFormAtItsLine) {
  std::unique_ptr<Network> net = BuildNet(
      {"opaque", "layer[in->h] = relu\nlayer[h->out] = test_opaque:odd\n",
       Shape4(1, 1, 1, 4)});
  const std::string message =
      testing::ConfigErrorOf([&] { ExportOnnx(net.get(), "opaque"); });
  EXPECT_NE(message.find("net.conf:3"), std::string::npos) << message;
  EXPECT_NE(message.find("layer odd (test_opaque): cannot be exported to ONNX"),
            std::string::npos)
      << message;
}

// The graph's interface: inputs named as the config names them with a free
// batch, the output named after the last node; in-place writes keep one
// name per value.
TEST(OnnxExportTest, NamesInputsAndOutputAfterTheConfigsNodes) {
  std::unique_ptr<Network> net = BuildNet(
      {"names",
       "layer[in->h] = fullc:fc1\n  nhidden = 4\nlayer[h->h] = relu\n"
       "layer[h->prob] = fullc:fc2\n  nhidden = 3\nlayer[prob->prob] = "
       "softmax\n",
       Shape4(1, 1, 1, 6)});
  const onnx::ModelProto model = ExportOnnx(net.get(), "names");
  EXPECT_EQ(model.ir_version(), kOnnxIrVersion);
  EXPECT_EQ(model.opset_import(0).version(), kOnnxOpset);
  ASSERT_EQ(model.graph().input_size(), 1);
  const auto& input = model.graph().input(0);
  EXPECT_EQ(input.name(), "in");
  EXPECT_EQ(input.type().tensor_type().shape().dim(0).dim_param(), "batch");
  EXPECT_EQ(input.type().tensor_type().shape().dim(3).dim_value(), 6);
  ASSERT_EQ(model.graph().output_size(), 1);
  EXPECT_EQ(model.graph().output(0).name(), "prob");
  EXPECT_EQ(
      model.graph().output(0).type().tensor_type().shape().dim(1).dim_value(),
      3);
  std::set<std::string> values;
  for (const auto& node : model.graph().node()) {
    for (const std::string& output : node.output()) {
      EXPECT_TRUE(values.insert(output).second) << output << " written twice";
    }
  }
  EXPECT_EQ(values.count("h"), 1u);
  EXPECT_EQ(values.count("h@fc1"), 1u);
}

TEST(OnnxExportTest, StoresAWeightThatTwoLayersShareOnce) {
  std::unique_ptr<Network> net = BuildNet(
      {"shared",
       "layer[in->h] = fullc:fc1\n  nhidden = 4\nlayer[h->out] = share[fc1]\n",
       Shape4(1, 1, 1, 4)});
  const onnx::ModelProto model = ExportOnnx(net.get(), "shared");
  std::set<std::string> initializers;
  for (const auto& tensor : model.graph().initializer()) {
    initializers.insert(tensor.name());
  }
  EXPECT_EQ(initializers, (std::set<std::string>{"fc1.wmat", "fc1.bias"}));
}

TEST(OnnxExportTest, ReplacesAnExistingFileWholeAndNamesAPathItCannotWrite) {
  const std::string dir = testing::NewTestDir("onnx_write");
  std::unique_ptr<Network> net =
      BuildNet({"write", "layer[in->out] = relu\n", Shape4(1, 2, 1, 3)});
  const onnx::ModelProto model = ExportOnnx(net.get(), "write");
  const std::string path = dir + "/model.onnx";
  testing::WriteText(path, "an older file");
  WriteOnnxModel(model, path);
  onnx::ModelProto back;
  ASSERT_TRUE(back.ParseFromString(testing::ReadText(path)));
  EXPECT_EQ(back.graph().node(0).op_type(), "Relu");

  const std::string missing = dir + "/no/such/dir/model.onnx";
  try {
    WriteOnnxModel(model, missing);
    ADD_FAILURE() << "expected a FileWriteError";
  } catch (const FileWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
