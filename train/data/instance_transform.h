// InstanceTransform: what happens to each instance between its data set and
// its batch: pad with zeros (pad), crop to input_shape (centred, or at
// random with rand_crop), mirror (always with mirror, at random with
// rand_mirror), subtract
// mean_value and multiply by scale / divideby - cxxnet's augmentation
// iterator without OpenCV.
//
//   out[c][y][x] = (in[c][y0 + y - pad][x0 + x' - pad] - mean[c]) * scale
//                  / divideby
//
// where (y0, x0) is the crop offset in the padded instance, x' = x, or
// width - 1 - x when the instance is mirrored, and `in` is 0 outside the
// instance. pad = 4 with rand_crop shifts each instance by up to 4 pixels
// (the standard augmentation of CIFAR and Fashion-MNIST nets). Random choices
// come from a generator seeded with `seed`, so a run is reproducible.
//
// Example:
//
//   AugmentIteratorParam param;
//   param.Init({{"input_shape", "3,24,24"}, {"rand_crop", "1"},
//               {"rand_mirror", "1"}, {"divideby", "255"}});
//   InstanceTransform transform(param, Shape3(3, 32, 32), /*seed=*/7);
//   transform.Apply(source, target);  // target: transform.output_shape()
#ifndef UMBRA_TRAIN_DATA_INSTANCE_TRANSFORM_H_
#define UMBRA_TRAIN_DATA_INSTANCE_TRANSFORM_H_

#include <random>
#include <vector>

#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace train {

struct AugmentIteratorParam : public Parameter<AugmentIteratorParam> {
  std::vector<int> input_shape;
  int pad;
  bool rand_crop;
  bool rand_mirror;
  bool mirror;
  float divideby;
  float scale;
  std::vector<float> mean_value;

  UMBRA_DECLARE_PARAMETER(AugmentIteratorParam) {
    UMBRA_DECLARE_FIELD(input_shape)
        .set_default(std::vector<int>{})
        .set_lower_bound(1)
        .describe(
            "Shape of one instance as channel,height,width. Instances larger "
            "in height or width are cropped to it; empty keeps the data's "
            "shape.");
    UMBRA_DECLARE_FIELD(pad)
        .set_default(0)
        .set_range(0, 1 << 16)
        .describe(
            "Zero pixels added on every side before cropping: with rand_crop, "
            "each instance is shifted by up to pad pixels.");
    UMBRA_DECLARE_FIELD(rand_crop).set_default(false).describe(
        "Crop at a random position instead of the centre.");
    UMBRA_DECLARE_FIELD(rand_mirror)
        .set_default(false)
        .describe("Mirror each instance left-right with probability 1/2.");
    UMBRA_DECLARE_FIELD(mirror).set_default(false).describe(
        "Mirror every instance left-right (cxxnet's mirror = 1; rand_mirror "
        "mirrors at random).");
    UMBRA_DECLARE_FIELD(divideby)
        .set_default(1.0f)
        .set_lower_bound(1e-30f)
        .describe("Divide every value by this (after subtracting the mean).");
    UMBRA_DECLARE_FIELD(scale).set_default(1.0f).describe(
        "Multiply every value by this (after subtracting the mean).");
    UMBRA_DECLARE_FIELD(mean_value)
        .set_default(std::vector<float>{})
        .describe(
            "Value subtracted from every element: one number for all "
            "channels, or one per channel in channel order.");
  }
};

class InstanceTransform {
 public:
  // Throws DataError (with the key) when input_shape does not fit
  // `source_shape` padded (other channel count, or larger height or width)
  // or mean_value has the wrong length.
  InstanceTransform(const AugmentIteratorParam& param,
                    const Shape<3>& source_shape, unsigned seed);

  Shape<3> source_shape() const { return source_shape_; }
  Shape<3> output_shape() const { return output_shape_; }

  // Writes the transformed `source` (source_shape()) into `target`
  // (output_shape()). Draws from the generator when cropping or mirroring at
  // random.
  void Apply(Tensor<cpu, 3, float> source, Tensor<cpu, 3, float> target);
  // Draws from the generator exactly what Apply would, transforming
  // nothing: skips one instance.
  void Skip() { DrawWindow(); }

 private:
  // Where an instance's output window starts in its padded source, and
  // whether it is mirrored.
  struct Window {
    index_t y0;
    index_t x0;
    bool mirror;
  };
  // The next instance's window: centred, or drawn when cropping or
  // mirroring at random.
  Window DrawWindow();

  AugmentIteratorParam param_;
  Shape<3> source_shape_;
  Shape<3> output_shape_;
  std::vector<float> mean_;  // one per channel
  float multiplier_;
  std::mt19937 rng_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_INSTANCE_TRANSFORM_H_
