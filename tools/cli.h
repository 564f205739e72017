// The command line of umbra's tools: a small declarative flag parser with a
// --help screen, and RunTool, which turns every failure into "error: ..."
// on stderr and a non-zero exit status.
//
// Example:
//
//   int main(int argc, char** argv) {
//     umbra::tools::CommandLine cli(
//         "inspect CHECKPOINT [--dump NAME]",
//         "Prints a checkpoint's contents.",
//         {{"dump", "NAME", "write tensor NAME as CSV"}});
//     return umbra::tools::RunTool(argc, argv, &cli, [&] {
//       if (cli.positional().size() != 1) throw UsageError("one CHECKPOINT");
//       ...
//       return 0;
//     });
//   }
//
// Contracts:
//   - Flags are `--name=value` or `--name value`; a flag without a value
//     name is a switch (`--name`). `--` ends the flags. Every other
//     argument is positional, in order (config overrides `key=value` too).
//   - `--help` or `-h` prints the help screen on stdout and exits 0.
//   - A UsageError (unknown flag, missing value, wrong arguments) prints the
//     message and the usage line and exits 2; any other exception prints
//     "error: <what>" and exits 1.
//   - Under `bazel run`, RunTool first changes to the caller's directory
//     (BUILD_WORKING_DIRECTORY), so relative paths mean what the user meant.
#ifndef UMBRA_TOOLS_CLI_H_
#define UMBRA_TOOLS_CLI_H_

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra {
namespace tools {

// A mistake in how the tool was called.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message)
      : std::runtime_error(message) {}
};

struct FlagSpec {
  // Without the dashes: "dump".
  std::string name;
  // What the value is, for the help ("NAME"); empty for a switch.
  std::string value_name;
  // One sentence for the help screen.
  std::string help;
};

class CommandLine {
 public:
  // `usage` follows "usage: " on the help screen; `description` is the
  // paragraph after it.
  CommandLine(std::string usage, std::string description,
              std::vector<FlagSpec> flags);

  // Reads argv[1..argc). Throws UsageError.
  void Parse(int argc, char** argv);
  // Parse on a vector of arguments (argv without the program name).
  void Parse(const std::vector<std::string>& args);

  bool help_requested() const { return help_requested_; }
  std::string HelpText() const;
  const std::string& usage() const { return usage_; }

  // Whether the flag was given.
  bool Has(const std::string& name) const;
  // The flag's value, or `fallback` when it was not given.
  std::string Get(const std::string& name,
                  const std::string& fallback = "") const;
  // The flag's value as an integer >= `minimum`. Throws UsageError.
  int GetInt(const std::string& name, int fallback, int minimum) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  const FlagSpec* Find(const std::string& name) const;

  std::string usage_;
  std::string description_;
  std::vector<FlagSpec> flags_;
  bool help_requested_ = false;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// Parses the command line into `cli`, prints the help or runs `body`, and
// returns the exit status as the contracts above say.
int RunTool(int argc, char** argv, CommandLine* cli,
            const std::function<int()>& body);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CLI_H_
