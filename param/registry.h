// The global registry of parameter structs: every struct registered with
// UMBRA_REGISTER_PARAMETER in the linked program, by name, with its fields
// and docs, and a Markdown rendering for the reference pages `tools` prints.
//
// Registration happens during static initialisation, so a library whose
// structs must be listed is linked with alwayslink = 1.
//
// Example:
//
//   for (const std::string& name : umbra::ListParamStructs()) {
//     std::cout << name << "\n";
//   }
//   umbra::ParamStructInfo fullc = umbra::GetParamStruct("FullcParam");
//   std::cout << umbra::ParamFieldsToMarkdown(fullc.name, fullc.fields);
//   std::cout << umbra::AllParamStructsToMarkdown();
#ifndef UMBRA_PARAM_REGISTRY_H_
#define UMBRA_PARAM_REGISTRY_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/field_info.h"

namespace umbra {

// One registered parameter struct.
struct ParamStructInfo {
  // As written in UMBRA_REGISTER_PARAMETER, e.g. "FullcParam".
  std::string name;
  // Its fields in declaration order (Fields).
  std::vector<ParamFieldInfo> fields;
  // Its plain-text reference (Doc).
  std::string doc;
};

// The names of every registered struct, sorted.
std::vector<std::string> ListParamStructs();

// The struct registered as `name`. Throws ParamError naming the closest
// registered name and listing them all when there is none.
ParamStructInfo GetParamStruct(absl::string_view name);

// Every registered struct, sorted by name.
std::vector<ParamStructInfo> AllParamStructs();

// A Markdown section: "### <title>" and a table with the columns key, type,
// default and description (aliases named in the description). Pipes and line
// breaks inside cells are escaped so the table stays intact.
std::string ParamFieldsToMarkdown(absl::string_view title,
                                  const std::vector<ParamFieldInfo>& fields);

// ParamFieldsToMarkdown for every registered struct, sorted by name.
std::string AllParamStructsToMarkdown();

}  // namespace umbra

#endif  // UMBRA_PARAM_REGISTRY_H_
