// AVX2 packets (8 floats, 4 doubles, FMA); included by packet.h on AVX2
// targets.
#ifndef UMBRA_TENSOR_PACKET_AVX2_H_
#define UMBRA_TENSOR_PACKET_AVX2_H_

#include <immintrin.h>

#include "tensor/base.h"

namespace umbra {
namespace packet {

template <typename DType, PacketArch Arch>
struct Packet;

template <>
struct Packet<float, kAVX2> {
  static constexpr index_t kSize = 8;
  __m256 data_;
  Packet() {}
  explicit Packet(__m256 data) : data_(data) {}
  UMBRA_CINLINE static Packet Fill(float s) {
    return Packet(_mm256_set1_ps(s));
  }
  UMBRA_CINLINE static Packet Load(const float* src) {
    return Packet(_mm256_load_ps(src));
  }
  UMBRA_CINLINE static Packet LoadUnAligned(const float* src) {
    return Packet(_mm256_loadu_ps(src));
  }
  UMBRA_CINLINE void Store(float* dst) const { _mm256_store_ps(dst, data_); }
  UMBRA_CINLINE void StoreUnAligned(float* dst) const {
    _mm256_storeu_ps(dst, data_);
  }
  UMBRA_CINLINE Packet& operator=(float s) {
    data_ = _mm256_set1_ps(s);
    return *this;
  }
  UMBRA_CINLINE float Sum() const {
    __m128 lo = _mm_add_ps(_mm256_castps256_ps128(data_),
                           _mm256_extractf128_ps(data_, 1));
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    return _mm_cvtss_f32(lo);
  }
};

template <>
struct Packet<double, kAVX2> {
  static constexpr index_t kSize = 4;
  __m256d data_;
  Packet() {}
  explicit Packet(__m256d data) : data_(data) {}
  UMBRA_CINLINE static Packet Fill(double s) {
    return Packet(_mm256_set1_pd(s));
  }
  UMBRA_CINLINE static Packet Load(const double* src) {
    return Packet(_mm256_load_pd(src));
  }
  UMBRA_CINLINE static Packet LoadUnAligned(const double* src) {
    return Packet(_mm256_loadu_pd(src));
  }
  UMBRA_CINLINE void Store(double* dst) const { _mm256_store_pd(dst, data_); }
  UMBRA_CINLINE void StoreUnAligned(double* dst) const {
    _mm256_storeu_pd(dst, data_);
  }
  UMBRA_CINLINE Packet& operator=(double s) {
    data_ = _mm256_set1_pd(s);
    return *this;
  }
  UMBRA_CINLINE double Sum() const {
    __m128d lo = _mm_add_pd(_mm256_castpd256_pd128(data_),
                            _mm256_extractf128_pd(data_, 1));
    return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
  }
};

#define UMBRA_AVX2_OPS(T, P, sfx)                                             \
  UMBRA_CINLINE P operator+(P a, P b) {                                       \
    return P(_mm256_add_##sfx(a.data_, b.data_));                             \
  }                                                                           \
  UMBRA_CINLINE P operator-(P a, P b) {                                       \
    return P(_mm256_sub_##sfx(a.data_, b.data_));                             \
  }                                                                           \
  UMBRA_CINLINE P operator*(P a, P b) {                                       \
    return P(_mm256_mul_##sfx(a.data_, b.data_));                             \
  }                                                                           \
  UMBRA_CINLINE P operator/(P a, P b) {                                       \
    return P(_mm256_div_##sfx(a.data_, b.data_));                             \
  }                                                                           \
  UMBRA_CINLINE P Max(P a, P b) {                                             \
    return P(_mm256_max_##sfx(a.data_, b.data_));                             \
  }                                                                           \
  UMBRA_CINLINE P Min(P a, P b) {                                             \
    return P(_mm256_min_##sfx(a.data_, b.data_));                             \
  }                                                                           \
  UMBRA_CINLINE P Sqrt(P a) { return P(_mm256_sqrt_##sfx(a.data_)); }         \
  UMBRA_CINLINE P Abs(P a) {                                                  \
    return P(_mm256_andnot_##sfx(_mm256_set1_##sfx(T(-0.0)), a.data_));       \
  }                                                                           \
  UMBRA_CINLINE P Negate(P a) {                                               \
    return P(_mm256_xor_##sfx(_mm256_set1_##sfx(T(-0.0)), a.data_));          \
  }                                                                           \
  UMBRA_CINLINE P LessAsOne(P a, P b) {                                       \
    return P(_mm256_and_##sfx(_mm256_cmp_##sfx(a.data_, b.data_, _CMP_LT_OQ), \
                              _mm256_set1_##sfx(T(1))));                      \
  }
typedef Packet<float, kAVX2> PacketAVX2Float;
typedef Packet<double, kAVX2> PacketAVX2Double;
UMBRA_AVX2_OPS(float, PacketAVX2Float, ps)
UMBRA_AVX2_OPS(double, PacketAVX2Double, pd)
#undef UMBRA_AVX2_OPS

}  // namespace packet
}  // namespace umbra

#endif  // UMBRA_TENSOR_PACKET_AVX2_H_
