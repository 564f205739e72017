// The CPU kernels of the spatial layers (conv, the pooling layers): im2col
// and its adjoint for a batch of images, and 2-D pooling with its gradient,
// as tight loops over image planes run on the tensor thread pool.
//
// They compute what the tensor extensions compute element by element
// (unpack_patch2col(pad(img)) / crop(pack_col2patch(...)), pool / unpool),
// with the same layouts and the same output sizes, but without a division
// per element. They take cpu tensors only: ConvolutionLayer and PoolingLayer
// compile for the gpu once gpu overloads of these functions exist (or the
// gpu registers cuDNN layers under the same type names instead).
//
// Example (the forward pass of a 5x5 convolution over a chunk of images):
//   ConvGeometry g = ...;                       // sizes, stride, pad, dilate
//   Im2Col(g, images, col);   // (C*5*5, num*OH*OW)
//   out_mat = dot(wmat, col);
//   PoolForward(PoolKind::kMax, window, conv_out, pooled);
#ifndef UMBRA_LAYERS_SPATIAL_OPS_H_
#define UMBRA_LAYERS_SPATIAL_OPS_H_

#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// A patch walk over (channels, height, width) images: kernel, stride,
// zero padding and dilation per axis, and the output size it gives,
//   out = (in + 2 pad - (dilate * (kernel - 1) + 1)) / stride + 1.
struct ConvGeometry {
  index_t channels = 0, height = 0, width = 0;
  index_t kernel_y = 1, kernel_x = 1;
  index_t stride_y = 1, stride_x = 1;
  index_t pad_y = 0, pad_x = 0;
  index_t dilate_y = 1, dilate_x = 1;
  index_t out_height = 0, out_width = 0;
  // Rows of the patch matrix: channels * kernel_y * kernel_x.
  index_t PatchSize() const { return channels * kernel_y * kernel_x; }
  // Columns per image: out_height * out_width.
  index_t OutPixels() const { return out_height * out_width; }
};

// col = the patch matrix of `images` (num, channels, height, width):
// row (c * kernel_y + i) * kernel_x + j, column (n * OH + oy) * OW + ox holds
// pixel (c, oy * stride_y - pad_y + i * dilate_y, ox * stride_x - pad_x +
// j * dilate_x) of image n, 0 where that is in the padding. col must be
// (PatchSize(), num * OutPixels()), contiguous.
template <typename DType>
void Im2Col(const ConvGeometry& g, Tensor<cpu, 4, DType> images,
            Tensor<cpu, 2, DType> col);

// images = the adjoint of Im2Col: every pixel is the sum of the entries of
// col that Im2Col would copy it to. col is scratch: its entries that Im2Col
// would fill with padding may be set to zero.
template <typename DType>
void Col2Im(const ConvGeometry& g, Tensor<cpu, 2, DType> col,
            Tensor<cpu, 4, DType> images);

// What a pooling window computes: its maximum (padding never wins), its sum
// (padding adds 0), or its sum / (kernel_y * kernel_x) (padding counted).
enum class PoolKind { kMax, kSum, kAvg };

// A pooling window over the last two axes. The output size is the ceil mode
// of cxxnet and the tensor extension's pool():
//   out = min(in + 2 pad - kernel + stride - 1, in + 2 pad - 1) / stride + 1,
// less one when the last window would start in the padding (as Caffe).
struct PoolWindow {
  index_t kernel_y = 1, kernel_x = 1;
  index_t stride_y = 1, stride_x = 1;
  index_t pad_y = 0, pad_x = 0;
};

// The pooled size of one axis of size `size` (see PoolWindow).
index_t PooledSize(index_t size, index_t kernel, index_t stride, index_t pad);

// The same in floor mode, (size + 2 pad - kernel) / stride + 1: cuDNN's, and
// PooledSize's wherever the last window ends inside the padded input.
inline index_t FloorPooledSize(index_t size, index_t kernel, index_t stride,
                               index_t pad) {
  return (size + 2 * pad - kernel) / stride + 1;
}

// The factor on a window's sum: 1 / area for average pooling, else 1.
template <typename DType>
DType WindowScale(PoolKind kind, const PoolWindow& w) {
  return kind == PoolKind::kAvg ? DType(1) / DType(w.kernel_y * w.kernel_x)
                                : DType(1);
}

// out = pooling of `in` (num, channels, H, W) into (num, channels, OH, OW).
template <typename DType>
void PoolForward(PoolKind kind, const PoolWindow& w, Tensor<cpu, 4, DType> in,
                 Tensor<cpu, 4, DType> out);

// in_grad = d(loss)/d(in) given out = PoolForward(in) and out_grad; for max
// pooling every element equal to its window's maximum receives the
// gradient.
template <typename DType>
void PoolBackward(PoolKind kind, const PoolWindow& w, Tensor<cpu, 4, DType> in,
                  Tensor<cpu, 4, DType> out, Tensor<cpu, 4, DType> out_grad,
                  Tensor<cpu, 4, DType> in_grad);

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SPATIAL_OPS_H_
