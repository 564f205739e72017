#include "param/registry.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "param/edit_distance.h"
#include "param/param_error.h"
#include "param/param_manager.h"
#include "param/quote.h"

namespace umbra {
namespace {

struct Registry {
  absl::Mutex mutex;
  std::map<std::string, const param::ParamManager*, std::less<>> managers
      ABSL_GUARDED_BY(mutex);
};

// Never destroyed, so that it outlives every static that registers into it.
Registry& GetRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

ParamStructInfo Describe(const param::ParamManager& manager) {
  ParamStructInfo info;
  info.name = manager.name();
  info.fields = manager.GetFieldInfo();
  std::ostringstream doc;
  manager.PrintDocString(doc);
  info.doc = doc.str();
  return info;
}

// `text` safe inside a Markdown table cell.
std::string MarkdownCell(absl::string_view text) {
  return absl::StrReplaceAll(
      text, {{"|", "\\|"}, {"\r\n", " "}, {"\n", " "}, {"\r", " "}});
}

}  // namespace

namespace param {
namespace internal {

void RegisterParamManager(const ParamManager* manager) {
  Registry& registry = GetRegistry();
  absl::MutexLock lock(&registry.mutex);
  if (!registry.managers.emplace(manager->name(), manager).second) {
    throw ParamError(absl::StrCat("parameter struct '", manager->name(),
                                  "' is registered twice"),
                     manager->name(), "");
  }
}

}  // namespace internal
}  // namespace param

std::vector<std::string> ListParamStructs() {
  Registry& registry = GetRegistry();
  absl::MutexLock lock(&registry.mutex);
  std::vector<std::string> names;
  names.reserve(registry.managers.size());
  for (const auto& [name, manager] : registry.managers) names.push_back(name);
  return names;
}

ParamStructInfo GetParamStruct(absl::string_view name) {
  const param::ParamManager* found = nullptr;
  {
    Registry& registry = GetRegistry();
    absl::MutexLock lock(&registry.mutex);
    auto it = registry.managers.find(name);
    if (it != registry.managers.end()) found = it->second;
  }
  if (found != nullptr) return Describe(*found);
  throw ParamError(absl::StrCat(
      "unknown parameter struct ", QuoteShort(name),
      param::UnknownNameSuggestion(name, ListParamStructs(), "Registered")));
}

std::vector<ParamStructInfo> AllParamStructs() {
  std::vector<const param::ParamManager*> managers;
  {
    Registry& registry = GetRegistry();
    absl::MutexLock lock(&registry.mutex);
    for (const auto& [name, manager] : registry.managers)
      managers.push_back(manager);
  }
  std::vector<ParamStructInfo> structs;
  structs.reserve(managers.size());
  for (const param::ParamManager* manager : managers)
    structs.push_back(Describe(*manager));
  return structs;
}

std::string ParamFieldsToMarkdown(absl::string_view title,
                                  const std::vector<ParamFieldInfo>& fields) {
  std::string out = absl::StrCat("### ", MarkdownCell(title), "\n\n");
  if (fields.empty()) return out + "No parameters.\n";
  out += "| key | type | default | description |\n";
  out += "| --- | --- | --- | --- |\n";
  for (const ParamFieldInfo& field : fields) {
    std::string description = field.description;
    if (!field.aliases.empty()) {
      std::vector<std::string> quoted;
      for (const std::string& alias : field.aliases)
        quoted.push_back("`" + alias + "`");
      absl::StrAppend(&description, description.empty() ? "" : " ",
                      "Also accepted as ", absl::StrJoin(quoted, ", "), ".");
    }
    absl::StrAppend(
        &out, "| `", MarkdownCell(field.name), "` | ",
        MarkdownCell(field.accepted), " | ",
        field.required
            ? std::string("required")
            : absl::StrCat("`", MarkdownCell(field.default_value), "`"),
        " | ", MarkdownCell(description), " |\n");
  }
  return out;
}

std::string AllParamStructsToMarkdown() {
  std::string out;
  for (const ParamStructInfo& info : AllParamStructs()) {
    if (!out.empty()) out += "\n";
    out += ParamFieldsToMarkdown(info.name, info.fields);
  }
  return out;
}

}  // namespace umbra
