#include "train/onnx/onnx_graph.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace train {

bool HeldAsRows(const Shape<4>& shape) {
  return shape[1] == 1 && shape[2] == 1;
}

void SetAttribute(onnx::NodeProto* node, const std::string& name,
                  int64_t value) {
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(value);
}

void SetAttribute(onnx::NodeProto* node, const std::string& name, float value) {
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::FLOAT);
  attribute->set_f(value);
}

void SetAttribute(onnx::NodeProto* node, const std::string& name,
                  const std::vector<int64_t>& values) {
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INTS);
  for (int64_t value : values) attribute->add_ints(value);
}

std::string OnnxGraph::NewName(absl::string_view base) {
  std::string name(base);
  for (int suffix = 2; names_.count(name) != 0; ++suffix) {
    name = absl::StrCat(base, "_", suffix);
  }
  names_.insert(name);
  return name;
}

void OnnxGraph::SetType(const OnnxValue& value,
                        onnx::ValueInfoProto* info) const {
  info->set_name(value.name);
  onnx::TypeProto::Tensor* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto::FLOAT);
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  shape->add_dim()->set_dim_param("batch");
  if (value.rows) {
    shape->add_dim()->set_dim_value(value.shape.Size() / value.shape[0]);
  } else {
    for (int axis = 1; axis < 4; ++axis) {
      shape->add_dim()->set_dim_value(value.shape[axis]);
    }
  }
}

OnnxValue OnnxGraph::AddInput(const std::string& name, const Shape<4>& shape) {
  OnnxValue value{NewName(name), shape, false};
  SetType(value, graph_->add_input());
  return value;
}

void OnnxGraph::AddOutput(const OnnxValue& value) {
  SetType(value, graph_->add_output());
}

onnx::NodeProto* OnnxGraph::AddNode(const std::string& op,
                                    const std::vector<std::string>& inputs,
                                    const std::string& output) {
  onnx::NodeProto* node = graph_->add_node();
  node->set_op_type(op);
  node->set_name(output);
  for (const std::string& input : inputs) node->add_input(input);
  node->add_output(output);
  return node;
}

std::string OnnxGraph::AddWeight(const std::string& name,
                                 const std::vector<int64_t>& dims,
                                 const float* values) {
  auto found = weights_.find({values, dims});
  if (found != weights_.end()) return found->second;
  const std::string stored = NewName(name);
  weights_[{values, dims}] = stored;
  AddFloatInitializer(stored, dims, values);
  return stored;
}

std::string OnnxGraph::AddConstant(absl::string_view base,
                                   const std::vector<int64_t>& dims,
                                   const std::vector<float>& values) {
  const std::string name = NewName(base);
  AddFloatInitializer(name, dims, values.data());
  return name;
}

void OnnxGraph::AddFloatInitializer(const std::string& name,
                                    const std::vector<int64_t>& dims,
                                    const float* values) {
  onnx::TensorProto* tensor = graph_->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::FLOAT);
  int64_t count = 1;
  for (int64_t dim : dims) {
    tensor->add_dims(dim);
    count *= dim;
  }
  // Raw little-endian bytes: the compact form ONNX readers expect for
  // large tensors.
  tensor->set_raw_data(reinterpret_cast<const char*>(values),
                       static_cast<size_t>(count) * sizeof(float));
}

std::string OnnxGraph::AddInt64Constant(absl::string_view base,
                                        const std::vector<int64_t>& values) {
  const std::string name = NewName(base);
  onnx::TensorProto* tensor = graph_->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::INT64);
  tensor->add_dims(static_cast<int64_t>(values.size()));
  for (int64_t value : values) tensor->add_int64_data(value);
  return name;
}

OnnxValue OnnxGraph::As4D(const OnnxValue& value) {
  return value.rows ? Reshaped(value, NewName(value.name + "_4d"), false)
                    : value;
}

OnnxValue OnnxGraph::AsRows(const OnnxValue& value) {
  return value.rows ? value
                    : Reshaped(value, NewName(value.name + "_rows"), true);
}

OnnxValue OnnxGraph::HeldAsShape(const OnnxValue& value,
                                 const std::string& name) {
  const bool rows = HeldAsRows(value.shape);
  if (rows == value.rows && name == value.name) return value;
  if (rows == value.rows) {
    AddNode("Identity", {value.name}, name);
    return OnnxValue{name, value.shape, rows};
  }
  return Reshaped(value, name, rows);
}

OnnxValue OnnxGraph::Reshaped(const OnnxValue& value, const std::string& name,
                              bool rows) {
  if (rows) {
    // (batch, c*h*w): each instance's values in umbra's order.
    SetAttribute(AddNode("Flatten", {value.name}, name), "axis", int64_t{1});
  } else {
    const std::vector<int64_t> dims = {0, value.shape[1], value.shape[2],
                                       value.shape[3]};
    AddNode("Reshape", {value.name, AddInt64Constant("shape", dims)}, name);
  }
  return OnnxValue{name, value.shape, rows};
}

}  // namespace train
}  // namespace umbra
