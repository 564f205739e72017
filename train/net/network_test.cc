// Net building: shapes inferred from the input, the summary, and every
// building error located at the config line responsible.
#include "train/net/network.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/test_seed.h"
#include "train/config/config.h"

namespace umbra {
namespace train {
namespace {

using ::testing::HasSubstr;

const char kHeader[] = "netconfig = start\n";  // line 1

// The keys of every layer type: what a net's config is checked against.
KeySchema LayerSchema() {
  KeySchema schema;
  AddLayerTypes(&schema);
  return schema;
}

// Builds the net of `layers` (lines 2...), then `globals`, for `input`,
// allowing its tensors `memory_bytes` (as Network's constructor takes it).
std::unique_ptr<Network> Build(const std::string& layers,
                               const std::string& globals = "",
                               const Shape<4>& input = Shape4(10, 1, 1, 8),
                               int64_t memory_bytes = Network::kDeviceMemory) {
  const TrainConfig config = ParseTrainConfigText(
      std::string(kHeader) + layers + "netconfig = end\n" + globals,
      "net.conf");
  const KeySchema schema = LayerSchema();
  ValidateTrainConfig(config, schema);
  return std::make_unique<Network>(config, schema, std::vector<Shape<4>>{input},
                                   memory_bytes);
}

// Build's ConfigError message.
std::string BuildError(const std::string& layers,
                       const std::string& globals = "",
                       const Shape<4>& input = Shape4(10, 1, 1, 8),
                       int64_t memory_bytes = Network::kDeviceMemory) {
  try {
    Build(layers, globals, input, memory_bytes);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ConfigError for\n" << layers;
  return "";
}

TEST(NetworkTest, InfersShapesAndSummarises) {
  std::unique_ptr<Network> net = Build(
      "layer[in->h] = fullc:fc1\n"
      "  nhidden = 5\n"
      "layer[h->h] = relu\n"
      "layer[h->out] = fullc:fc2\n"
      "  nhidden = 3\n"
      "layer[out->out] = softmax\n");
  EXPECT_EQ(net->NumParameters(), 8 * 5 + 5 + 5 * 3 + 3);
  const std::string summary = net->Summary();
  EXPECT_NE(summary.find("fc1              fullc          (10,1,1,5)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("total parameters: 63"), std::string::npos) << summary;
  EXPECT_EQ(net->Output().shape_, Shape2(10, 3));
  net->InitWeights(1);
  net->input() = 0.5f;
  net->Forward(false);
  EXPECT_NEAR(net->Output()[0][0] + net->Output()[0][1] + net->Output()[0][2],
              1.0f, 1e-5f);
  EXPECT_EQ(net->NodeData(net->net_config().FindNode("h")).shape_,
            Shape4(10, 1, 1, 5));
}

TEST(NetworkTest, LayerThatCannotTakeItsInput) {
  // concat needs several inputs.
  EXPECT_EQ(BuildError("layer[in->a] = fullc:fc1\n"
                       "  nhidden = 4\n"
                       "layer[a->b] = softmax:sm\n"
                       "layer[b->c] = fullc:fc2\n"
                       "  nhidden = 0\n")
                .substr(0, 12),
            "net.conf:6: ");
}

TEST(NetworkTest, InPlaceShapeChange) {
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 4\n"
      "layer[a->a] = fullc:fc2\n"
      "  nhidden = 3\n");
  EXPECT_EQ(error.substr(0, 11), "net.conf:4:") << error;
  EXPECT_NE(error.find("changes its shape from (10,1,1,4) to (10,1,1,3)"),
            std::string::npos)
      << error;
}

TEST(NetworkTest, NodeReadByTwoLayers) {
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 4\n"
      "layer[a->b] = relu:r1\n"
      "layer[a->c] = sigmoid:s1\n");
  EXPECT_EQ(error.substr(0, 11), "net.conf:5:") << error;
  EXPECT_NE(error.find("split"), std::string::npos) << error;
}

// fc1 used twice, through share[fc1] (net a), and the same computation
// with two separate layers holding copies of fc1's weights (net b).
constexpr char kSharedNet[] =
    "layer[in->a] = fullc:fc1\n"
    "  nhidden = 8\n"
    "  init_sigma = 0.5\n"
    "layer[a->a] = tanh\n"
    "layer[a->b] = share[fc1]\n"
    "layer[b->b] = l2_loss\n";
constexpr char kTwoLayerNet[] =
    "layer[in->a] = fullc:fc1\n"
    "  nhidden = 8\n"
    "layer[a->a] = tanh\n"
    "layer[a->b] = fullc:fc2\n"
    "  nhidden = 8\n"
    "layer[b->b] = l2_loss\n";

TEST(NetworkTest, SharedLayerAccumulatesTheGradientsOfBothUses) {
  std::unique_ptr<Network> shared = Build(kSharedNet);
  std::unique_ptr<Network> twice = Build(kTwoLayerNet);
  // fc1's weights once; the sharing layer has no parameters of its own.
  EXPECT_EQ(shared->NumParameters(), 8 * 8 + 8);
  std::vector<layers::WeightRef<cpu, float>> weights = shared->Weights();
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_EQ(weights[0].name, "fc1.wmat");
  EXPECT_EQ(weights[1].name, "fc1.bias");
  const std::string summary = shared->Summary();
  EXPECT_NE(summary.find("share_2          share[fc1]     (10,1,1,8)       "
                         "               0\n"),
            std::string::npos)
      << summary;

  const test::ScopedTestSeed seed;
  shared->InitWeights(static_cast<int>(seed.value()));
  Random<cpu, float> rnd{static_cast<int>(seed.value() + 1)};
  rnd.SampleUniform(&weights[1].data, -0.5f, 0.5f);  // a non-zero bias
  std::vector<layers::WeightRef<cpu, float>> two = twice->Weights();
  ASSERT_EQ(two.size(), 4u);
  for (size_t i = 0; i < 4; ++i) Copy(two[i].data, weights[i % 2].data);

  Tensor<cpu, 4, float> input = shared->input();
  rnd.SampleUniform(&input, -1.0f, 1.0f);
  Copy(twice->input(), input);
  TensorContainer<cpu, 2, float> label(Shape2(10, 8));
  rnd.SampleUniform(&label, -1.0f, 1.0f);
  shared->SetLabel("label", label);
  twice->SetLabel("label", label);
  for (Network* net : {shared.get(), twice.get()}) {
    net->Forward(true);
    net->Backprop();
  }
  EXPECT_NEAR(shared->Loss(), twice->Loss(), 1e-5 * twice->Loss());
  for (size_t i = 0; i < 2; ++i) {
    const index_t n = weights[i].grad.size(0);
    double largest = 0;
    for (index_t j = 0; j < n; ++j) {
      const float sum = two[i].grad[j] + two[i + 2].grad[j];
      largest = std::max(largest, std::abs(double(sum)));
      EXPECT_NEAR(weights[i].grad[j], sum, 1e-5f)
          << weights[i].name << " " << j;
    }
    EXPECT_GT(largest, 1e-3) << "the gradient of " << weights[i].name
                             << " is all zero: the test checks nothing";
  }
  // A second pass starts from the updated weights, not from a stale copy.
  weights[0].data *= 0.5f;
  shared->Forward(false);
  two[0].data *= 0.5f;
  two[2].data *= 0.5f;
  twice->Forward(false);
  EXPECT_NEAR(shared->Loss(), twice->Loss(), 1e-5 * twice->Loss());
}

// Trains one batch of `sharing` and of `separate` (the same net, but for
// nodes that have memory of their own; both end in a 10 x 8 l2_loss) from
// the same weights, input and labels: the loss and every weight gradient
// must be the same, bit for bit.
void ExpectTheSameTraining(Network* sharing, Network* separate) {
  const test::ScopedTestSeed seed;
  sharing->InitWeights(static_cast<int>(seed.value()));
  std::vector<layers::WeightRef<cpu, float>> weights = sharing->Weights();
  std::vector<layers::WeightRef<cpu, float>> reference = separate->Weights();
  ASSERT_EQ(weights.size(), reference.size());
  for (size_t i = 0; i < weights.size(); ++i) {
    Copy(reference[i].data, weights[i].data);
  }
  Random<cpu, float> rnd{static_cast<int>(seed.value() + 1)};
  Tensor<cpu, 4, float> input = sharing->input();
  rnd.SampleUniform(&input, -1.0f, 1.0f);
  Copy(separate->input(), input);
  TensorContainer<cpu, 2, float> label(Shape2(10, 8));
  rnd.SampleUniform(&label, -1.0f, 1.0f);
  for (Network* net : {sharing, separate}) {
    net->SetLabel("label", label);
    net->Forward(true);
    net->Backprop();
  }
  EXPECT_EQ(sharing->Loss(), separate->Loss());
  for (size_t i = 0; i < weights.size(); ++i) {
    const index_t n = weights[i].grad.shape_.Size();
    const float* got = weights[i].grad.dptr_;
    const float* want = reference[i].grad.dptr_;
    double largest = 0;
    for (index_t j = 0; j < n; ++j) {
      largest = std::max(largest, std::abs(double(want[j])));
      ASSERT_EQ(got[j], want[j]) << weights[i].name << " " << j;
    }
    EXPECT_GT(largest, 1e-3) << "the gradient of " << weights[i].name
                             << " is all zero: the test checks nothing";
  }
}

// A residual block whose split outputs b and c: c is written in place
// (relu), so it needs memory of its own; b can share a's data, which tanh's
// backward still reads. The join's input d can share e's gradient; c
// cannot (relu's backward changes it after the join's). With
// `keep_copies`, b and d are written in place too, by dropouts that keep
// every element: no node shares another's data or gradient.
std::string SplitNet(bool keep_copies) {
  const std::string in_place_identity = "  threshold = 0\n";
  return std::string(
             "layer[in->a] = fullc:fc1\n"
             "  nhidden = 8\n"
             "layer[a->a] = tanh\n"
             "layer[a->b,c] = split\n"
             "layer[c->c] = relu\n") +
         (keep_copies ? "layer[b->b] = dropout\n" + in_place_identity : "") +
         "layer[b->d] = fullc:fc2\n"
         "  nhidden = 8\n" +
         (keep_copies ? "layer[d->d] = dropout\n" + in_place_identity : "") +
         "layer[d,c->e] = eltwise_sum\n"
         "layer[e->e] = l2_loss\n";
}

TEST(NetworkTest, CopiesShareMemoryUnlessWrittenInPlace) {
  std::unique_ptr<Network> sharing = Build(SplitNet(false));
  std::unique_ptr<Network> separate = Build(SplitNet(true));
  auto data_of = [](const Network& net, const char* node) {
    return net.NodeData(net.net_config().FindNode(node)).dptr_;
  };
  auto gradient_of = [](const Network& net, const char* node) {
    return net.NodeGradient(net.net_config().FindNode(node)).dptr_;
  };
  EXPECT_EQ(data_of(*sharing, "b"), data_of(*sharing, "a"));
  EXPECT_NE(data_of(*sharing, "c"), data_of(*sharing, "a"));
  EXPECT_NE(data_of(*separate, "b"), data_of(*separate, "a"));
  EXPECT_EQ(gradient_of(*sharing, "d"), gradient_of(*sharing, "e"));
  EXPECT_NE(gradient_of(*sharing, "c"), gradient_of(*sharing, "e"));
  EXPECT_NE(gradient_of(*separate, "d"), gradient_of(*separate, "e"));
  // Gradients are never shared with data, nor data with gradients.
  EXPECT_NE(gradient_of(*sharing, "b"), gradient_of(*sharing, "a"));
  // The memory count leaves out what is shared: b's data and d's gradient,
  // 10 x 8 floats each.
  EXPECT_EQ(sharing->tensor_bytes().activations,
            separate->tensor_bytes().activations -
                2 * 10 * 8 * int64_t{sizeof(float)});

  ExpectTheSameTraining(sharing.get(), separate.get());
}

// conv, flatten, fullc: flatten's output f can be conv's output a, seen as
// a matrix, and a can take f's gradient. With `keep_copies`, dropouts that
// keep every element write a and f in place: each has memory of its own.
std::string FlattenNet(bool keep_copies) {
  const std::string in_place_identity = "  threshold = 0\n";
  return std::string(
             "layer[in->a] = conv:conv1\n"
             "  kernel_size = 3\n"
             "  nchannel = 2\n") +
         (keep_copies ? "layer[a->a] = dropout\n" + in_place_identity : "") +
         "layer[a->f] = flatten\n" +
         (keep_copies ? "layer[f->f] = dropout\n" + in_place_identity : "") +
         "layer[f->o] = fullc:fc1\n"
         "  nhidden = 8\n"
         "layer[o->o] = l2_loss\n";
}

TEST(NetworkTest, FlattenSharesItsInputsMemoryAsAMatrix) {
  const Shape<4> image = Shape4(10, 1, 4, 4);
  std::unique_ptr<Network> sharing = Build(FlattenNet(false), "", image);
  std::unique_ptr<Network> separate = Build(FlattenNet(true), "", image);
  const int a = sharing->net_config().FindNode("a");
  const int f = sharing->net_config().FindNode("f");
  EXPECT_EQ(sharing->NodeData(f).dptr_, sharing->NodeData(a).dptr_);
  EXPECT_EQ(sharing->NodeGradient(a).dptr_, sharing->NodeGradient(f).dptr_);
  EXPECT_NE(separate->NodeData(f).dptr_, separate->NodeData(a).dptr_);
  EXPECT_NE(separate->NodeGradient(a).dptr_, separate->NodeGradient(f).dptr_);
  // Each node keeps its own shape.
  EXPECT_EQ(sharing->NodeData(a).shape_, Shape4(10, 2, 2, 2));
  EXPECT_EQ(sharing->NodeGradient(a).shape_, Shape4(10, 2, 2, 2));
  EXPECT_EQ(sharing->NodeData(f).shape_, Shape4(10, 1, 1, 8));
  EXPECT_EQ(sharing->NodeGradient(f).shape_, Shape4(10, 1, 1, 8));
  // The memory count leaves out f's data and a's gradient.
  EXPECT_EQ(sharing->tensor_bytes().activations,
            separate->tensor_bytes().activations -
                2 * 10 * 8 * int64_t{sizeof(float)});
  ExpectTheSameTraining(sharing.get(), separate.get());
}

// conv, batch_norm, relu, fullc. With the relu in place after batch_norm
// (`in_place`), batch_norm computes it and the net skips the relu layer;
// into a node of its own, the relu layer runs. `bn_settings` follow the
// batch_norm line.
std::string BatchNormReluNet(bool in_place, const std::string& bn_settings) {
  return "layer[in->a] = conv:conv1\n"
         "  kernel_size = 3\n"
         "  nchannel = 3\n"
         "  pad = 1\n"
         "  no_bias = 1\n"
         "  init_sigma = 1\n"  // outputs far from 0 for the moving averages
         "layer[a->a] = batch_norm:bn1\n" +
         bn_settings +
         (in_place ? "layer[a->a] = relu\nlayer[a->f] = flatten\n"
                   : "layer[a->r] = relu\nlayer[r->f] = flatten\n") +
         "layer[f->o] = fullc:fc1\n"
         "  nhidden = 8\n"
         "layer[o->o] = l2_loss\n";
}

// Builds `fused_net` (whose layer `relu` is an in-place relu that the layer
// before it computes) and `separate_net` (the same with the relu into a
// node of its own) for `image`, and checks that they train alike. Returns
// the fused net.
std::unique_ptr<Network> ExpectTheFusedReluTrainsAlike(
    const std::string& fused_net, const std::string& separate_net, size_t relu,
    const Shape<4>& image) {
  std::unique_ptr<Network> fused = Build(fused_net, "", image);
  std::unique_ptr<Network> separate = Build(separate_net, "", image);
  EXPECT_TRUE(fused->fused_into_previous(relu));
  EXPECT_FALSE(separate->fused_into_previous(relu));
  ExpectTheSameTraining(fused.get(), separate.get());
  return fused;
}

TEST(NetworkTest, BatchNormComputesTheInPlaceReluAfterIt) {
  // Planes of 5 x 5: whole packets and a tail.
  const Shape<4> image = Shape4(10, 2, 5, 5);
  // With the batch's statistics, and with the moving averages (whose
  // backward pass differs).
  for (const std::string bn_settings : {"", "  use_global_stats = 1\n"}) {
    SCOPED_TRACE(bn_settings);
    ExpectTheFusedReluTrainsAlike(BatchNormReluNet(true, bn_settings),
                                  BatchNormReluNet(false, bn_settings),
                                  /*relu=*/2, image);
  }
  // batch_norm of a matrix (after fullc) leaves its relu to the relu layer,
  // and so does a layer that cannot compute it (tanh).
  std::unique_ptr<Network> unfused = Build(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 8\n"
      "layer[a->a] = batch_norm:bn1\n"
      "layer[a->a] = relu\n"
      "layer[a->a] = tanh\n"
      "layer[a->a] = relu\n"
      "layer[a->a] = l2_loss\n");
  EXPECT_FALSE(unfused->fused_into_previous(2));
  EXPECT_FALSE(unfused->fused_into_previous(4));
}

// The relu that wrote node `node` of `net` zeroed part of it, and kept part.
void ExpectTheReluZeroedPartOf(Network* net, const std::string& node) {
  const Tensor<cpu, 4, float> out =
      net->NodeData(net->net_config().FindNode(node));
  const index_t size = out.shape_.Size();
  const index_t zeros = std::count(out.dptr_, out.dptr_ + size, 0.0f);
  EXPECT_GT(zeros, size / 10);
  EXPECT_LT(zeros, size - size / 10);
}

// fullc (`fc_settings` follow its line) and a relu, in place (fullc computes
// it, the net skips the relu layer) or into a node of its own, then fullc.
std::string FullcReluNet(bool in_place, const std::string& fc_settings) {
  return "layer[in->a] = fullc:fc1\n"
         "  init_sigma = 1\n"
         "  init_bias = 0.25\n" +  // the relu must come after the bias
         fc_settings +
         (in_place ? "layer[a->a] = relu\nlayer[a->o] = fullc:fc2\n"
                   : "layer[a->r] = relu\nlayer[r->o] = fullc:fc2\n") +
         "  nhidden = 8\n"
         "layer[o->o] = l2_loss\n";
}

TEST(NetworkTest, FullcComputesTheInPlaceReluAfterIt) {
  // 37 outputs: whole blocks of packets and a tail.
  for (const std::string fc_settings :
       {"  nhidden = 37\n", "  nhidden = 37\n  no_bias = 1\n"}) {
    SCOPED_TRACE(fc_settings);
    const std::unique_ptr<Network> fused = ExpectTheFusedReluTrainsAlike(
        FullcReluNet(true, fc_settings), FullcReluNet(false, fc_settings),
        /*relu=*/1, Shape4(10, 1, 1, 8));
    ExpectTheReluZeroedPartOf(fused.get(), "a");
  }
}

// conv and a relu, in place (`in_place`: conv computes it, the net skips
// the relu layer) or into a node of its own, then fullc. `conv_settings`
// follow the conv line.
std::string ConvReluNet(bool in_place, const std::string& conv_settings) {
  return "layer[in->a] = conv:conv1\n"
         "  nchannel = 3\n"
         "  init_sigma = 1\n"
         "  init_bias = 0.25\n" +  // the relu must come after the bias
         conv_settings +
         (in_place ? "layer[a->a] = relu\nlayer[a->f] = flatten\n"
                   : "layer[a->r] = relu\nlayer[r->f] = flatten\n") +
         "layer[f->o] = fullc:fc1\n"
         "  nhidden = 8\n"
         "layer[o->o] = l2_loss\n";
}

TEST(NetworkTest, ConvComputesTheInPlaceReluAfterIt) {
  // Two channels of 5 x 5 in: a 3 x 3 kernel makes 18 products per output
  // (im2col and matrix products), a 5 x 5 one 50 (the direct kernel).
  const Shape<4> image = Shape4(10, 2, 5, 5);
  for (const std::string conv_settings :
       {"  kernel_size = 3\n  pad = 1\n", "  kernel_size = 5\n  pad = 2\n",
        "  kernel_size = 5\n  pad = 2\n  no_bias = 1\n",
        "  kernel_size = 3\n  stride = 2\n"}) {
    SCOPED_TRACE(conv_settings);
    const std::unique_ptr<Network> fused = ExpectTheFusedReluTrainsAlike(
        ConvReluNet(true, conv_settings), ConvReluNet(false, conv_settings),
        /*relu=*/1, image);
    ExpectTheReluZeroedPartOf(fused.get(), "a");
  }
}

// A residual join: eltwise_sum of fc2's output d, the shortcut c and
// (with `three_inputs`) fc3's output e (of a third copy f), `sum_settings`
// following its line, and a relu, in place (eltwise_sum computes it, the net
// skips the relu layer) or into a node of its own, then fullc.
std::string ResidualReluNet(bool in_place, bool three_inputs,
                            const std::string& sum_settings) {
  // Weights large enough for gradients far from 0 through three fullcs.
  const std::string fc_settings = "  nhidden = 8\n  init_sigma = 1\n";
  return "layer[in->a] = fullc:fc1\n" + fc_settings +
         (three_inputs ? "layer[a->b,c,f] = split\n"
                         "layer[f->e] = fullc:fc3\n" +
                             fc_settings
                       : "layer[a->b,c] = split\n") +
         "layer[b->d] = fullc:fc2\n" + fc_settings +
         (three_inputs ? "layer[d,c,e->s] = eltwise_sum\n"
                       : "layer[d,c->s] = eltwise_sum\n") +
         sum_settings +
         (in_place ? "layer[s->s] = relu\nlayer[s->o] = fullc:fc4\n"
                   : "layer[s->r] = relu\nlayer[r->o] = fullc:fc4\n") +
         fc_settings + "layer[o->o] = l2_loss\n";
}

TEST(NetworkTest, EltwiseSumComputesTheInPlaceReluAfterIt) {
  // Two inputs (the shortcut c takes the sum's gradient: the relu's
  // gradient must reach it), two with coefficients (no input takes it),
  // three.
  for (const auto& [three_inputs, sum_settings] :
       std::vector<std::pair<bool, std::string>>{
           {false, ""}, {false, "  coeff = 0.5,-2\n"}, {true, ""}}) {
    SCOPED_TRACE(sum_settings + (three_inputs ? "three inputs" : ""));
    const std::unique_ptr<Network> fused = ExpectTheFusedReluTrainsAlike(
        ResidualReluNet(true, three_inputs, sum_settings),
        ResidualReluNet(false, three_inputs, sum_settings),
        /*relu=*/three_inputs ? 5 : 4, Shape4(10, 1, 1, 8));
    ExpectTheReluZeroedPartOf(fused.get(), "s");
  }
}

// cxxnet configs name prelu's slope and batch_norm's beta `bias` and
// batch_norm's gamma `wmat`: global tagged keys reach those weights through
// the aliases, and a layer's own setting (alias or canonical) overrides them.
TEST(NetworkTest, GlobalCxxnetWeightTagsReachPreluAndBatchNorm) {
  const TrainConfig config = ParseTrainConfigText(
      "bias:wd = 0\n"
      "wmat:lr = 0.5\n"
      "netconfig = start\n"
      "layer[in->h] = fullc:fc1\n"
      "  nhidden = 4\n"
      "layer[h->a] = prelu:act1\n"
      "layer[a->a] = batch_norm:bn1\n"
      "layer[a->b] = prelu:act2\n"
      "  slope:wd = 0.25\n"
      "netconfig = end\n",
      "net.conf");
  const KeySchema schema = LayerSchema();
  ValidateTrainConfig(config, schema);
  Network net(config, schema, {Shape4(10, 1, 1, 8)});
  std::map<std::string, const layers::WeightParam*> settings;
  for (const auto& weight : net.Weights()) {
    settings[weight.name] = weight.settings;
  }
  ASSERT_EQ(settings.size(), 6u);
  EXPECT_EQ(settings.at("fc1.bias")->wd.value_or(-1.0f), 0.0f);
  EXPECT_EQ(settings.at("fc1.wmat")->lr.value_or(-1.0f), 0.5f);
  EXPECT_EQ(settings.at("act1.slope")->wd.value_or(-1.0f), 0.0f);
  EXPECT_FALSE(settings.at("act1.slope")->lr.has_value());
  EXPECT_EQ(settings.at("bn1.beta")->wd.value_or(-1.0f), 0.0f);
  EXPECT_EQ(settings.at("bn1.gamma")->lr.value_or(-1.0f), 0.5f);
  EXPECT_FALSE(settings.at("bn1.gamma")->wd.has_value());
  EXPECT_EQ(settings.at("act2.slope")->wd.value_or(-1.0f), 0.25f);
}

TEST(NetworkTest, SharedLayerNeedsTheSameWeightShapes) {
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 4\n"
      "layer[a->b] = share[fc1]\n");
  EXPECT_EQ(error,
            "net.conf:4: layer share_1 (share[fc1]): shares the weights of "
            "layer fc1 (fullc) (line 2), but its input (10,1,1,4) needs "
            "weights of other shapes: wmat (4,4) here, (4,8) in fc1. A "
            "share[...] layer needs an input that gives the shared layer's "
            "weight shapes");
}

TEST(NetworkTest, ParserErrorsKeepTheirLines) {
  // Use before definition (which also rules out cycles) and a node written
  // twice are refused by the parser at the layer line.
  try {
    ParseTrainConfigText(std::string(kHeader) +
                             "layer[in->a] = relu\n"
                             "layer[b->c] = relu\n"
                             "netconfig = end\n",
                         "net.conf");
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.location().line, 3) << e.what();
  }
  try {
    ParseTrainConfigText(std::string(kHeader) +
                             "layer[in->a] = relu\n"
                             "layer[in->a] = sigmoid\n"
                             "netconfig = end\n",
                         "net.conf");
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.location().line, 3) << e.what();
  }
}

TEST(NetworkTest, BadValueIsReportedAtItsLine) {
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 4\n"
      "  init_sigma = -1\n");
  EXPECT_EQ(error.substr(0, 11), "net.conf:4:") << error;
  // Through an alias (eta for lr), globally and under a weight tag.
  EXPECT_EQ(BuildError("eta = abc\n"
                       "layer[in->a] = fullc:fc1\n"
                       "  nhidden = 4\n")
                .substr(0, 11),
            "net.conf:2:");
  EXPECT_EQ(BuildError("layer[in->a] = fullc:fc1\n"
                       "  nhidden = 4\n"
                       "  wmat:eta = -x\n"
                       "  bias:eta = 0.1\n")
                .substr(0, 11),
            "net.conf:4:");
}

// Issue 6/7: the memory check and the shape checks.

// What tools/check reports and the memory check compares: counted from the
// shapes, each node and weight once, gradients as large, as allocated.
TEST(NetworkTest, TensorBytesOfEveryNodeAndWeightOnce) {
  std::unique_ptr<Network> net = Build(
      "layer[in->h] = fullc:fc1\n"
      "  nhidden = 8\n"
      "layer[h->h] = relu\n"
      "layer[h->b] = batch_norm:bn\n"
      "layer[b->c] = share[fc1]\n"
      "layer[c->out] = fullc:fc2\n"
      "  nhidden = 3\n"
      "layer[out->out] = softmax\n");
  const NetTensorBytes& bytes = net->tensor_bytes();
  constexpr int64_t kFloat = sizeof(float);
  // Data and gradients.
  EXPECT_EQ(bytes.inputs, 2 * 10 * 8 * kFloat);
  // in, h, b, c, out; relu and softmax write in place.
  EXPECT_EQ(bytes.activations, 2 * 10 * (8 + 8 + 8 + 8 + 3) * kFloat);
  // fc1 once (share[fc1] has none of its own), bn's gamma and beta, fc2.
  EXPECT_EQ(bytes.weights, (8 * 8 + 8 + 2 * 8 + 3 * 8 + 3) * kFloat);
  EXPECT_EQ(bytes.weights, net->NumParameters() * kFloat);
  EXPECT_EQ(bytes.states, 2 * 8 * kFloat);  // bn's moving mean and variance
  ASSERT_EQ(bytes.layers.size(), 6u);
  EXPECT_EQ(bytes.layers[0].outputs, 2 * 10 * 8 * kFloat);
  EXPECT_EQ(bytes.layers[0].weights, (8 * 8 + 8) * kFloat);
  EXPECT_EQ(bytes.layers[1].outputs, 0);  // in place
  EXPECT_EQ(bytes.layers[3].weights, 0);  // shared
  EXPECT_EQ(bytes.total(),
            bytes.activations + 2 * bytes.weights + bytes.states);
  // What was then allocated: every node once, every weight once.
  int64_t allocated = 0;
  for (const char* node : {"in", "h", "b", "c", "out"}) {
    allocated +=
        2 *
        static_cast<int64_t>(
            net->NodeData(net->net_config().FindNode(node)).shape_.Size()) *
        kFloat;
  }
  for (const auto& weight : net->Weights()) {
    allocated += 2 * static_cast<int64_t>(weight.data.shape_.Size()) * kFloat;
  }
  for (const auto& state : net->States()) {
    allocated += static_cast<int64_t>(state.data.shape_.Size()) * kFloat;
  }
  EXPECT_EQ(bytes.total(), allocated);
}

// A layer too big for any batch size is blamed at its line, with what it
// needs and the setting to reduce.
TEST(NetworkTest, RefusesANetLargerThanTheMemoryAtTheLayer) {
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 100000\n"
      "layer[a->b] = fullc:fc2\n"
      "  nhidden = 2\n",
      "", Shape4(10, 1, 1, 8), 1 << 20);
  EXPECT_EQ(error.substr(0, 11), "net.conf:2:") << error;
  EXPECT_THAT(error, HasSubstr("layer fc1 (fullc): the net needs 16.02 MiB "
                               "for its nodes and weights (gradients "
                               "included) but it may take only 1.00 MiB; "
                               "this layer alone needs"));
  EXPECT_THAT(error, HasSubstr("for its output (10,1,1,100000)"));
  EXPECT_THAT(error, HasSubstr("for its weights wmat (100000,8), bias "
                               "(100000,)"));
  EXPECT_THAT(error, HasSubstr("reduce nhidden (100000); even batch_size 1 "
                               "would not fit"));
  // The limit is what the net needs: it builds.
  const TrainConfig config = ParseTrainConfigText(
      std::string(kHeader) + "layer[in->a] = fullc:fc1\n  nhidden = 4\n" +
          "netconfig = end\n",
      "net.conf");
  const KeySchema schema = LayerSchema();
  Network probe(config, schema, {Shape4(10, 1, 1, 8)}, 0);  // no limit
  Network exact(config, schema, {Shape4(10, 1, 1, 8)},
                probe.tensor_bytes().total());
  EXPECT_THAT(
      [&] {
        Network over(config, schema, {Shape4(10, 1, 1, 8)},
                     probe.tensor_bytes().total() - 1);
      },
      ::testing::Throws<ConfigError>());
}

// When the nodes take most of it and a smaller batch fits: batch_size's
// line, with the batch size that fits.
TEST(NetworkTest, RefusesABatchTooLargeForTheMemoryAtBatchSize) {
  // Per instance 2 * (8 + 16 + 2) floats = 208 B; weights and gradients
  // 2 * (8 * 16 + 16 + 16 * 2 + 2) floats = 1424 B.
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 16\n"
      "layer[a->b] = fullc:fc2\n"
      "  nhidden = 2\n",
      "batch_size = 1000\n", Shape4(1000, 1, 1, 8), 1424 + 208 * 100 + 207);
  EXPECT_EQ(error.substr(0, 11), "net.conf:7:") << error;
  EXPECT_THAT(error, HasSubstr("its nodes take 203.12 KiB at batch_size 1000 "
                               "(208 B per instance; the most for layer fc1 "
                               "(fullc) at net.conf:2, output (1000,1,1,16)); "
                               "reduce batch_size: at most 100 would fit"));
}

// With the device's own memory: a net no machine holds is refused before
// anything is allocated (this test would otherwise run out of memory).
TEST(NetworkTest, RefusesANetLargerThanThisMachine) {
  const int64_t memory = Network::DeviceMemory();
  ASSERT_GT(memory, 0);
  const std::string layers =
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 2000000000\n"  // wmat (2e9, 500): 8 TB with gradients
      "layer[a->b] = fullc:fc2\n"
      "  nhidden = 2\n";
  if (memory > (int64_t{8} << 40)) GTEST_SKIP() << "this machine is huge";
  const std::string error =
      BuildError(layers, "", Shape4(1, 1, 1, 500), Network::kDeviceMemory);
  EXPECT_EQ(error.substr(0, 11), "net.conf:2:") << error;
  EXPECT_THAT(error, HasSubstr("but this machine has "));
  EXPECT_THAT(error, HasSubstr(" of physical memory; this layer alone needs "));
  EXPECT_THAT(error, HasSubstr("wmat (2000000000,500)"));
  EXPECT_THAT(error, HasSubstr("reduce nhidden (2000000000)"));
}

// A shape that overflows is refused by the layer that makes it, not by the
// next one.
TEST(NetworkTest, ShapeOverflowIsBlamedOnTheLayerThatMakesIt) {
  const std::string error = BuildError(
      "layer[in->a] = conv:conv1\n"
      "  kernel_size = 1\n"
      "  nchannel = 2\n"
      "  pad = 2147483647\n"
      "layer[a->b] = flatten\n"
      "layer[b->c] = fullc:fc1\n"
      "  nhidden = 2\n",
      "", Shape4(8, 1, 2, 2), 0);
  EXPECT_EQ(error.substr(0, 11), "net.conf:2:") << error;
  EXPECT_THAT(error, HasSubstr("layer 'conv1' (conv): input shapes "
                               "[(8,1,2,2)] would make the output shape "
                               "(8,2,4294967296,4294967296)"));
  // An input batch that cannot be a tensor: at batch_size.
  const std::string input =
      BuildError("layer[in->a] = fullc:fc1\n  nhidden = 2\n",
                 "batch_size = 3\n", Shape4(2147483647, 1, 1, 1000000), 0);
  EXPECT_EQ(input.substr(0, 11), "net.conf:5:") << input;
  EXPECT_THAT(input, HasSubstr("input node 'in' would be "
                               "(2147483647,1,1,1000000) (batch_size, then "
                               "the input_shape): it has 2.15e+15 elements"));
}

// An allocation that fails all the same (here with the check off) names
// the layer it was for.
TEST(NetworkTest, FailedAllocationNamesTheLayer) {
  std::ifstream overcommit("/proc/sys/vm/overcommit_memory");
  int mode = 0;
  if (overcommit >> mode && mode == 1) {
    GTEST_SKIP() << "the kernel grants any allocation (overcommit 1)";
  }
  const std::string huge = "  nhidden = 1048576\n";
  // Its weight wmat (2^20, 2^20): 4 TiB.
  std::string error = BuildError("layer[in->a] = fullc:fc1\n" + huge, "",
                                 Shape4(1, 1, 1, 1048576), 0);
  EXPECT_EQ(error.substr(0, 11), "net.conf:2:") << error;
  EXPECT_THAT(error, HasSubstr("layer 'fc1' (fullc): cannot allocate weight "
                               "'wmat' (1048576,1048576) and its gradient "
                               "(8796093022208 bytes): out of memory"));
  // Its output (2^20, 1, 1, 2^20).
  error = BuildError("layer[in->a] = fullc:fc1\n" + huge, "",
                     Shape4(1048576, 1, 1, 1), 0);
  EXPECT_EQ(error.substr(0, 11), "net.conf:2:") << error;
  EXPECT_THAT(error, HasSubstr("layer fc1 (fullc): cannot allocate its output "
                               "(1048576,1,1,1048576) and its gradient (8.00 "
                               "TiB): out of memory"));
  // The input batch: at batch_size.
  error =
      BuildError("layer[in->a] = fullc:fc1\n  nhidden = 2\n",
                 "batch_size = 1048576\n", Shape4(1048576, 1, 1, 1048576), 0);
  EXPECT_EQ(error.substr(0, 11), "net.conf:5:") << error;
  EXPECT_THAT(error, HasSubstr("cannot allocate input node 'in' "
                               "(1048576,1,1,1048576) and its gradient (8.00 "
                               "TiB): out of memory; reduce batch_size"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
