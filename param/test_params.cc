#include "param/test_params.h"

#include <istream>
#include <ostream>

#include "param/param.h"

namespace umbra {
namespace param_test {

std::istream& operator>>(std::istream& is, Dims& dims) {
  char x1 = 0;
  char x2 = 0;
  Dims parsed;
  if (is >> parsed.a >> x1 >> parsed.b >> x2 >> parsed.c && x1 == 'x' &&
      x2 == 'x') {
    dims = parsed;
  } else {
    is.setstate(std::ios::failbit);
  }
  return is;
}

std::ostream& operator<<(std::ostream& os, const Dims& dims) {
  return os << dims.a << 'x' << dims.b << 'x' << dims.c;
}

// Registered inside the namespace, so the registry names them without it.
UMBRA_REGISTER_PARAMETER(FullcParam);
UMBRA_REGISTER_PARAMETER(AllTypesParam);

}  // namespace param_test
}  // namespace umbra
