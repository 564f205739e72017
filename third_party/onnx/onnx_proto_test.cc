// Checks that Debian's onnx.proto compiles with the system protoc and that a
// model written with its classes round-trips through the wire format.
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "onnx/onnx.pb.h"

namespace {

TEST(OnnxProtoTest, ModelRoundTripsThroughWireFormat) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  onnx::ModelProto model;
  model.set_ir_version(onnx::IR_VERSION_2020_5_8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto* graph = model.mutable_graph();
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type("Gemm");
  node->add_input("x");
  node->add_input("w");
  node->add_output("y");
  onnx::AttributeProto* trans_b = node->add_attribute();
  trans_b->set_name("transB");
  trans_b->set_type(onnx::AttributeProto::INT);
  trans_b->set_i(1);
  onnx::TensorProto* weight = graph->add_initializer();
  weight->set_name("w");
  weight->set_data_type(onnx::TensorProto::FLOAT);
  weight->add_dims(2);
  weight->add_dims(3);
  for (int i = 0; i < 6; ++i) weight->add_float_data(uniform(rng));

  onnx::ModelProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(model.SerializeAsString()));
  EXPECT_EQ(parsed.ir_version(), 7);
  EXPECT_EQ(parsed.opset_import(0).version(), 13);
  ASSERT_EQ(parsed.graph().node_size(), 1);
  EXPECT_EQ(parsed.graph().node(0).op_type(), "Gemm");
  EXPECT_EQ(parsed.graph().node(0).attribute(0).i(), 1);
  ASSERT_EQ(parsed.graph().initializer(0).float_data_size(), 6);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(parsed.graph().initializer(0).float_data(i),
              weight->float_data(i));
  }
  EXPECT_FALSE(parsed.ParseFromString("\xff\xff\xff\xff garbage"));
}

}  // namespace
