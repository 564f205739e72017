#include "layers/layer_error.h"

#include <sstream>

namespace umbra {
namespace layers {

std::string LayerLabel(const std::string& name, const std::string& type) {
  return "layer '" + name + "' (" + type + ")";
}

std::string ShapesToString(const std::vector<Shape<4>>& shapes) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i != 0) os << ", ";
    os << shapes[i];
  }
  os << ']';
  return os.str();
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i != 0) out += ", ";
    out += names[i];
  }
  return out;
}

std::string FormatNumber(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

}  // namespace layers
}  // namespace umbra
