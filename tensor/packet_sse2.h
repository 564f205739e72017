// SSE2 packets (4 floats, 2 doubles); included by packet.h on SSE2 targets.
#ifndef UMBRA_TENSOR_PACKET_SSE2_H_
#define UMBRA_TENSOR_PACKET_SSE2_H_

#include <emmintrin.h>

#include "tensor/base.h"

namespace umbra {
namespace packet {

template <typename DType, PacketArch Arch>
struct Packet;

template <>
struct Packet<float, kSSE2> {
  static constexpr index_t kSize = 4;
  __m128 data_;
  Packet() {}
  explicit Packet(__m128 data) : data_(data) {}
  UMBRA_CINLINE static Packet Fill(float s) { return Packet(_mm_set1_ps(s)); }
  UMBRA_CINLINE static Packet Load(const float* src) {
    return Packet(_mm_load_ps(src));
  }
  UMBRA_CINLINE static Packet LoadUnAligned(const float* src) {
    return Packet(_mm_loadu_ps(src));
  }
  UMBRA_CINLINE void Store(float* dst) const { _mm_store_ps(dst, data_); }
  UMBRA_CINLINE void StoreUnAligned(float* dst) const {
    _mm_storeu_ps(dst, data_);
  }
  UMBRA_CINLINE void StoreStreaming(float* dst) const {
    _mm_stream_ps(dst, data_);
  }
  UMBRA_CINLINE Packet& operator=(float s) {
    data_ = _mm_set1_ps(s);
    return *this;
  }
  UMBRA_CINLINE float Sum() const {
    __m128 ans = _mm_add_ps(data_, _mm_movehl_ps(data_, data_));
    __m128 rev = _mm_shuffle_ps(ans, ans, _MM_SHUFFLE(1, 1, 1, 1));
    return _mm_cvtss_f32(_mm_add_ss(ans, rev));
  }
};

template <>
struct Packet<double, kSSE2> {
  static constexpr index_t kSize = 2;
  __m128d data_;
  Packet() {}
  explicit Packet(__m128d data) : data_(data) {}
  UMBRA_CINLINE static Packet Fill(double s) { return Packet(_mm_set1_pd(s)); }
  UMBRA_CINLINE static Packet Load(const double* src) {
    return Packet(_mm_load_pd(src));
  }
  UMBRA_CINLINE static Packet LoadUnAligned(const double* src) {
    return Packet(_mm_loadu_pd(src));
  }
  UMBRA_CINLINE void Store(double* dst) const { _mm_store_pd(dst, data_); }
  UMBRA_CINLINE void StoreUnAligned(double* dst) const {
    _mm_storeu_pd(dst, data_);
  }
  UMBRA_CINLINE void StoreStreaming(double* dst) const {
    _mm_stream_pd(dst, data_);
  }
  UMBRA_CINLINE Packet& operator=(double s) {
    data_ = _mm_set1_pd(s);
    return *this;
  }
  UMBRA_CINLINE double Sum() const {
    return _mm_cvtsd_f64(_mm_add_sd(data_, _mm_unpackhi_pd(data_, data_)));
  }
};

#define UMBRA_SSE2_OPS(T, P, sfx)                                              \
  UMBRA_CINLINE P operator+(P a, P b) {                                        \
    return P(_mm_add_##sfx(a.data_, b.data_));                                 \
  }                                                                            \
  UMBRA_CINLINE P operator-(P a, P b) {                                        \
    return P(_mm_sub_##sfx(a.data_, b.data_));                                 \
  }                                                                            \
  UMBRA_CINLINE P operator*(P a, P b) {                                        \
    return P(_mm_mul_##sfx(a.data_, b.data_));                                 \
  }                                                                            \
  UMBRA_CINLINE P operator/(P a, P b) {                                        \
    return P(_mm_div_##sfx(a.data_, b.data_));                                 \
  }                                                                            \
  UMBRA_CINLINE P Max(P a, P b) { return P(_mm_max_##sfx(a.data_, b.data_)); } \
  UMBRA_CINLINE P Min(P a, P b) { return P(_mm_min_##sfx(a.data_, b.data_)); } \
  UMBRA_CINLINE P Sqrt(P a) { return P(_mm_sqrt_##sfx(a.data_)); }             \
  UMBRA_CINLINE P Abs(P a) {                                                   \
    return P(_mm_andnot_##sfx(_mm_set1_##sfx(T(-0.0)), a.data_));              \
  }                                                                            \
  UMBRA_CINLINE P Negate(P a) {                                                \
    return P(_mm_xor_##sfx(_mm_set1_##sfx(T(-0.0)), a.data_));                 \
  }                                                                            \
  UMBRA_CINLINE P LessAsOne(P a, P b) {                                        \
    return P(_mm_and_##sfx(_mm_cmplt_##sfx(a.data_, b.data_),                  \
                           _mm_set1_##sfx(T(1))));                             \
  }                                                                            \
  UMBRA_CINLINE P SelectLess(P a, P b, P x, P y) {                             \
    const auto mask = _mm_cmplt_##sfx(a.data_, b.data_);                       \
    return P(_mm_or_##sfx(_mm_and_##sfx(mask, x.data_),                        \
                          _mm_andnot_##sfx(mask, y.data_)));                   \
  }
typedef Packet<float, kSSE2> PacketSSE2Float;
typedef Packet<double, kSSE2> PacketSSE2Double;
UMBRA_SSE2_OPS(float, PacketSSE2Float, ps)
UMBRA_SSE2_OPS(double, PacketSSE2Double, pd)
#undef UMBRA_SSE2_OPS

}  // namespace packet
}  // namespace umbra

#endif  // UMBRA_TENSOR_PACKET_SSE2_H_
