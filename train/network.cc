#include "train/network.h"

#include <string>

#include "absl/strings/str_format.h"
#include "train/network_impl.h"

namespace umbra {
namespace train {

std::string ShapeText(const Shape<4>& shape) {
  return absl::StrFormat("(%d,%d,%d,%d)", shape[0], shape[1], shape[2],
                         shape[3]);
}

template class BasicNetwork<cpu>;

}  // namespace train
}  // namespace umbra
