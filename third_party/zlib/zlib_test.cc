// Checks that zlib links: random bytes survive compress + uncompress, and
// repetitive bytes shrink.
#include <zlib.h>

#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace {

std::vector<Bytef> Compress(const std::vector<Bytef>& input) {
  uLongf size = compressBound(input.size());
  std::vector<Bytef> output(size);
  EXPECT_EQ(compress(output.data(), &size, input.data(), input.size()), Z_OK);
  output.resize(size);
  return output;
}

TEST(ZlibTest, RoundTripRandomBytes) {
  std::mt19937 rng(std::random_device{}());
  std::vector<Bytef> input(10000 + rng() % 1000);
  for (Bytef& byte : input)
    byte = static_cast<Bytef>(rng() % 4);  // compressible
  const std::vector<Bytef> packed = Compress(input);
  EXPECT_LT(packed.size(), input.size());

  std::vector<Bytef> unpacked(input.size());
  uLongf size = unpacked.size();
  ASSERT_EQ(uncompress(unpacked.data(), &size, packed.data(), packed.size()),
            Z_OK);
  EXPECT_EQ(size, input.size());
  EXPECT_EQ(unpacked, input);
}

}  // namespace
