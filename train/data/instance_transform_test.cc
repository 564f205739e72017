#include "train/data/instance_transform.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::TestRng;
using ::testing::HasSubstr;

AugmentIteratorParam Param(const ParamKwargs& kwargs) {
  AugmentIteratorParam param;
  param.Init(kwargs);
  return param;
}

TensorContainer<cpu, 3, float> RandomImage(const Shape<3>& shape,
                                           TestRng* rng) {
  TensorContainer<cpu, 3, float> image(shape);
  Tensor<cpu, 1, float> flat = image.FlatTo1D();
  for (index_t i = 0; i < flat.size(0); ++i) flat[i] = rng->Uniform(0, 255);
  return image;
}

// Whether `out` is the window of `in` at (y0, x0), optionally mirrored, with
// (v - mean[c]) * multiplier applied.
bool IsWindow(const Tensor<cpu, 3, float>& in, const Tensor<cpu, 3, float>& out,
              index_t y0, index_t x0, bool mirror,
              const std::vector<float>& mean, float multiplier) {
  const index_t w = out.size(2);
  for (index_t c = 0; c < out.size(0); ++c) {
    for (index_t y = 0; y < out.size(1); ++y) {
      for (index_t x = 0; x < w; ++x) {
        const float v = in[c][y0 + y][x0 + (mirror ? w - 1 - x : x)];
        if (out[c][y][x] != (v - mean[c]) * multiplier) return false;
      }
    }
  }
  return true;
}

TEST(InstanceTransformTest, IdentityByDefault) {
  TestRng rng;
  const Shape<3> shape = Shape3(rng.Int(1, 3), rng.Int(1, 8), rng.Int(1, 8));
  InstanceTransform transform(Param({}), shape, 1);
  EXPECT_EQ(transform.output_shape(), shape);
  auto in = RandomImage(shape, &rng);
  TensorContainer<cpu, 3, float> out(shape);
  transform.Apply(in, out);
  EXPECT_TRUE(IsWindow(in, out, 0, 0, false, {0, 0, 0}, 1.0f));
}

TEST(InstanceTransformTest, CentreCropMeanAndScale) {
  TestRng rng;
  InstanceTransform transform(Param({{"input_shape", "3,4,5"},
                                     {"mean_value", "10,20,30"},
                                     {"divideby", "4"},
                                     {"scale", "2"}}),
                              Shape3(3, 9, 8), 1);
  EXPECT_EQ(transform.output_shape(), Shape3(3, 4, 5));
  auto in = RandomImage(Shape3(3, 9, 8), &rng);
  TensorContainer<cpu, 3, float> out(Shape3(3, 4, 5));
  transform.Apply(in, out);
  // Offsets (9 - 4) / 2 = 2 and (8 - 5) / 2 = 1, as cxxnet.
  EXPECT_TRUE(IsWindow(in, out, 2, 1, false, {10, 20, 30}, 0.5f));
  EXPECT_FALSE(IsWindow(in, out, 2, 1, false, {10, 20, 31}, 0.5f));
}

TEST(InstanceTransformTest, RandomCropAndMirrorAreValidAndSeeded) {
  TestRng rng;
  const Shape<3> in_shape = Shape3(2, rng.Int(6, 10), rng.Int(6, 10));
  const Shape<3> out_shape = Shape3(2, 5, 5);
  const auto param = Param({{"input_shape", "2,5,5"},
                            {"rand_crop", "1"},
                            {"rand_mirror", "1"},
                            {"mean_value", "3"}});
  const unsigned seed = rng.Int(0, 1 << 30);
  InstanceTransform transform(param, in_shape, seed);
  InstanceTransform twin(param, in_shape, seed);
  InstanceTransform other(param, in_shape, seed + 1);
  auto in = RandomImage(in_shape, &rng);
  TensorContainer<cpu, 3, float> out(out_shape), out_twin(out_shape),
      out_other(out_shape);
  int mirrored = 0, plain = 0, differs_from_other = 0;
  std::set<std::pair<index_t, index_t>> offsets;
  for (int trial = 0; trial < 200; ++trial) {
    transform.Apply(in, out);
    twin.Apply(in, out_twin);
    other.Apply(in, out_other);
    bool found = false;
    for (index_t y = 0; y + 5 <= in_shape[1] && !found; ++y) {
      for (index_t x = 0; x + 5 <= in_shape[2] && !found; ++x) {
        for (bool mirror : {false, true}) {
          if (IsWindow(in, out, y, x, mirror, {3, 3}, 1.0f)) {
            found = true;
            offsets.insert({y, x});
            (mirror ? mirrored : plain) += 1;
            break;
          }
        }
      }
    }
    ASSERT_TRUE(found) << "trial " << trial << " is no window of the input";
    ASSERT_TRUE(IsWindow(out_twin, out, 0, 0, false, {0, 0}, 1.0f))
        << "same seed, same result";
    if (!IsWindow(out_other, out, 0, 0, false, {0, 0}, 1.0f)) {
      ++differs_from_other;
    }
  }
  EXPECT_GT(mirrored, 50);
  EXPECT_GT(plain, 50);
  // (H - 4) * (W - 4) crop positions, at least 4; 200 crops reach most.
  const size_t positions = (in_shape[1] - 4) * (in_shape[2] - 4);
  EXPECT_GT(offsets.size(), positions / 2)
      << "crops at several of the " << positions << " positions";
  EXPECT_GT(differs_from_other, 100) << "another seed, other crops";
}

TEST(InstanceTransformTest, MirrorReversesRows) {
  // A 1x1x4 row mirrored is exactly reversed.
  InstanceTransform transform(Param({{"rand_mirror", "1"}}), Shape3(1, 1, 4),
                              5);
  TensorContainer<cpu, 3, float> in(Shape3(1, 1, 4)), out(Shape3(1, 1, 4));
  for (int x = 0; x < 4; ++x) in[0][0][x] = x + 1.0f;
  bool saw_mirror = false;
  for (int trial = 0; trial < 64 && !saw_mirror; ++trial) {
    transform.Apply(in, out);
    if (out[0][0][0] != 1.0f) {
      saw_mirror = true;
      EXPECT_EQ(out[0][0][0], 4.0f);
      EXPECT_EQ(out[0][0][1], 3.0f);
      EXPECT_EQ(out[0][0][2], 2.0f);
      EXPECT_EQ(out[0][0][3], 1.0f);
    }
  }
  EXPECT_TRUE(saw_mirror);
}

// cxxnet's mirror = 1 mirrors every instance, with or without rand_mirror.
TEST(InstanceTransformTest, MirrorMirrorsEveryInstance) {
  TestRng rng;
  const Shape<3> shape = Shape3(2, rng.Int(2, 6), rng.Int(2, 6));
  auto in = RandomImage(shape, &rng);
  TensorContainer<cpu, 3, float> out(shape);
  for (const char* rand_mirror : {"0", "1"}) {
    InstanceTransform always(
        Param({{"mirror", "1"}, {"rand_mirror", rand_mirror}}), shape,
        rng.Int(0, 1 << 30));
    for (int trial = 0; trial < 50; ++trial) {
      always.Apply(in, out);
      ASSERT_TRUE(IsWindow(in, out, 0, 0, true, {0, 0}, 1.0f))
          << "trial " << trial << ", rand_mirror = " << rand_mirror;
    }
  }
}

// The instance inside a border of `pad` zeros, built directly.
TensorContainer<cpu, 3, float> ZeroPadded(const Tensor<cpu, 3, float>& in,
                                          index_t pad) {
  TensorContainer<cpu, 3, float> padded(
      Shape3(in.size(0), in.size(1) + 2 * pad, in.size(2) + 2 * pad), 0.0f);
  for (index_t c = 0; c < in.size(0); ++c) {
    for (index_t y = 0; y < in.size(1); ++y) {
      for (index_t x = 0; x < in.size(2); ++x) {
        padded[c][y + pad][x + pad] = in[c][y][x];
      }
    }
  }
  return padded;
}

TEST(InstanceTransformTest, PaddedRandomCropsShiftTheInstance) {
  TestRng rng;
  const index_t pad = rng.Int(1, 3);
  // Planes larger than the padding, so that every window holds some of the
  // instance and no two windows look alike.
  const Shape<3> shape = Shape3(2, rng.Int(pad + 1, 7), rng.Int(pad + 1, 7));
  auto in = RandomImage(shape, &rng);
  const auto padded = ZeroPadded(in, pad);
  // Without rand_crop the window is centred: the instance itself.
  InstanceTransform centred(Param({{"pad", std::to_string(pad)}}), shape, 1);
  TensorContainer<cpu, 3, float> out(shape);
  centred.Apply(in, out);
  EXPECT_TRUE(IsWindow(in, out, 0, 0, false, {0, 0}, 1.0f));

  InstanceTransform shifted(Param({{"pad", std::to_string(pad)},
                                   {"rand_crop", "1"},
                                   {"rand_mirror", "1"},
                                   {"mean_value", "7"},
                                   {"divideby", "2"}}),
                            shape, rng.Int(0, 1 << 30));
  std::set<std::pair<index_t, index_t>> offsets;
  // Enough trials that each of at most 49 offsets is missed with
  // probability below 1e-7.
  for (int trial = 0; trial < 1200; ++trial) {
    shifted.Apply(in, out);
    bool found = false;
    for (index_t y = 0; y <= 2 * pad && !found; ++y) {
      for (index_t x = 0; x <= 2 * pad && !found; ++x) {
        for (bool mirror : {false, true}) {
          if (IsWindow(padded, out, y, x, mirror, {7, 7}, 0.5f)) {
            found = true;
            offsets.insert({y, x});
            break;
          }
        }
      }
    }
    ASSERT_TRUE(found) << "trial " << trial
                       << " is no window of the zero-padded input";
  }
  EXPECT_EQ(offsets.size(), size_t((2 * pad + 1) * (2 * pad + 1)));
}

TEST(InstanceTransformTest, ShapeAndMeanErrors) {
  EXPECT_THAT(DataErrorOf([] {
                InstanceTransform(Param({{"input_shape", "1,28,28"}}),
                                  Shape3(1, 1, 784), 0);
              }),
              HasSubstr("key 'input_shape': 1,28,28 does not fit the data's "
                        "instances of shape 1,1,784"));
  EXPECT_THAT(DataErrorOf([] {
                InstanceTransform(Param({{"input_shape", "3,4,4"}}),
                                  Shape3(1, 8, 8), 0);
              }),
              HasSubstr("the channels must be equal"));
  EXPECT_THAT(
      DataErrorOf([] {
        InstanceTransform(Param({{"input_shape", "4,4"}}), Shape3(1, 8, 8), 0);
      }),
      HasSubstr("expected channel,height,width (3 numbers), got 2"));
  EXPECT_THAT(
      DataErrorOf([] {
        InstanceTransform(Param({{"mean_value", "1,2"}}), Shape3(3, 8, 8), 0);
      }),
      HasSubstr("key 'mean_value': 2 values for 3 channels"));
  // Padding makes room for a larger input_shape, up to its size.
  EXPECT_EQ(InstanceTransform(Param({{"input_shape", "1,12,12"}, {"pad", "2"}}),
                              Shape3(1, 8, 8), 0)
                .output_shape(),
            Shape3(1, 12, 12));
  EXPECT_THAT(DataErrorOf([] {
                InstanceTransform(
                    Param({{"input_shape", "1,13,12"}, {"pad", "2"}}),
                    Shape3(1, 8, 8), 0);
              }),
              HasSubstr("1,13,12 does not fit the data's instances of shape "
                        "1,8,8 padded by 2"));
  EXPECT_THROW(Param({{"divideby", "0"}}), ParamError);
  EXPECT_THROW(Param({{"pad", "-1"}}), ParamError);
}

}  // namespace
}  // namespace train
}  // namespace umbra
