// The config reference: every registered parameter struct of the shipped
// trainer rendered as one Markdown page, grouped as a config is written
// (global trainer keys, updaters and their schedule, metrics, layers, data
// iterators), from the registries, so the page cannot drift from the code;
// then what becomes of cxxnet's keys (cxxnet_guide.h).
// `paramdoc` prints it; tools/config_reference.md is its checked-in copy.
//
// Example:
//
//   std::cout << umbra::tools::ConfigReferenceMarkdown();
//
// Contracts: the output depends only on what is registered in the linked
// program (link the trainer's libraries); it is deterministic (sorted by
// name); every registered struct appears exactly once, those no group
// claims under "Other parameter structs".
#ifndef UMBRA_TOOLS_CONFIG_REFERENCE_H_
#define UMBRA_TOOLS_CONFIG_REFERENCE_H_

#include <string>

namespace umbra {
namespace tools {

std::string ConfigReferenceMarkdown();

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CONFIG_REFERENCE_H_
