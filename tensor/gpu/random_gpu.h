// Random<gpu, DType>: seeded, reproducible random numbers on the GPU through
// cuRAND (Philox4x32-10). Usable from host .cc code.
//
// The same seed and the same sequence of calls give the same numbers on
// every run and every GPU. The numbers differ from Random<cpu>'s.
//
// Example:
//   Random<gpu, float> rnd(42);
//   rnd.SampleGaussian(&w, 0.0f, 0.01f);           // in place
//   TensorContainer<gpu, 2> mask = rnd.bernoulli(x.shape_, 0.5f);
//
// Contracts: DType is float or double. Uniform samples lie in [a, b);
// Bernoulli samples are 1 with probability p, else 0. Samples are generated
// on the stream set with set_stream (default stream otherwise) into an
// internal buffer, then written to dst (any strides) by a kernel on the same
// stream. Failures throw GpuError naming the cuRAND call and the shape.
#ifndef UMBRA_TENSOR_GPU_RANDOM_GPU_H_
#define UMBRA_TENSOR_GPU_RANDOM_GPU_H_

#include <cstdint>
#include <type_traits>

#include "tensor/base.h"
#include "tensor/gpu/stream.h"
#include "tensor/memory.h"
#include "tensor/random.h"
#include "tensor/tensor_core.h"

struct curandGenerator_st;  // curandGenerator_t

namespace umbra {

template <typename DType>
class Random<gpu, DType> {
  static_assert(std::is_same<DType, float>::value ||
                    std::is_same<DType, double>::value,
                "Random<gpu, DType>: DType must be float or double");

 public:
  explicit Random(int seed);
  ~Random();
  Random(const Random&) = delete;
  Random& operator=(const Random&) = delete;

  // Restarts the sequence from seed.
  void Seed(int seed);
  // Queues generation on stream (null: the default stream).
  void set_stream(Stream<gpu>* stream);

  // Uniform in [a, b).
  template <int dim>
  inline void SampleUniform(Tensor<gpu, dim, DType>* dst, DType a = 0,
                            DType b = 1) {
    Uniform(dst->FlatTo2D(), a, b);
  }
  // Normal with mean mu and standard deviation sigma.
  template <int dim>
  inline void SampleGaussian(Tensor<gpu, dim, DType>* dst, DType mu = 0,
                             DType sigma = 1) {
    Gaussian(dst->FlatTo2D(), mu, sigma);
  }
  // 1 with probability p, else 0.
  template <int dim>
  inline void SampleBernoulli(Tensor<gpu, dim, DType>* dst, DType p) {
    Bernoulli(dst->FlatTo2D(), p);
  }
  // Draws `count` uniforms and discards them. Unlike the cpu's, cuRAND's
  // sequence depends on how it is split into calls, so what follows is not
  // what one call for the skipped and the next elements would give: a
  // data-parallel rank gets masks of its own, not those of a one-process
  // run.
  void SkipUniform(uint64_t count);

  // Fresh samples of the given shape (owning, on this generator's stream).
  template <int dim>
  inline TensorContainer<gpu, dim, DType> uniform(const Shape<dim>& shape,
                                                  DType a = 0, DType b = 1) {
    TensorContainer<gpu, dim, DType> out(shape);
    out.set_stream(stream_);
    SampleUniform(&out, a, b);
    return out;
  }
  template <int dim>
  inline TensorContainer<gpu, dim, DType> gaussian(const Shape<dim>& shape,
                                                   DType mu = 0,
                                                   DType sigma = 1) {
    TensorContainer<gpu, dim, DType> out(shape);
    out.set_stream(stream_);
    SampleGaussian(&out, mu, sigma);
    return out;
  }
  template <int dim>
  inline TensorContainer<gpu, dim, DType> bernoulli(const Shape<dim>& shape,
                                                    DType p) {
    TensorContainer<gpu, dim, DType> out(shape);
    out.set_stream(stream_);
    SampleBernoulli(&out, p);
    return out;
  }

 private:
  void Uniform(Tensor<gpu, 2, DType> dst, DType a, DType b);
  void Gaussian(Tensor<gpu, 2, DType> dst, DType mu, DType sigma);
  void Bernoulli(Tensor<gpu, 2, DType> dst, DType p);
  // The buffer as a contiguous tensor of dst's shape, with at least
  // an even number of elements generated into it (uniform or normal).
  Tensor<gpu, 2, DType> Generate(const Shape<2>& shape, bool normal, DType mu,
                                 DType sigma);

  curandGenerator_st* generator_ = nullptr;
  Stream<gpu>* stream_ = nullptr;
  TensorContainer<gpu, 1, DType> buffer_;
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_RANDOM_GPU_H_
