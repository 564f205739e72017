// Random<cpu, DType>: a seeded, reproducible random number generator that
// fills tensors. The same seed gives the same numbers on every platform
// (std::mt19937 plus fixed conversions; no std::*_distribution).
//
// The expression forms (uniform(shape), gaussian(shape), bernoulli(shape,
// p)) return an owning TensorContainer with fresh samples, so two draws in
// one expression never share a buffer.
//
// Example:
//   umbra::Random<umbra::cpu, float> rnd(42);
//   rnd.SampleGaussian(&w, 0.0f, 0.01f);                 // in place
//   out = x * rnd.bernoulli(x.shape_, 0.5f) * 2.0f;      // dropout
//   noise = rnd.gaussian(s) - rnd.gaussian(s);           // independent
#ifndef UMBRA_TENSOR_RANDOM_H_
#define UMBRA_TENSOR_RANDOM_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>

#include "tensor/base.h"
#include "tensor/memory.h"
#include "tensor/tensor_core.h"
#include "tensor/threads.h"

namespace umbra {

template <typename Device, typename DType = default_real_t>
class Random;

template <typename DType>
class Random<cpu, DType> {
  static_assert(std::is_same<DType, float>::value ||
                    std::is_same<DType, double>::value,
                "Random<cpu, DType>: DType must be float or double");

 public:
  explicit Random(int seed) { Seed(seed); }
  // Restarts the sequence from seed.
  inline void Seed(int seed) {
    engine_.seed(static_cast<uint32_t>(seed));
    has_spare_ = false;
  }
  // Streams are not used on the CPU; kept for the GPU interface.
  inline void set_stream(Stream<cpu>* stream) {}

  // Uniform in [a, b).
  template <int dim>
  inline void SampleUniform(Tensor<cpu, dim, DType>* dst, DType a = 0,
                            DType b = 1) {
    Each(dst, [&] { return DType(a + (b - a) * NextUnit()); });
  }
  // Normal with mean mu and standard deviation sigma (Box-Muller).
  template <int dim>
  inline void SampleGaussian(Tensor<cpu, dim, DType>* dst, DType mu = 0,
                             DType sigma = 1) {
    Each(dst, [&] { return DType(mu + sigma * NextGaussian()); });
  }
  // 1 with probability p, else 0 (a dropout keep-mask).
  template <int dim>
  inline void SampleBernoulli(Tensor<cpu, dim, DType>* dst, DType p) {
    Each(dst, [&] { return NextUnit() < double(p) ? DType(1) : DType(0); });
  }
  // Fills dst with U(a, b) as elements [first, first + dst's size) of a
  // counter-based sequence (dst's rows in order): element i is a hash of
  // (key, i), SplitMix64's output function, where the key takes two draws
  // of this generator, whatever the size. So the rows are filled on all
  // threads at once, and a data-parallel rank fills its rows of a global
  // batch as one process fills them (first: its first element) without
  // drawing the others'.
  template <int dim>
  inline void SampleUniformAt(Tensor<cpu, dim, DType>* dst, uint64_t first,
                              DType a = 0, DType b = 1) {
    const uint64_t key = (uint64_t{engine_()} << 32) | engine_();
    const Tensor<cpu, 2, DType> t = dst->FlatTo2D();
    const index_t rows = t.size(0), cols = t.size(1);
    const index_t tasks = std::min<index_t>(
        rows,
        t.shape_.Size() >= GetParallelThreshold() ? 4 * GetNumThreads() : 1);
    ParallelFor(static_cast<int>(tasks), [&](int task) {
      for (index_t y = rows * task / tasks; y < rows * (task + 1) / tasks;
           ++y) {
        DType* row = t.dptr_ + y * t.stride_;
        const uint64_t start = first + uint64_t(y) * uint64_t(cols);
        for (index_t x = 0; x < cols; ++x) {
          row[x] = DType(a + (b - a) * CounterUnit(key, start + x));
        }
      }
    });
  }
  // Moves past the draws of `count` elements of SampleUniform or
  // SampleBernoulli: what those calls would draw next is what follows. (As
  // Random<gpu>::SkipUniform, with which a data-parallel rank on a GPU skips
  // the other ranks' rows; on the CPU a rank draws its rows with
  // SampleUniformAt.)
  inline void SkipUniform(uint64_t count) {
    engine_.discard(count * kDrawsPerUnit);
  }

  // Fresh samples of the given shape, usable inside expressions.
  template <int dim>
  inline TensorContainer<cpu, dim, DType> uniform(const Shape<dim>& shape,
                                                  DType a = 0, DType b = 1) {
    TensorContainer<cpu, dim, DType> out(shape);
    SampleUniform(&out, a, b);
    return out;
  }
  template <int dim>
  inline TensorContainer<cpu, dim, DType> gaussian(const Shape<dim>& shape,
                                                   DType mu = 0,
                                                   DType sigma = 1) {
    TensorContainer<cpu, dim, DType> out(shape);
    SampleGaussian(&out, mu, sigma);
    return out;
  }
  template <int dim>
  inline TensorContainer<cpu, dim, DType> bernoulli(const Shape<dim>& shape,
                                                    DType p) {
    TensorContainer<cpu, dim, DType> out(shape);
    SampleBernoulli(&out, p);
    return out;
  }

 private:
  template <int dim, typename Fn>
  inline void Each(Tensor<cpu, dim, DType>* dst, const Fn& fn) {
    Tensor<cpu, 2, DType> t = dst->FlatTo2D();
    for (index_t y = 0; y < t.size(0); ++y) {
      DType* row = t.dptr_ + y * t.stride_;
      for (index_t x = 0; x < t.size(1); ++x) row[x] = fn();
    }
  }
  // Engine draws per NextUnit().
  static constexpr uint64_t kDrawsPerUnit =
      std::is_same<DType, float>::value ? 1 : 2;
  // Element i of SampleUniformAt's sequence for `key`, in [0, 1) with 24
  // (float) or 53 (double) random bits.
  static inline double CounterUnit(uint64_t key, uint64_t i) {
    uint64_t z = key + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    if (std::is_same<DType, float>::value) {
      return double(z >> 40) * (1.0 / 16777216.0);
    }
    return double(z >> 11) * (1.0 / 9007199254740992.0);
  }
  // Uniform in [0, 1) with 24 (float) or 53 (double) random bits.
  inline double NextUnit() {
    if (std::is_same<DType, float>::value) {
      return double(engine_() >> 8) * (1.0 / 16777216.0);
    }
    const uint64_t hi = engine_() >> 5, lo = engine_() >> 6;
    return double(hi * 67108864ull + lo) * (1.0 / 9007199254740992.0);
  }
  inline double NextGaussian() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1;
    do {
      u1 = NextUnit();
    } while (u1 <= 0.0);
    const double u2 = NextUnit();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double theta = 6.283185307179586476925 * u2;
    spare_ = r * std::sin(theta);
    has_spare_ = true;
    return r * std::cos(theta);
  }

  std::mt19937 engine_;
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_RANDOM_H_
