#include "tools/cli.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace umbra {
namespace tools {
namespace {

CommandLine MakeCli() {
  return CommandLine("tool FILE [--dump NAME]", "Does things.",
                     {{"dump", "NAME", "dump NAME"},
                      {"iterations", "N", "how many"},
                      {"quiet", "", "say less"}});
}

TEST(CommandLineTest, FlagsAndPositionals) {
  CommandLine cli = MakeCli();
  cli.Parse(std::vector<std::string>{"a.conf", "--dump", "fc1.wmat", "eta=0.1",
                                     "--iterations=5", "--quiet", "--",
                                     "--not-a-flag"});
  EXPECT_EQ(cli.positional(),
            (std::vector<std::string>{"a.conf", "eta=0.1", "--not-a-flag"}));
  EXPECT_EQ(cli.Get("dump"), "fc1.wmat");
  EXPECT_EQ(cli.GetInt("iterations", 1, 1), 5);
  EXPECT_TRUE(cli.Has("quiet"));
  EXPECT_FALSE(cli.help_requested());
  EXPECT_EQ(cli.Get("missing", "x"), "x");
}

TEST(CommandLineTest, UnknownFlagSuggestsTheClosest) {
  CommandLine cli = MakeCli();
  try {
    cli.Parse(std::vector<std::string>{"--dupm=x"});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown flag '--dupm'; did you mean '--dump'? (flags: "
                 "--dump, --iterations, --quiet, --help)");
  }
}

TEST(CommandLineTest, BadValues) {
  CommandLine missing = MakeCli();
  EXPECT_THROW(missing.Parse(std::vector<std::string>{"--dump"}), UsageError);
  CommandLine valued_switch = MakeCli();
  EXPECT_THROW(valued_switch.Parse(std::vector<std::string>{"--quiet=1"}),
               UsageError);
  CommandLine bad_int = MakeCli();
  bad_int.Parse(std::vector<std::string>{"--iterations=0"});
  EXPECT_THROW(bad_int.GetInt("iterations", 1, 1), UsageError);
}

TEST(CommandLineTest, Help) {
  CommandLine cli = MakeCli();
  cli.Parse(std::vector<std::string>{"--help"});
  EXPECT_TRUE(cli.help_requested());
  EXPECT_EQ(cli.HelpText(),
            "usage: tool FILE [--dump NAME]\n\nDoes things.\n\nflags:\n"
            "  --dump=NAME            dump NAME\n"
            "  --iterations=N         how many\n"
            "  --quiet                say less\n"
            "  --help                 print this help and exit\n");
}

TEST(RunToolTest, ExitStatuses) {
  char name[] = "tool";
  char help[] = "--help";
  char bad[] = "--bad";
  char file[] = "x";
  char* with_help[] = {name, help};
  char* with_bad[] = {name, bad};
  char* with_file[] = {name, file};
  CommandLine a = MakeCli(), b = MakeCli(), c = MakeCli(), d = MakeCli();
  EXPECT_EQ(RunTool(2, with_help, &a, [] { return 5; }), 0);
  EXPECT_EQ(RunTool(2, with_bad, &b, [] { return 5; }), 2);
  EXPECT_EQ(RunTool(2, with_file, &c, [] { return 5; }), 5);
  EXPECT_EQ(RunTool(2, with_file, &d,
                    []() -> int { throw std::runtime_error("boom"); }),
            1);
}

}  // namespace
}  // namespace tools
}  // namespace umbra
