// paramdoc: prints the config reference (every registered parameter struct)
// as Markdown. `bazel run //tools:paramdoc > tools/config_reference.md`.
#include <iostream>

#include "tools/cli.h"
#include "tools/config_reference.h"

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "paramdoc",
      "Prints the reference of every config key - global trainer keys, "
      "updaters,\nschedules, metrics, layers and data iterators - as "
      "Markdown, from the parameter\nregistry. Regenerate the checked-in "
      "copy with\n  bazel run //tools:paramdoc > tools/config_reference.md",
      {});
  return umbra::tools::RunTool(argc, argv, &cli, [&] {
    if (!cli.positional().empty()) {
      throw umbra::tools::UsageError("paramdoc takes no arguments");
    }
    std::cout << umbra::tools::ConfigReferenceMarkdown();
    return 0;
  });
}
