#include "tensor/base.h"

#include "tensor/shape.h"

namespace umbra {

std::string TypeFlagName(int type_flag) {
  switch (type_flag) {
    case kFloat32:
      return "float32";
    case kFloat64:
      return "float64";
    case kFloat16:
      return "float16";
    case kUint8:
      return "uint8";
    case kInt8:
      return "int8";
    case kInt32:
      return "int32";
    case kInt64:
      return "int64";
    default:
      return detail::StrCat("unknown(", type_flag, ")");
  }
}

size_t TypeFlagSize(int type_flag) {
  size_t size = 0;
  UMBRA_TYPE_SWITCH(type_flag, DType, { size = sizeof(DType); });
  return size;
}

namespace {
// Moves the channel axis: to_channel_last maps (N,C,rest...) to (N,rest...,C).
template <int ndim>
Shape<ndim> MoveChannel(const Shape<ndim>& s, bool to_channel_last) {
  Shape<ndim> out;
  out[0] = s[0];
  if (to_channel_last) {
    for (int i = 2; i < ndim; ++i) out[i - 1] = s[i];
    out[ndim - 1] = s[1];
  } else {
    out[1] = s[ndim - 1];
    for (int i = 1; i < ndim - 1; ++i) out[i + 1] = s[i];
  }
  return out;
}

template <int ndim>
Shape<ndim> ConvertLayoutImpl(const Shape<ndim>& src, int src_layout,
                              int dst_layout, int channel_first,
                              int channel_last) {
  Shape<ndim> canonical;
  if (src_layout == channel_first) {
    canonical = src;
  } else if (src_layout == channel_last) {
    canonical = MoveChannel(src, false);
  } else {
    ThrowTensorError("ConvertLayout: invalid source layout ", src_layout,
                     " for a ", ndim, "-d shape ", src);
  }
  if (dst_layout == channel_first) return canonical;
  if (dst_layout == channel_last) return MoveChannel(canonical, true);
  ThrowTensorError("ConvertLayout: invalid destination layout ", dst_layout,
                   " for a ", ndim, "-d shape ", src);
}
}  // namespace

Shape<4> ConvertLayout(const Shape<4>& src, int src_layout, int dst_layout) {
  return ConvertLayoutImpl(src, src_layout, dst_layout, kNCHW, kNHWC);
}

Shape<5> ConvertLayout(const Shape<5>& src, int src_layout, int dst_layout) {
  return ConvertLayoutImpl(src, src_layout, dst_layout, kNCDHW, kNDHWC);
}

}  // namespace umbra
