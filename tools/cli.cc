#include "tools/cli.h"

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "param/edit_distance.h"
#include "param/quote.h"

namespace umbra {
namespace tools {

CommandLine::CommandLine(std::string usage, std::string description,
                         std::vector<FlagSpec> flags)
    : usage_(std::move(usage)),
      description_(std::move(description)),
      flags_(std::move(flags)) {}

const FlagSpec* CommandLine::Find(const std::string& name) const {
  for (const FlagSpec& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

void CommandLine::Parse(int argc, char** argv) {
  Parse(std::vector<std::string>(argv + 1, argv + argc));
}

void CommandLine::Parse(const std::vector<std::string>& args) {
  bool flags_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (flags_done || arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      help_requested_ = true;
      continue;
    }
    const size_t dashes = arg[1] == '-' ? 2 : 1;
    std::string name = arg.substr(dashes);
    std::string value;
    bool has_value = false;
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    const FlagSpec* flag = Find(name);
    if (flag == nullptr) {
      std::vector<std::string> names;
      for (const FlagSpec& known : flags_) names.push_back(known.name);
      std::string message =
          absl::StrCat("unknown flag ", QuoteShort("--" + name));
      if (auto closest = param::ClosestMatch(name, names)) {
        absl::StrAppend(&message, "; did you mean '--", *closest, "'?");
      }
      absl::StrAppend(&message, names.empty()
                                    ? " (this tool takes no flags)"
                                    : absl::StrCat(" (flags: --",
                                                   absl::StrJoin(names, ", --"),
                                                   ", --help)"));
      throw UsageError(message);
    }
    if (flag->value_name.empty()) {
      if (has_value) {
        throw UsageError(
            absl::StrCat("flag '--", name, "' is a switch and takes no value"));
      }
      values_[name] = "1";
      continue;
    }
    if (!has_value) {
      if (i + 1 >= args.size()) {
        throw UsageError(absl::StrCat("flag '--", name, "' needs a value (",
                                      flag->value_name, ")"));
      }
      value = args[++i];
    }
    values_[name] = value;
  }
}

std::string CommandLine::HelpText() const {
  std::string out = absl::StrCat("usage: ", usage_, "\n\n", description_, "\n");
  if (!flags_.empty()) out += "\nflags:\n";
  for (const FlagSpec& flag : flags_) {
    std::string left = absl::StrCat("  --", flag.name);
    if (!flag.value_name.empty()) absl::StrAppend(&left, "=", flag.value_name);
    if (left.size() < 24) left.resize(24, ' ');
    absl::StrAppend(&out, left, " ", flag.help, "\n");
  }
  out += "  --help                 print this help and exit\n";
  return out;
}

bool CommandLine::Has(const std::string& name) const {
  return values_.count(name) > 0;
}

std::string CommandLine::Get(const std::string& name,
                             const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

int CommandLine::GetInt(const std::string& name, int fallback,
                        int minimum) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  int value = 0;
  if (!absl::SimpleAtoi(it->second, &value) || value < minimum) {
    throw UsageError(absl::StrCat("flag '--", name, "' needs an integer >= ",
                                  minimum, ", got '", it->second, "'"));
  }
  return value;
}

int RunTool(int argc, char** argv, CommandLine* cli,
            const std::function<int()>& body) {
  try {
    cli->Parse(argc, argv);
    if (cli->help_requested()) {
      std::cout << cli->HelpText();
      return 0;
    }
    if (const char* dir = std::getenv("BUILD_WORKING_DIRECTORY")) {
      if (chdir(dir) != 0) {
        std::cerr << "error: cannot change to the caller's directory '" << dir
                  << "'\n";
        return 1;
      }
    }
    return body();
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << "\nusage: " << cli->usage()
              << "\n(run with --help for more)\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}

}  // namespace tools
}  // namespace umbra
