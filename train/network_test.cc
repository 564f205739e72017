// Net building: shapes inferred from the input, the summary, and every
// building error located at the config line responsible.
#include "train/network.h"

#include <string>

#include "gtest/gtest.h"
#include "train/config.h"
#include "train/trainer_schema.h"

namespace umbra {
namespace train {
namespace {

const char kHeader[] = "netconfig = start\n";  // line 1

// Builds the net of `layers` (lines 2...) for input (10, 1, 1, 8).
std::unique_ptr<Network> Build(const std::string& layers) {
  const TrainConfig config = ParseTrainConfigText(
      std::string(kHeader) + layers + "netconfig = end\n", "net.conf");
  const KeySchema schema = MakeTrainerSchema();
  ValidateTrainConfig(config, schema);
  return std::make_unique<Network>(config, schema, Shape4(10, 1, 1, 8));
}

std::string BuildError(const std::string& layers) {
  try {
    Build(layers);
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
  EXPECT_EQ(net->NodeData("h").shape_, Shape4(10, 1, 1, 5));
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

TEST(NetworkTest, WeightSharingIsRefusedForNow) {
  const std::string error = BuildError(
      "layer[in->a] = fullc:fc1\n"
      "  nhidden = 8\n"
      "layer[a->b] = share[fc1]\n");
  EXPECT_EQ(error.substr(0, 11), "net.conf:4:") << error;
  EXPECT_NE(error.find("not supported"), std::string::npos) << error;
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
}

}  // namespace
}  // namespace train
}  // namespace umbra
