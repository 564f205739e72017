// TransposeMatrix: a float matrix transposed, 8 by 8 blocks in registers.
// Used where a kernel's layout and its caller's differ: the conv kernel's
// pixel-major scratch and output gradient, a fully connected layer's input
// and output around StridedGemm.
//
// Example (in, batch x width, to in_t, width x batch):
//   TransposeMatrix(batch, width, in, width, in_t, batch);
#ifndef UMBRA_LAYERS_MATRIX_TRANSPOSE_H_
#define UMBRA_LAYERS_MATRIX_TRANSPOSE_H_

#include <cstdint>

namespace umbra {
namespace layers {

// to (cols x rows, row pitch to_pitch) = the transpose of from (rows x cols,
// row pitch from_pitch), on the calling thread; from and to do not overlap.
void TransposeMatrix(int64_t rows, int64_t cols, const float* from,
                     int64_t from_pitch, float* to, int64_t to_pitch);

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_MATRIX_TRANSPOSE_H_
