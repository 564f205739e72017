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
  UMBRA_CINLINE void StoreStreaming(float* dst) const {
    _mm256_stream_ps(dst, data_);
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
  UMBRA_CINLINE void StoreStreaming(double* dst) const {
    _mm256_stream_pd(dst, data_);
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
  }                                                                           \
  UMBRA_CINLINE P SelectLess(P a, P b, P x, P y) {                            \
    return P(_mm256_blendv_##sfx(                                             \
        y.data_, x.data_, _mm256_cmp_##sfx(a.data_, b.data_, _CMP_LT_OQ)));   \
  }
typedef Packet<float, kAVX2> PacketAVX2Float;
typedef Packet<double, kAVX2> PacketAVX2Double;
UMBRA_AVX2_OPS(float, PacketAVX2Float, ps)
UMBRA_AVX2_OPS(double, PacketAVX2Double, pd)
#undef UMBRA_AVX2_OPS

namespace internal {

// Cody-Waite reduction of floats: *n = round(x / ln2) and the returned
// r = x - n ln2, |r| <= ln2 / 2, with ln2 in two parts.
UMBRA_CINLINE __m256 ReduceLn2(__m256 x, __m256* n) {
  *n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 r = _mm256_fnmadd_ps(*n, _mm256_set1_ps(0.693359375f), x);
  return _mm256_fnmadd_ps(*n, _mm256_set1_ps(-2.12194440e-4f), r);
}

// e^r - 1 for a reduced float r (|r| <= ln2 / 2): r + r^2 P(r), P a
// polynomial of degree 5.
UMBRA_CINLINE __m256 ExpMinusOneReduced(__m256 r) {
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  return _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
}

// Cody-Waite reduction of doubles: *n = round(x / ln2) and the returned
// r = x - n ln2, |r| <= ln2 / 2, with ln2 in two parts so that r is exact.
UMBRA_CINLINE __m256d ReduceLn2(__m256d x, __m256d* n) {
  *n = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(1.4426950408889634074)),
                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256d r =
      _mm256_fnmadd_pd(*n, _mm256_set1_pd(6.93147180369123816490e-01), x);
  return _mm256_fnmadd_pd(*n, _mm256_set1_pd(1.90821492927058770002e-10), r);
}

// The terms k = first ... 13 of e^r's Taylor series over r^first:
// sum r^(k - first) / k!, by Horner's rule (first 0: e^r itself).
UMBRA_CINLINE __m256d ExpTaylorFrom(int first, __m256d r) {
  static constexpr double kInvFactorial[14] = {1.0,
                                               1.0,
                                               1.0 / 2,
                                               1.0 / 6,
                                               1.0 / 24,
                                               1.0 / 120,
                                               1.0 / 720,
                                               1.0 / 5040,
                                               1.0 / 40320,
                                               1.0 / 362880,
                                               1.0 / 3628800,
                                               1.0 / 39916800,
                                               1.0 / 479001600,
                                               1.0 / 6227020800.0};
  __m256d p = _mm256_set1_pd(kInvFactorial[13]);
  for (int k = 12; k >= first; --k) {
    p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(kInvFactorial[k]));
  }
  return p;
}

}  // namespace internal

// e^a within 2 ulp of std::exp for normal results (Cody-Waite reduction
// a = n ln2 + r, |r| <= ln2 / 2, then a polynomial for e^r); overflows to
// +inf, underflows through the subnormals to +0, keeps NaN. 2^n is applied
// as two halves so that n = 128 (float) / 1024 (double) and subnormal
// results are exact scalings.
UMBRA_CINLINE PacketAVX2Float Exp(PacketAVX2Float a) {
  const __m256 x = _mm256_max_ps(_mm256_set1_ps(-104.0f),
                                 _mm256_min_ps(_mm256_set1_ps(88.8f), a.data_));
  __m256 n;
  const __m256 r = internal::ReduceLn2(x, &n);
  const __m256 p =
      _mm256_add_ps(internal::ExpMinusOneReduced(r), _mm256_set1_ps(1.0f));
  const __m256 n1 = _mm256_floor_ps(_mm256_mul_ps(n, _mm256_set1_ps(0.5f)));
  const __m256 n2 = _mm256_sub_ps(n, n1);
  auto pow2 = [](__m256 k) {
    const __m256i e =
        _mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
  };
  __m256 out = _mm256_mul_ps(_mm256_mul_ps(p, pow2(n1)), pow2(n2));
  // Below the clamp the result is +0 (NaN compares false and stays NaN).
  const __m256 tiny =
      _mm256_cmp_ps(a.data_, _mm256_set1_ps(-104.0f), _CMP_LT_OQ);
  out = _mm256_andnot_ps(tiny, out);
  return PacketAVX2Float(out);
}

// tanh(a) for floats within a few ulp of std::tanh: an odd polynomial for
// |a| < 0.625, 1 - 2 / (e^{2|a|} + 1) with the sign of a above; keeps NaN.
UMBRA_CINLINE PacketAVX2Float Tanh(PacketAVX2Float a);

UMBRA_CINLINE PacketAVX2Double Exp(PacketAVX2Double a) {
  const __m256d x = _mm256_max_pd(
      _mm256_set1_pd(-746.0), _mm256_min_pd(_mm256_set1_pd(710.0), a.data_));
  __m256d n;
  const __m256d r = internal::ReduceLn2(x, &n);
  // Taylor series of e^r to degree 13 (remainder < 1e-17 relative).
  const __m256d p = internal::ExpTaylorFrom(0, r);
  const __m256d n1 = _mm256_floor_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.5)));
  const __m256d n2 = _mm256_sub_pd(n, n1);
  auto pow2 = [](__m256d k) {
    // k + 1.5 * 2^52 holds the integer k in its low mantissa bits.
    const __m256d magic = _mm256_set1_pd(6755399441055744.0);
    const __m256i bits =
        _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(k, magic)),
                         _mm256_castpd_si256(magic));
    const __m256i e = _mm256_add_epi64(bits, _mm256_set1_epi64x(1023));
    return _mm256_castsi256_pd(_mm256_slli_epi64(e, 52));
  };
  __m256d out = _mm256_mul_pd(_mm256_mul_pd(p, pow2(n1)), pow2(n2));
  const __m256d tiny =
      _mm256_cmp_pd(a.data_, _mm256_set1_pd(-746.0), _CMP_LT_OQ);
  out = _mm256_andnot_pd(tiny, out);
  return PacketAVX2Double(out);
}

UMBRA_CINLINE PacketAVX2Float Tanh(PacketAVX2Float a) {
  const __m256 sign_mask = _mm256_set1_ps(-0.0f);
  const __m256 x = a.data_;
  const __m256 ax = _mm256_andnot_ps(sign_mask, x);
  // Small |a|: a + a^3 P(a^2).
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(-5.70498872745e-3f);
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(2.06390887954e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-5.37397155531e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.33314422036e-1f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-3.33332819422e-1f));
  __m256 small = _mm256_fmadd_ps(_mm256_mul_ps(p, z), x, x);
  // tanh is odd: carry the sign of a (so that tanh(-0) is -0).
  small = _mm256_or_ps(_mm256_andnot_ps(sign_mask, small),
                       _mm256_and_ps(sign_mask, x));
  // Large |a|: 1 - 2 / (e^{2|a|} + 1), then the sign of a.
  const __m256 e = Exp(PacketAVX2Float(_mm256_add_ps(ax, ax))).data_;
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 large = _mm256_sub_ps(
      one, _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(e, one)));
  large = _mm256_or_ps(large, _mm256_and_ps(sign_mask, x));
  const __m256 use_small =
      _mm256_cmp_ps(ax, _mm256_set1_ps(0.625f), _CMP_LT_OQ);
  __m256 out = _mm256_blendv_ps(large, small, use_small);
  // NaN: both branches may lose it; restore.
  const __m256 is_nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  return PacketAVX2Float(_mm256_blendv_ps(out, x, is_nan));
}

// e^a - 1 within 2 ulp of std::expm1, also for tiny |a| where Exp(a) - 1
// cancels: with Exp's reduction a = n ln2 + r and q = e^r - 1 from its
// polynomial, e^a - 1 = 2^n q + (2^n - 1), one rounding. Above 30 (float) /
// 40 (double), where the - 1 no longer matters, Exp(a) - 1, which overflows
// to +inf; below -30 / -40 the result rounds to -1. Keeps NaN and the sign
// of zero.
UMBRA_CINLINE PacketAVX2Float Expm1(PacketAVX2Float a) {
  const __m256 sign_mask = _mm256_set1_ps(-0.0f);
  const __m256 x = _mm256_max_ps(_mm256_set1_ps(-30.0f),
                                 _mm256_min_ps(_mm256_set1_ps(30.0f), a.data_));
  __m256 n;
  const __m256 r = internal::ReduceLn2(x, &n);
  const __m256 q = internal::ExpMinusOneReduced(r);
  // 2^n, n in [-44, 44].
  const __m256 t = _mm256_castsi256_ps(_mm256_slli_epi32(
      _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23));
  const __m256 near =
      _mm256_fmadd_ps(t, q, _mm256_sub_ps(t, _mm256_set1_ps(1.0f)));
  // Exp only when a lane needs it (softplus' gradient never does).
  const __m256 large =
      _mm256_cmp_ps(a.data_, _mm256_set1_ps(30.0f), _CMP_GT_OQ);
  const __m256 out =
      _mm256_movemask_ps(large) == 0
          ? near
          : _mm256_blendv_ps(
                near, _mm256_sub_ps(Exp(a).data_, _mm256_set1_ps(1.0f)), large);
  // e^a - 1 has the sign of a.
  return PacketAVX2Float(_mm256_or_ps(_mm256_andnot_ps(sign_mask, out),
                                      _mm256_and_ps(sign_mask, a.data_)));
}

UMBRA_CINLINE PacketAVX2Double Expm1(PacketAVX2Double a) {
  const __m256d sign_mask = _mm256_set1_pd(-0.0);
  const __m256d x = _mm256_max_pd(_mm256_set1_pd(-40.0),
                                  _mm256_min_pd(_mm256_set1_pd(40.0), a.data_));
  __m256d n;
  const __m256d r = internal::ReduceLn2(x, &n);
  // e^r - 1 = r (1 + r/2! + ... + r^12/13!).
  const __m256d p = internal::ExpTaylorFrom(1, r);
  const __m256d q = _mm256_mul_pd(p, r);
  // 2^n, n in [-58, 58].
  const __m128i n32 = _mm256_cvtpd_epi32(n);
  const __m256d t = _mm256_castsi256_pd(_mm256_slli_epi64(
      _mm256_add_epi64(_mm256_cvtepi32_epi64(n32), _mm256_set1_epi64x(1023)),
      52));
  const __m256d near =
      _mm256_fmadd_pd(t, q, _mm256_sub_pd(t, _mm256_set1_pd(1.0)));
  const __m256d large =
      _mm256_cmp_pd(a.data_, _mm256_set1_pd(40.0), _CMP_GT_OQ);
  const __m256d out =
      _mm256_movemask_pd(large) == 0
          ? near
          : _mm256_blendv_pd(
                near, _mm256_sub_pd(Exp(a).data_, _mm256_set1_pd(1.0)), large);
  return PacketAVX2Double(_mm256_or_pd(_mm256_andnot_pd(sign_mask, out),
                                       _mm256_and_pd(sign_mask, a.data_)));
}

}  // namespace packet
}  // namespace umbra

#endif  // UMBRA_TENSOR_PACKET_AVX2_H_
