// QuoteShort escapes control characters, keeps short text whole and cuts
// long text at kQuoteChars with its length.
#include "param/quote.h"

#include <string>

#include "gtest/gtest.h"

namespace umbra {
namespace {

TEST(QuoteShortTest, EscapesControlCharacters) {
  EXPECT_EQ(QuoteShort("a\tb\r\n\x01z\x7f"), "'a\\tb\\r\\n\\x01z\\x7f'");
  EXPECT_EQ(QuoteShort(""), "''");
}

TEST(QuoteShortTest, CutsLongTextAndSaysHowLong) {
  EXPECT_EQ(QuoteShort(std::string(80, 'q')), "'" + std::string(80, 'q') + "'");
  EXPECT_EQ(QuoteShort(std::string(10'000'000, 'q')),
            "'" + std::string(80, 'q') + "'... (10000000 bytes in all)");
}

}  // namespace
}  // namespace umbra
