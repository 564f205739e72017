// The window keys that conv and the pooling layers share, as cxxnet wrote them:
// `kernel_size` or `kernel_height` + `kernel_width`, and `pad` or `pad_y` +
// `pad_x`.
//
// Example (in a layer's SetParams, after Init):
//   ResolveWindowKeys(&param_, "PoolingParam");
//   // now *param_.kernel_height, *param_.kernel_width, *param_.pad_y and
//   // *param_.pad_x are all set
#ifndef UMBRA_LAYERS_WINDOW_KEYS_H_
#define UMBRA_LAYERS_WINDOW_KEYS_H_

#include <string>

#include "param/param.h"

namespace umbra {
namespace layers {

// Fills kernel_height and kernel_width from kernel_size where unset, and
// pad_y and pad_x from pad (0 when pad is unset too). Throws a ParamError of
// `struct_name` on key 'kernel_size' when no kernel size is given at all.
// WindowParam has std::optional<int> members with the seven key names.
template <typename WindowParam>
void ResolveWindowKeys(WindowParam* param, const std::string& struct_name) {
  if (!param->kernel_height) param->kernel_height = param->kernel_size;
  if (!param->kernel_width) param->kernel_width = param->kernel_size;
  if (!param->kernel_height || !param->kernel_width) {
    throw ParamError(struct_name +
                         ": key 'kernel_size' is required (or both "
                         "'kernel_height' and 'kernel_width')",
                     struct_name, "kernel_size");
  }
  if (!param->pad_y) param->pad_y = param->pad.value_or(0);
  if (!param->pad_x) param->pad_x = param->pad.value_or(0);
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_WINDOW_KEYS_H_
