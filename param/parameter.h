// Parameter<PType>: a plain struct whose fields are declared once - type,
// default, range, enum names, aliases, description - and can then be set from
// key=value text, checked, printed, documented and saved as JSON.
//
// This is the dmlc-core parameter.h design in C++17. Differences from it:
//   - Set() parses into a temporary and range-checks before storing, and
//     Init/InitAllowUnknown/UpdateAllowUnknown/Load change the struct only
//     when they succeed (they check everything on a scratch struct first).
//   - Dict() lists each field once, under its declared name; aliases are
//     accepted by Init but not repeated in the dict (dmlc listed them too).
//   - Integers and floats must be the whole value: "1.5abc", "" and "1e999"
//     (for float) are errors; floats refuse inf and nan unless allow_inf_nan().
//   - dmlc's __DICT__, __FIELDS__, __DOC__ and __MANAGER__ are Dict(),
//     Fields(), Doc() and Manager(): a leading double underscore is
//     reserved in C++.
//   - set_upper_bound, tuples ("1,28,28"), optional fields, "did you mean",
//     errors that name the struct, and a registry of every struct (registry.h).
//   - Registration mistakes (duplicate key, alias of a missing field, duplicate
//     enum, default outside the range) abort the program at start-up with the
//     message, instead of surfacing at first use.
//
// Example:
//
//   // fullc.h
//   struct FullcParam : public umbra::Parameter<FullcParam> {
//     int nhidden;
//     float init_sigma;
//     bool no_bias;
//     UMBRA_DECLARE_PARAMETER(FullcParam) {
//       UMBRA_DECLARE_FIELD(nhidden).set_lower_bound(1)
//           .describe("Number of output units.");
//       UMBRA_DECLARE_FIELD(init_sigma).set_default(0.01f).set_lower_bound(0.0f)
//           .describe("Standard deviation of the initial weights.");
//       UMBRA_DECLARE_FIELD(no_bias).set_default(false)
//           .describe("Leave out the bias term.");
//       UMBRA_DECLARE_ALIAS(nhidden, num_hidden);
//     }
//   };
//
//   // fullc.cc (in a library with alwayslink = 1)
//   UMBRA_REGISTER_PARAMETER(FullcParam);
//
//   // use
//   FullcParam param;
//   param.Init({{"nhidden", "128"}});  // or a std::map, a vector of pairs
//   int n = param.nhidden;                                // plain members
//   std::string doc = FullcParam::Doc();
//   std::string json = param.Save();
#ifndef UMBRA_PARAM_PARAMETER_H_
#define UMBRA_PARAM_PARAMETER_H_

#include <initializer_list>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/field_entry.h"
#include "param/field_entry_optional.h"
#include "param/field_entry_tuple.h"
#include "param/field_info.h"
#include "param/json.h"
#include "param/param_manager.h"

namespace umbra {

// The base of every parameter struct: `struct P : public Parameter<P>`.
// PType must be default-constructible: its fields are declared on a scratch
// instance, and every Init first runs on one.
template <typename PType>
class Parameter {
 public:
  using KwargList = std::initializer_list<std::pair<std::string, std::string>>;

  // Sets every field from `kwargs` - a std::map, a vector of pairs or any
  // range of (key, value) pairs - and gives the others their defaults; a
  // repeated key takes its last value. Keys that name no field are refused
  // (except __hidden__ ones under the default kAllowHidden). Throws
  // ParamError, leaving the struct unchanged.
  template <typename Container>
  void Init(const Container& kwargs,
            param::ParamInitOption option = param::kAllowHidden) {
    Apply([&](PType* target) {
      PType::Manager()->RunInit(target, std::begin(kwargs), std::end(kwargs),
                                nullptr, option);
    });
  }
  void Init(KwargList kwargs,
            param::ParamInitOption option = param::kAllowHidden) {
    Init<KwargList>(kwargs, option);
  }

  // As Init, but returns the pairs whose key names no field, in order.
  template <typename Container>
  ParamKwargs InitAllowUnknown(const Container& kwargs) {
    ParamKwargs unknown;
    Apply([&](PType* target) {
      unknown.clear();
      PType::Manager()->RunInit(target, std::begin(kwargs), std::end(kwargs),
                                &unknown, param::kAllowUnknown);
    });
    return unknown;
  }
  ParamKwargs InitAllowUnknown(KwargList kwargs) {
    return InitAllowUnknown<KwargList>(kwargs);
  }

  // Sets only the fields in `kwargs`, keeping every other field as it is;
  // returns the pairs whose key names no field. Throws ParamError, leaving the
  // struct unchanged.
  template <typename Container>
  ParamKwargs UpdateAllowUnknown(const Container& kwargs) {
    ParamKwargs unknown;
    Apply([&](PType* target) {
      unknown.clear();
      PType::Manager()->RunUpdate(target, std::begin(kwargs), std::end(kwargs),
                                  &unknown, param::kAllowUnknown);
    });
    return unknown;
  }
  ParamKwargs UpdateAllowUnknown(KwargList kwargs) {
    return UpdateAllowUnknown<KwargList>(kwargs);
  }

  // Every field's current value as text that Init accepts back, by name.
  std::map<std::string, std::string> Dict() const {
    ParamKwargs dict = PType::Manager()->GetDict(head());
    return std::map<std::string, std::string>(dict.begin(), dict.end());
  }
  // Every field described, in declaration order.
  static std::vector<ParamFieldInfo> Fields() {
    return PType::Manager()->GetFieldInfo();
  }
  // The plain-text reference of the fields (ParamManager::PrintDocString).
  static std::string Doc() {
    std::ostringstream os;
    PType::Manager()->PrintDocString(os);
    return os.str();
  }

  // The fields as one JSON object of strings, keys sorted.
  std::string Save() const {
    ParamKwargs dict = PType::Manager()->GetDict(head());
    return param::WriteJsonObject(dict);
  }
  // Init from a JSON object written by Save (other keys refused, hidden
  // __keys__ ignored). Throws ParamError, leaving the struct unchanged.
  void Load(absl::string_view json) {
    Init(param::ReadJsonObject(json, PType::Manager()->name()));
  }

 protected:
  // Declares the member `ref` as the field `key`; UMBRA_DECLARE_FIELD calls it.
  template <typename DType>
  param::FieldEntry<DType>& DECLARE(
      param::ParamManagerSingleton<PType>* manager, const std::string& key,
      DType& ref) {
    auto entry = std::make_unique<param::FieldEntry<DType>>();
    param::FieldEntry<DType>* raw = entry.get();
    raw->Init(key, head(), ref);
    manager->manager.AddEntry(key, std::move(entry));
    return *raw;
  }

 private:
  PType* head() const {
    return static_cast<PType*>(const_cast<Parameter<PType>*>(this));
  }

  // Runs `set` on a scratch PType first, so that a bad value, an unknown key
  // or a missing field throws before this struct is touched; then on this one.
  // Only the declared fields are written, so other members keep their values.
  template <typename Setter>
  void Apply(const Setter& set) {
    PType scratch = PType();
    set(&scratch);
    set(head());
  }
};

}  // namespace umbra

// Opens the field declarations of PType, inside `struct PType`. The block that
// follows lists UMBRA_DECLARE_FIELD and UMBRA_DECLARE_ALIAS statements.
#define UMBRA_DECLARE_PARAMETER(PType)            \
  static ::umbra::param::ParamManager* Manager(); \
  inline void DeclareFields(                      \
      ::umbra::param::ParamManagerSingleton<PType>* manager)

// Declares the member `FieldName` as a field keyed by its own name; returns
// its FieldEntry for chained set_default/describe/set_range/add_enum calls.
#define UMBRA_DECLARE_FIELD(FieldName) \
  this->DECLARE(manager, #FieldName, FieldName)

// Makes `AliasName` another key for the declared field `FieldName`.
#define UMBRA_DECLARE_ALIAS(FieldName, AliasName) \
  manager->manager.AddAlias(#FieldName, #AliasName)

#define UMBRA_PARAM_CONCAT_INNER_(a, b) a##b
#define UMBRA_PARAM_CONCAT_(a, b) UMBRA_PARAM_CONCAT_INNER_(a, b)

// Defines PType::Manager without registering at start-up; the manager
// and its registry entry are created on first use. Prefer
// UMBRA_REGISTER_PARAMETER.
#define UMBRA_DEFINE_PARAMETER_MANAGER_(PType)                             \
  ::umbra::param::ParamManager* PType::Manager() {                         \
    static ::umbra::param::ParamManagerSingleton<PType> singleton(#PType); \
    return &singleton.manager;                                             \
  }

// Registers PType, in exactly one .cc file, at namespace scope. The registry
// and messages name the struct as written here: register inside the struct's
// namespace to get "FullcParam" rather than "umbra::layers::FullcParam". The
// struct is built and checked during static initialisation; a declaration
// mistake prints its ParamError and aborts.
#define UMBRA_REGISTER_PARAMETER(PType)                   \
  UMBRA_DEFINE_PARAMETER_MANAGER_(PType)                  \
  [[maybe_unused]] static const bool UMBRA_PARAM_CONCAT_( \
      umbra_param_registered_, __COUNTER__) =             \
      ::umbra::param::internal::RegisterAtStartup(&PType::Manager, #PType)

#endif  // UMBRA_PARAM_PARAMETER_H_
