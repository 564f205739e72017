// The "Coming from cxxnet" section of the config reference: what umbra does
// with each key and layer of cxxnet (dmlc/cxxnet at 9c58c278d129, the
// repository's last commit): read as cxxnet reads it, accepted without
// effect (the trainer's notices), not yet supported (refused by name), and
// every difference kept on purpose with its reason.
//
// Example:
//
//   std::string page = ConfigReferenceMarkdown();  // ends with this section
#ifndef UMBRA_TOOLS_CXXNET_GUIDE_H_
#define UMBRA_TOOLS_CXXNET_GUIDE_H_

#include <string>

namespace umbra {
namespace tools {

// The section as Markdown, from "## Coming from cxxnet" on.
std::string ComingFromCxxnetMarkdown();

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CXXNET_GUIDE_H_
