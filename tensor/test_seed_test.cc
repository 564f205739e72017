// TestSeed reads UMBRA_TEST_SEED, refuses a malformed one, and
// ScopedTestSeed prints the seed with every failure.
#include "tensor/test_seed.h"

#include <stdlib.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

namespace umbra {
namespace test {
namespace {

// Sets UMBRA_TEST_SEED for its lifetime, then restores what the test run
// had (which may itself replay a seed).
class SeedVariable {
 public:
  explicit SeedVariable(const char* value) {
    if (const char* old = getenv(kName)) old_ = old;
    setenv(kName, value, 1);
  }
  ~SeedVariable() {
    if (old_) {
      setenv(kName, old_->c_str(), 1);
    } else {
      unsetenv(kName);
    }
  }

 private:
  static constexpr char kName[] = "UMBRA_TEST_SEED";
  std::optional<std::string> old_;
};

TEST(TestSeedTest, ReadsUmbraTestSeed) {
  SeedVariable variable("1234");
  EXPECT_EQ(TestSeed(), 1234u);
  EXPECT_EQ(ScopedTestSeed().value(), 1234u);
  SeedVariable largest("4294967295");
  EXPECT_EQ(TestSeed(), 4294967295u);
}

TEST(TestSeedTest, RefusesAMalformedSeed) {
  for (const char* value : {"", "abc", "12x", " 7", "+7", "-1", "4294967296"}) {
    SeedVariable variable(value);
    try {
      TestSeed();
      ADD_FAILURE() << "no error for \"" << value << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                "UMBRA_TEST_SEED=\"" + std::string(value) +
                    "\" is not a seed: expected a decimal number from 0 to "
                    "4294967295, as a failing test prints it (\"random seed "
                    "N\")");
    }
  }
}

void FailWithSeed() {
  ScopedTestSeed seed;
  ADD_FAILURE() << "a failure";
}

TEST(TestSeedTest, FailuresPrintTheSeedAndHowToReplayIt) {
  SeedVariable variable("77");
  EXPECT_NONFATAL_FAILURE(FailWithSeed(),
                          "random seed 77 (replay: UMBRA_TEST_SEED=77)");
}

}  // namespace
}  // namespace test
}  // namespace umbra
