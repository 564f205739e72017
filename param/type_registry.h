// TypeRegistry<Info, Base>: the one mechanism behind every "create by name"
// table of umbra (layer types, updaters, iterator types, the trainer's model
// factories). Each type registers itself once, at start-up, from the .cc
// file that instantiates it (inside an alwayslink library, so the linker
// keeps it); users look types up by the name a config writes.
//
// It holds, per registry:
//   - one Info per name: what the type is (its parameter structs, its
//     description, factories); a second registration of a name, or an Info
//     whose Problem() is not empty, is a build mistake and aborts at
//     start-up with a message;
//   - per device and precision, the creators of Base<xpu, DType> objects
//     (layers, updaters), registered separately: the gpu ones come from the
//     .cu files of a --config=cuda build.
//
// Info must provide:
//   std::string type;                          // the registered name
//   std::string Problem() const;               // "" for a sound entry
//   static constexpr char kKind[] = "...";     // "layer type"
//   static constexpr char kKnownAs[] = "...";  // "types": "Known types: ..."
//   static constexpr char kLibrary[] = "...";  // what to link: "//layers"
//   using Error = ...;                         // thrown for unknown names
//
// Example:
//
//   using LayerRegistry = TypeRegistry<LayerTypeInfo, Layer>;
//   // fullc_layer.cc: the type, and its cpu creators in float and double
//   UMBRA_REGISTER_TYPE(LayerRegistry, cpu, "fullc", FullConnectLayer,
//                       float, double);
//   // layers/gpu/*.cu: its gpu creators
//   UMBRA_REGISTER_TYPE_DEVICE(LayerRegistry, gpu, "fullc", FullConnectLayer,
//                              float, double);
//
//   LayerRegistry::List();        // {"avg_pooling", "batch_norm", ...}
//   LayerRegistry::Get("fulc");   // throws LayerError: "unknown layer type
//                                 // 'fulc'; did you mean 'fullc'? Known
//                                 // types: N in all; see ..."
//   auto create = LayerRegistry::FindCreator<cpu, float>("fullc");
//   std::unique_ptr<Layer<cpu, float>> layer = create();
#ifndef UMBRA_PARAM_TYPE_REGISTRY_H_
#define UMBRA_PARAM_TYPE_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace umbra {

// "unknown <kind> '<name>'; did you mean '<closest>'? Known <known_as>: a, b"
// ("unknown <kind> '<name>'. Known ..." when none is close); of more than 5
// names, only the closest (at most 5) or how many there are
// (UnknownNameSuggestion in edit_distance.h). When `known` is empty,
// "unknown <kind> '<name>': this program has no <kind>s registered (link
// <library>)". The name is quoted short (QuoteShort), so a 10 MB name gives a
// line of a few hundred bytes.
std::string UnknownNameMessage(absl::string_view kind,
                               absl::string_view known_as,
                               absl::string_view library,
                               absl::string_view name,
                               const std::vector<std::string>& known);

namespace internal {

// Prints "umbra: <kind> '<type>': <problem>" and aborts: a registration
// mistake is a broken build, found at start-up.
[[noreturn]] void AbortRegistration(absl::string_view kind,
                                    absl::string_view type,
                                    absl::string_view problem);

// The Base of a registry that creates no objects by device (its Info holds
// its factories).
template <typename xpu, typename DType>
class NoDeviceObjects;

}  // namespace internal

template <typename Info,
          template <typename, typename> class Base = internal::NoDeviceObjects>
class TypeRegistry {
 public:
  template <typename xpu, typename DType>
  using Object = Base<xpu, DType>;
  template <typename xpu, typename DType>
  using Creator = std::unique_ptr<Base<xpu, DType>> (*)();

  // Adds `info` under info.type; returns true (for static registration).
  // Aborts on an empty or repeated name, or when info.Problem() says what
  // is wrong.
  static bool Add(Info info) {
    if (info.type.empty()) {
      internal::AbortRegistration(Info::kKind, info.type, "empty name");
    }
    if (Infos().count(info.type) != 0) {
      internal::AbortRegistration(
          Info::kKind, info.type,
          "registered twice; each registers once, in the file that "
          "instantiates it");
    }
    const std::string problem = info.Problem();
    if (!problem.empty()) {
      internal::AbortRegistration(Info::kKind, info.type, problem);
    }
    std::string type = info.type;
    Infos().emplace(std::move(type), std::move(info));
    return true;
  }

  // The registered names, sorted.
  static std::vector<std::string> List() {
    std::vector<std::string> names;
    for (const auto& entry : Infos()) names.push_back(entry.first);
    return names;
  }

  // The entry of `type`, or nullptr.
  static const Info* Find(absl::string_view type) {
    const auto it = Infos().find(type);
    return it == Infos().end() ? nullptr : &it->second;
  }

  // The entry of `type`. Throws Info::Error with UnknownNameMessage when
  // there is none.
  static const Info& Get(absl::string_view type) {
    const Info* info = Find(type);
    if (info == nullptr) {
      throw typename Info::Error(UnknownNameMessage(
          Info::kKind, Info::kKnownAs, Info::kLibrary, type, List()));
    }
    return *info;
  }

  // Adds the creator of `type`'s objects on (xpu, DType); `device` names
  // the device in the message when a type has two. Returns true.
  template <typename xpu, typename DType>
  static bool AddCreator(const std::string& type, absl::string_view device,
                         Creator<xpu, DType> creator) {
    if (!Creators<xpu, DType>().emplace(type, creator).second) {
      internal::AbortRegistration(
          Info::kKind, type,
          std::string("has two ") + std::string(device) + " implementations");
    }
    return true;
  }

  // The creator of `type` on (xpu, DType), or nullptr when this binary has
  // none (a gpu type in a build without CUDA).
  template <typename xpu, typename DType>
  static Creator<xpu, DType> FindCreator(absl::string_view type) {
    const auto& creators = Creators<xpu, DType>();
    const auto it = creators.find(type);
    return it == creators.end() ? nullptr : it->second;
  }

  // The names with a creator on (xpu, DType), sorted.
  template <typename xpu, typename DType>
  static std::vector<std::string> ListCreators() {
    std::vector<std::string> names;
    for (const auto& entry : Creators<xpu, DType>()) {
      names.push_back(entry.first);
    }
    return names;
  }

 private:
  // Never destroyed: registrations run before main and lookups may run
  // after static destruction has begun.
  static std::map<std::string, Info, std::less<>>& Infos() {
    static auto* infos = new std::map<std::string, Info, std::less<>>;
    return *infos;
  }
  template <typename xpu, typename DType>
  static std::map<std::string, Creator<xpu, DType>, std::less<>>& Creators() {
    static auto* creators =
        new std::map<std::string, Creator<xpu, DType>, std::less<>>;
    return *creators;
  }
};

namespace internal {

template <typename Object, typename Concrete>
std::unique_ptr<Object> New() {
  return std::unique_ptr<Object>(new Concrete());
}

// Adds the creators of Class<xpu, DType> for `type` on `xpu`, one per
// DType.
template <typename Registry, typename xpu,
          template <typename, typename> class Class, typename... DTypes>
bool AddCreators(const char* type, const char* device) {
  return (Registry::template AddCreator<xpu, DTypes>(
              type, device,
              &New<typename Registry::template Object<xpu, DTypes>,
                   Class<xpu, DTypes>>) &&
          ...);
}

// Adds the type, described by Class<xpu, float>::Describe() (its Info with
// `type` set here), and its creators on `xpu`, one per DType.
template <typename Registry, typename xpu,
          template <typename, typename> class Class, typename... DTypes>
bool AddType(const char* type, const char* device) {
  auto info = Class<xpu, float>::Describe();
  info.type = type;
  return Registry::Add(std::move(info)) &&
         AddCreators<Registry, xpu, Class, DTypes...>(type, device);
}

}  // namespace internal
}  // namespace umbra

#define UMBRA_TYPE_REGISTRY_CONCAT_INNER_(a, b) a##b
#define UMBRA_TYPE_REGISTRY_CONCAT_(a, b) \
  UMBRA_TYPE_REGISTRY_CONCAT_INNER_(a, b)
#define UMBRA_TYPE_REGISTRY_FLAG_                                 \
  [[maybe_unused]] static const bool UMBRA_TYPE_REGISTRY_CONCAT_( \
      umbra_type_registered_, __COUNTER__)

// Registers the class template `Class<xpu, DType>` as `type` in `Registry`:
// its Info from Class<device, float>::Describe() and its creators on
// `device` (cpu or gpu) for each precision listed. At namespace scope, in
// the one file that instantiates the class, inside an alwayslink library.
#define UMBRA_REGISTER_TYPE(Registry, device, type, Class, ...)    \
  UMBRA_TYPE_REGISTRY_FLAG_ =                                      \
      ::umbra::internal::AddType<Registry, ::umbra::device, Class, \
                                 __VA_ARGS__>(type, #device)

// Registers further creators of a type registered with UMBRA_REGISTER_TYPE:
// those on `device` (the gpu ones, from the .cu file that instantiates
// them) for each precision listed.
#define UMBRA_REGISTER_TYPE_DEVICE(Registry, device, type, Class, ...) \
  UMBRA_TYPE_REGISTRY_FLAG_ =                                          \
      ::umbra::internal::AddCreators<Registry, ::umbra::device, Class, \
                                     __VA_ARGS__>(type, #device)

#endif  // UMBRA_PARAM_TYPE_REGISTRY_H_
