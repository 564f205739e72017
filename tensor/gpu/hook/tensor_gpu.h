// The GPU backend as tensor/tensor.h names it: `tensor/tensor.h` includes
// "tensor/tensor_gpu.h" under __CUDACC__ or UMBRA_USE_CUDA, and the target
// //tensor/gpu:core_hook maps this file to that path (include_prefix), so the
// core needs no edit. Include "tensor/gpu/tensor_gpu.h" in your own code.
#ifndef UMBRA_TENSOR_GPU_HOOK_TENSOR_GPU_H_
#define UMBRA_TENSOR_GPU_HOOK_TENSOR_GPU_H_

#include "tensor/gpu/tensor_gpu.h"

#endif  // UMBRA_TENSOR_GPU_HOOK_TENSOR_GPU_H_
