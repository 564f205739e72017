// OnnxGraph: writes the nodes, constants and weights of an ONNX graph
// (onnx.proto's GraphProto) with names that are unique in it, and keeps
// track of how each umbra node is held: umbra's nodes are all 4-D (batch,
// channel, height, width), ONNX's operators want a matrix as 2-D, so a node
// of matrix shape (batch, 1, 1, n) is held as (batch, n) ("rows") and every
// other node as it is. The batch dimension is left free.
//
// Example:
//
//   onnx::GraphProto proto;
//   OnnxGraph graph(&proto);
//   OnnxValue x = graph.AddInput("in", Shape4(1, 1, 28, 28));  // 4-D
//   OnnxValue rows = graph.AsRows(x);              // Flatten: (batch, 784)
//   onnx::NodeProto* gemm = graph.AddNode(
//       "Gemm", {rows.name, graph.AddWeight("fc1.wmat", {10, 784}, data)},
//       "fc1");
//   SetAttribute(gemm, "transB", 1);
#ifndef UMBRA_TRAIN_ONNX_ONNX_GRAPH_H_
#define UMBRA_TRAIN_ONNX_ONNX_GRAPH_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "onnx/onnx.pb.h"
#include "tensor/tensor.h"

namespace umbra {
namespace train {

// A float tensor of the graph holding the values of an umbra node of
// `shape` (its batch size is free in the graph): as rows (batch, c*h*w) when
// `rows`, else 4-D (batch, c, h, w).
struct OnnxValue {
  std::string name;
  Shape<4> shape;
  bool rows = false;
};

// Whether a node of `shape` is held as rows: a matrix (batch, 1, 1, n).
bool HeldAsRows(const Shape<4>& shape);

void SetAttribute(onnx::NodeProto* node, const std::string& name,
                  int64_t value);
void SetAttribute(onnx::NodeProto* node, const std::string& name, float value);
void SetAttribute(onnx::NodeProto* node, const std::string& name,
                  const std::vector<int64_t>& values);

class OnnxGraph {
 public:
  // The graph is not owned and must outlive this.
  explicit OnnxGraph(onnx::GraphProto* graph) : graph_(graph) {}

  // `base` if no value, node or initializer has that name yet, else `base`
  // with the first free suffix "_2", "_3", ...; the name is then taken.
  std::string NewName(absl::string_view base);

  // A graph input named `name` of the instances of `shape`, always 4-D
  // (batch, channel, height, width) as umbra's data.
  OnnxValue AddInput(const std::string& name, const Shape<4>& shape);
  // Declares `value` a graph output, with its shape.
  void AddOutput(const OnnxValue& value);

  // A node of operator `op` (default domain) reading `inputs` and writing
  // the value `output` (a name from NewName). The pointer stays valid.
  onnx::NodeProto* AddNode(const std::string& op,
                           const std::vector<std::string>& inputs,
                           const std::string& output);

  // An initializer named after `name` holding `values` as float of `dims`;
  // added once per `values` and dims (a weight that a share[...] layer
  // reads too is stored once, under its first name).
  std::string AddWeight(const std::string& name,
                        const std::vector<int64_t>& dims, const float* values);
  // A constant initializer named after `base`.
  std::string AddConstant(absl::string_view base,
                          const std::vector<int64_t>& dims,
                          const std::vector<float>& values);
  std::string AddInt64Constant(absl::string_view base,
                               const std::vector<int64_t>& values);

  // `value` held 4-D (a Reshape of rows) or as rows (a Flatten of 4-D), or
  // `value` itself when it is held so already. The shape stays the node's.
  OnnxValue As4D(const OnnxValue& value);
  OnnxValue AsRows(const OnnxValue& value);
  // `value` held as a node of its shape is (HeldAsRows), under `name`: one
  // Reshape or Flatten node, or none when `value` is held so already and
  // has that name.
  OnnxValue HeldAsShape(const OnnxValue& value, const std::string& name);

 private:
  void AddFloatInitializer(const std::string& name,
                           const std::vector<int64_t>& dims,
                           const float* values);
  // `value` held as rows or 4-D under `name`: a Flatten or a Reshape.
  OnnxValue Reshaped(const OnnxValue& value, const std::string& name,
                     bool rows);
  // The (batch, ...) dims of `value` as held, the batch a symbolic "batch".
  void SetType(const OnnxValue& value, onnx::ValueInfoProto* info) const;

  onnx::GraphProto* graph_;
  std::set<std::string, std::less<>> names_;
  // The initializer of each weight's memory and dims.
  std::map<std::pair<const float*, std::vector<int64_t>>, std::string> weights_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_ONNX_ONNX_GRAPH_H_
