// Tests of the network description: every layer[...] form, node naming,
// layer names (explicit, automatic, shared) and each structural error with
// its exact file:line text.
#include "train/config/net_config.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "train/config/config_test_util.h"
#include "train/config/train_config.h"

namespace umbra {
namespace train {
namespace {

using testing::BuildError;

NetConfig Net(const std::string& layers) {
  return ParseTrainConfigText(
             "netconfig = start\n" + layers + "netconfig = end\n", "t.conf")
      .net;
}

// "name(type): in1,in2->out" for each layer, joined by " | ".
std::string Summary(const NetConfig& net) {
  std::vector<std::string> parts;
  for (const LayerDeclaration& layer : net.layers) {
    parts.push_back(layer.name + "(" + layer.type +
                    "): " + absl::StrJoin(net.NodeNames(layer.inputs), ",") +
                    "->" + absl::StrJoin(net.NodeNames(layer.outputs), ","));
  }
  return absl::StrJoin(parts, " | ");
}

// The error for a netconfig holding `layers` (line 1 is netconfig = start).
std::string NetError(const std::string& layers) {
  return BuildError("netconfig = start\n" + layers + "netconfig = end\n");
}

TEST(NetConfigTest, ArrowFormWithNumberedNodes) {
  const NetConfig net =
      Net("layer[0->1] = fullc:fc1\n"
          "layer[1->2] = sigmoid:se1\n"
          "layer[2->3] = fullc:fc2\n"
          "layer[3->3] = softmax\n");
  EXPECT_EQ(Summary(net),
            "fc1(fullc): in->1 | se1(sigmoid): 1->2 | fc2(fullc): 2->3 | "
            "softmax_3(softmax): 3->3");
  ASSERT_EQ(net.nodes.size(), 4u);
  EXPECT_EQ(net.nodes[1].producer, 0);
  EXPECT_EQ(net.nodes[kInputNode].producer, -1);
  EXPECT_EQ(net.FindNode("0"), kInputNode);
  EXPECT_EQ(net.FindNode("in"), kInputNode);
  EXPECT_EQ(net.FindNode("3"), 3);
  EXPECT_EQ(net.FindNode("nope"), -1);
  EXPECT_EQ(net.FindLayer("fc2"), 2);
  EXPECT_EQ(net.FindLayer("softmax_3"), 3);
  EXPECT_FALSE(net.layers[0].auto_named);
  EXPECT_TRUE(net.layers[3].auto_named);
  EXPECT_EQ(net.layers[2].declaration.location.line, 4);
  EXPECT_EQ(net.layers[2].declaration.ToString(), "layer[2->3] = fullc:fc2");
  EXPECT_EQ(net.layers[0].Describe(), "layer fc1 (fullc)");
}

TEST(NetConfigTest, NamedNodesAndTheInputName) {
  EXPECT_EQ(Summary(Net("layer[in->hidden] = fullc:fc1\n"
                        "layer[hidden->out] = fullc:fc2\n")),
            "fc1(fullc): in->hidden | fc2(fullc): hidden->out");
}

TEST(NetConfigTest, PlusOneAndPlusZeroFollowTheLastNode) {
  const NetConfig net =
      Net("layer[+1] = fullc:fc1\n"
          "layer[+0] = dropout\n"
          "layer[+1:feat] = relu\n"
          "layer[+1] = fullc\n"
          "layer[+0] = softmax\n");
  EXPECT_EQ(Summary(net),
            "fc1(fullc): in->!node-after-layer-0 | "
            "dropout_1(dropout): !node-after-layer-0->!node-after-layer-0 | "
            "relu_2(relu): !node-after-layer-0->feat | "
            "fullc_3(fullc): feat->!node-after-layer-3 | "
            "softmax_4(softmax): !node-after-layer-3->!node-after-layer-3");
  // cxxnet read layer[+N], N > 1, as layer[+1].
  EXPECT_EQ(Summary(Net("layer[+2] = fullc:fc1\nlayer[+00] = softmax\n")),
            "fc1(fullc): in->!node-after-layer-0 | "
            "softmax_1(softmax): !node-after-layer-0->!node-after-layer-0");
}

// cxxnet's relu_max_pooling is a relu into a node of its own, then the max
// pooling that keeps the line's name and settings.
TEST(NetConfigTest, ReluMaxPoolingIsAReluThenAMaxPooling) {
  const NetConfig net =
      Net("layer[+1:c] = conv:cv1\n"
          "layer[c->p] = relu_max_pooling:pool1\n"
          "  kernel_size = 3\n"
          "layer[+1] = flatten\n");
  EXPECT_EQ(Summary(net),
            "cv1(conv): in->c | relu_1(relu): c->!relu-of-layer-1 | "
            "pool1(max_pooling): !relu-of-layer-1->p | "
            "flatten_3(flatten): p->!node-after-layer-3");
  ASSERT_EQ(net.layers[2].settings.size(), 1u);
  EXPECT_EQ(net.layers[2].settings[0].key, "kernel_size");
  EXPECT_EQ(net.nodes[net.FindNode("p")].producer, 2);
  EXPECT_EQ(NetError("layer[0->0] = relu_max_pooling\n"),
            "t.conf:2: 'layer[0->0] = relu_max_pooling': relu_max_pooling "
            "reads one node and writes another (layer[a->b]): its output is "
            "smaller than its input");
}

TEST(NetConfigTest, MultiInputAndMultiOutput) {
  EXPECT_EQ(Summary(Net("layer[0->1,2] = split\n"
                        "layer[1->3] = fullc:a\n"
                        "layer[2->4] = fullc:b\n"
                        "layer[3,4->5] = concat\n"
                        "layer[+1] = softmax\n")),
            "split_0(split): in->1,2 | a(fullc): 1->3 | b(fullc): 2->4 | "
            "concat_3(concat): 3,4->5 | softmax_4(softmax): 5->!node-after-"
            "layer-4");
}

TEST(NetConfigTest, InPlaceMayRewriteAnyNodeItReads) {
  EXPECT_EQ(Summary(Net("layer[0->0] = dropout\n")),
            "dropout_0(dropout): in->in");
  EXPECT_EQ(Summary(Net("layer[0->1] = fullc:fc1\n"
                        "layer[1->1] = relu\n"
                        "layer[1->1] = dropout\n")),
            "fc1(fullc): in->1 | relu_1(relu): 1->1 | dropout_2(dropout): "
            "1->1");
}

TEST(NetConfigTest, ExtraInputs) {
  const TrainConfig config = ParseTrainConfigText(
      "extra_data_num = 2\nnetconfig = start\n"
      "layer[in,in_1,in_2->1] = concat\nnetconfig = end\n",
      "t.conf");
  EXPECT_EQ(Summary(config.net), "concat_0(concat): in,in_1,in_2->1");
  EXPECT_EQ(config.net.nodes[2].producer, -1);
  EXPECT_EQ(BuildError("netconfig = start\nlayer[in_1->1] = relu\n"
                       "netconfig = end\n"),
            "t.conf:2: 'layer[in_1->1] = relu': undefined node 'in_1': a "
            "layer reads only the input node 'in' (or '0') and nodes "
            "written by layers declared before it");
  EXPECT_EQ(BuildError("extra_data_num = two\n"),
            "t.conf:1: key 'extra_data_num': expected an int in [0, 1000], "
            "got 'two'");
  EXPECT_EQ(BuildError("netconfig = start\nlayer[0->1] = relu\n"
                       "netconfig = end\nextra_data_num = 1\n"),
            "t.conf:4: key 'extra_data_num' must come before the first layer "
            "line");
}

TEST(NetConfigTest, LayerSettingsInOrderWithTags) {
  const NetConfig net =
      Net("layer[0->1] = fullc:fc1\n"
          "  nhidden = 100\n"
          "  wmat:lr = 0.1\n"
          "  bias:wd = 0\n"
          "  nhidden = 200\n"
          "layer[1->2] = relu\n");
  ASSERT_EQ(net.layers[0].settings.size(), 4u);
  EXPECT_EQ(net.layers[0].settings[1].key, "wmat:lr");
  EXPECT_EQ(net.layers[0].settings[3].value, "200");
  EXPECT_EQ(net.layers[0].settings[3].location.line, 6);
  EXPECT_TRUE(net.layers[1].settings.empty());
}

TEST(NetConfigTest, ShareUsesAnEarlierNamedLayer) {
  const NetConfig net =
      Net("layer[0->1] = fullc:fc1\n"
          "  nhidden = 10\n"
          "layer[0->2] = share[fc1]\n"
          "layer[1,2->3] = concat\n");
  EXPECT_EQ(net.layers[1].type, "share");
  EXPECT_EQ(net.layers[1].shared_with, 0);
  EXPECT_EQ(net.layers[1].name, "share_1");
  EXPECT_EQ(net.layers[0].shared_with, -1);
}

// cxxnet's MNIST_RNN.conf writes share[fc1]:name; cxxnet ignored the name,
// umbra names the layer with it.
TEST(NetConfigTest, ANameAfterShareNamesTheSharedLayer) {
  const NetConfig net =
      Net("layer[0->1] = fullc:fc1\n"
          "  nhidden = 10\n"
          "layer[0->2] = share[fc1]:fc1_again\n"
          "layer[1,2->3] = concat\n");
  EXPECT_EQ(net.layers[1].shared_with, 0);
  EXPECT_EQ(net.layers[1].name, "fc1_again");
  EXPECT_FALSE(net.layers[1].auto_named);
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\n"
                     "layer[0->2] = share[fc1]:fc1\n"),
            "t.conf:3: 'layer[0->2] = share[fc1]:fc1': duplicate layer name "
            "'fc1': already used at line 2 ('layer[0->1] = fullc:fc1')");
}

TEST(NetConfigTest, AutomaticNamesAvoidExplicitOnes) {
  EXPECT_EQ(Summary(Net("layer[0->1] = relu\n"
                        "layer[1->2] = fullc:relu_0\n")),
            "relu_0_(relu): in->1 | relu_0(fullc): 1->2");
}

TEST(NetConfigTest, BadLayerKeys) {
  const std::string expected_forms =
      "expected layer[in->out], layer[a,b->c], layer[+1], layer[+1:node] or "
      "layer[+0]";
  EXPECT_EQ(NetError("layer[2-3] = fullc\n"),
            "t.conf:2: 'layer[2-3] = fullc': " + expected_forms);
  EXPECT_EQ(NetError("layer[0->1 = fullc\n"),
            "t.conf:2: 'layer[0->1 = fullc': expected a key of the form "
            "layer[...]");
  EXPECT_EQ(NetError("layer[+-1] = fullc\n"),
            "t.conf:2: 'layer[+-1] = fullc': expected layer[+1], "
            "layer[+1:node] or layer[+0]");
  EXPECT_EQ(NetError("layer[+0:x] = relu\n"),
            "t.conf:2: 'layer[+0:x] = relu': layer[+0] writes the last node "
            "in place and takes no node name; expected layer[+0] or "
            "layer[+1:node]");
  EXPECT_EQ(NetError("layer[0->] = relu\n"),
            "t.conf:2: 'layer[0->] = relu': empty node name; expected "
            "layer[in->out] with node names separated by ','");
  EXPECT_EQ(NetError("layer[0,->1] = relu\n"),
            "t.conf:2: 'layer[0,->1] = relu': empty node name; expected "
            "layer[in->out] with node names separated by ','");
  EXPECT_EQ(NetError("layer[0->a:b] = relu\n"),
            "t.conf:2: 'layer[0->a:b] = relu': bad node name 'a:b': a node "
            "name has none of , - > [ ] : !");
  EXPECT_EQ(NetError("layer[0->1,1] = split\n"),
            "t.conf:2: 'layer[0->1,1] = split': node '1' is written twice");
}

TEST(NetConfigTest, BadLayerValues) {
  EXPECT_EQ(NetError("layer[0->1] = :fc1\n"),
            "t.conf:2: 'layer[0->1] = :fc1': missing layer type; expected "
            "layer[...] = type or type:name");
  EXPECT_EQ(NetError("layer[0->1] = fullc:\n"),
            "t.conf:2: 'layer[0->1] = fullc:': bad layer name ''; expected "
            "type:name with a non-empty name without [ ] : ,");
  EXPECT_EQ(NetError("layer[0->1] = full[c]\n"),
            "t.conf:2: 'layer[0->1] = full[c]': bad layer type 'full[c]'; "
            "expected a type like fullc or conv");
}

TEST(NetConfigTest, UndefinedInputNode) {
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\n"
                     "layer[2->3] = fullc:fc2\n"),
            "t.conf:3: 'layer[2->3] = fullc:fc2': undefined node '2': a layer "
            "reads only the input node 'in' (or '0') and nodes written by "
            "layers declared before it");
}

TEST(NetConfigTest, NodeWrittenTwice) {
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\n"
                     "layer[0->1] = fullc:fc2\n"),
            "t.conf:3: 'layer[0->1] = fullc:fc2': node '1' is written twice: "
            "it is already written by the layer at line 2 ('layer[0->1] = "
            "fullc:fc1'); only a layer that reads a node may write it again "
            "(in place, like layer[3->3])");
  EXPECT_EQ(NetError("layer[0->1] = relu\nlayer[1->0] = relu\n"),
            "t.conf:3: 'layer[1->0] = relu': node '0' is written twice: it "
            "is an input of the network; only a layer that reads a node may "
            "write it again (in place, like layer[3->3])");
  EXPECT_EQ(NetError("layer[+1:h] = fullc:fc1\nlayer[in->h] = relu\n"),
            "t.conf:3: 'layer[in->h] = relu': node 'h' is written twice: it "
            "is already written by the layer at line 2 ('layer[+1:h] = "
            "fullc:fc1'); only a layer that reads a node may write it again "
            "(in place, like layer[3->3])");
}

TEST(NetConfigTest, Cycle) {
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\n"
                     "layer[1->2] = relu\n"
                     "layer[2->1] = fullc:back\n"),
            "t.conf:4: 'layer[2->1] = fullc:back': writing node '1' would "
            "make a cycle: it is already written by the layer at line 2 "
            "('layer[0->1] = fullc:fc1') and feeds this layer's input");
}

TEST(NetConfigTest, DuplicateLayerName) {
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\n"
                     "layer[1->2] = sigmoid:se1\n"
                     "layer[2->3] = fullc:fc1\n"),
            "t.conf:4: 'layer[2->3] = fullc:fc1': duplicate layer name "
            "'fc1': already used at line 2 ('layer[0->1] = fullc:fc1')");
}

TEST(NetConfigTest, PlusOneAfterSeveralOutputs) {
  EXPECT_EQ(NetError("layer[0->1,2] = split\nlayer[+1] = relu\n"),
            "t.conf:3: 'layer[+1] = relu': layer[+1] reads the last node, but "
            "the layer at line 2 ('layer[0->1,2] = split') writes 2 nodes; "
            "use layer[node->node] instead");
}

TEST(NetConfigTest, ShareErrors) {
  EXPECT_EQ(NetError("layer[0->1] = share[fc1]\n"),
            "t.conf:2: 'layer[0->1] = share[fc1]': share[fc1]: no layer named "
            "'fc1' is declared before this line");
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\nlayer[0->2] = share\n"),
            "t.conf:3: 'layer[0->2] = share': expected share[NAME], where "
            "NAME is an earlier layer's name");
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\nlayer[0->2] = share[fc1]:x,y\n"),
            "t.conf:3: 'layer[0->2] = share[fc1]:x,y': bad layer name 'x,y'; "
            "expected type:name with a non-empty name without [ ] : ,");
  EXPECT_EQ(NetError("layer[0->1] = fullc:fc1\nlayer[0->2] = share[fc1]\n"
                     "  nhidden = 10\n"),
            "t.conf:4: key 'nhidden' set on a share[fc1] layer (line 3); a "
            "shared layer takes its settings from layer 'fc1' (line 2): set "
            "it there");
}

}  // namespace
}  // namespace train
}  // namespace umbra
