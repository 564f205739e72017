// LayerError: the one exception the layers package throws, and helpers that
// format what a message names (shapes, lists of names).
//
// Every message starts with the layer's name and type, then says what was
// wrong, what was expected and what was given:
//
//   layer 'fc1' (fullc): key 'nhidden': expected int in [1, inf), got '0'
//   layer 'fc1' (fullc): got input shapes [(64,3,28,28)]; needs one matrix
//       input (batch,1,1,n); put a flatten layer before it
//   unknown layer type 'fulc'; did you mean 'fullc'? Known types (1 closest
//   of 28): fullc; see tools/config_reference.md
//
// Example:
//
//   try {
//     auto layer = umbra::layers::CreateLayer<umbra::cpu, float>(type, name,
//                                                                 kwargs);
//   } catch (const umbra::layers::LayerError& e) {
//     std::cerr << config_file << ":" << line << ": " << e.what() << "\n";
//   }
#ifndef UMBRA_LAYERS_LAYER_ERROR_H_
#define UMBRA_LAYERS_LAYER_ERROR_H_

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "param/param_error.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// A bad layer type, parameter, input shape, node binding or label field.
class LayerError : public std::runtime_error {
 public:
  // `message` is the whole text what() returns.
  explicit LayerError(const std::string& message)
      : std::runtime_error(message) {}
  // An error about a setting: `cause` names the key and the refused value,
  // so a caller can point at the config line that gave it.
  LayerError(const std::string& message, const ParamError& cause)
      : std::runtime_error(message), cause_(cause) {}

  // An error about row `row` of a batch (a bad label, say), so that a caller
  // who knows which instance the row holds can name it.
  LayerError(const std::string& message, index_t row)
      : std::runtime_error(message), row_(row) {}

  // The parameter error behind this one; nullopt when no setting was bad.
  const std::optional<ParamError>& cause() const { return cause_; }
  // The batch row the error is about; nullopt when it is not about one.
  const std::optional<index_t>& row() const { return row_; }

 private:
  std::optional<ParamError> cause_;
  std::optional<index_t> row_;
};

// "layer 'fc1' (fullc)"; the prefix of every message about one layer.
std::string LayerLabel(const std::string& name, const std::string& type);

// "[(64,1,1,784), (64,1,1,10)]".
std::string ShapesToString(const std::vector<Shape<4>>& shapes);

// "a, b, c".
std::string JoinNames(const std::vector<std::string>& names);

// A number as a config would write it: 1.5, 0, 1e-05.
std::string FormatNumber(double value);

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LAYER_ERROR_H_
