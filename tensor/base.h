// Basic definitions of the tensor library: devices, index_t, inline macros,
// data-type flags (including the 16-bit `half_t` storage type), math helpers
// that work on host and device, runtime type switches and `TensorError`.
//
// Example:
//   static_assert(umbra::cpu::kDevCPU, "");
//   int flag = umbra::DataType<float>::kFlag;  // umbra::kFloat32
//   UMBRA_TYPE_SWITCH(flag, DType, { std::cout << sizeof(DType); });
#ifndef UMBRA_TENSOR_BASE_H_
#define UMBRA_TENSOR_BASE_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

// UMBRA_XINLINE marks code that runs per element on any device (Plan::Eval,
// op::Map, savers, reducers, Shape accessors). UMBRA_CINLINE marks CPU-only
// inline code. Nothing marked UMBRA_XINLINE may use host-only facilities
// (std::string, exceptions, threads).
#ifdef __CUDACC__
#define UMBRA_XINLINE inline __attribute__((always_inline)) __device__ __host__
#define UMBRA_DEVICE __device__
#else
#define UMBRA_XINLINE inline __attribute__((always_inline))
#define UMBRA_DEVICE
#endif
#define UMBRA_CINLINE inline __attribute__((always_inline))
// Asks nvcc to unroll the next loop; GCC and Clang unroll small fixed loops
// on their own.
#ifdef __CUDACC__
#define UMBRA_PRAGMA_UNROLL _Pragma("unroll")
#else
#define UMBRA_PRAGMA_UNROLL
#endif

// Whether AllocSpace/NewTensor/TensorContainer pad rows to the alignment by
// default. Off: on x86-64-v3 unaligned packet loads run at full speed, and
// contiguous tensors are what TBlob::get_with_shape and FlatTo1D need.
#ifndef UMBRA_ALLOC_PAD
#define UMBRA_ALLOC_PAD false
#endif

namespace umbra {

// Index type for shapes and element offsets (signed, 64-bit).
typedef int64_t index_t;
// Default element type of a Tensor.
typedef float default_real_t;

// The CPU device tag.
struct cpu {
  static constexpr bool kDevCPU = true;
  static constexpr int kDevMask = 1 << 0;
};
// The GPU device tag; its kernels live in tensor_gpu.h (CUDA builds only).
struct gpu {
  static constexpr bool kDevCPU = false;
  static constexpr int kDevMask = 1 << 1;
};

// Error thrown on user errors: shape, rank, dtype or device mismatches.
class TensorError : public std::runtime_error {
 public:
  explicit TensorError(const std::string& what) : std::runtime_error(what) {}
};

namespace detail {
// Streams all arguments into one string (host only).
template <typename... Args>
inline std::string StrCat(const Args&... args) {
  std::ostringstream os;
  (void)(os << ... << args);
  return os.str();
}
}  // namespace detail

// Throws TensorError with the streamed arguments as message.
template <typename... Args>
[[noreturn]] inline void ThrowTensorError(const Args&... args) {
  throw TensorError(detail::StrCat(args...));
}

namespace half {
// IEEE 754 binary16 storage type. Arithmetic goes through float: a half_t
// converts implicitly to float and from any arithmetic value, so half
// tensors work in expressions (each operator computes in float and rounds).
struct half_t {
  uint16_t half_;

  UMBRA_XINLINE half_t() : half_(0) {}
  // From any arithmetic value, through float (round to nearest even).
  template <typename T, typename = typename std::enable_if<
                            std::is_arithmetic<T>::value>::type>
  UMBRA_XINLINE half_t(T value)  // NOLINT(runtime/explicit)
      : half_(FloatToBits(static_cast<float>(value))) {}
  UMBRA_XINLINE operator float() const { return BitsToFloat(half_); }

  // Builds a half_t from its raw bit pattern.
  UMBRA_XINLINE static half_t Binary(uint16_t bits) {
    half_t h;
    h.half_ = bits;
    return h;
  }
  // Round-to-nearest-even conversion; overflow gives inf, NaN stays NaN.
  UMBRA_XINLINE static uint16_t FloatToBits(float value) {
    uint32_t f;
    std::memcpy(&f, &value, sizeof(f));
    const uint32_t sign = (f >> 16) & 0x8000u;
    const uint32_t abs = f & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or NaN
      return static_cast<uint16_t>(sign | 0x7c00u |
                                   (abs > 0x7f800000u ? 0x200u : 0u));
    }
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);
    if (abs < 0x38800000u) {  // subnormal half or zero
      if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
      const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
      // Subnormal half: round(value * 2^24) = mant >> (126 - exponent).
      const int total = 126 - static_cast<int>(abs >> 23);
      uint32_t half_mant = mant >> total;
      const uint32_t rem = mant & ((1u << total) - 1u);
      const uint32_t halfway = 1u << (total - 1);
      if (rem > halfway || (rem == halfway && (half_mant & 1u))) ++half_mant;
      return static_cast<uint16_t>(sign | half_mant);
    }
    uint32_t bits = ((abs - 0x38000000u) >> 13);
    const uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (bits & 1u))) ++bits;
    return static_cast<uint16_t>(sign | bits);
  }
  UMBRA_XINLINE static float BitsToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t f;
    if (exponent == 0) {
      if (mant == 0) {
        f = sign;
      } else {  // subnormal: normalise
        int e = -1;
        do {
          ++e;
          mant <<= 1;
        } while ((mant & 0x400u) == 0);
        f = sign | static_cast<uint32_t>(127 - 15 - e) << 23 |
            ((mant & 0x3ffu) << 13);
      }
    } else if (exponent == 0x1f) {
      f = sign | 0x7f800000u | (mant << 13);
    } else {
      f = sign | ((exponent + 112u) << 23) | (mant << 13);
    }
    float out;
    std::memcpy(&out, &f, sizeof(out));
    return out;
  }
};
}  // namespace half
using half::half_t;

// Runtime data-type flags, as stored in TBlob::type_flag_.
enum TypeFlag {
  kFloat32 = 0,
  kFloat64 = 1,
  kFloat16 = 2,
  kUint8 = 3,
  kInt32 = 4,
  kInt8 = 5,
  kInt64 = 6,
};

// DataType<T>::kFlag is the TypeFlag of T; only the listed types exist.
template <typename DType>
struct DataType {
  static_assert(sizeof(DType) == 0,
                "DataType<T>: T must be one of float, double, half_t, uint8_t, "
                "int8_t, int32_t, int64_t");
};
// The traits every supported DataType<T> specialisation carries.
template <int flag>
struct DataTypeOf {
  static constexpr int kFlag = flag;
  static constexpr int kLanes = 1;
};
template <>
struct DataType<float> : DataTypeOf<kFloat32> {};
template <>
struct DataType<double> : DataTypeOf<kFloat64> {};
template <>
struct DataType<half_t> : DataTypeOf<kFloat16> {};
template <>
struct DataType<uint8_t> : DataTypeOf<kUint8> {};
template <>
struct DataType<int8_t> : DataTypeOf<kInt8> {};
template <>
struct DataType<int32_t> : DataTypeOf<kInt32> {};
template <>
struct DataType<int64_t> : DataTypeOf<kInt64> {};

// Name of a TypeFlag ("float32", ...) for messages; "unknown(N)" otherwise.
std::string TypeFlagName(int type_flag);
// Size in bytes of one element of the given TypeFlag; throws on unknown.
size_t TypeFlagSize(int type_flag);

// Runtime dtype dispatch: runs `...` with DType bound to the C++ type of
// `type`. Throws TensorError on an unknown flag.
//   UMBRA_TYPE_SWITCH(blob.type_flag_, DType, { Fill<DType>(blob); });
#define UMBRA_TYPE_SWITCH(type, DType, ...)                              \
  switch (type) {                                                        \
    UMBRA_TYPE_CASE_(kFloat32, float, DType, __VA_ARGS__)                \
    UMBRA_TYPE_CASE_(kFloat64, double, DType, __VA_ARGS__)               \
    UMBRA_TYPE_CASE_(kFloat16, ::umbra::half_t, DType, __VA_ARGS__)      \
    UMBRA_TYPE_CASE_(kUint8, uint8_t, DType, __VA_ARGS__)                \
    UMBRA_TYPE_CASE_(kInt8, int8_t, DType, __VA_ARGS__)                  \
    UMBRA_TYPE_CASE_(kInt32, int32_t, DType, __VA_ARGS__)                \
    UMBRA_TYPE_CASE_(kInt64, int64_t, DType, __VA_ARGS__)                \
    default:                                                             \
      ::umbra::ThrowTensorError("UMBRA_TYPE_SWITCH: unknown type flag ", \
                                (type));                                 \
  }

// Like UMBRA_TYPE_SWITCH, for float32/float64 only; other flags throw.
#define UMBRA_REAL_TYPE_SWITCH(type, DType, ...)                 \
  switch (type) {                                                \
    UMBRA_TYPE_CASE_(kFloat32, float, DType, __VA_ARGS__)        \
    UMBRA_TYPE_CASE_(kFloat64, double, DType, __VA_ARGS__)       \
    default:                                                     \
      ::umbra::ThrowTensorError("UMBRA_REAL_TYPE_SWITCH: type ", \
                                ::umbra::TypeFlagName(type),     \
                                " is not float32 or float64");   \
  }

// One case of the switches above: `...` runs with DType naming CType.
#define UMBRA_TYPE_CASE_(flag, CType, DType, ...) \
  case ::umbra::flag: {                           \
    typedef CType DType;                          \
    { __VA_ARGS__ }                               \
  } break;

// Math functions usable in per-element code on host and device; half_t
// arguments go through the float overloads.
namespace math {
UMBRA_XINLINE float exp(float x) { return ::expf(x); }
UMBRA_XINLINE double exp(double x) { return ::exp(x); }
UMBRA_XINLINE float log(float x) { return ::logf(x); }
UMBRA_XINLINE double log(double x) { return ::log(x); }
UMBRA_XINLINE float log1p(float x) { return ::log1pf(x); }
UMBRA_XINLINE double log1p(double x) { return ::log1p(x); }
UMBRA_XINLINE float sqrt(float x) { return ::sqrtf(x); }
UMBRA_XINLINE double sqrt(double x) { return ::sqrt(x); }
UMBRA_XINLINE float tanh(float x) { return ::tanhf(x); }
UMBRA_XINLINE double tanh(double x) { return ::tanh(x); }
UMBRA_XINLINE float pow(float x, float y) { return ::powf(x, y); }
UMBRA_XINLINE double pow(double x, double y) { return ::pow(x, y); }
UMBRA_XINLINE float fabs(float x) { return ::fabsf(x); }
UMBRA_XINLINE double fabs(double x) { return ::fabs(x); }
}  // namespace math

// Extreme values of a type, usable on host and device (reducer init values).
namespace limits {
template <typename DType>
UMBRA_XINLINE DType MinValue();
template <typename DType>
UMBRA_XINLINE DType MaxValue();
template <>
UMBRA_XINLINE float MinValue<float>() {
  return -__builtin_huge_valf();
}
template <>
UMBRA_XINLINE float MaxValue<float>() {
  return __builtin_huge_valf();
}
template <>
UMBRA_XINLINE double MinValue<double>() {
  return -__builtin_huge_val();
}
template <>
UMBRA_XINLINE double MaxValue<double>() {
  return __builtin_huge_val();
}
template <>
UMBRA_XINLINE half_t MinValue<half_t>() {
  return half_t::Binary(0xfc00u);
}
template <>
UMBRA_XINLINE half_t MaxValue<half_t>() {
  return half_t::Binary(0x7c00u);
}
template <>
UMBRA_XINLINE uint8_t MinValue<uint8_t>() {
  return 0;
}
template <>
UMBRA_XINLINE uint8_t MaxValue<uint8_t>() {
  return 255;
}
template <>
UMBRA_XINLINE int8_t MinValue<int8_t>() {
  return -128;
}
template <>
UMBRA_XINLINE int8_t MaxValue<int8_t>() {
  return 127;
}
template <>
UMBRA_XINLINE int32_t MinValue<int32_t>() {
  return INT32_MIN;
}
template <>
UMBRA_XINLINE int32_t MaxValue<int32_t>() {
  return INT32_MAX;
}
template <>
UMBRA_XINLINE int64_t MinValue<int64_t>() {
  return INT64_MIN;
}
template <>
UMBRA_XINLINE int64_t MaxValue<int64_t>() {
  return INT64_MAX;
}
}  // namespace limits

}  // namespace umbra

#endif  // UMBRA_TENSOR_BASE_H_
