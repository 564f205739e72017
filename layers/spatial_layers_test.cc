// conv, the pooling layers, lrn and batch_norm against naive nested loops
// written here; their kernels against the tensor extensions; their
// parameter and shape errors; batch_norm's states.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layers/conv_layer.h"
#include "layers/layer.h"
#include "layers/layer_registry.h"
#include "layers/spatial_ops.h"
#include "layers/standalone_layer.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace {

using ::testing::HasSubstr;
using Net = StandaloneLayer<cpu, double>;

template <typename Fn>
std::string ErrorOf(Fn fn) {
  try {
    fn();
  } catch (const LayerError& e) {
    return e.what();
  }
  return "(no error)";
}

template <int dim, typename DType>
void FillRandom(Tensor<cpu, dim, DType> t, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t i = 0; i < t.shape_.Size(); ++i)
    t.dptr_[i] = DType(dist(engine));
}

// Element (n, c, y, x) of a contiguous node tensor.
double At(const Tensor<cpu, 4, double>& t, index_t n, index_t c, index_t y,
          index_t x) {
  return t.dptr_[((n * t.size(1) + c) * t.size(2) + y) * t.size(3) + x];
}

void ExpectNear(const Tensor<cpu, 4, double>& got,
                const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(size_t(got.shape_.Size()), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got.dptr_[i], want[i], 1e-10 * (1 + std::fabs(want[i])))
        << what << " element " << i;
  }
}

// ---------------------------------------------------------------- conv

struct ConvCase {
  ParamKwargs kwargs;
  Shape<4> input;
  // Expected output shape.
  Shape<4> output;
};

std::vector<double> NaiveConv(const Tensor<cpu, 4, double>& in,
                              const Tensor<cpu, 1, double>& wmat,
                              const double* bias, index_t nchannel, index_t kh,
                              index_t kw, index_t stride, index_t pad_y,
                              index_t pad_x, index_t dilate, index_t ngroup,
                              index_t oh, index_t ow) {
  const index_t batch = in.size(0), channels = in.size(1);
  const index_t in_per_group = channels / ngroup;
  const index_t out_per_group = nchannel / ngroup;
  std::vector<double> out;
  for (index_t n = 0; n < batch; ++n) {
    for (index_t k = 0; k < nchannel; ++k) {
      const index_t group = k / out_per_group;
      for (index_t oy = 0; oy < oh; ++oy) {
        for (index_t ox = 0; ox < ow; ++ox) {
          double sum = bias == nullptr ? 0.0 : bias[k];
          for (index_t ci = 0; ci < in_per_group; ++ci) {
            const index_t c = group * in_per_group + ci;
            for (index_t i = 0; i < kh; ++i) {
              for (index_t j = 0; j < kw; ++j) {
                const index_t y = oy * stride - pad_y + i * dilate;
                const index_t x = ox * stride - pad_x + j * dilate;
                if (y < 0 || y >= in.size(2) || x < 0 || x >= in.size(3)) {
                  continue;
                }
                sum += wmat[((k * in_per_group + ci) * kh + i) * kw + j] *
                       At(in, n, c, y, x);
              }
            }
          }
          out.push_back(sum);
        }
      }
    }
  }
  return out;
}

TEST(ConvLayerTest, ForwardMatchesNaive) {
  struct Geometry {
    index_t nchannel, kh, kw, stride, pad_y, pad_x, dilate, ngroup;
    bool no_bias;
    Shape<4> input, output;
  };
  const std::vector<Geometry> cases = {
      {4, 3, 3, 1, 0, 0, 1, 1, false, Shape4(2, 3, 7, 6), Shape4(2, 4, 5, 4)},
      {3, 5, 5, 1, 2, 2, 1, 1, false, Shape4(3, 1, 9, 8), Shape4(3, 3, 9, 8)},
      {4, 3, 2, 2, 1, 0, 1, 2, true, Shape4(2, 6, 7, 5), Shape4(2, 4, 4, 2)},
      {2, 3, 3, 1, 2, 2, 2, 1, false, Shape4(1, 2, 6, 7), Shape4(1, 2, 6, 7)},
      {6, 1, 1, 3, 0, 1, 1, 3, false, Shape4(2, 3, 4, 4), Shape4(2, 6, 2, 2)},
  };
  for (const Geometry& g : cases) {
    for (const char* cap : {"64", "0"}) {  // all threads; one image
      ParamKwargs kwargs = {{"nchannel", std::to_string(g.nchannel)},
                            {"kernel_height", std::to_string(g.kh)},
                            {"kernel_width", std::to_string(g.kw)},
                            {"stride", std::to_string(g.stride)},
                            {"pad_y", std::to_string(g.pad_y)},
                            {"pad_x", std::to_string(g.pad_x)},
                            {"dilate", std::to_string(g.dilate)},
                            {"ngroup", std::to_string(g.ngroup)},
                            {"no_bias", g.no_bias ? "1" : "0"},
                            {"init_sigma", "0.5"},
                            {"init_bias", "0.3"},
                            {"temp_col_max", cap}};
      Net net("conv", kwargs, {g.input});
      const std::string what = "conv " + std::to_string(g.nchannel) + " " +
                               std::to_string(g.kh) + "x" +
                               std::to_string(g.kw) + " cap " + cap;
      ASSERT_EQ(net.out(0).data.shape_, g.output) << what;
      FillRandom(net.in(0).data, 7);
      net.layer().Forward(true);
      std::vector<WeightRef<cpu, double>> w = net.layer().Weights();
      ASSERT_EQ(w.size(), g.no_bias ? 1u : 2u);
      EXPECT_EQ(w[0].name, "conv0.wmat");
      EXPECT_EQ(w[0].shape,
                TShape({g.nchannel, g.input[1] / g.ngroup, g.kh, g.kw}));
      ExpectNear(net.out(0).data,
                 NaiveConv(net.in(0).data, w[0].data,
                           g.no_bias ? nullptr : w[1].data.dptr_, g.nchannel,
                           g.kh, g.kw, g.stride, g.pad_y, g.pad_x, g.dilate,
                           g.ngroup, g.output[2], g.output[3]),
                 what);
    }
  }
}

// Images computed one at a time and several at once (their weight gradients
// summed at the end; the whole batch's patch matrices kept from the training
// Forward for Backprop) agree in every output and gradient, step after step
// with an evaluation between.
TEST(ConvLayerTest, ParallelImagesGiveTheSameResults) {
  const ParamKwargs base = {{"nchannel", "4"}, {"kernel_size", "3"},
                            {"pad", "1"},      {"ngroup", "2"},
                            {"stride", "2"},   {"init_sigma", "0.5"}};
  ParamKwargs small = base;
  small.push_back({"temp_col_max", "0"});  // one image at a time
  const Shape<4> input = Shape4(5, 2, 6, 6);
  SetNumThreads(3);
  Net whole("conv", base, {input}, 1, false, 3);
  Net serial("conv", small, {input}, 1, false, 3);
  SetNumThreads(0);
  auto parallel_images = [](Net& net) {
    auto* layer = dynamic_cast<ConvolutionLayer<cpu, double>*>(&net.layer());
    return layer == nullptr ? index_t(0) : layer->parallel_images();
  };
  EXPECT_EQ(parallel_images(whole), 3);
  EXPECT_EQ(parallel_images(serial), 1);
  auto same = [](const auto& a, const auto& b, const char* what) {
    for (index_t i = 0; i < a.shape_.Size(); ++i) {
      ASSERT_NEAR(a.dptr_[i], b.dptr_[i], 1e-12) << what << " " << i;
    }
  };
  for (int step = 0; step < 2; ++step) {
    for (Net* net : {&whole, &serial}) {
      FillRandom(net->in(0).data, 11 + 10 * step);
      FillRandom(net->out(0).grad, 12 + 10 * step);
      net->layer().ZeroGradients();
      net->layer().Forward(true);
      net->layer().Backprop(true);
      FillRandom(net->in(0).data, 13 + 10 * step);
      net->layer().Forward(false);  // an evaluation between steps
    }
    same(whole.out(0).data, serial.out(0).data, "out");
    same(whole.in(0).grad, serial.in(0).grad, "in grad");
    for (size_t w = 0; w < 2; ++w) {
      same(whole.layer().Weights()[w].grad, serial.layer().Weights()[w].grad,
           "weight grad");
    }
  }
}

// temp_col_max counts units of 2^18 elements (cxxnet's `atoi(val) << 18`);
// the images in flight are bounded by it, the threads and the batch, and
// are at least one.
TEST(ConvLayerTest, ParallelImagesFromTheBudget) {
  const index_t unit = index_t(1) << 18;  // 1 MiB of float
  // A patch matrix larger than the budget: one image.
  EXPECT_EQ(ConvParallelImages(1, 600000, 64, 2), 1);
  // 1 MiB holds two matrices of 100k elements: bounded by the budget...
  EXPECT_EQ(ConvParallelImages(1, 100000, 64, 2), 2);
  EXPECT_EQ(ConvParallelImages(1, 100000, 64, 8), 2);
  EXPECT_EQ(ConvParallelImages(1, unit / 3, 64, 8), 3);
  EXPECT_EQ(ConvParallelImages(1, unit / 3 + 1, 64, 8), 2);
  // ...by the threads, and by the batch.
  EXPECT_EQ(ConvParallelImages(64, 100000, 64, 8), 8);
  EXPECT_EQ(ConvParallelImages(64, 100000, 3, 8), 3);
  // LeNet's conv2 at the default: (32 * 5 * 5) x (14 * 14) per image.
  EXPECT_EQ(ConvParallelImages(64, 800 * 196, 64, 16), 16);
  EXPECT_EQ(ConvParallelImages(1, 800 * 196, 64, 16), 1);
  // 0, or a budget below one image: one image at a time.
  EXPECT_EQ(ConvParallelImages(0, 1, 64, 8), 1);
  EXPECT_EQ(ConvParallelImages(0, 100000, 64, 8), 1);
  // The largest key value does not overflow.
  EXPECT_EQ(ConvParallelImages(std::numeric_limits<int>::max(), 1, 64, 8), 8);
}

// The layer reads temp_col_max in units of 2^18 elements: with a patch
// matrix of 144 x 4096 = 589824 elements (2.25 units), 2 units hold one
// image, 5 units two, and 0 one.
TEST(ConvLayerTest, TempColMaxIsInUnitsOf2To18Elements) {
  const ParamKwargs base = {
      {"nchannel", "2"}, {"kernel_size", "3"}, {"pad", "1"}};
  const Shape<4> input = Shape4(4, 16, 64, 64);
  SetNumThreads(4);
  auto parallel_images = [&](const char* temp_col_max) {
    ParamKwargs kwargs = base;
    kwargs.push_back({"temp_col_max", temp_col_max});
    Net net("conv", kwargs, {input});
    auto* layer = dynamic_cast<ConvolutionLayer<cpu, double>*>(&net.layer());
    return layer == nullptr ? index_t(0) : layer->parallel_images();
  };
  EXPECT_EQ(parallel_images("0"), 1);
  EXPECT_EQ(parallel_images("2"), 1);
  EXPECT_EQ(parallel_images("5"), 2);
  EXPECT_EQ(parallel_images("64"), 4);
  SetNumThreads(0);
}

// Backprop(false) leaves the input gradient alone; weight gradients add up.
TEST(ConvLayerTest, BackpropWithoutInputGradientAndAccumulation) {
  const ParamKwargs kwargs = {{"nchannel", "3"},
                              {"kernel_size", "3"},
                              {"pad", "1"},
                              {"init_sigma", "0.5"}};
  Net net("conv", kwargs, {Shape4(2, 2, 4, 5)});
  FillRandom(net.in(0).data, 1);
  FillRandom(net.out(0).grad, 2);
  net.layer().Forward(true);
  net.layer().Backprop(true);
  std::vector<double> once(net.layer().Weights()[0].grad.dptr_,
                           net.layer().Weights()[0].grad.dptr_ + 54);
  net.in(0).grad = 7.0;
  net.layer().Backprop(false);
  for (index_t i = 0; i < net.in(0).grad.shape_.Size(); ++i) {
    ASSERT_EQ(net.in(0).grad.dptr_[i], 7.0);
  }
  for (size_t i = 0; i < once.size(); ++i) {
    ASSERT_NEAR(net.layer().Weights()[0].grad[i], 2 * once[i], 1e-12);
  }
}

// A walk of the patch matrix: kernel, stride, padding and dilation.
struct Walk {
  index_t kernel_y, kernel_x, stride_y, stride_x, pad_y, pad_x, dilate_y,
      dilate_x;
};

// Im2Col and Col2Im of `walk` against unpack_patch2col(pad(...)) and
// crop(pack_col2patch(...)) for 3 images of 2 channels, height x width.
template <typename DType>
void CheckWalk(const Walk& w, index_t height, index_t width) {
  ConvGeometry g;
  g.channels = 2;
  g.height = height;
  g.width = width;
  g.kernel_y = w.kernel_y;
  g.kernel_x = w.kernel_x;
  g.stride_y = w.stride_y;
  g.stride_x = w.stride_x;
  g.pad_y = w.pad_y;
  g.pad_x = w.pad_x;
  g.dilate_y = w.dilate_y;
  g.dilate_x = w.dilate_x;
  const index_t padded_h = height + 2 * w.pad_y, padded_w = width + 2 * w.pad_x;
  g.out_height =
      (padded_h - (w.dilate_y * (w.kernel_y - 1) + 1)) / w.stride_y + 1;
  g.out_width =
      (padded_w - (w.dilate_x * (w.kernel_x - 1) + 1)) / w.stride_x + 1;
  SCOPED_TRACE(::testing::Message()
               << "image " << height << "x" << width << " kernel " << w.kernel_y
               << "x" << w.kernel_x << " stride " << w.stride_y << "x"
               << w.stride_x << " output " << g.out_height << "x"
               << g.out_width);
  const Shape<4> shape = Shape4(3, 2, height, width);
  TensorContainer<cpu, 4, DType> img(shape, DType(0), false);
  FillRandom(img.view(), 5);
  TensorContainer<cpu, 2, DType> col(Shape2(g.PatchSize(), 3 * g.OutPixels()),
                                     DType(0), false);
  TensorContainer<cpu, 2, DType> want(col.shape_, DType(0), false);
  col = DType(7);  // Im2Col must write every element.
  Im2Col(g, img.view(), col.view());
  want = unpack_patch2col(pad(img.view(), w.pad_y, w.pad_x), w.kernel_y,
                          w.kernel_x, w.stride_y, w.stride_x, w.dilate_y,
                          w.dilate_x);
  for (index_t i = 0; i < col.shape_.Size(); ++i) {
    ASSERT_EQ(col.dptr_[i], want.dptr_[i]) << i;
  }
  TensorContainer<cpu, 4, DType> back(shape, DType(0), false);
  TensorContainer<cpu, 4, DType> back_want(shape, DType(0), false);
  // Any values, the padding's entries too: those reach no pixel.
  FillRandom(col.view(), 6);
  back_want = crop(pack_col2patch(col.view(), Shape4(3, 2, padded_h, padded_w),
                                  w.kernel_y, w.kernel_x, w.stride_y,
                                  w.stride_x, w.dilate_y, w.dilate_x),
                   Shape2(height, width), w.pad_y, w.pad_x);
  back = DType(7);  // Col2Im must write every pixel.
  Col2Im(g, col.view(), back.view());
  const double tolerance = sizeof(DType) == 4 ? 1e-5 : 1e-12;
  for (index_t i = 0; i < back.shape_.Size(); ++i) {
    ASSERT_NEAR(back.dptr_[i], back_want.dptr_[i], tolerance) << i;
  }
}

TEST(ConvLayerTest, Im2ColMatchesTheTensorExtension) {
  // Strided and dilated; then "same" walks (stride 1, output as wide as the
  // input), which Im2Col copies as shifted planes.
  for (const Walk& w :
       {Walk{3, 2, 2, 3, 1, 2, 2, 1}, Walk{3, 5, 1, 1, 1, 2, 1, 1},
        Walk{2, 3, 1, 1, 0, 2, 2, 2}}) {
    CheckWalk<double>(w, 5, 7);
  }
}

// Float rows of stride 2 go in vectors of 8 and 4 outputs, then one by one:
// rows of 19, 15, 8, 7 and 3 outputs, each blocking differently.
TEST(ConvLayerTest, Im2ColOfStride2FloatRowsMatchesTheTensorExtension) {
  for (index_t width : {37, 30, 16, 13, 6}) {
    for (const Walk& w :
         {Walk{3, 3, 2, 2, 1, 1, 1, 1}, Walk{1, 1, 2, 2, 0, 0, 1, 1},
          Walk{3, 3, 1, 2, 0, 0, 1, 1}}) {
      CheckWalk<float>(w, 9, width);
    }
  }
}

TEST(ConvLayerTest, BadParametersNameLayerAndKey) {
  auto create = [](const ParamKwargs& kwargs) {
    return ErrorOf([&] { CreateLayer<cpu, float>("conv", "conv1", kwargs); });
  };
  std::string e = create({{"nchannel", "0"}, {"kernel_size", "3"}});
  EXPECT_THAT(e, HasSubstr("layer 'conv1' (conv)"));
  EXPECT_THAT(e, HasSubstr("'nchannel'"));
  e = create({{"nchannel", "4"}});
  EXPECT_THAT(e, HasSubstr("layer 'conv1' (conv)"));
  EXPECT_THAT(e, HasSubstr("'kernel_size'"));
  e = create({{"nchannel", "3"}, {"kernel_size", "3"}, {"ngroup", "2"}});
  EXPECT_THAT(e, HasSubstr("'nchannel' (3) must be a multiple of 'ngroup'"));
  e = create({{"nchannel", "4"}, {"kernel_size", "3"}, {"temp_col_max", "-1"}});
  EXPECT_THAT(e, HasSubstr("layer 'conv1' (conv)"));
  EXPECT_THAT(e, HasSubstr("'temp_col_max'"));

  auto infer = [](const ParamKwargs& kwargs, const Shape<4>& in) {
    return ErrorOf([&] {
      CreateLayer<cpu, float>("conv", "conv1", kwargs)->InferShapes({in});
    });
  };
  e = infer({{"nchannel", "4"}, {"kernel_size", "7"}, {"pad", "1"}},
            Shape4(2, 3, 4, 4));
  EXPECT_THAT(e, HasSubstr("layer 'conv1' (conv)"));
  EXPECT_THAT(e, HasSubstr("[(2,3,4,4)]"));
  EXPECT_THAT(e, HasSubstr("'kernel_size' 7x7"));
  EXPECT_THAT(e, HasSubstr("(6, 6)"));
  e = infer({{"nchannel", "4"}, {"kernel_size", "3"}, {"dilate", "3"}},
            Shape4(2, 3, 6, 6));
  EXPECT_THAT(e, HasSubstr("'dilate' 3: spans 7x7"));
  e = infer({{"nchannel", "4"}, {"kernel_size", "1"}, {"ngroup", "2"}},
            Shape4(2, 3, 4, 4));
  EXPECT_THAT(e, HasSubstr("layer 'conv1' (conv)"));
  EXPECT_THAT(e, HasSubstr("input channels (3) divisible by 'ngroup' (2)"));
  EXPECT_EQ(infer({{"nchannel", "4"}, {"kernel_size", "6"}, {"pad", "1"}},
                  Shape4(2, 3, 4, 4)),
            "(no error)");
}

// ---------------------------------------------------------------- pooling

// Output size written independently: ceil((in + 2 pad - k) / s) + 1, then
// drop a last window that starts in the padding.
index_t NaivePooledSize(index_t in, index_t k, index_t s, index_t pad) {
  index_t out = (in + 2 * pad - k + s - 1) / s + 1;
  while (out > 1 && (out - 1) * s >= in + pad) --out;
  return out;
}

std::vector<double> NaivePool(const std::string& type,
                              const Tensor<cpu, 4, double>& in, index_t kh,
                              index_t kw, index_t s, index_t py, index_t px,
                              index_t oh, index_t ow) {
  std::vector<double> out;
  for (index_t n = 0; n < in.size(0); ++n) {
    for (index_t c = 0; c < in.size(1); ++c) {
      for (index_t oy = 0; oy < oh; ++oy) {
        for (index_t ox = 0; ox < ow; ++ox) {
          double max = -std::numeric_limits<double>::infinity(), sum = 0;
          for (index_t i = 0; i < kh; ++i) {
            for (index_t j = 0; j < kw; ++j) {
              const index_t y = oy * s - py + i, x = ox * s - px + j;
              if (y < 0 || y >= in.size(2) || x < 0 || x >= in.size(3)) {
                continue;
              }
              max = std::max(max, At(in, n, c, y, x));
              sum += At(in, n, c, y, x);
            }
          }
          if (type == "max_pooling") out.push_back(max);
          if (type == "sum_pooling") out.push_back(sum);
          if (type == "avg_pooling") out.push_back(sum / double(kh * kw));
        }
      }
    }
  }
  return out;
}

TEST(PoolingLayerTest, ForwardMatchesNaiveAndTheTensorExtension) {
  struct Window {
    index_t kh, kw, stride, pad;
    Shape<4> input;
  };
  const std::vector<Window> windows = {
      {2, 2, 2, 0, Shape4(2, 3, 8, 8)}, {3, 3, 2, 0, Shape4(1, 2, 7, 6)},
      {3, 3, 2, 1, Shape4(2, 2, 5, 6)}, {2, 3, 1, 0, Shape4(1, 1, 4, 5)},
      {3, 3, 3, 2, Shape4(1, 2, 7, 5)}, {2, 2, 2, 0, Shape4(1, 1, 5, 5)},
  };
  for (const char* type : {"max_pooling", "avg_pooling", "sum_pooling"}) {
    for (const Window& w : windows) {
      ParamKwargs kwargs = {{"kernel_height", std::to_string(w.kh)},
                            {"kernel_width", std::to_string(w.kw)},
                            {"stride", std::to_string(w.stride)},
                            {"pad", std::to_string(w.pad)}};
      Net net(type, kwargs, {w.input});
      const index_t oh = NaivePooledSize(w.input[2], w.kh, w.stride, w.pad);
      const index_t ow = NaivePooledSize(w.input[3], w.kw, w.stride, w.pad);
      const std::string what = std::string(type) + " " + std::to_string(w.kh) +
                               "x" + std::to_string(w.kw) + " pad " +
                               std::to_string(w.pad);
      ASSERT_EQ(net.out(0).data.shape_, Shape4(w.input[0], w.input[1], oh, ow))
          << what;
      FillRandom(net.in(0).data, 3);
      net.layer().Forward(true);
      ExpectNear(net.out(0).data,
                 NaivePool(type, net.in(0).data, w.kh, w.kw, w.stride, w.pad,
                           w.pad, oh, ow),
                 what);
      // The tensor extension's pool() and unpool() agree.
      TensorContainer<cpu, 4, double> ext(net.out(0).data.shape_, 0.0, false);
      const Tensor<cpu, 4, double> in = net.in(0).data;
      if (std::string(type) == "max_pooling") {
        ext = pool<red::maximum>(in, w.kh, w.kw, w.stride, w.stride, w.pad,
                                 w.pad);
      } else {
        ext = pool<red::sum>(in, w.kh, w.kw, w.stride, w.stride, w.pad, w.pad);
        if (std::string(type) == "avg_pooling") {
          ext *= 1.0 / double(w.kh * w.kw);
        }
      }
      ExpectNear(net.out(0).data,
                 std::vector<double>(ext.dptr_, ext.dptr_ + ext.shape_.Size()),
                 what + " vs pool()");
      if (std::string(type) == "max_pooling") {
        FillRandom(net.out(0).grad, 4);
        net.layer().Backprop(true);
        TensorContainer<cpu, 4, double> grad(in.shape_, 0.0, false);
        grad = unpool<red::maximum>(in, net.out(0).data, net.out(0).grad, w.kh,
                                    w.kw, w.stride, w.stride, w.pad, w.pad);
        ExpectNear(
            net.in(0).grad,
            std::vector<double>(grad.dptr_, grad.dptr_ + grad.shape_.Size()),
            what + " vs unpool()");
      }
    }
  }
}

// Float 2x2 windows of stride 2 over planes of even sizes run in blocks of 8
// and 4 outputs before a scalar tail: widths whose rows fill no block (2),
// one block of 4 (8), one of 8 (16), and 8 + 4 + a tail (26), with a tie for
// the maximum in every third window. Outputs as the naive pooling (in
// double), and each input's gradient as defined: max: the window's where
// the input equals its maximum, else 0; avg: a quarter of it; sum: all of it.
TEST(PoolingLayerTest, FloatTwoByTwoBlocksMatchNaive) {
  PoolWindow window;
  window.kernel_y = window.kernel_x = window.stride_y = window.stride_x = 2;
  for (const index_t width : {2, 8, 16, 26}) {
    const Shape<4> in_shape = Shape4(2, 3, 4, width);
    const Shape<4> out_shape = Shape4(2, 3, 2, width / 2);
    TensorContainer<cpu, 4, float> in(in_shape), in_grad(in_shape);
    TensorContainer<cpu, 4, float> out(out_shape), out_grad(out_shape);
    FillRandom(in, unsigned(width));
    FillRandom(out_grad, unsigned(width + 1));
    // Input (window w, corner k) of plane p: row 2 oy + k / 2, column
    // 2 ox + k % 2.
    auto input = [&](index_t p, index_t oy, index_t ox, int k) -> index_t {
      return (p * 4 + 2 * oy + k / 2) * width + 2 * ox + k % 2;
    };
    const index_t windows = out_shape.Size();
    for (index_t w = 0; w < windows; w += 3) {
      const index_t p = w / (width / 2) / 2, oy = w / (width / 2) % 2,
                    ox = w % (width / 2);
      in.dptr_[input(p, oy, ox, 0)] = in.dptr_[input(p, oy, ox, 3)] = 2.0f;
    }
    for (const PoolKind kind :
         {PoolKind::kMax, PoolKind::kAvg, PoolKind::kSum}) {
      const std::string what = "width " + std::to_string(width) + " kind " +
                               std::to_string(int(kind));
      PoolForward(kind, window, in, out);
      PoolBackward(kind, window, in, out, out_grad, in_grad);
      for (index_t w = 0; w < windows; ++w) {
        const index_t p = w / (width / 2) / 2, oy = w / (width / 2) % 2,
                      ox = w % (width / 2);
        double max = -std::numeric_limits<double>::infinity(), sum = 0;
        for (int k = 0; k < 4; ++k) {
          max = std::max(max, double(in.dptr_[input(p, oy, ox, k)]));
          sum += in.dptr_[input(p, oy, ox, k)];
        }
        const float g = out_grad.dptr_[w];
        if (kind == PoolKind::kMax) {
          ASSERT_EQ(out.dptr_[w], max) << what << " window " << w;
        } else {
          const double want = kind == PoolKind::kAvg ? sum / 4 : sum;
          ASSERT_NEAR(out.dptr_[w], want, 1e-6) << what << " window " << w;
        }
        for (int k = 0; k < 4; ++k) {
          const index_t i = input(p, oy, ox, k);
          const float want = kind == PoolKind::kSum   ? g
                             : kind == PoolKind::kAvg ? g * 0.25f
                             : in.dptr_[i] == max     ? g
                                                      : 0.0f;
          ASSERT_EQ(in_grad.dptr_[i], want) << what << " input " << i;
        }
      }
    }
  }
}

// Float planes under windows other than exact 2x2 run 8 at a time in
// vectors (the 8 planes' same element in the lanes), the planes past a
// multiple of 8 one by one: 2 x 5 planes (8 + 2) under overlapping,
// padded, clipped and unequal windows, against the definition in double:
// out: each window's max, mean (of kernel_y x kernel_x) or sum; in_grad:
// the sum over the windows that hold an input of the window's gradient,
// for max only where the input equals the window's maximum (ties made in
// every fourth window all receive it).
TEST(PoolingLayerTest, FloatPlanesInVectorsMatchTheDefinition) {
  struct Window {
    index_t kh, kw, stride, pad, height, width;
  };
  for (const Window& shape : std::vector<Window>{{3, 3, 2, 0, 14, 14},
                                                 {3, 3, 2, 1, 7, 6},
                                                 {2, 3, 1, 0, 4, 5},
                                                 {3, 3, 3, 2, 7, 5}}) {
    PoolWindow window;
    window.kernel_y = shape.kh;
    window.kernel_x = shape.kw;
    window.stride_y = window.stride_x = shape.stride;
    window.pad_y = window.pad_x = shape.pad;
    const index_t planes = 10, h = shape.height, wd = shape.width;
    const index_t oh = NaivePooledSize(h, shape.kh, shape.stride, shape.pad);
    const index_t ow = NaivePooledSize(wd, shape.kw, shape.stride, shape.pad);
    TensorContainer<cpu, 4, float> in(Shape4(2, 5, h, wd)), in_grad(in.shape_),
        out(Shape4(2, 5, oh, ow)), out_grad(out.shape_);
    FillRandom(in.view(), unsigned(h * wd));
    FillRandom(out_grad.view(), unsigned(oh * ow));
    // The inputs of window (p, oy, ox), clipped to the plane.
    auto window_inputs = [&](index_t p, index_t oy, index_t ox) {
      std::vector<index_t> inputs;
      for (index_t i = 0; i < shape.kh; ++i) {
        for (index_t j = 0; j < shape.kw; ++j) {
          const index_t y = oy * shape.stride - shape.pad + i;
          const index_t x = ox * shape.stride - shape.pad + j;
          if (y >= 0 && y < h && x >= 0 && x < wd) {
            inputs.push_back((p * h + y) * wd + x);
          }
        }
      }
      return inputs;
    };
    for (index_t o = 0; o < planes * oh * ow; o += 4) {
      const std::vector<index_t> inputs =
          window_inputs(o / (oh * ow), o / ow % oh, o % ow);
      if (inputs.size() >= 2) {
        in.dptr_[inputs.front()] = in.dptr_[inputs.back()] = 1.5f;
      }
    }
    for (const PoolKind kind :
         {PoolKind::kMax, PoolKind::kAvg, PoolKind::kSum}) {
      const std::string what =
          std::to_string(shape.kh) + "x" + std::to_string(shape.kw) +
          " stride " + std::to_string(shape.stride) + " pad " +
          std::to_string(shape.pad) + " kind " + std::to_string(int(kind));
      PoolForward(kind, window, in.view(), out.view());
      PoolBackward(kind, window, in.view(), out.view(), out_grad.view(),
                   in_grad.view());
      std::vector<double> want_grad(in.shape_.Size(), 0.0);
      for (index_t o = 0; o < planes * oh * ow; ++o) {
        const std::vector<index_t> inputs =
            window_inputs(o / (oh * ow), o / ow % oh, o % ow);
        double max = -std::numeric_limits<double>::infinity(), sum = 0;
        for (const index_t i : inputs) {
          max = std::max(max, double(in.dptr_[i]));
          sum += in.dptr_[i];
        }
        const double area = double(shape.kh * shape.kw);
        const double want = kind == PoolKind::kMax   ? max
                            : kind == PoolKind::kAvg ? sum / area
                                                     : sum;
        ASSERT_NEAR(out.dptr_[o], want, 1e-6) << what << " output " << o;
        const double g = out_grad.dptr_[o];
        for (const index_t i : inputs) {
          if (kind == PoolKind::kMax) {
            want_grad[i] += in.dptr_[i] == max ? g : 0.0;
          } else {
            want_grad[i] += kind == PoolKind::kAvg ? g / area : g;
          }
        }
      }
      for (index_t i = 0; i < in.shape_.Size(); ++i) {
        ASSERT_NEAR(in_grad.dptr_[i], want_grad[i], 1e-6)
            << what << " input " << i;
      }
    }
  }
}

// insanity_max_pooling with keep = 1 (and at test time) is max_pooling:
// the same outputs and input gradients, bit for bit, on float planes that
// take the vector loops (8 + 8 planes) under 3 x 3 windows of stride 2.
TEST(PoolingLayerTest, InsanityPoolingKeepingEveryElementIsMaxPooling) {
  const ParamKwargs window = {{"kernel_size", "3"}, {"stride", "2"}};
  ParamKwargs keep_all = window;
  keep_all.emplace_back("keep", "1");
  StandaloneLayer<cpu, float> max("max_pooling", window, {Shape4(2, 8, 9, 7)});
  StandaloneLayer<cpu, float> insanity("insanity_max_pooling", keep_all,
                                       {Shape4(2, 8, 9, 7)});
  FillRandom(max.in(0).data, 21);
  FillRandom(max.out(0).grad, 22);
  Copy(insanity.in(0).data, max.in(0).data);
  Copy(insanity.out(0).grad, max.out(0).grad);
  for (StandaloneLayer<cpu, float>* layer : {&max, &insanity}) {
    layer->layer().Forward(true);
    layer->layer().Backprop(true);
  }
  const Tensor<cpu, 4, float> out = insanity.out(0).data;
  const Tensor<cpu, 4, float> in_grad = insanity.in(0).grad;
  for (index_t i = 0; i < out.shape_.Size(); ++i) {
    ASSERT_EQ(out.dptr_[i], max.out(0).data.dptr_[i]) << "output " << i;
  }
  for (index_t i = 0; i < in_grad.shape_.Size(); ++i) {
    ASSERT_EQ(in_grad.dptr_[i], max.in(0).grad.dptr_[i]) << "input " << i;
  }
}

TEST(PoolingLayerTest, BadParametersNameLayerAndKey) {
  std::string e = ErrorOf([] {
    CreateLayer<cpu, float>("max_pooling", "pool1", {{"stride", "2"}});
  });
  EXPECT_THAT(e, HasSubstr("layer 'pool1' (max_pooling)"));
  EXPECT_THAT(e, HasSubstr("'kernel_size'"));
  e = ErrorOf([] {
    CreateLayer<cpu, float>("avg_pooling", "pool1",
                            {{"kernel_size", "2"}, {"pad", "2"}});
  });
  EXPECT_THAT(e, HasSubstr("layer 'pool1' (avg_pooling)"));
  EXPECT_THAT(e, HasSubstr("'pad' (2, 2) must be less than 'kernel_size'"));
  e = ErrorOf([] {
    CreateLayer<cpu, float>("max_pooling", "pool1", {{"kernel_size", "5"}})
        ->InferShapes({Shape4(2, 3, 4, 4)});
  });
  EXPECT_THAT(e, HasSubstr("layer 'pool1' (max_pooling)"));
  EXPECT_THAT(e, HasSubstr("[(2,3,4,4)]"));
  EXPECT_THAT(e, HasSubstr("'kernel_size' 5x5"));
}

// ---------------------------------------------------------------- lrn

TEST(LrnLayerTest, ForwardMatchesNaive) {
  // The layer holds its parameters as float. beta = 0.75 runs through square
  // roots on the CPU, other values through pow.
  const double alpha = double(0.3f), knorm = 1.5;
  for (const auto& [size, beta] : std::vector<std::pair<index_t, double>>{
           {1, 0.75}, {3, 0.75}, {5, 0.75}, {3, double(0.6f)}}) {
    Net net("lrn",
            {{"local_size", std::to_string(size)},
             {"alpha", "0.3"},
             {"beta", beta == 0.75 ? "0.75" : "0.6"},
             {"knorm", "1.5"}},
            {Shape4(2, 4, 3, 2)});
    FillRandom(net.in(0).data, 9);
    net.layer().Forward(true);
    const Tensor<cpu, 4, double> in = net.in(0).data;
    std::vector<double> want;
    for (index_t n = 0; n < 2; ++n) {
      for (index_t c = 0; c < 4; ++c) {
        for (index_t y = 0; y < 3; ++y) {
          for (index_t x = 0; x < 2; ++x) {
            double sum = 0;
            for (index_t d = c - size / 2; d <= c + size / 2; ++d) {
              if (d >= 0 && d < 4)
                sum += At(in, n, d, y, x) * At(in, n, d, y, x);
            }
            const double norm = knorm + alpha / double(size) * sum;
            want.push_back(At(in, n, c, y, x) * std::pow(norm, -beta));
          }
        }
      }
    }
    ExpectNear(net.out(0).data, want, "lrn " + std::to_string(size));
  }
  const std::string e = ErrorOf([] {
    CreateLayer<cpu, float>("lrn", "norm1", {{"local_size", "4"}});
  });
  EXPECT_THAT(e, HasSubstr("layer 'norm1' (lrn)"));
  EXPECT_THAT(e, HasSubstr("'local_size': expected an odd number"));
}

// ---------------------------------------------------------------- batch_norm

// Per-channel mean and biased variance of a node (channel axis 1, or 3 for
// a matrix).
void NaiveStats(const Tensor<cpu, 4, double>& in, std::vector<double>* mean,
                std::vector<double>* var) {
  const bool matrix = in.size(1) == 1 && in.size(2) == 1;
  const index_t channels = matrix ? in.size(3) : in.size(1);
  mean->assign(channels, 0.0);
  var->assign(channels, 0.0);
  std::vector<double> count(channels, 0.0);
  auto channel = [&](index_t c, index_t x) { return matrix ? x : c; };
  for (int pass = 0; pass < 2; ++pass) {
    for (index_t n = 0; n < in.size(0); ++n) {
      for (index_t c = 0; c < in.size(1); ++c) {
        for (index_t y = 0; y < in.size(2); ++y) {
          for (index_t x = 0; x < in.size(3); ++x) {
            const index_t k = channel(c, x);
            const double v = At(in, n, c, y, x);
            if (pass == 0) {
              (*mean)[k] += v;
              count[k] += 1;
            } else {
              (*var)[k] += (v - (*mean)[k]) * (v - (*mean)[k]);
            }
          }
        }
      }
    }
    for (index_t k = 0; k < channels; ++k) {
      if (pass == 0) (*mean)[k] /= count[k];
      if (pass == 1) (*var)[k] /= count[k];
    }
  }
}

std::vector<double> NaiveNormalize(const Tensor<cpu, 4, double>& in,
                                   const std::vector<double>& mean,
                                   const std::vector<double>& var,
                                   const Tensor<cpu, 1, double>& gamma,
                                   const Tensor<cpu, 1, double>& beta,
                                   double eps) {
  const bool matrix = in.size(1) == 1 && in.size(2) == 1;
  std::vector<double> out;
  for (index_t n = 0; n < in.size(0); ++n) {
    for (index_t c = 0; c < in.size(1); ++c) {
      for (index_t y = 0; y < in.size(2); ++y) {
        for (index_t x = 0; x < in.size(3); ++x) {
          const index_t k = matrix ? x : c;
          out.push_back(gamma[k] * (At(in, n, c, y, x) - mean[k]) /
                            std::sqrt(var[k] + eps) +
                        beta[k]);
        }
      }
    }
  }
  return out;
}

TEST(BatchNormLayerTest, TrainAndTestModesMatchNaive) {
  // The layer holds its parameters as float.
  const double eps = double(1e-3f), momentum = double(0.8f);
  // Planes of 6 elements, matrices (one narrower than a packet, one across
  // packets and past the last), and planes of 16 (whole cache lines, whose
  // xhat the CPU stores past the caches).
  for (const Shape<4>& shape : {Shape4(3, 2, 2, 3), Shape4(5, 1, 1, 4),
                                Shape4(7, 1, 1, 21), Shape4(3, 2, 4, 4)}) {
    Net net("batch_norm",
            {{"eps", "0.001"},
             {"bn_momentum", "0.8"},
             {"init_slope", "1.5"},
             {"init_bias", "-0.25"}},
            {shape});
    std::vector<WeightRef<cpu, double>> w = net.layer().Weights();
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].name, "batch_norm0.gamma");
    EXPECT_EQ(w[1].name, "batch_norm0.beta");
    FillRandom(w[0].data, 21);  // gamma and beta away from their defaults
    FillRandom(w[1].data, 22);
    std::vector<StateRef<cpu, double>> states = net.layer().States();
    ASSERT_EQ(states.size(), 2u);
    EXPECT_EQ(states[0].name, "batch_norm0.moving_mean");
    EXPECT_EQ(states[1].name, "batch_norm0.moving_var");
    const index_t channels = w[0].data.size(0);
    std::vector<double> moving_mean(channels, 0.0), moving_var(channels, 1.0);
    for (unsigned seed : {1u, 2u, 3u}) {  // training batches
      FillRandom(net.in(0).data, seed);
      net.in(0).data *= double(seed);  // different scales per batch
      net.layer().Forward(true);
      std::vector<double> mean, var;
      NaiveStats(net.in(0).data, &mean, &var);
      ExpectNear(
          net.out(0).data,
          NaiveNormalize(net.in(0).data, mean, var, w[0].data, w[1].data, eps),
          "train");
      for (index_t k = 0; k < channels; ++k) {
        moving_mean[k] = momentum * moving_mean[k] + (1 - momentum) * mean[k];
        moving_var[k] = momentum * moving_var[k] + (1 - momentum) * var[k];
        EXPECT_NEAR(states[0].data[k], moving_mean[k], 1e-12);
        EXPECT_NEAR(states[1].data[k], moving_var[k], 1e-12);
      }
    }
    // Test mode: the moving averages, which Forward(false) leaves alone.
    FillRandom(net.in(0).data, 4);
    net.layer().Forward(false);
    ExpectNear(net.out(0).data,
               NaiveNormalize(net.in(0).data, moving_mean, moving_var,
                              w[0].data, w[1].data, eps),
               "test");
    EXPECT_NEAR(states[0].data[0], moving_mean[0], 1e-12);
    // Test-mode gradient: gamma / sqrt(moving_var + eps) * grad.
    FillRandom(net.out(0).grad, 5);
    net.layer().Backprop(true);
    const bool matrix = shape[1] == 1;
    for (index_t i = 0; i < shape.Size(); ++i) {
      const index_t k =
          matrix ? i % shape[3] : (i / (shape[2] * shape[3])) % shape[1];
      EXPECT_NEAR(net.in(0).grad.dptr_[i],
                  w[0].data[k] / std::sqrt(moving_var[k] + eps) *
                      net.out(0).grad.dptr_[i],
                  1e-12);
    }
    // InitWeights resets the states.
    net.layer().InitWeights(&net.rnd());
    EXPECT_EQ(states[0].data[0], 0.0);
    EXPECT_EQ(states[1].data[0], 1.0);
  }
  const std::string e = ErrorOf([] {
    CreateLayer<cpu, float>("batch_norm", "bn1", {{"bn_momentum", "1.5"}});
  });
  EXPECT_THAT(e, HasSubstr("layer 'bn1' (batch_norm)"));
  EXPECT_THAT(e, HasSubstr("'bn_momentum'"));
}

// Fine-tuning: training normalises with the moving averages (set here as a
// trained net's would be) and leaves them as they are.
TEST(BatchNormLayerTest, UseGlobalStatsTrainsWithTheMovingAverages) {
  const double eps = double(1e-3f);
  const Shape<4> shape = Shape4(4, 3, 2, 2);
  Net net(
      "batch_norm",
      {{"eps", "0.001"}, {"use_global_stats", "1"}, {"moving_average", "0.5"}},
      {shape});
  std::vector<WeightRef<cpu, double>> w = net.layer().Weights();
  std::vector<StateRef<cpu, double>> states = net.layer().States();
  FillRandom(w[0].data, 31);
  FillRandom(w[1].data, 32);
  FillRandom(states[0].data, 33);
  states[1].data = 2.5;
  const std::vector<double> mean(states[0].data.dptr_,
                                 states[0].data.dptr_ + 3);
  const std::vector<double> var(3, 2.5);
  FillRandom(net.in(0).data, 34);
  net.layer().Forward(true);
  ExpectNear(
      net.out(0).data,
      NaiveNormalize(net.in(0).data, mean, var, w[0].data, w[1].data, eps),
      "use_global_stats");
  for (index_t k = 0; k < 3; ++k) {
    EXPECT_EQ(states[0].data[k], mean[k]);
    EXPECT_EQ(states[1].data[k], 2.5);
  }
}

// cxxnet's batch_norm_no_ma: test time normalises with the batch's own
// statistics and leaves the moving averages alone.
TEST(BatchNormLayerTest, UseBatchStatsNormalisesWithTheBatchAtTestTime) {
  const double eps = double(1e-3f);
  Net net("batch_norm", {{"eps", "0.001"}, {"use_batch_stats", "1"}},
          {Shape4(5, 3, 2, 2)});
  std::vector<WeightRef<cpu, double>> w = net.layer().Weights();
  std::vector<StateRef<cpu, double>> states = net.layer().States();
  FillRandom(w[0].data, 41);
  FillRandom(w[1].data, 42);
  FillRandom(net.in(0).data, 43);
  net.in(0).data *= 3.0;
  net.layer().Forward(false);
  std::vector<double> mean, var;
  NaiveStats(net.in(0).data, &mean, &var);
  ExpectNear(
      net.out(0).data,
      NaiveNormalize(net.in(0).data, mean, var, w[0].data, w[1].data, eps),
      "use_batch_stats at test time");
  for (index_t k = 0; k < 3; ++k) {
    EXPECT_EQ(states[0].data[k], 0.0);
    EXPECT_EQ(states[1].data[k], 1.0);
  }
  EXPECT_THAT(ErrorOf([] {
                CreateLayer<cpu, float>(
                    "batch_norm", "bn1",
                    {{"use_batch_stats", "1"}, {"use_global_stats", "1"}});
              }),
              HasSubstr("'use_batch_stats' and 'use_global_stats' are both 1"));
}

TEST(BatchNormLayerTest, StatesSurviveABatchSizeChange) {
  auto bn = CreateLayer<cpu, float>("batch_norm", "bn1", {});
  bn->InferShapes({Shape4(4, 3, 2, 2)});
  bn->States()[0].data = 0.5f;
  const float* before = bn->States()[0].data.dptr_;
  bn->InferShapes({Shape4(7, 3, 2, 2)});
  EXPECT_EQ(bn->States()[0].data.dptr_, before);
  EXPECT_EQ(bn->States()[0].data[2], 0.5f);
  auto fc = CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", "2"}});
  fc->InferShapes({Shape4(4, 1, 1, 3)});
  EXPECT_TRUE(fc->States().empty());
}

}  // namespace
}  // namespace layers
}  // namespace umbra
