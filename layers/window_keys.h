// The window keys that conv and the pooling layers share, as cxxnet wrote them:
// `kernel_size` or `kernel_height` + `kernel_width`, `stride`, and `pad` or
// `pad_y` + `pad_x`.
//
// Example (declaring them, in a parameter struct with the seven members):
//   UMBRA_DECLARE_PARAMETER(PoolingParam) {
//     UMBRA_DECLARE_WINDOW_FIELDS("Window", "Padding", ", less than the
//     window");
//   }
//
// Example (in a layer's SetParams, after Init):
//   ResolveWindowKeys(&param_, "PoolingParam");
//   // now *param_.kernel_height, *param_.kernel_width, *param_.pad_y and
//   // *param_.pad_x are all set
#ifndef UMBRA_LAYERS_WINDOW_KEYS_H_
#define UMBRA_LAYERS_WINDOW_KEYS_H_

#include <optional>
#include <string>

#include "param/param.h"

// Declares kernel_size, kernel_height, kernel_width, stride, pad, pad_y and
// pad_x inside a UMBRA_DECLARE_PARAMETER body. The arguments are string
// literals for the descriptions: `noun` names the window, `padding` the
// padding, and `pad_rule` (maybe empty) is appended to that of `pad`.
#define UMBRA_DECLARE_WINDOW_FIELDS(noun, padding, pad_rule)              \
  UMBRA_DECLARE_FIELD(kernel_size)                                        \
      .set_default(std::nullopt)                                          \
      .set_lower_bound(1)                                                 \
      .describe(noun                                                      \
                " height and width (or give kernel_height and "           \
                "kernel_width).");                                        \
  UMBRA_DECLARE_FIELD(kernel_height)                                      \
      .set_default(std::nullopt)                                          \
      .set_lower_bound(1)                                                 \
      .describe(noun " height; None: kernel_size.");                      \
  UMBRA_DECLARE_FIELD(kernel_width)                                       \
      .set_default(std::nullopt)                                          \
      .set_lower_bound(1)                                                 \
      .describe(noun " width; None: kernel_size.");                       \
  UMBRA_DECLARE_FIELD(stride).set_default(1).set_lower_bound(1).describe( \
      "Step between windows, both axes.");                                \
  UMBRA_DECLARE_FIELD(pad)                                                \
      .set_default(std::nullopt)                                          \
      .set_lower_bound(0)                                                 \
      .describe(padding " on every side" pad_rule "; None: 0.");          \
  UMBRA_DECLARE_FIELD(pad_y)                                              \
      .set_default(std::nullopt)                                          \
      .set_lower_bound(0)                                                 \
      .describe(padding " above and below; None: pad.");                  \
  UMBRA_DECLARE_FIELD(pad_x)                                              \
      .set_default(std::nullopt)                                          \
      .set_lower_bound(0)                                                 \
      .describe(padding " left and right; None: pad.")

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
