// Checks that a .proto compiled by the system protoc links against libprotobuf
// and round-trips through its wire format, and that corrupt bytes are refused.
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "third_party/protobuf/example.pb.h"

namespace {

TEST(ProtobufTest, RoundTripThroughWireFormat) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  umbra::third_party::ExampleTensor tensor;
  tensor.set_name("fc1.wmat");
  tensor.add_shape(3);
  tensor.add_shape(7);
  for (int i = 0; i < 21; ++i) tensor.add_values(uniform(rng));
  tensor.mutable_written()->set_seconds(1795000000);

  const std::string bytes = tensor.SerializeAsString();
  umbra::third_party::ExampleTensor parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(parsed.name(), "fc1.wmat");
  ASSERT_EQ(parsed.shape_size(), 2);
  EXPECT_EQ(parsed.shape(1), 7);
  ASSERT_EQ(parsed.values_size(), 21);
  for (int i = 0; i < 21; ++i) EXPECT_EQ(parsed.values(i), tensor.values(i));
  EXPECT_EQ(parsed.written().seconds(), 1795000000);

  EXPECT_FALSE(
      parsed.ParseFromString(bytes.substr(0, bytes.size() / 2) + "\xff\xff"));
}

}  // namespace
