// The seed of every randomized test, and the one switch that replays it:
// the environment variable UMBRA_TEST_SEED. Unset, each test draws a fresh
// seed; its failures print it, and setting UMBRA_TEST_SEED to that value
// runs the test on the same random numbers again.
//
// Example:
//   TEST(Foo, Bar) {
//     ScopedTestSeed seed;  // failures add "random seed N (replay: ...)"
//     std::mt19937 engine(seed.value());
//     ...
//   }
//
//   bazel test //layers:gradient_check_test --test_env=UMBRA_TEST_SEED=42
#ifndef UMBRA_TENSOR_TEST_SEED_H_
#define UMBRA_TENSOR_TEST_SEED_H_

#include "gtest/gtest.h"

namespace umbra {
namespace test {

// UMBRA_TEST_SEED when it is set, else a fresh std::random_device value.
// Throws std::invalid_argument, naming the variable and its value, when
// UMBRA_TEST_SEED is not a decimal unsigned number.
unsigned TestSeed();

// A TestSeed() that every failure in the scope holding it reports, as
// "random seed 1234 (replay: UMBRA_TEST_SEED=1234)" (a
// ::testing::ScopedTrace). Construct it on the test's thread, once per
// test: a test that takes one seed replays exactly.
class ScopedTestSeed {
 public:
  ScopedTestSeed();
  unsigned value() const { return seed_; }

 private:
  unsigned seed_;
  ::testing::ScopedTrace trace_;
};

}  // namespace test
}  // namespace umbra

#endif  // UMBRA_TENSOR_TEST_SEED_H_
