// Random<gpu, float> and Random<gpu, double> through cuRAND.
#include <cuda_runtime.h>
#include <curand.h>

#include "tensor/gpu/check.h"
#include "tensor/gpu/map_kernels_cuda.h"
#include "tensor/gpu/random_gpu.h"

namespace umbra {
namespace {

// 1 where (1 - u) < p: cuRAND's uniforms lie in (0, 1], so 1 - u lies in
// [0, 1) like the CPU's.
struct bernoulli_from_uniform {
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType u, DType p) {
    return DType(1) - u < p ? DType(1) : DType(0);
  }
};
// a + (b - a) * (1 - u), in [a, b).
struct uniform_from_unit {
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType u, DType a, DType b) {
    return a + (b - a) * (DType(1) - u);
  }
};

curandStatus_t GenerateUniform(curandGenerator_t g, float* out, size_t n) {
  return curandGenerateUniform(g, out, n);
}
curandStatus_t GenerateUniform(curandGenerator_t g, double* out, size_t n) {
  return curandGenerateUniformDouble(g, out, n);
}
curandStatus_t GenerateNormal(curandGenerator_t g, float* out, size_t n,
                              float mu, float sigma) {
  return curandGenerateNormal(g, out, n, mu, sigma);
}
curandStatus_t GenerateNormal(curandGenerator_t g, double* out, size_t n,
                              double mu, double sigma) {
  return curandGenerateNormalDouble(g, out, n, mu, sigma);
}

}  // namespace

template <typename DType>
Random<gpu, DType>::Random(int seed) {
  curandGenerator_t generator = nullptr;
  UMBRA_CUDA_CHECK(
      curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10),
      "Random<gpu>");
  generator_ = generator;
  try {
    Seed(seed);
  } catch (...) {
    // The destructor does not run for a constructor that throws.
    curandDestroyGenerator(generator_);
    throw;
  }
}

template <typename DType>
Random<gpu, DType>::~Random() {
  // Unchecked: destructors must not throw.
  if (generator_ != nullptr) curandDestroyGenerator(generator_);
}

template <typename DType>
void Random<gpu, DType>::Seed(int seed) {
  UMBRA_CUDA_CHECK(curandSetPseudoRandomGeneratorSeed(
                       generator_, static_cast<uint64_t>(uint32_t(seed))),
                   detail::StrCat("Random<gpu>::Seed(", seed, ")"));
  UMBRA_CUDA_CHECK(curandSetGeneratorOffset(generator_, 0),
                   detail::StrCat("Random<gpu>::Seed(", seed, ")"));
}

template <typename DType>
void Random<gpu, DType>::set_stream(Stream<gpu>* stream) {
  stream_ = stream;
  UMBRA_CUDA_CHECK(curandSetStream(generator_, Stream<gpu>::GetStream(stream)),
                   "Random<gpu>::set_stream");
  buffer_.set_stream(stream);
}

template <typename DType>
Tensor<gpu, 2, DType> Random<gpu, DType>::Generate(const Shape<2>& shape,
                                                   bool normal, DType mu,
                                                   DType sigma) {
  // cuRAND's normal generators need an even count.
  const index_t count = (shape.Size() + 1) / 2 * 2;
  if (buffer_.shape_[0] < count) {
    buffer_.set_stream(stream_);
    buffer_.Resize(Shape1(count));
  }
  if (normal) {
    UMBRA_CUDA_CHECK(
        GenerateNormal(generator_, buffer_.dptr_, count, mu, sigma),
        detail::StrCat("Random<gpu>::SampleGaussian ", shape));
  } else {
    UMBRA_CUDA_CHECK(GenerateUniform(generator_, buffer_.dptr_, count),
                     detail::StrCat("Random<gpu>::SampleUniform ", shape));
  }
  return Tensor<gpu, 2, DType>(buffer_.dptr_, shape, stream_);
}

template <typename DType>
void Random<gpu, DType>::SkipUniform(uint64_t count) {
  if (count > 0) Generate(Shape2(1, static_cast<index_t>(count)), false, 0, 1);
}

template <typename DType>
void Random<gpu, DType>::Uniform(Tensor<gpu, 2, DType> dst, DType a, DType b) {
  if (dst.shape_.Size() == 0) return;
  Tensor<gpu, 2, DType> u = Generate(dst.shape_, false, 0, 1);
  dst.set_stream(stream_);
  dst = expr::F<uniform_from_unit>(u, expr::scalar(a), expr::scalar(b));
}

template <typename DType>
void Random<gpu, DType>::Gaussian(Tensor<gpu, 2, DType> dst, DType mu,
                                  DType sigma) {
  if (dst.shape_.Size() == 0) return;
  Tensor<gpu, 2, DType> g = Generate(dst.shape_, true, mu, sigma);
  Copy(dst, g, stream_);  // (Tensor = Tensor would copy the view)
}

template <typename DType>
void Random<gpu, DType>::Bernoulli(Tensor<gpu, 2, DType> dst, DType p) {
  if (dst.shape_.Size() == 0) return;
  Tensor<gpu, 2, DType> u = Generate(dst.shape_, false, 0, 1);
  dst.set_stream(stream_);
  dst = expr::F<bernoulli_from_uniform>(u, p);
}

template class Random<gpu, float>;
template class Random<gpu, double>;

}  // namespace umbra
