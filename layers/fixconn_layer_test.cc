// fixconn: the product with the file's matrix, forwards and backwards, no
// weights; a file that does not fit the layer is named with what is wrong.
#include "layers/fixconn_layer.h"

#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layers/layer_error.h"
#include "layers/layer_registry.h"
#include "layers/standalone_layer.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

using ::testing::HasSubstr;

std::string WriteText(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(FixConnLayerTest, MultipliesByTheFilesMatrixAndTrainsNothing) {
  // W = [[2, 0, -1], [0, 0.5, 0]]; the last triple for (0, 0) wins.
  const std::string path =
      WriteText("w.txt", "2 3 4\n0 0 7\n1 1 0.5\n0 2 -1\n0 0 2\n");
  StandaloneLayer<cpu, double> net("fixconn",
                                   {{"nhidden", "2"}, {"fixconn_weight", path}},
                                   {Shape4(2, 1, 1, 3)});
  EXPECT_TRUE(net.layer().Weights().empty());
  const double in[2][3] = {{1, 2, 3}, {-1, 4, 0.5}};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) net.in(0).data[i][0][0][j] = in[i][j];
  }
  net.layer().Forward(true);
  for (int i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(net.out(0).data[i][0][0][0], 2 * in[i][0] - in[i][2]);
    EXPECT_DOUBLE_EQ(net.out(0).data[i][0][0][1], 0.5 * in[i][1]);
  }
  net.out(0).grad[0][0][0][0] = 1;
  net.out(0).grad[0][0][0][1] = 3;
  net.out(0).grad[1] = 0.0;
  net.layer().Backprop(true);
  EXPECT_DOUBLE_EQ(net.in(0).grad[0][0][0][0], 2);
  EXPECT_DOUBLE_EQ(net.in(0).grad[0][0][0][1], 1.5);
  EXPECT_DOUBLE_EQ(net.in(0).grad[0][0][0][2], -1);
}

TEST(FixConnLayerTest, AFileThatDoesNotFitIsNamed) {
  const auto error = [](const std::string& text) {
    const std::string path = WriteText("bad.txt", text);
    try {
      CreateLayer<cpu, float>("fixconn", "proj",
                              {{"nhidden", "2"}, {"fixconn_weight", path}})
          ->InferShapes({Shape4(1, 1, 1, 3)});
    } catch (const LayerError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_THAT(error("3 3 0\n"),
              HasSubstr("layer 'proj' (fixconn): key 'fixconn_weight': '"));
  EXPECT_THAT(error("3 3 0\n"),
              HasSubstr("holds a 3 x 3 matrix; the layer needs 2 x 3"));
  EXPECT_THAT(error("2 3 2\n0 0 1\n"), HasSubstr("entry 2 of 2 is not"));
  EXPECT_THAT(error("2 3 1\n2 0 1\n"),
              HasSubstr("entry 1 (2 0 1) is outside the 2 x 3 matrix"));
  EXPECT_THAT(error("2 3 1\n0 0 1\n1 1 1\n"),
              HasSubstr("holds more than the 1 entries"));
  EXPECT_THAT(error("two by three"), HasSubstr("expected the header"));
}

}  // namespace
}  // namespace layers
}  // namespace umbra
