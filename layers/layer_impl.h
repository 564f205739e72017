// The definitions of Layer's non-virtual members; included by layer.h only.
#ifndef UMBRA_LAYERS_LAYER_IMPL_H_
#define UMBRA_LAYERS_LAYER_IMPL_H_

#include <algorithm>
#include <exception>
#include <new>
#include <sstream>
#include <string>

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
void Layer<xpu, DType>::Configure(const LayerTypeInfo& info,
                                  const std::string& name,
                                  const ParamKwargs& kwargs) {
  info_ = info;
  name_ = name;
  ParamKwargs plain;
  std::map<std::string, ParamKwargs> tagged;
  for (const auto& kv : kwargs) {
    const std::string error = LayerKeyError(info, kv.first);
    if (!error.empty()) Fail(error);
    const size_t colon = kv.first.find(':');
    if (colon == std::string::npos) {
      plain.push_back(kv);
    } else {
      // An alias's settings join its tag's, in order: the later one wins.
      tagged[CanonicalWeightTag(info, kv.first.substr(0, colon))].emplace_back(
          kv.first.substr(colon + 1), kv.second);
    }
  }
  try {
    SetParams(plain);
  } catch (const ParamError& e) {
    FailSetting(e);
  }
  settings_.clear();
  if (info.weight_tags.empty()) return;
  WeightParam common;
  try {
    common.InitAllowUnknown(plain);
  } catch (const ParamError& e) {
    FailSetting(e);
  }
  for (const std::string& tag : info.weight_tags) {
    WeightParam tag_settings = common;
    try {
      tag_settings.UpdateAllowUnknown(tagged[tag]);
    } catch (const ParamError& e) {
      FailSetting(e, "weight tag '" + tag + "': ");
    }
    settings_[tag] = tag_settings;
  }
}

template <typename xpu, typename DType>
std::vector<Shape<4>> Layer<xpu, DType>::InferShapes(
    const std::vector<Shape<4>>& in_shapes, size_t num_outputs) {
  for (size_t i = 0; i < in_shapes.size(); ++i) {
    const std::string problem = TensorSizeProblem(in_shapes[i]);
    if (problem.empty()) continue;
    // Not Size(): the element count of a bad shape may not fit index_t.
    const Shape<4>& shape = in_shapes[i];
    if (std::count(shape.shape_, shape.shape_ + 4, 0) > 0) {
      FailShapes(in_shapes, "non-empty inputs");
    }
    std::ostringstream os;
    os << "inputs of positive dimensions and at most 2^40 elements; input " << i
       << " " << in_shapes[i] << ": " << problem;
    FailShapes(in_shapes, os.str());
  }
  // Until it succeeds, the layer has no output shapes (Setup refuses it).
  in_shapes_ = in_shapes;
  out_shapes_.clear();
  in_.clear();
  out_.clear();
  std::vector<Shape<4>> out = DoInferShapes(in_shapes, num_outputs);
  for (size_t j = 0; j < out.size(); ++j) {
    const std::string problem = TensorSizeProblem(out[j]);
    if (problem.empty()) continue;
    std::ostringstream os;
    os << "input shapes " << ShapesToString(in_shapes) << " would make ";
    if (out.size() > 1) os << "output " << j << " ";
    os << "the output shape " << out[j] << ": " << problem
       << "; check the layer's sizes (pad, kernel, stride, channels)";
    Fail(os.str());
  }
  out_shapes_ = out;
  return out;
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::Setup(const std::vector<NodeType*>& in,
                              const std::vector<NodeType*>& out,
                              const LayerContext<xpu, DType>& context) {
  if (in.size() != in_shapes_.size() || out.size() != out_shapes_.size()) {
    std::ostringstream os;
    os << "Setup got " << in.size() << " input and " << out.size()
       << " output nodes; InferShapes was told " << in_shapes_.size()
       << " inputs and gave " << out_shapes_.size() << " outputs";
    Fail(os.str());
  }
  auto check = [&](const char* what, size_t i, const NodeType* node,
                   const Shape<4>& shape) {
    std::ostringstream os;
    os << what << " node " << i << ": ";
    if (node == nullptr) {
      os << "is null";
      Fail(os.str());
    }
    if (node->data.shape_ != shape || node->grad.shape_ != shape) {
      os << "data " << node->data.shape_ << " and grad " << node->grad.shape_
         << " must both have the inferred shape " << shape;
      Fail(os.str());
    }
    if (!node->data.CheckContiguous() || !node->grad.CheckContiguous()) {
      os << "data and grad must be contiguous (allocate without padding)";
      Fail(os.str());
    }
  };
  for (size_t i = 0; i < in.size(); ++i)
    check("input", i, in[i], in_shapes_[i]);
  for (size_t i = 0; i < out.size(); ++i) {
    check("output", i, out[i], out_shapes_[i]);
    if (!SupportsInPlace() &&
        std::find(in.begin(), in.end(), out[i]) != in.end()) {
      Fail("cannot run in place: give it different input and output nodes");
    }
  }
  AllocateWeights();
  in_ = in;
  out_ = out;
  context_ = context;
  try {
    OnSetup();
  } catch (const std::bad_alloc&) {
    Fail("out of memory allocating its working buffers for input shapes " +
         ShapesToString(in_shapes_));
  }
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::AllocateWeights() {
  // "weight 'wmat' (3,4)".
  auto named = [](const std::string& what, const TShape& shape) {
    std::ostringstream os;
    os << what << shape;
    return os.str();
  };
  // Runs `allocate`; on failure frees what `release` frees and fails
  // naming `what`.
  auto attempt = [&](const auto& allocate, const auto& release,
                     const std::string& what, index_t bytes) {
    std::string failure;
    try {
      allocate();
      return;
    } catch (const std::bad_alloc&) {
      failure = "out of memory";
    } catch (const std::exception& e) {
      // A device's own allocation error (GpuError).
      failure = e.what();
    }
    release();
    std::ostringstream os;
    os << "cannot allocate " << what << " (" << bytes << " bytes): " << failure;
    Fail(os.str());
  };
  for (const auto& slot : weights_) {
    // A shared weight's storage is its owner's: whichever layer comes first
    // allocates it.
    WeightStorage& storage = *slot->storage;
    if (storage.data.dptr_ != nullptr) continue;
    const Shape<1> flat = Shape1(slot->shape.Size());
    attempt(
        [&] {
          storage.data.Resize(flat, DType(0));
          storage.grad.Resize(flat, DType(0));
        },
        [&] {
          storage.data.Release();
          storage.grad.Release();
        },
        named("weight '" + slot->tag + "' ", slot->shape) + " and its gradient",
        2 * flat[0] * static_cast<index_t>(sizeof(DType)));
  }
  for (const auto& slot : states_) {
    if (slot->data.dptr_ != nullptr) continue;
    const Shape<1> flat = Shape1(slot->shape.Size());
    attempt([&] { slot->data.Resize(flat, slot->initial); },
            [&] { slot->data.Release(); },
            named("state '" + slot->tag + "' ", slot->shape),
            flat[0] * static_cast<index_t>(sizeof(DType)));
  }
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::InitWeights(Random<xpu, DType>* rnd) {
  AllocateWeights();
  for (const auto& slot : weights_) {
    if (slot->shared) continue;
    InitWeight(slot->fill, settings(slot->tag), slot->fans, slot->constant, rnd,
               slot->storage->data.view());
    slot->storage->grad = DType(0);
  }
  for (const auto& slot : states_) slot->data = slot->initial;
}

template <typename xpu, typename DType>
std::vector<WeightRef<xpu, DType>> Layer<xpu, DType>::Weights() {
  AllocateWeights();
  std::vector<WeightRef<xpu, DType>> refs;
  for (const auto& slot : weights_) {
    WeightRef<xpu, DType> ref;
    ref.name = name_ + "." + slot->tag;
    ref.tag = slot->tag;
    ref.shape = slot->shape;
    ref.data = slot->storage->data.view();
    ref.grad = slot->storage->grad.view();
    ref.settings = &settings(slot->tag);
    refs.push_back(ref);
  }
  return refs;
}

template <typename xpu, typename DType>
std::vector<StateRef<xpu, DType>> Layer<xpu, DType>::States() {
  AllocateWeights();
  std::vector<StateRef<xpu, DType>> refs;
  for (const auto& slot : states_) {
    StateRef<xpu, DType> ref;
    ref.name = name_ + "." + slot->tag;
    ref.tag = slot->tag;
    ref.shape = slot->shape;
    ref.data = slot->data.view();
    refs.push_back(ref);
  }
  return refs;
}

template <typename xpu, typename DType>
std::vector<std::pair<std::string, TShape>> Layer<xpu, DType>::WeightShapes()
    const {
  std::vector<std::pair<std::string, TShape>> shapes;
  for (const auto& slot : weights_) shapes.emplace_back(slot->tag, slot->shape);
  return shapes;
}

template <typename xpu, typename DType>
std::vector<std::pair<std::string, TShape>> Layer<xpu, DType>::StateShapes()
    const {
  std::vector<std::pair<std::string, TShape>> shapes;
  for (const auto& slot : states_) shapes.emplace_back(slot->tag, slot->shape);
  return shapes;
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::ZeroGradients() {
  for (const auto& slot : weights_) {
    if (!slot->shared) slot->storage->grad = DType(0);
  }
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::ShareWeightsOf(const Layer& primary) {
  if (primary.weights_.size() != weights_.size()) {
    Fail("cannot share the weights of layer '" + primary.name() + "': it has " +
         std::to_string(primary.weights_.size()) + " weights, this one " +
         std::to_string(weights_.size()));
  }
  for (size_t i = 0; i < weights_.size(); ++i) {
    const WeightSlot& theirs = *primary.weights_[i];
    if (theirs.tag != weights_[i]->tag ||
        !(theirs.shape == weights_[i]->shape)) {
      std::ostringstream os;
      os << "cannot share the weights of layer '" << primary.name() << "': its "
         << theirs.tag << " is " << theirs.shape << ", this "
         << weights_[i]->tag << " is " << weights_[i]->shape;
      Fail(os.str());
    }
  }
  for (size_t i = 0; i < weights_.size(); ++i) {
    weights_[i]->storage = primary.weights_[i]->storage;
    weights_[i]->shared = true;
  }
}

template <typename xpu, typename DType>
size_t Layer<xpu, DType>::DeclareWeight(const std::string& tag,
                                        const TShape& shape, WeightFill fill,
                                        const WeightFans& fans,
                                        DType constant) {
  if (settings_.count(tag) == 0) {
    Fail("declares weight '" + tag +
         "', which is not among the weight tags its type registered (" +
         JoinNames(info_.weight_tags) + ")");
  }
  FailIfTooLarge("weight", tag, shape);
  size_t index = 0;
  while (index < weights_.size() && weights_[index]->tag != tag) ++index;
  if (index == weights_.size()) {
    weights_.push_back(std::make_unique<WeightSlot>());
  }
  WeightSlot& slot = *weights_[index];
  slot.tag = tag;
  slot.fill = fill;
  slot.fans = fans;
  slot.constant = constant;
  if (slot.shared && !(slot.shape == shape)) {
    std::ostringstream os;
    os << "weight '" << tag << "' is shared with another layer as "
       << slot.shape << " and cannot become " << shape;
    Fail(os.str());
  }
  if (!(slot.shape == shape)) {
    // AllocateWeights allocates it anew.
    slot.shape = shape;
    slot.storage->data.Release();
    slot.storage->grad.Release();
  }
  return index;
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::FailIfTooLarge(const char* kind, const std::string& tag,
                                       const TShape& shape) const {
  const std::string problem = TensorSizeProblem(shape);
  if (problem.empty()) return;
  std::ostringstream os;
  os << "input shapes " << ShapesToString(in_shapes_) << " would make " << kind
     << " '" << tag << "' " << shape << ": " << problem
     << "; check the layer's sizes";
  Fail(os.str());
}

template <typename xpu, typename DType>
size_t Layer<xpu, DType>::DeclareState(const std::string& tag,
                                       const TShape& shape, DType initial) {
  FailIfTooLarge("state", tag, shape);
  size_t index = 0;
  while (index < states_.size() && states_[index]->tag != tag) ++index;
  if (index == states_.size()) {
    states_.push_back(std::make_unique<StateSlot>());
  }
  StateSlot& slot = *states_[index];
  slot.tag = tag;
  slot.initial = initial;
  if (!(slot.shape == shape)) {
    // AllocateWeights allocates it anew.
    slot.shape = shape;
    slot.data.Release();
  }
  return index;
}

template <typename xpu, typename DType>
const WeightParam& Layer<xpu, DType>::settings(const std::string& tag) const {
  auto it = settings_.find(tag);
  if (it == settings_.end()) Fail("has no weight tag '" + tag + "'");
  return it->second;
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::Fail(const std::string& what) const {
  throw LayerError(LayerLabel(name_, info_.type) + ": " + what);
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::FailSetting(const ParamError& error,
                                    const std::string& context) const {
  throw LayerError(
      LayerLabel(name_, info_.type) + ": " + context + error.what(), error);
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::FailShapes(const std::vector<Shape<4>>& in_shapes,
                                   const std::string& need) const {
  Fail("got input shapes " + ShapesToString(in_shapes) + "; needs " + need);
}

template <typename xpu, typename DType>
void Layer<xpu, DType>::RequireArity(const std::vector<Shape<4>>& in_shapes,
                                     size_t num_outputs, size_t inputs,
                                     size_t outputs) const {
  const bool in_ok =
      inputs == 0 ? !in_shapes.empty() : in_shapes.size() == inputs;
  const bool out_ok = outputs == 0 ? num_outputs > 0 : num_outputs == outputs;
  if (in_ok && out_ok) return;
  auto count = [](size_t n, const char* what) {
    return (n == 0 ? std::string("one or more ") : std::to_string(n) + " ") +
           what + (n == 1 ? "" : "s");
  };
  std::ostringstream os;
  os << "got " << in_shapes.size() << " input(s) " << ShapesToString(in_shapes)
     << " and " << num_outputs << " output(s); needs " << count(inputs, "input")
     << " and " << count(outputs, "output");
  Fail(os.str());
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LAYER_IMPL_H_
