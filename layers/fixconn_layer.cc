// CPU instantiation and registration of fixconn, and its weight file.
#include "layers/fixconn_layer.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class FixConnLayer<cpu, float>;
template class FixConnLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(FixConnParam);

UMBRA_REGISTER_LAYER("fixconn", FixConnLayer);

std::vector<float> ReadFixConnWeight(const std::string& path, index_t rows,
                                     index_t cols) {
  const auto fail = [&](const std::string& what) {
    return std::runtime_error("'" + path + "': " + what);
  };
  std::ifstream in(path);
  if (!in) throw fail("cannot be read");
  std::uint64_t file_rows = 0, file_cols = 0, count = 0;
  if (!(in >> file_rows >> file_cols >> count)) {
    throw fail("expected the header ROWS COLS COUNT");
  }
  if (file_rows != rows || file_cols != cols) {
    std::ostringstream what;
    what << "holds a " << file_rows << " x " << file_cols
         << " matrix; the layer needs " << rows << " x " << cols
         << " (nhidden x input width)";
    throw fail(what.str());
  }
  std::vector<float> matrix(static_cast<std::size_t>(rows) * cols, 0.0f);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t row = 0, col = 0;
    float value = 0;
    if (!(in >> row >> col >> value)) {
      throw fail("entry " + std::to_string(i + 1) + " of " +
                 std::to_string(count) +
                 " is not ROW COL VALUE (the file ends or holds other text)");
    }
    if (row >= rows || col >= cols || !std::isfinite(value)) {
      std::ostringstream what;
      what << "entry " << i + 1 << " (" << row << " " << col << " " << value
           << ") is outside the " << rows << " x " << cols
           << " matrix or not finite";
      throw fail(what.str());
    }
    matrix[row * cols + col] = value;
  }
  std::string rest;
  if (in >> rest) {
    throw fail("holds more than the " + std::to_string(count) +
               " entries its header counts");
  }
  return matrix;
}

}  // namespace layers
}  // namespace umbra
