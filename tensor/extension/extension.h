// The neural-network extensions of the tensor engine (the mshadow
// `extension/` family): lazy chainer expressions for broadcasting,
// reductions, im2col/col2im, pooling, channel pooling, reshaping and
// transposing, slicing and concatenation, cropping and padding, mirroring,
// one-hot codes, gathering, ranges, per-row selection and upsampling, plus
// Softmax / SoftmaxGrad. Every chainer evaluates per element through a
// UMBRA_XINLINE Plan, so the GPU backend runs the same code; whole-tensor
// passes (reductions to 1-D, softmax) are separate cpu function templates a
// gpu overload sits beside. Shape errors throw TensorError naming the
// operation and the shapes.
//
// tensor/tensor.h includes this header; the functions are in umbra::expr and
// also reachable as umbra::name.
//
// Example (a convolution layer's forward pass and a max pooling):
//   using namespace umbra;
//   for (index_t n = 0; n < batch; ++n) {
//     col = unpack_patch2col(pad(data.Slice(n, n + 1), 2), 5, 5, 1, 1, 1, 1);
//     out_mat = dot(weight, col);    // (K, OH * OW)
//   }
//   out += broadcast<1>(bias, out.shape_);
//   pooled = pool<red::maximum>(out, 2, 2, 2, 2);
//   Softmax(prob, scores);
#ifndef UMBRA_TENSOR_EXTENSION_EXTENSION_H_
#define UMBRA_TENSOR_EXTENSION_EXTENSION_H_

#include "tensor/extension/broadcast.h"
#include "tensor/extension/channel_pool.h"
#include "tensor/extension/choose_fill.h"
#include "tensor/extension/concat.h"
#include "tensor/extension/crop_pad.h"
#include "tensor/extension/mirror_flip.h"
#include "tensor/extension/one_hot.h"
#include "tensor/extension/pooling.h"
#include "tensor/extension/range.h"
#include "tensor/extension/reduce.h"
#include "tensor/extension/reshape.h"
#include "tensor/extension/slice.h"
#include "tensor/extension/softmax.h"
#include "tensor/extension/spatial_patch.h"
#include "tensor/extension/swapaxis.h"
#include "tensor/extension/take.h"
#include "tensor/extension/transpose.h"
#include "tensor/extension/upsampling.h"

namespace umbra {
using expr::broadcast;
using expr::broadcast_keepdim;
using expr::broadcast_scalar;
using expr::broadcast_with_axis;
using expr::ch_unpool;
using expr::chpool;
using expr::concat;
using expr::crop;
using expr::flip;
using expr::mat_choose_row_element;
using expr::mat_fill_row_element;
using expr::mirror;
using expr::one_hot_encode;
using expr::pack_col2patch;
using expr::pad;
using expr::pool;
using expr::range;
using expr::reduce_except_dim;
using expr::reduce_keepdim;
using expr::reduce_with_axis;
using expr::repmat;
using expr::reshape;
using expr::slice;
using expr::sum_rows;
using expr::sumall_except_dim;
using expr::swapaxis;
using expr::take;
using expr::take_grad;
using expr::transpose;
using expr::unpack_patch2col;
using expr::unpool;
using expr::upsampling_nearest;
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_EXTENSION_H_
