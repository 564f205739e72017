// TypeName<T>(): the name of a field's type as users read it in docs and
// errors.
//
// Built-in names: "boolean", "string", "float", "double", "int" (32-bit),
// "int8", "int16", "int64", "uint8", "uint16", "uint32", "uint64";
// std::optional<T> is "<T> or None" and std::vector<T> is "tuple of <T>".
// Any other type gets its demangled C++ name unless it declares a name:
//
// Example:
//
//   struct Shape { ... };  // has operator>> and operator<<
//   UMBRA_DECLARE_TYPE_NAME(Shape, "shape");  // at global namespace scope
//   umbra::param::TypeName<Shape>();           // "shape"
#ifndef UMBRA_PARAM_TYPE_NAME_H_
#define UMBRA_PARAM_TYPE_NAME_H_

#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace umbra {
namespace param {
namespace internal {

// The demangled name of `type`, e.g. "umbra::TShape".
std::string DemangledTypeName(const std::type_info& type);

// "int8", "uint32", ... for an integer type of `size` bytes.
std::string IntegerTypeName(bool is_signed, int size);

}  // namespace internal

// Specialise (through UMBRA_DECLARE_TYPE_NAME) to name a user type.
template <typename T>
struct TypeNameTrait {
  static std::string Get() {
    if constexpr (std::is_same_v<T, bool>) {
      return "boolean";
    } else if constexpr (std::is_integral_v<T>) {
      return internal::IntegerTypeName(std::is_signed_v<T>,
                                       static_cast<int>(sizeof(T)));
    } else if constexpr (std::is_same_v<T, float>) {
      return "float";
    } else if constexpr (std::is_same_v<T, double>) {
      return "double";
    } else if constexpr (std::is_same_v<T, long double>) {
      return "long double";
    } else if constexpr (std::is_same_v<T, std::string>) {
      return "string";
    } else {
      return internal::DemangledTypeName(typeid(T));
    }
  }
};

template <typename T>
struct TypeNameTrait<std::optional<T>> {
  static std::string Get() { return TypeNameTrait<T>::Get() + " or None"; }
};

template <typename T>
struct TypeNameTrait<std::vector<T>> {
  static std::string Get() { return "tuple of " + TypeNameTrait<T>::Get(); }
};

template <typename T>
std::string TypeName() {
  return TypeNameTrait<T>::Get();
}

}  // namespace param
}  // namespace umbra

// Names `Type` as `Name` (a string literal) in docs and errors. Use at global
// namespace scope, with `Type` fully qualified.
#define UMBRA_DECLARE_TYPE_NAME(Type, Name)   \
  template <>                                 \
  struct umbra::param::TypeNameTrait<Type> {  \
    static std::string Get() { return Name; } \
  }

#endif  // UMBRA_PARAM_TYPE_NAME_H_
