#include "param/param_manager.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "param/edit_distance.h"
#include "param/param_error.h"
#include "param/quote.h"

namespace umbra {
namespace param {
namespace {

// A hidden key looks like __name__.
bool IsHiddenKey(absl::string_view key) {
  return key.size() > 4 && absl::StartsWith(key, "__") &&
         absl::EndsWith(key, "__");
}

}  // namespace

void ParamManager::AddEntry(const std::string& key,
                            std::unique_ptr<FieldAccessEntry> entry) {
  if (entry_map_.count(key) != 0) {
    throw ParamError(absl::StrCat(name_, ": key '", key, "' is declared twice"),
                     name_, key);
  }
  entry->index_ = entries_.size();
  entry->set_struct_name(name_);
  entry_map_.emplace(key, entry.get());
  entries_.push_back(std::move(entry));
  aliases_.emplace_back();
}

void ParamManager::AddAlias(const std::string& field,
                            const std::string& alias) {
  auto it = entry_map_.find(field);
  if (it == entry_map_.end() || it->second->key() != field) {
    throw ParamError(absl::StrCat(name_, ": alias '", alias, "' names '", field,
                                  "', which is not a declared field"),
                     name_, alias);
  }
  if (entry_map_.count(alias) != 0) {
    throw ParamError(absl::StrCat(name_, ": alias '", alias, "' of '", field,
                                  "' is already a key"),
                     name_, alias);
  }
  entry_map_.emplace(alias, it->second);
  aliases_[it->second->index()].push_back(alias);
}

const FieldAccessEntry* ParamManager::Find(absl::string_view key) const {
  auto it = entry_map_.find(key);
  return it == entry_map_.end() ? nullptr : it->second;
}

const FieldAccessEntry* ParamManager::SetOne(void* head, absl::string_view key,
                                             absl::string_view value,
                                             ParamKwargs* unknown_args,
                                             ParamInitOption option) const {
  const FieldAccessEntry* entry = Find(key);
  if (entry != nullptr) {
    entry->SetAs(head, key, value);
    return entry;
  }
  if (unknown_args != nullptr) {
    unknown_args->emplace_back(std::string(key), std::string(value));
    return nullptr;
  }
  if (option == kAllowUnknown) return nullptr;
  if (option == kAllowHidden && IsHiddenKey(key)) return nullptr;
  ThrowUnknownKey(key);
}

void ParamManager::SetDefaults(void* head,
                               const std::vector<bool>& given) const {
  for (const std::unique_ptr<FieldAccessEntry>& entry : entries_) {
    if (!given[entry->index()]) entry->SetDefault(head);
  }
}

void ParamManager::ThrowUnknownKey(absl::string_view key) const {
  throw ParamError(
      absl::StrCat(name_, ": unknown key ", QuoteShort(key),
                   UnknownNameSuggestion(key, ValidKeys(), "Valid keys")),
      name_, std::string(key));
}

ParamKwargs ParamManager::GetDict(void* head) const {
  ParamKwargs dict;
  dict.reserve(entries_.size());
  for (const auto& [key, entry] : entry_map_) {
    if (entry->key() == key)
      dict.emplace_back(key, entry->GetStringValue(head));
  }
  return dict;
}

std::vector<ParamFieldInfo> ParamManager::GetFieldInfo() const {
  std::vector<ParamFieldInfo> fields;
  fields.reserve(entries_.size());
  for (const std::unique_ptr<FieldAccessEntry>& entry : entries_) {
    fields.push_back(entry->GetFieldInfo());
    fields.back().aliases = aliases_[entry->index()];
  }
  return fields;
}

void ParamManager::PrintDocString(std::ostream& os) const {
  for (const ParamFieldInfo& info : GetFieldInfo()) {
    os << info.name << " : " << info.type_info_str << '\n';
    if (!info.description.empty()) {
      // Every line of the description indented under the field.
      os << "    " << absl::StrReplaceAll(info.description, {{"\n", "\n    "}})
         << '\n';
    }
    if (!info.aliases.empty()) {
      os << "    Also accepted as: " << absl::StrJoin(info.aliases, ", ")
         << '\n';
    }
  }
}

std::vector<std::string> ParamManager::ValidKeys() const {
  std::vector<std::string> keys;
  keys.reserve(entry_map_.size());
  for (const auto& [key, entry] : entry_map_) keys.push_back(key);
  return keys;
}

void ParamManager::CheckDeclarations() const {
  for (const std::unique_ptr<FieldAccessEntry>& entry : entries_)
    entry->CheckDeclaration();
}

namespace internal {

bool RegisterAtStartup(ParamManager* (*get_manager)(),
                       const char* struct_name) {
  try {
    get_manager();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "umbra: cannot register parameter struct %s: %s\n",
                 struct_name, e.what());
    std::abort();
  }
  return true;
}

}  // namespace internal
}  // namespace param
}  // namespace umbra
