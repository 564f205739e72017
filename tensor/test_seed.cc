#include "tensor/test_seed.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace umbra {
namespace test {

namespace {

std::string SeedText(unsigned seed) {
  const std::string n = std::to_string(seed);
  return "random seed " + n + " (replay: UMBRA_TEST_SEED=" + n + ")";
}

}  // namespace

unsigned TestSeed() {
  const char* text = std::getenv("UMBRA_TEST_SEED");
  if (text == nullptr) return std::random_device{}();
  const char* end = text + std::strlen(text);
  unsigned seed = 0;
  const std::from_chars_result parsed = std::from_chars(text, end, seed);
  if (parsed.ec != std::errc() || parsed.ptr != end) {
    throw std::invalid_argument(
        std::string("UMBRA_TEST_SEED=\"") + text +
        "\" is not a seed: expected a decimal number from 0 to " +
        std::to_string(std::numeric_limits<unsigned>::max()) +
        ", as a failing test prints it (\"random seed N\")");
  }
  return seed;
}

ScopedTestSeed::ScopedTestSeed()
    : seed_(TestSeed()), trace_(__FILE__, __LINE__, SeedText(seed_)) {}

}  // namespace test
}  // namespace umbra
