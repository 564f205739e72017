// ParamManager: the fields of one parameter struct, found by key, and the
// routines that initialise, read back and document a struct through them.
//
// Each struct declared with UMBRA_DECLARE_PARAMETER owns one ParamManager,
// built on first use by ParamManagerSingleton and listed in the global
// registry (registry.h). Users normally reach it through Parameter<PType>;
// tools and tests may use it directly.
//
// Example:
//
//   const param::ParamManager& manager = *FullcParam::Manager();
//   const param::FieldAccessEntry* entry = manager.Find("num_hidden");  //
//   alias manager.PrintDocString(std::cout);
#ifndef UMBRA_PARAM_PARAM_MANAGER_H_
#define UMBRA_PARAM_PARAM_MANAGER_H_

#include <cstddef>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/field_access_entry.h"
#include "param/field_info.h"

namespace umbra {

// Keyword arguments: (key, value) pairs in the order given.
using ParamKwargs = std::vector<std::pair<std::string, std::string>>;

namespace param {

// How RunInit treats a key that names no field.
enum ParamInitOption {
  // Ignore it (or hand it back, see RunInit).
  kAllowUnknown,
  // Refuse it: throw ParamError.
  kAllMatch,
  // Ignore hidden keys of the form __name__; refuse any other.
  kAllowHidden,
};

class ParamManager {
 public:
  ParamManager() = default;
  ParamManager(const ParamManager&) = delete;
  ParamManager& operator=(const ParamManager&) = delete;

  // The struct name used in messages and the registry, e.g. "FullcParam".
  void set_name(std::string name) { name_ = std::move(name); }
  const std::string& name() const { return name_; }

  // Adds the field `key`, taking ownership of its entry. Throws ParamError
  // when `key` is already a field or an alias.
  void AddEntry(const std::string& key,
                std::unique_ptr<FieldAccessEntry> entry);
  // Makes `alias` another key for the field `field`. Throws ParamError when
  // `field` is not a field or `alias` is already taken.
  void AddAlias(const std::string& field, const std::string& alias);
  // The entry for a field name or alias, or nullptr.
  const FieldAccessEntry* Find(absl::string_view key) const;

  // Sets the struct at `head` from the (key, value) pairs in [begin, end),
  // in order, so the last of a repeated key wins; every field not given gets
  // its default. A key that names no field is appended to `*unknown_args` when
  // that is not null, and otherwise handled as `option` says. Throws
  // ParamError for a bad value, a refused key or a missing required field.
  template <typename Iterator>
  void RunInit(void* head, Iterator begin, Iterator end,
               ParamKwargs* unknown_args, ParamInitOption option) const {
    std::vector<bool> given(entries_.size(), false);
    for (Iterator it = begin; it != end; ++it) {
      const FieldAccessEntry* entry =
          SetOne(head, it->first, it->second, unknown_args, option);
      if (entry != nullptr) given[entry->index()] = true;
    }
    SetDefaults(head, given);
  }
  // As RunInit, but leaves the fields not given as they are.
  template <typename Iterator>
  void RunUpdate(void* head, Iterator begin, Iterator end,
                 ParamKwargs* unknown_args, ParamInitOption option) const {
    for (Iterator it = begin; it != end; ++it) {
      SetOne(head, it->first, it->second, unknown_args, option);
    }
  }

  // (field name, value as text) for every field, sorted by name; aliases are
  // not repeated.
  ParamKwargs GetDict(void* head) const;
  // Every field in declaration order, with its aliases.
  std::vector<ParamFieldInfo> GetFieldInfo() const;
  // A plain-text reference of the fields, one block per field:
  //   nhidden : int in [1, inf), required
  //       Number of output units.
  //       Also accepted as: num_hidden
  void PrintDocString(std::ostream& os) const;
  // Every key Init accepts (fields and aliases), sorted.
  std::vector<std::string> ValidKeys() const;
  // Throws ParamError for a declaration that contradicts itself (e.g. a
  // default outside the field's range).
  void CheckDeclarations() const;
  // The number of fields.
  std::size_t size() const { return entries_.size(); }

 private:
  // Sets one field; returns its entry, or nullptr for a key that is unknown
  // (collected, ignored or refused as RunInit says).
  const FieldAccessEntry* SetOne(void* head, absl::string_view key,
                                 absl::string_view value,
                                 ParamKwargs* unknown_args,
                                 ParamInitOption option) const;
  void SetDefaults(void* head, const std::vector<bool>& given) const;
  [[noreturn]] void ThrowUnknownKey(absl::string_view key) const;

  std::string name_;
  std::vector<std::unique_ptr<FieldAccessEntry>> entries_;
  // Field names and aliases.
  std::map<std::string, FieldAccessEntry*, std::less<>> entry_map_;
  // Aliases of each field, by the field's index.
  std::vector<std::vector<std::string>> aliases_;
};

namespace internal {

// Adds `manager` to the global registry (registry.h). Throws ParamError when a
// struct of the same name is already there.
void RegisterParamManager(const ParamManager* manager);

// Calls `get_manager` (a struct's Manager) during static initialisation.
// A ParamError there is a mistake in the struct's declaration: it is printed
// with `struct_name` and the program aborts. Returns true.
bool RegisterAtStartup(ParamManager* (*get_manager)(), const char* struct_name);

}  // namespace internal

// Builds the ParamManager of PType once: declares the fields of a scratch
// PType, checks the declaration and registers the manager.
template <typename PType>
struct ParamManagerSingleton {
  ParamManager manager;

  explicit ParamManagerSingleton(const std::string& param_name) {
    manager.set_name(param_name);
    PType param;
    param.DeclareFields(this);
    manager.CheckDeclarations();
    internal::RegisterParamManager(&manager);
  }
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_PARAM_MANAGER_H_
