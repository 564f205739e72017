#include "param/json.h"

#include <string>

#include "gtest/gtest.h"
#include "param/test_util.h"

namespace umbra {
namespace param {
namespace {

// The error of reading `json` as the object of struct "Test", or "no error".
std::string ReadError(const std::string& json) {
  return param_test::ErrorOf([&] { ReadJsonObject(json, "Test"); });
}

TEST(JsonTest, WritesOneLineWithEscapes) {
  EXPECT_EQ(WriteJsonObject({}), "{}");
  EXPECT_EQ(WriteJsonObject({{"a", "1"}, {"b", "x y"}}),
            "{\"a\": \"1\", \"b\": \"x y\"}");
  EXPECT_EQ(JsonQuote("q\"b\\n\nr\rt\tb\bf\f"),
            "\"q\\\"b\\\\n\\nr\\rt\\tb\\bf\\f\"");
  EXPECT_EQ(JsonQuote(std::string("\x01\x1f\0", 3)),
            "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(JsonQuote("caf\xc3\xa9 / \x7f"), "\"caf\xc3\xa9 / \x7f\"");
}

TEST(JsonTest, ReadsWhatItWrites) {
  const ParamKwargs kwargs = {{"name", "say \"hi\"\n\tthere\\"},
                              {"empty", ""},
                              {"ctl", std::string("\x01\0\x1f", 3)},
                              {"utf8", "\xe2\x82\xac"}};
  EXPECT_EQ(ReadJsonObject(WriteJsonObject(kwargs), "Test"), kwargs);
}

TEST(JsonTest, ReadsWhitespaceEscapesAndUnicode) {
  EXPECT_EQ(ReadJsonObject(" \n{ } \t", "Test"), ParamKwargs{});
  EXPECT_EQ(ReadJsonObject("{\"a\":\"1\",\"b\" : \"2\"}", "Test"),
            (ParamKwargs{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(
      ReadJsonObject(R"({"k": "\/\u0041\u00e9\u20AC\ud83d\ude00"})", "Test"),
      (ParamKwargs{{"k", "/A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"}}));
}

TEST(JsonTest, StrictErrorsGiveTheByteOffset) {
  EXPECT_EQ(ReadError(""),
            "Test: invalid JSON at byte 0: expected '{' to open the object");
  EXPECT_EQ(ReadError("[]"),
            "Test: invalid JSON at byte 0: expected '{' to open the object");
  EXPECT_EQ(ReadError("{"),
            "Test: invalid JSON at byte 1: expected a '\"'-quoted key");
  EXPECT_EQ(ReadError("{\"a\" \"1\"}"),
            "Test: invalid JSON at byte 5: expected ':' after a key");
  EXPECT_EQ(
      ReadError("{\"a\": 1}"),
      "Test: invalid JSON at byte 6: expected a '\"'-quoted string value");
  EXPECT_EQ(ReadError("{\"a\": \"1\" \"b\": \"2\"}"),
            "Test: invalid JSON at byte 10: expected ',' or '}' after a value");
  EXPECT_EQ(ReadError("{\"a\": \"1\",}"),
            "Test: invalid JSON at byte 10: expected a '\"'-quoted key");
  EXPECT_EQ(ReadError("{\"a\": \"1\"} x"),
            "Test: invalid JSON at byte 11: unexpected text after the object");
  EXPECT_EQ(ReadError("{\"a\": \"1"),
            "Test: invalid JSON at byte 8: unterminated string");
  EXPECT_EQ(ReadError("{\"a\": \"1\\"),
            "Test: invalid JSON at byte 9: unterminated string");
  EXPECT_EQ(ReadError("{\"a\": \"\n\"}"),
            "Test: invalid JSON at byte 7: raw control character in a string "
            "(escape it)");
  EXPECT_EQ(ReadError("{\"a\": \"\\x\"}"),
            "Test: invalid JSON at byte 7: unknown escape");
  EXPECT_EQ(
      ReadError("{\"a\": \"\\u12\"}"),
      "Test: invalid JSON at byte 11: expected four hex digits after \\u");
  EXPECT_EQ(ReadError("{\"a\": \"\\u12"),
            "Test: invalid JSON at byte 9: expected four hex digits after \\u");
  EXPECT_EQ(ReadError("{\"a\": \"\\ud800\"}"),
            "Test: invalid JSON at byte 7: high surrogate without a following "
            "\\u low "
            "surrogate");
  EXPECT_EQ(ReadError("{\"a\": \"\\ud800\\u0041\"}"),
            "Test: invalid JSON at byte 7: high surrogate without a low one");
  EXPECT_EQ(ReadError("{\"a\": \"\\udc00\"}"),
            "Test: invalid JSON at byte 7: unpaired low surrogate");
  EXPECT_EQ(ReadError("{\"a\": \"1\", \"a\": \"2\"}"),
            "Test: invalid JSON at byte 11: duplicate key 'a'");
}

}  // namespace
}  // namespace param
}  // namespace umbra
