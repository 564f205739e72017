#include "train/image/image_resize.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "train/image/image.h"

namespace umbra {
namespace train {
namespace {

// Where output position `i` of `out` samples a line of `in` pixels: the
// lower neighbour and the weight of the upper one.
struct Tap {
  int low;
  int high;
  float weight;
};

std::vector<Tap> Taps(int in, int out) {
  std::vector<Tap> taps(out);
  const float ratio = static_cast<float>(in) / out;
  for (int i = 0; i < out; ++i) {
    const float at =
        std::clamp((i + 0.5f) * ratio - 0.5f, 0.0f, static_cast<float>(in - 1));
    const int low = static_cast<int>(at);
    taps[i] = {low, std::min(low + 1, in - 1), at - low};
  }
  return taps;
}

}  // namespace

ResizedSize ShorterSideTo(int height, int width, int shorter) {
  if (height <= width) {
    return {shorter,
            std::max(1, static_cast<int>(std::lround(
                            static_cast<double>(width) * shorter / height)))};
  }
  return {std::max(1, static_cast<int>(std::lround(static_cast<double>(height) *
                                                   shorter / width))),
          shorter};
}

void ResizeImage(const Image& source, int height, int width, Image* target) {
  target->Resize(height, width, source.channels);
  if (height == source.height && width == source.width) {
    target->pixels = source.pixels;
    return;
  }
  const std::vector<Tap> rows = Taps(source.height, height);
  const std::vector<Tap> columns = Taps(source.width, width);
  const int channels = source.channels;
  for (int y = 0; y < height; ++y) {
    const Tap& row = rows[y];
    for (int x = 0; x < width; ++x) {
      const Tap& column = columns[x];
      for (int c = 0; c < channels; ++c) {
        const float top = source.at(row.low, column.low, c) +
                          column.weight * (source.at(row.low, column.high, c) -
                                           source.at(row.low, column.low, c));
        const float bottom =
            source.at(row.high, column.low, c) +
            column.weight * (source.at(row.high, column.high, c) -
                             source.at(row.high, column.low, c));
        target->at(y, x, c) = static_cast<std::uint8_t>(
            std::lround(top + row.weight * (bottom - top)));
      }
    }
  }
}

}  // namespace train
}  // namespace umbra
