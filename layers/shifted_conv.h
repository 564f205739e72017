// A stride-1 2-D convolution of float images computed straight from
// zero-padded input planes, without a patch matrix (im2col): the CPU conv
// layer's kernel for its stride-1 convolutions: the forward pass, the input
// gradient and the weight gradient.
//
// With the input planes zero-padded to padded_height rows of row_pitch
// floats and flattened, output pixel (oy, ox) of channel m is
//   sum over c, i, j of w[m][c][i][j] * in[c][q + i * dilate_y *
//   row_pitch + j * dilate_x],   q = oy * row_pitch + ox:
// each kernel tap reads the plane at a fixed shift of the output position q.
// It runs in one of two orders (ShiftedConvOrder): over consecutive
// positions q along SIMD vectors, as a matrix product whose right-hand
// matrix is the shifted planes themselves, the positions with ox >=
// out_width (they straddle a row's end) computed and not stored; or over
// output channels along the vectors, each output pixel's input broadcast,
// only the kept positions computed, into a pixel-major scratch that is
// then transposed. The zeros between two rows serve as the right padding of
// one and the left padding of the next, so a row needs only pad_x of them
// (ShiftedConvRowPitch), and fewer positions are dropped.
//
// The input gradient of a stride-1 convolution is one too: the output
// gradient padded by dilate * (kernel - 1) - pad, convolved with the
// weights flipped and transposed (ShiftedConvWeights::kAdjoint).
//
// This header declares plain functions of plain structs only, so that the
// kernel's AVX-512 translation unit can include it without compiling any
// inline code of the rest of umbra for AVX-512.
//
// Example (one image, 3x3 kernel, pad 1):
//   ShiftedConvShape s{channels, out_channels, 3, 3, 1, 1, h + 2,
//                      ShiftedConvRowPitch(w, 1, w), w};
//   std::vector<float> padded(ShiftedConvInputSize(s), 0.f);  // zero once
//   const ShiftedConvOrder order = ShiftedConvOrder::kChannels;  // either
//   std::vector<float> packed(ShiftedConvPackedSize(s, order));
//   PackShiftedConvWeights(s, order, ShiftedConvWeights::kForward, wmat,
//                          packed.data());
//   std::vector<float> scratch(ShiftedConvScratchSize(s, order));
//   std::vector<int64_t> offsets(ShiftedConvPairs(s));
//   ShiftedConvPairOffsets(s, offsets.data());
//   PadPlanes(s, image, h, w, 1, 1, padded.data());
//   ShiftedConv(s, order, offsets.data(), packed.data(), padded.data(),
//               scratch.data(), out);
#ifndef UMBRA_LAYERS_SHIFTED_CONV_H_
#define UMBRA_LAYERS_SHIFTED_CONV_H_

#include <cstdint>

#include "layers/simd_width.h"

namespace umbra {
namespace layers {

// A convolution of `channels` padded planes into `out_channels` planes of
// (padded_height - dilate_y (kernel_y - 1), out_width) pixels. An image of
// (height, width) padded by (pad_y, pad_x) has padded_height = height + 2
// pad_y, row_pitch = ShiftedConvRowPitch(width, pad_x, out_width) or more
// and out_width = width + 2 pad_x - dilate_x (kernel_x - 1).
//
// With a stride (dilate 1), each padded plane is stored as stride_y *
// stride_x phase planes of padded_height rows of row_pitch floats: phase
// (py, px) of channel c, plane (py * stride_x + px) * channels + c (phase
// by phase), holds the padded image's pixel (stride_y * u + py, stride_x *
// v + px) at row u, column v. Tap (i, j) of output pixel (oy, ox) reads phase
// (i % stride_y, j % stride_x) at (oy + i / stride_y, ox + j / stride_x): a
// stride-1 convolution of the phase planes, each tap read once. There are then
// padded_height - (kernel_y - 1) / stride_y output rows; an image needs
// padded_height = out_height + (kernel_y - 1) / stride_y and row_pitch =
// out_width + (kernel_x - 1) / stride_x (the pixels past them are never
// read).
struct ShiftedConvShape {
  int64_t channels, out_channels;
  int64_t kernel_y, kernel_x;
  int64_t dilate_y, dilate_x;
  int64_t padded_height, row_pitch, out_width;
  int64_t stride_y = 1, stride_x = 1;
};

// The planes of the input: channels * stride_y * stride_x.
int64_t ShiftedConvPlanes(const ShiftedConvShape& s);

// The narrowest row pitch for rows of `width` pixels padded by pad_x on
// each side into `out_width` outputs: max(width + pad_x, out_width).
int64_t ShiftedConvRowPitch(int64_t width, int64_t pad_x, int64_t out_width);

int64_t ShiftedConvOutHeight(const ShiftedConvShape& s);
int64_t ShiftedConvOutWidth(const ShiftedConvShape& s);

// Floats of the padded input: the planes, then a tail that the kernel reads
// (its first row_pitch floats as the last row's right padding, the rest for
// positions it drops). Zero it all once: PadPlanes writes only the planes'
// interiors.
int64_t ShiftedConvInputSize(const ShiftedConvShape& s);

// The two orders of the forward kernel (the file comment):
//   kPositions: consecutive positions along the vectors, 8 (AVX2: 4) output
//     channels by up to 3 vectors of positions at once;
//   kChannels: output channels along the vectors, up to 4 (AVX2: 2) vectors
//     by 5 to 8 output pixels at once, no position dropped, one broadcast
//     per pixel and pair.
// Both sum each output's products in wmat's row order, one fused
// multiply-add at a time from 0, and so give the same bits: which is faster
// depends on the shape and the machine, and ShiftedConvPlan measures it
// (layers/shifted_conv_order.h).
enum class ShiftedConvOrder { kPositions, kChannels };

// Floats of the packed weights.
int64_t ShiftedConvPackedSize(const ShiftedConvShape& s,
                              ShiftedConvOrder order);

// Which weights a shape's packed weights are made of:
//   kForward: (out_channels, channels, kernel_y, kernel_x), as conv's wmat;
//   kAdjoint: (channels, out_channels, kernel_y, kernel_x), the wmat of the
//     forward convolution whose input gradient this computes (out_channels
//     here are its input channels), used flipped: w'[m][c][i][j] =
//     wmat[c][m][kernel_y - 1 - i][kernel_x - 1 - j] (stride 1 only).
enum class ShiftedConvWeights { kForward, kAdjoint };

// packed = the weights in the kernel's order (ShiftedConvPackedSize floats).
void PackShiftedConvWeights(const ShiftedConvShape& s, ShiftedConvOrder order,
                            ShiftedConvWeights which, const float* weights,
                            float* packed);

// Floats of the scratch the kernel needs in `order` (0 for kPositions).
int64_t ShiftedConvScratchSize(const ShiftedConvShape& s,
                               ShiftedConvOrder order);

// Copies s.channels planes of (height, width) into the interiors of the
// padded planes, at row pad_y and column pad_x of each (of padded_height
// rows of row_pitch floats), or with a stride into their phase planes,
// leaving out the pixels past them; the rest of `padded` is left as it is.
void PadPlanes(const ShiftedConvShape& s, const float* planes, int64_t height,
               int64_t width, int64_t pad_y, int64_t pad_x, float* padded);

// The adjoint of PadPlanes: planes (s.channels of (height, width)) = the
// pixels PadPlanes would have copied into `padded`, 0 for those it leaves
// out.
void UnpadPlanes(const ShiftedConvShape& s, const float* padded, int64_t height,
                 int64_t width, int64_t pad_y, int64_t pad_x, float* planes);

// The (channel, tap) pairs of a shape: channels * kernel_y * kernel_x.
int64_t ShiftedConvPairs(const ShiftedConvShape& s);
// offsets[k] = where pair k of wmat's row order reads, from an output
// position in plane 0 (with a stride, in the phase planes), for every pair:
// what ShiftedConv and the weight gradients take, computed once per shape.
void ShiftedConvPairOffsets(const ShiftedConvShape& s, int64_t* offsets);

// out (out_channels, out height, out width, contiguous) = the convolution
// of `padded` (ShiftedConvInputSize floats) by `packed` (packed for
// `order`), each output pixel stored once (the positions past a row's end
// are not), through `scratch` (ShiftedConvScratchSize floats, any values);
// `offsets` = ShiftedConvPairOffsets(s). simd = kAvx512 only where
// WidestSimd() is.
void ShiftedConv(const ShiftedConvShape& s, ShiftedConvOrder order,
                 const int64_t* offsets, const float* packed,
                 const float* padded, float* scratch, float* out,
                 SimdWidth simd = WidestSimd());

// The weight gradient reads the output gradient spread at the input's
// pitch: out_channels planes of ShiftedConvGradientPitch floats, plane m
// holding out height rows of row_pitch floats, the output gradient's
// row and then zeros. ShiftedConvGradientSize floats in all; zero them once:
// SpreadOutputGradient writes only the rows' first out width floats.
int64_t ShiftedConvGradientPitch(const ShiftedConvShape& s);
int64_t ShiftedConvGradientSize(const ShiftedConvShape& s);
void SpreadOutputGradient(const ShiftedConvShape& s, const float* out_grad,
                          float* spread);

// weight_grad (out_channels, channels, kernel_y, kernel_x) += the gradient
// of the weights of the convolution of `padded` (as ShiftedConv reads it)
// given the `spread` gradient of its output; `offsets` as ShiftedConv's.
void ShiftedConvWeightGradient(const ShiftedConvShape& s,
                               const int64_t* offsets, const float* padded,
                               const float* spread, float* weight_grad,
                               SimdWidth simd = WidestSimd());

// The same on small planes, transposed, without a horizontal sum per weight:
// the output gradient transposed at the input's pitch, out height *
// row_pitch rows of ShiftedConvChannelPitch floats (out_channels rounded
// up to 16), row oy * row_pitch + ox holding pixel (oy, ox) of every
// channel (the rows past out width are not read), zeros past out_channels
// (ShiftedConvTransposedGradientSize floats; zero them once).
int64_t ShiftedConvChannelPitch(const ShiftedConvShape& s);
int64_t ShiftedConvTransposedGradientSize(const ShiftedConvShape& s);
void TransposeOutputGradient(const ShiftedConvShape& s, const float* out_grad,
                             float* transposed);

// weight_grad_t (channels * kernel_y * kernel_x rows of
// ShiftedConvChannelPitch floats: wmat's gradient transposed, its columns
// past out_channels left 0) += the weight gradient given the `transposed`
// output gradient.
void ShiftedConvWeightGradientTransposed(const ShiftedConvShape& s,
                                         const int64_t* offsets,
                                         const float* padded,
                                         const float* transposed,
                                         float* weight_grad_t,
                                         SimdWidth simd = WidestSimd());

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SHIFTED_CONV_H_
