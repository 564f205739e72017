// Tests of the lexer: every construct of a line, quotes, comments, CRLF, the
// byte order mark, command-line overrides, and each malformed-line error with
// its exact file:line text.
#include "train/config/config_lexer.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "train/config/config_error.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::ConfigErrorOf;

// "key=value@line" for each entry, joined by " | ".
std::string Summary(const std::vector<ConfigEntry>& entries) {
  std::string out;
  for (const ConfigEntry& entry : entries) {
    if (!out.empty()) out += " | ";
    out += entry.key + "=" + entry.value + "@" +
           std::to_string(entry.location.line);
  }
  return out;
}

std::string Lex(const std::string& text) {
  return Summary(ParseConfigText(text, "t.conf"));
}

std::string LexError(const std::string& text) {
  return ConfigErrorOf([&] { ParseConfigText(text, "t.conf"); });
}

TEST(ConfigLexerTest, KeyValueLinesWithFreeWhitespace) {
  EXPECT_EQ(Lex("a=1\n  b   =\t2  \n\tc= 3\nd =4"),
            "a=1@1 | b=2@2 | c=3@3 | d=4@4");
}

TEST(ConfigLexerTest, BlankLinesAndCommentsAreSkipped) {
  EXPECT_EQ(Lex("# header\n\n   \n\t# indented\na = 1 # trailing\n"
                "b = 2# glued\nc = x#y\n#"),
            "a=1@5 | b=2@6 | c=x@7");
}

TEST(ConfigLexerTest, EmptyTextHasNoEntries) {
  EXPECT_EQ(Lex(""), "");
  EXPECT_EQ(Lex("\n\n# only a comment"), "");
}

TEST(ConfigLexerTest, KeysKeepBracketsArrowsCommasAndColons) {
  EXPECT_EQ(Lex("layer[0->1] = fullc:fc1\nlayer[a,b->c]=concat\n"
                "wmat:lr = 0.1\nlayer[+1:fc] = relu\n"),
            "layer[0->1]=fullc:fc1@1 | layer[a,b->c]=concat@2 | "
            "wmat:lr=0.1@3 | layer[+1:fc]=relu@4");
}

TEST(ConfigLexerTest, DoubleQuotedValues) {
  const std::vector<ConfigEntry> entries = ParseConfigText(
      "path = \"a b # not a comment = still\"\n"
      "empty = \"\"\n"
      "escaped = \"say \\\"hi\\\" \\\\ \\n\"  # comment\n"
      "\"quoted key\" = 1\n",
      "t.conf");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].value, "a b # not a comment = still");
  EXPECT_TRUE(entries[0].quoted_value);
  EXPECT_EQ(entries[1].value, "");
  // A backslash takes the next character literally, as in cxxnet.
  EXPECT_EQ(entries[2].value, "say \"hi\" \\ n");
  EXPECT_EQ(entries[3].key, "quoted key");
  EXPECT_FALSE(entries[3].quoted_value);
}

TEST(ConfigLexerTest, SingleQuotedValuesMaySpanLines) {
  const std::vector<ConfigEntry> entries =
      ParseConfigText("a = 'one\r\ntwo\n  three'\n", "t.conf");
  ASSERT_GE(entries.size(), 1u);
  EXPECT_EQ(entries[0].value, "one\ntwo\n  three");
  EXPECT_EQ(entries[0].location.line, 1);
  EXPECT_EQ(LexError("a = 'one\ntwo\n  three'\nb = 'x'y\n"),
            "t.conf:4: text directly after the closing quote of the value: "
            "'y'; put a space or a comment after it");
  EXPECT_EQ(Lex("a = 'x\n'\nb = 1"), "a=x\n@1 | b=1@3");
}

TEST(ConfigLexerTest, CrlfCrAndByteOrderMark) {
  EXPECT_EQ(Lex("\xEF\xBB\xBF"
                "a = 1\r\nb = \"x\"\r\n\r\n# c\r\nc = 3\r\n"),
            "a=1@1 | b=x@2 | c=3@5");
  EXPECT_EQ(Lex("a = 1\rb = 2\r"), "a=1@1 | b=2@2");
  // A byte order mark elsewhere is text, not skipped.
  EXPECT_EQ(Lex("a = \xEF\xBB\xBF"), "a=\xEF\xBB\xBF@1");
}

TEST(ConfigLexerTest, LocationsNameTheSource) {
  const std::vector<ConfigEntry> entries =
      ParseConfigText("\n\nx = 1\n", "dir/my.conf");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].location, SourceLocation::File("dir/my.conf", 3));
  EXPECT_EQ(entries[0].location.ToString(), "dir/my.conf:3");
  EXPECT_EQ(entries[0].ToString(), "x = 1");
}

TEST(ConfigLexerTest, MalformedLines) {
  EXPECT_EQ(LexError("a = 1\njust words\n"),
            "t.conf:2: expected '=' after key 'just', got 'words'; keys have "
            "no spaces (quote values that do)");
  EXPECT_EQ(LexError("\n\nnhidden\n"),
            "t.conf:3: no '=' after key 'nhidden'; expected key = value");
  EXPECT_EQ(LexError("nhidden # = 3\n"),
            "t.conf:1: no '=' after key 'nhidden'; expected key = value");
  EXPECT_EQ(LexError("= 3\n"),
            "t.conf:1: missing key before '=' in '= 3'; expected key = value");
  EXPECT_EQ(LexError("\"\" = 3\n"),
            "t.conf:1: empty key; expected key = value");
  EXPECT_EQ(LexError("eta =\n0.1\n"),
            "t.conf:1: missing value for key 'eta' after '='");
  EXPECT_EQ(LexError("eta = # none\n"),
            "t.conf:1: missing value for key 'eta' after '='");
  EXPECT_EQ(LexError("a = = b\n"),
            "t.conf:1: two '=' after key 'a'; expected one key = value per "
            "line");
  EXPECT_EQ(LexError("a = b = c\n"),
            "t.conf:1: unexpected text after the value of 'a': '= c'; one "
            "key = value per line, and a value with spaces must be quoted");
  EXPECT_EQ(LexError("path = my file.gz\n"),
            "t.conf:1: unexpected text after the value of 'path': 'file.gz'; "
            "one key = value per line, and a value with spaces must be "
            "quoted");
  EXPECT_EQ(LexError("path = ab\"c\"\n"),
            "t.conf:1: a quote directly after 'ab' in the value; quote the "
            "whole value or put a space before the quote");
  EXPECT_EQ(LexError("path = \"c\"d\n"),
            "t.conf:1: text directly after the closing quote of the value: "
            "'d'; put a space or a comment after it");
  EXPECT_EQ(LexError("a = b\x01\n"),
            "t.conf:1: control character \\x01 in the value");
}

TEST(ConfigLexerTest, UnterminatedQuotes) {
  EXPECT_EQ(LexError("a = 1\npath_img = \"../data/train.gz\nb = 2\n"),
            "t.conf:2: unterminated \"...\" quote in value of 'path_img': a "
            "\"...\" quote must close on the same line (use '...' for values "
            "that span lines)");
  EXPECT_EQ(LexError("a = \"x\\"),
            "t.conf:1: unterminated \"...\" quote in value of 'a': a \"...\" "
            "quote must close on the same line (use '...' for values that "
            "span lines)");
  EXPECT_EQ(LexError("\n doc = 'one\ntwo\n"),
            "t.conf:2: unterminated '...' quote in value of 'doc': the text "
            "ends before the closing '");
  EXPECT_EQ(LexError("\"key = 1\n"),
            "t.conf:1: unterminated \"...\" quote in key: a \"...\" quote "
            "must close on the same line (use '...' for values that span "
            "lines)");
}

TEST(ConfigLexerTest, ErrorsCarryTheKey) {
  try {
    ParseConfigText("ok = 1\npath = a b\n", "x.conf");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "path");
    EXPECT_EQ(e.location(), SourceLocation::File("x.conf", 2));
    EXPECT_EQ(std::string(e.what()), "x.conf:2: " + e.detail());
  }
}

TEST(ConfigLexerTest, ParseConfigFileReadsAFile) {
  const std::string path = ::testing::TempDir() + "/lexer_test.conf";
  {
    std::ofstream out(path, std::ios::binary);
    out << "\xEF\xBB\xBFnum_round = 3\r\n# c\r\ndev = cpu\r\n";
  }
  const std::vector<ConfigEntry> entries = ParseConfigFile(path);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].location.ToString(), path + ":3");
  std::remove(path.c_str());
  EXPECT_EQ(ConfigErrorOf([&] { ParseConfigFile(path); }),
            path + ": cannot open the config file: No such file or directory");
}

// An endless stream stops at the limit: nothing reads it all into memory.
TEST(ConfigLexerTest, ParseConfigFileStopsAtTheSizeLimit) {
  EXPECT_EQ(ConfigErrorOf([&] { ParseConfigFile("/dev/zero"); }),
            "/dev/zero: the config file holds more than 64 MiB, the most a "
            "config may have (is it a config file?)");
}

// A pipe (process substitution, <(...)) reads like a file.
TEST(ConfigLexerTest, ParseConfigFileReadsAPipe) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  const std::string text = "num_round = 7\n";
  ASSERT_EQ(write(ends[1], text.data(), text.size()),
            static_cast<ssize_t>(text.size()));
  close(ends[1]);
  const std::vector<ConfigEntry> entries =
      ParseConfigFile("/dev/fd/" + std::to_string(ends[0]));
  close(ends[0]);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].value, "7");
}

TEST(ConfigLexerTest, ParseConfigFileRefusesADirectory) {
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(ConfigErrorOf([&] { ParseConfigFile(dir); }),
            dir + ": '" + dir + "' is a directory, not a config file");
}

TEST(ConfigLexerTest, CommandLineOverrides) {
  const std::vector<ConfigEntry> entries =
      ParseCommandLineOverrides({"eta=0.05", "model_dir=/tmp/a b", "x==y"}, 2);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].key, "eta");
  EXPECT_EQ(entries[0].value, "0.05");
  EXPECT_EQ(entries[0].location, SourceLocation::CommandLine(2));
  EXPECT_TRUE(entries[0].location.from_command_line());
  EXPECT_EQ(entries[1].value, "/tmp/a b");
  EXPECT_EQ(entries[2].value, "=y");
  EXPECT_EQ(entries[2].location.ToString(), "command line: argument 4");
}

TEST(ConfigLexerTest, CommandLineOverrideErrors) {
  EXPECT_EQ(ConfigErrorOf([] {
              ParseCommandLineOverrides({"a=1", "eta"});
            }),
            "command line: argument 2: expected key=value, got 'eta'");
  EXPECT_EQ(ConfigErrorOf([] { ParseCommandLineOverrides({"=1"}, 2); }),
            "command line: argument 2: missing key before '=' in '=1'; "
            "expected key=value");
  EXPECT_EQ(ConfigErrorOf([] { ParseCommandLineOverrides({"eta="}, 2); }),
            "command line: argument 2: missing value for key 'eta'; expected "
            "eta=VALUE");
  EXPECT_EQ(ConfigErrorOf([] { ParseCommandLineOverrides({"e ta=1"}, 2); }),
            "command line: argument 2: key 'e ta' has a space, quote, '#' or "
            "control character; expected key=value");
}

}  // namespace
}  // namespace train
}  // namespace umbra
