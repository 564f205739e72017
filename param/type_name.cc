#include "param/type_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace param {
namespace internal {

std::string DemangledTypeName(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  if (status != 0 || name == nullptr) return type.name();
  return name.get();
}

std::string IntegerTypeName(bool is_signed, int size) {
  if (is_signed && size == 4) return "int";
  return absl::StrCat(is_signed ? "int" : "uint", size * 8);
}

}  // namespace internal
}  // namespace param
}  // namespace umbra
