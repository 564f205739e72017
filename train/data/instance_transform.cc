#include "train/data/instance_transform.h"

#include <algorithm>
#include <random>
#include <vector>

#include "absl/strings/str_format.h"
#include "param/param.h"
#include "tensor/tensor.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {

UMBRA_REGISTER_PARAMETER(AugmentIteratorParam);

namespace {

std::string ShapeText(const Shape<3>& shape) {
  return absl::StrFormat("%d,%d,%d", shape[0], shape[1], shape[2]);
}

}  // namespace

InstanceTransform::InstanceTransform(const AugmentIteratorParam& param,
                                     const Shape<3>& source_shape,
                                     unsigned seed)
    : param_(param),
      source_shape_(source_shape),
      output_shape_(source_shape),
      multiplier_(param.scale / param.divideby),
      rng_(seed) {
  if (!param.input_shape.empty()) {
    if (param.input_shape.size() != 3) {
      throw DataError(
          absl::StrFormat("key 'input_shape': expected channel,height,width "
                          "(3 numbers), got %d numbers",
                          param.input_shape.size()),
          "input_shape");
    }
    output_shape_ = Shape3(param.input_shape[0], param.input_shape[1],
                           param.input_shape[2]);
    const index_t pad = 2 * index_t{param.pad};
    if (output_shape_[0] != source_shape[0] ||
        output_shape_[1] > source_shape[1] + pad ||
        output_shape_[2] > source_shape[2] + pad) {
      throw DataError(
          absl::StrFormat(
              "key 'input_shape': %s does not fit the data's instances of "
              "shape %s%s: the channels must be equal and the height and "
              "width at most the data's (instances are cropped, never "
              "enlarged%s)",
              ShapeText(output_shape_), ShapeText(source_shape),
              param.pad > 0 ? absl::StrFormat(" padded by %d", param.pad) : "",
              source_shape[1] == 1
                  ? "; for mnist, input_flat = 0 gives 1,28,28 images"
                  : ""),
          "input_shape");
    }
  }
  const index_t channels = source_shape[0];
  if (param.mean_value.empty()) {
    mean_.assign(channels, 0.0f);
  } else if (param.mean_value.size() == 1) {
    mean_.assign(channels, param.mean_value[0]);
  } else if (static_cast<index_t>(param.mean_value.size()) == channels) {
    mean_ = param.mean_value;
  } else {
    throw DataError(
        absl::StrFormat("key 'mean_value': %d values for %d channels; give "
                        "one value or one per channel",
                        param.mean_value.size(), channels),
        "mean_value");
  }
}

InstanceTransform::Window InstanceTransform::DrawWindow() {
  Window window;
  window.y0 = source_shape_[1] + 2 * param_.pad - output_shape_[1];
  window.x0 = source_shape_[2] + 2 * param_.pad - output_shape_[2];
  if (param_.rand_crop) {
    window.y0 = std::uniform_int_distribution<index_t>(0, window.y0)(rng_);
    window.x0 = std::uniform_int_distribution<index_t>(0, window.x0)(rng_);
  } else {
    window.y0 /= 2;
    window.x0 /= 2;
  }
  window.mirror =
      param_.rand_mirror && std::uniform_int_distribution<int>(0, 1)(rng_) == 1;
  window.mirror = window.mirror || param_.mirror;
  return window;
}

void InstanceTransform::Apply(Tensor<cpu, 3, float> source,
                              Tensor<cpu, 3, float> target) {
  const auto [y0, x0, mirror] = DrawWindow();
  const index_t pad = param_.pad;
  const index_t width = output_shape_[2];
  for (index_t c = 0; c < output_shape_[0]; ++c) {
    const float mean = mean_[c];
    for (index_t y = 0; y < output_shape_[1]; ++y) {
      float* out = target[c][y].dptr_;
      const index_t source_y = y0 + y - pad;
      if (source_y < 0 || source_y >= source_shape_[1]) {
        std::fill(out, out + width, -mean * multiplier_);
        continue;
      }
      // The row's window in the source: columns first .. first + width - 1,
      // those outside it zeros.
      const index_t first = x0 - pad;
      if (!mirror && first >= 0 && first + width <= source_shape_[2]) {
        // A window inside the row, as with no padding and no mirror: one
        // vectorised pass.
        Tensor<cpu, 1, float> to = target[c][y];
        to = (source[c][source_y].Slice(first, first + width) - mean) *
             multiplier_;
        continue;
      }
      const float* in = source[c][source_y].dptr_;
      for (index_t x = 0; x < width; ++x) {
        const index_t source_x = first + (mirror ? width - 1 - x : x);
        const float value =
            source_x >= 0 && source_x < source_shape_[2] ? in[source_x] : 0.0f;
        out[x] = (value - mean) * multiplier_;
      }
    }
  }
}

}  // namespace train
}  // namespace umbra
