// SIMD packets for CPU expressions: Packet<DType, Arch> holds kSize elements
// (plain: 1, SSE2: 4 floats / 2 doubles, AVX2: 8 floats / 4 doubles) and
// behaves like a scalar (+ - * /, Fill, Load, Store). The engine evaluates an
// expression with packets whenever PacketCheck passes (float or double
// tensors and scalars combined by operators that have a PacketOp), with a
// scalar loop for the tail of each row. The architecture is picked at compile
// time from the target (UMBRA_DEFAULT_PACKET).
//
// Loads and stores are unaligned (as fast as aligned ones on x86-64-v3);
// AllocSpace still returns AlignBytes-aligned memory, and PacketAlignCheck
// tells whether every operand of an expression is aligned. StoreStreaming
// is an aligned store that bypasses the caches (non-temporal), for data
// read again only much later; StreamingFence must follow a thread's
// streaming stores before another thread reads them.
//
// Example:
//   using P = umbra::packet::Packet<float, UMBRA_DEFAULT_PACKET>;
//   P a = P::LoadUnAligned(x), b = P::Fill(2.0f);
//   (a * b).StoreUnAligned(y);
#ifndef UMBRA_TENSOR_PACKET_H_
#define UMBRA_TENSOR_PACKET_H_

#include <cstdlib>
#include <type_traits>

#include "tensor/base.h"
#include "tensor/expr_engine.h"
#include "tensor/operators.h"

namespace umbra {
namespace packet {

// Instruction set of a packet.
enum PacketArch { kPlain, kSSE2, kAVX2 };

#if defined(__AVX2__) && defined(__FMA__)
#define UMBRA_DEFAULT_PACKET ::umbra::packet::kAVX2
#elif defined(__SSE2__)
#define UMBRA_DEFAULT_PACKET ::umbra::packet::kSSE2
#else
#define UMBRA_DEFAULT_PACKET ::umbra::packet::kPlain
#endif

// Alignment in bytes that packets of Arch prefer.
template <PacketArch Arch>
struct AlignBytes {
  static constexpr index_t value = Arch == kAVX2 ? 32 : 16;
};

// Packet<DType, Arch>: kSize elements processed together.
template <typename DType, PacketArch Arch>
struct Packet;

// The plain packet: one element (used for DTypes or targets without SIMD).
template <typename DType>
struct Packet<DType, kPlain> {
  static constexpr index_t kSize = 1;
  DType data_;
  Packet() {}
  explicit Packet(DType data) : data_(data) {}
  UMBRA_CINLINE static Packet Fill(DType s) { return Packet(s); }
  UMBRA_CINLINE static Packet Load(const DType* src) { return Packet(*src); }
  UMBRA_CINLINE static Packet LoadUnAligned(const DType* src) {
    return Packet(*src);
  }
  UMBRA_CINLINE void Store(DType* dst) const { *dst = data_; }
  UMBRA_CINLINE void StoreUnAligned(DType* dst) const { *dst = data_; }
  UMBRA_CINLINE void StoreStreaming(DType* dst) const { *dst = data_; }
  UMBRA_CINLINE Packet& operator=(DType s) {
    data_ = s;
    return *this;
  }
  UMBRA_CINLINE DType Sum() const { return data_; }
};
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> operator+(Packet<DType, kPlain> a,
                                              Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ + b.data_);
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> operator-(Packet<DType, kPlain> a,
                                              Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ - b.data_);
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> operator*(Packet<DType, kPlain> a,
                                              Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ * b.data_);
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> operator/(Packet<DType, kPlain> a,
                                              Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ / b.data_);
}
// Primitives every architecture provides; each matches the scalar operator
// bit for bit (NaN handling included).
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> Max(Packet<DType, kPlain> a,
                                        Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ > b.data_ ? a.data_ : b.data_);
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> Min(Packet<DType, kPlain> a,
                                        Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ < b.data_ ? a.data_ : b.data_);
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> Sqrt(Packet<DType, kPlain> a) {
  return Packet<DType, kPlain>(math::sqrt(a.data_));
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> Abs(Packet<DType, kPlain> a) {
  return Packet<DType, kPlain>(math::fabs(a.data_));
}
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> Negate(Packet<DType, kPlain> a) {
  return Packet<DType, kPlain>(-a.data_);
}
// 1 where a < b, else 0.
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> LessAsOne(Packet<DType, kPlain> a,
                                              Packet<DType, kPlain> b) {
  return Packet<DType, kPlain>(a.data_ < b.data_ ? DType(1) : DType(0));
}
// x where a < b, else y (y where either of a, b is NaN).
template <typename DType>
UMBRA_CINLINE Packet<DType, kPlain> SelectLess(Packet<DType, kPlain> a,
                                               Packet<DType, kPlain> b,
                                               Packet<DType, kPlain> x,
                                               Packet<DType, kPlain> y) {
  return a.data_ < b.data_ ? x : y;
}

}  // namespace packet
}  // namespace umbra

#if defined(__SSE2__)
#include "tensor/packet_sse2.h"
#endif
#if defined(__AVX2__) && defined(__FMA__)
#include "tensor/packet_avx2.h"
#endif

namespace umbra {
namespace packet {

// Orders this thread's earlier streaming stores before its later stores (a
// thread pool's hand-off included), which x86 does not do by itself.
UMBRA_CINLINE void StreamingFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// Allocates num_line rows of lspace bytes each, every row starting on a
// 64-byte boundary; *out_pitch receives the row pitch in bytes. A buffer of
// 32 MB or more starts on a 2 MB boundary and, on Linux, is advised to use
// transparent huge pages. Free with AlignedFree. Throws std::bad_alloc when
// out of memory.
void* AlignedMallocPitch(size_t* out_pitch, size_t lspace, size_t num_line);
// Frees memory from AlignedMallocPitch.
void AlignedFree(void* ptr);

// Whether pitch (bytes) or a pointer is a multiple of AlignBytes<Arch>.
template <PacketArch Arch>
inline bool CheckAlign(size_t pitch) {
  return !(pitch & (AlignBytes<Arch>::value - 1));
}
template <PacketArch Arch>
inline bool CheckAlign(const void* ptr) {
  return CheckAlign<Arch>(reinterpret_cast<size_t>(ptr));
}
// size rounded up / down to a multiple of the packet size.
template <typename DType, PacketArch Arch>
inline index_t UpperAlign(index_t size) {
  const index_t n = Packet<DType, Arch>::kSize;
  return (size + n - 1) / n * n;
}
template <typename DType, PacketArch Arch>
inline index_t LowerAlign(index_t size) {
  const index_t n = Packet<DType, Arch>::kSize;
  return size / n * n;
}

// The sum of the packets term(i) for i = *i, *i + kSize, ... while a whole
// packet fits before `end`, called in that order; *i ends at the first
// element left. Four accumulators, so that the additions are not one long
// dependency chain, held in four variables (an array indexed in a loop
// stayed on the stack under GCC, a store and a reload per packet: batch
// norm's channel moments 2.4x slower), then ((a0 + a1) + (a2 + a3)).
template <typename Term>
UMBRA_CINLINE auto SumPackets(index_t* i, index_t end, const Term& term) {
  typedef std::decay_t<decltype(term(*i))> P;
  const index_t k = P::kSize;
  P acc0 = P::Fill(0), acc1 = acc0, acc2 = acc0, acc3 = acc0;
  index_t j = *i;
  for (; j + 4 * k <= end; j += 4 * k) {
    acc0 = acc0 + term(j);
    acc1 = acc1 + term(j + k);
    acc2 = acc2 + term(j + 2 * k);
    acc3 = acc3 + term(j + 3 * k);
  }
  for (; j + k <= end; j += k) acc0 = acc0 + term(j);
  *i = j;
  return (acc0 + acc1) + (acc2 + acc3);
}

// PacketOp<OP, DType, Arch>: the packet version of op::OP, when kEnabled.
template <typename OP, typename DType, PacketArch Arch>
struct PacketOp {
  static constexpr bool kEnabled = false;
};
#define UMBRA_PACKET_UNARY(OP, expr)                        \
  template <typename DType, PacketArch Arch>                \
  struct PacketOp<op::OP, DType, Arch> {                    \
    static constexpr bool kEnabled = true;                  \
    typedef Packet<DType, Arch> P;                          \
    UMBRA_CINLINE static P Map(const P& a) { return expr; } \
  };
#define UMBRA_PACKET_BINARY(OP, expr)                                   \
  template <typename DType, PacketArch Arch>                            \
  struct PacketOp<op::OP, DType, Arch> {                                \
    static constexpr bool kEnabled = true;                              \
    typedef Packet<DType, Arch> P;                                      \
    UMBRA_CINLINE static P Map(const P& a, const P& b) { return expr; } \
  };
UMBRA_PACKET_UNARY(identity, a)
UMBRA_PACKET_UNARY(negation, Negate(a))
UMBRA_PACKET_UNARY(sqrt, Sqrt(a))
UMBRA_PACKET_UNARY(rsqrt, P::Fill(DType(1)) / Sqrt(a))
UMBRA_PACKET_UNARY(square, a* a)
UMBRA_PACKET_UNARY(abs, Abs(a))
UMBRA_PACKET_UNARY(sign, LessAsOne(P::Fill(DType(0)), a) -
                             LessAsOne(a, P::Fill(DType(0))))
UMBRA_PACKET_UNARY(relu, Max(a, P::Fill(DType(0))))
UMBRA_PACKET_UNARY(relu_grad, LessAsOne(P::Fill(DType(0)), a))
UMBRA_PACKET_UNARY(sigmoid_grad, a*(P::Fill(DType(1)) - a))
UMBRA_PACKET_UNARY(tanh_grad, P::Fill(DType(1)) - a * a)
UMBRA_PACKET_BINARY(right, b)
UMBRA_PACKET_BINARY(plus, a + b)
UMBRA_PACKET_BINARY(minus, a - b)
UMBRA_PACKET_BINARY(mul, a* b)
UMBRA_PACKET_BINARY(div, a / b)
UMBRA_PACKET_BINARY(maximum, Max(a, b))
UMBRA_PACKET_BINARY(minimum, Min(a, b))
UMBRA_PACKET_BINARY(clip, Min(b, Max(Negate(b), a)))
UMBRA_PACKET_BINARY(threshold, LessAsOne(a, b))
#undef UMBRA_PACKET_UNARY
#undef UMBRA_PACKET_BINARY

#if defined(__AVX2__) && defined(__FMA__)
// exp, sigmoid, softplus and (float) tanh have AVX2 packets (a polynomial exp
// within 2 ulp of std::exp); the scalar tail of a row uses std::exp, so an
// element's result depends on its position in the row, never on the thread
// count.
template <typename DType>
struct PacketOp<op::exp, DType, kAVX2> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, kAVX2> P;
  UMBRA_CINLINE static P Map(const P& a) { return Exp(a); }
};
template <typename DType>
struct PacketOp<op::sigmoid, DType, kAVX2> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, kAVX2> P;
  UMBRA_CINLINE static P Map(const P& a) {
    return P::Fill(DType(1)) / (P::Fill(DType(1)) + Exp(Negate(a)));
  }
};
template <>
struct PacketOp<op::tanh, float, kAVX2> {
  static constexpr bool kEnabled = true;
  typedef Packet<float, kAVX2> P;
  UMBRA_CINLINE static P Map(const P& a) { return Tanh(a); }
};
// log(1 + u) for u in [0, 1] (or NaN) as 2 atanh(s) = 2 (s + s^3/3 + ...),
// s = u / (2 + u) <= 1/3: the series is summed until its next term is below
// a quarter ulp, so the result is within about 2 ulp.
template <typename DType>
UMBRA_CINLINE Packet<DType, kAVX2> Log1pOfUnit(Packet<DType, kAVX2> u) {
  typedef Packet<DType, kAVX2> P;
  static const double kInvOdd[16] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,
                                     1.0 / 9,  1.0 / 11, 1.0 / 13, 1.0 / 15,
                                     1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23,
                                     1.0 / 25, 1.0 / 27, 1.0 / 29, 1.0 / 31};
  // The next term, (1/9)^(k+1) / (2k + 3), is below 2^-26 (float) or 2^-55.
  constexpr int kLast = sizeof(DType) == 4 ? 6 : 15;
  const P s = u / (P::Fill(DType(2)) + u);
  const P z = s * s;
  P p = P::Fill(DType(kInvOdd[kLast]));
  for (int k = kLast - 1; k >= 0; --k) p = p * z + P::Fill(DType(kInvOdd[k]));
  return (s + s) * p;
}
// softplus as the scalar operator writes it, max(a, 0) + log1p(e^-|a|).
template <typename DType>
struct PacketOp<op::softplus, DType, kAVX2> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, kAVX2> P;
  UMBRA_CINLINE static P Map(const P& a) {
    return Max(a, P::Fill(DType(0))) + Log1pOfUnit(Exp(Negate(Abs(a))));
  }
};
#endif

// Saver<SV, DType, Arch>::Save(dst, src): *dst <SV> src for a packet.
template <typename SV, typename DType, PacketArch Arch>
struct Saver {
  UMBRA_CINLINE static void Save(DType* dst, const Packet<DType, Arch>& src) {
    Packet<DType, Arch> lhs = Packet<DType, Arch>::LoadUnAligned(dst);
    PacketOp<typename SV::OPType, DType, Arch>::Map(lhs, src).StoreUnAligned(
        dst);
  }
};
template <typename DType, PacketArch Arch>
struct Saver<sv::saveto, DType, Arch> {
  UMBRA_CINLINE static void Save(DType* dst, const Packet<DType, Arch>& src) {
    src.StoreUnAligned(dst);
  }
};

}  // namespace packet

namespace expr {
typedef packet::PacketArch PacketArch;

// Like Plan, but EvalPacket(y, x) returns the packet of elements
// (y, x) .. (y, x + kSize - 1).
template <typename ExpType, typename DType, PacketArch Arch>
class PacketPlan;

template <int dim, typename DType, PacketArch Arch>
class PacketPlan<Tensor<cpu, dim, DType>, DType, Arch> {
 public:
  explicit PacketPlan(const Tensor<cpu, dim, DType>& t)
      : dptr_(t.dptr_), stride_(t.stride_) {}
  UMBRA_CINLINE packet::Packet<DType, Arch> EvalPacket(index_t y,
                                                       index_t x) const {
    return packet::Packet<DType, Arch>::LoadUnAligned(&dptr_[y * stride_ + x]);
  }
  UMBRA_CINLINE DType Eval(index_t y, index_t x) const {
    return dptr_[y * stride_ + x];
  }

 private:
  const DType* dptr_;
  index_t stride_;
};

template <typename DType, PacketArch Arch>
class PacketPlan<ScalarExp<DType>, DType, Arch> {
 public:
  explicit PacketPlan(DType scalar) : scalar_(scalar) {}
  UMBRA_CINLINE packet::Packet<DType, Arch> EvalPacket(index_t y,
                                                       index_t x) const {
    return packet::Packet<DType, Arch>::Fill(scalar_);
  }
  UMBRA_CINLINE DType Eval(index_t y, index_t x) const { return scalar_; }

 private:
  DType scalar_;
};

template <typename OP, typename TA, typename TB, int etype, typename DType,
          PacketArch Arch>
class PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch> {
 public:
  PacketPlan(const PacketPlan<TA, DType, Arch>& lhs,
             const PacketPlan<TB, DType, Arch>& rhs)
      : lhs_(lhs), rhs_(rhs) {}
  UMBRA_CINLINE packet::Packet<DType, Arch> EvalPacket(index_t y,
                                                       index_t x) const {
    return packet::PacketOp<OP, DType, Arch>::Map(lhs_.EvalPacket(y, x),
                                                  rhs_.EvalPacket(y, x));
  }
  UMBRA_CINLINE DType Eval(index_t y, index_t x) const {
    return OP::Map(lhs_.Eval(y, x), rhs_.Eval(y, x));
  }

 private:
  PacketPlan<TA, DType, Arch> lhs_;
  PacketPlan<TB, DType, Arch> rhs_;
};

template <typename OP, typename TA, int etype, typename DType, PacketArch Arch>
class PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch> {
 public:
  explicit PacketPlan(const PacketPlan<TA, DType, Arch>& src) : src_(src) {}
  UMBRA_CINLINE packet::Packet<DType, Arch> EvalPacket(index_t y,
                                                       index_t x) const {
    return packet::PacketOp<OP, DType, Arch>::Map(src_.EvalPacket(y, x));
  }
  UMBRA_CINLINE DType Eval(index_t y, index_t x) const {
    return OP::Map(src_.Eval(y, x));
  }

 private:
  PacketPlan<TA, DType, Arch> src_;
};

// Forwards to the chainer's own packet plan (a chainer has one when its
// PacketCheck passes: see tensor/extension/broadcast.h).
template <typename SubType, typename SrcExp, int dim, typename DType,
          PacketArch Arch>
class PacketPlan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType, Arch> {
 public:
  explicit PacketPlan(const PacketPlan<SubType, DType, Arch>& src)
      : src_(src) {}
  UMBRA_CINLINE packet::Packet<DType, Arch> EvalPacket(index_t y,
                                                       index_t x) const {
    return src_.EvalPacket(y, x);
  }
  UMBRA_CINLINE DType Eval(index_t y, index_t x) const {
    return src_.Eval(y, x);
  }

 private:
  PacketPlan<SubType, DType, Arch> src_;
};

template <PacketArch Arch, int dim, typename DType>
inline PacketPlan<Tensor<cpu, dim, DType>, DType, Arch> MakePacketPlan(
    const Tensor<cpu, dim, DType>& e) {
  return PacketPlan<Tensor<cpu, dim, DType>, DType, Arch>(e);
}
template <PacketArch Arch, typename DType>
inline PacketPlan<ScalarExp<DType>, DType, Arch> MakePacketPlan(
    const ScalarExp<DType>& e) {
  return PacketPlan<ScalarExp<DType>, DType, Arch>(e.scalar_);
}
template <PacketArch Arch, typename SubType, typename SrcExp, int dim,
          typename DType>
inline PacketPlan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType, Arch>
MakePacketPlan(const MakeTensorExp<SubType, SrcExp, dim, DType>& e) {
  return PacketPlan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType, Arch>(
      MakePacketPlan<Arch>(e.real_self()));
}
template <PacketArch Arch, typename OP, typename TA, typename TB,
          typename DType, int etype>
inline PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch>
MakePacketPlan(const BinaryMapExp<OP, TA, TB, DType, etype>& e);
template <PacketArch Arch, typename OP, typename TA, typename DType, int etype>
inline PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch>
MakePacketPlan(const UnaryMapExp<OP, TA, DType, etype>& e);

template <PacketArch Arch, typename OP, typename TA, typename TB,
          typename DType, int etype>
inline PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch>
MakePacketPlan(const BinaryMapExp<OP, TA, TB, DType, etype>& e) {
  return PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch>(
      MakePacketPlan<Arch>(e.lhs_.self()), MakePacketPlan<Arch>(e.rhs_.self()));
}
template <PacketArch Arch, typename OP, typename TA, typename DType, int etype>
inline PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch>
MakePacketPlan(const UnaryMapExp<OP, TA, DType, etype>& e) {
  return PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch>(
      MakePacketPlan<Arch>(e.src_.self()));
}

// PacketCheck<E, Arch>::kPass: E can be evaluated with packets (float or
// double data, every operator has a PacketOp). Anything else (typecast,
// transpose, chainers, other dtypes) uses the scalar Plan.
template <typename E, PacketArch Arch>
struct PacketCheck {
  static constexpr bool kPass = false;
};
template <PacketArch Arch>
struct PacketCheck<float, Arch> {
  static constexpr bool kPass = true;
};
template <PacketArch Arch>
struct PacketCheck<double, Arch> {
  static constexpr bool kPass = true;
};
template <typename DType, PacketArch Arch>
struct PacketCheck<ScalarExp<DType>, Arch> {
  static constexpr bool kPass = PacketCheck<DType, Arch>::kPass;
};
template <int dim, typename DType, PacketArch Arch>
struct PacketCheck<Tensor<cpu, dim, DType>, Arch> {
  static constexpr bool kPass = PacketCheck<DType, Arch>::kPass;
};
template <typename SubType, typename SrcExp, int dim, typename DType,
          PacketArch Arch>
struct PacketCheck<MakeTensorExp<SubType, SrcExp, dim, DType>, Arch> {
  static constexpr bool kPass = PacketCheck<SubType, Arch>::kPass;
};
template <typename OP, typename TA, typename DType, int etype, PacketArch Arch>
struct PacketCheck<UnaryMapExp<OP, TA, DType, etype>, Arch> {
  static constexpr bool kPass = PacketCheck<TA, Arch>::kPass &&
                                packet::PacketOp<OP, DType, Arch>::kEnabled;
};
template <typename OP, typename TA, typename TB, typename DType, int etype,
          PacketArch Arch>
struct PacketCheck<BinaryMapExp<OP, TA, TB, DType, etype>, Arch> {
  static constexpr bool kPass = packet::PacketOp<OP, DType, Arch>::kEnabled &&
                                PacketCheck<TA, Arch>::kPass &&
                                PacketCheck<TB, Arch>::kPass;
};

// PacketAlignCheck<dim, E, Arch>::Check(e): every tensor of e starts on an
// AlignBytes boundary and has an aligned row pitch.
template <int dim, typename E, PacketArch Arch>
struct PacketAlignCheck {
  inline static bool Check(const E& exp) { return false; }
};
template <int dim, typename DType, PacketArch Arch>
struct PacketAlignCheck<dim, Tensor<cpu, dim, DType>, Arch> {
  inline static bool Check(const Tensor<cpu, dim, DType>& t) {
    return packet::CheckAlign<Arch>(t.dptr_) &&
           packet::CheckAlign<Arch>(
               static_cast<size_t>(t.stride_ * sizeof(DType)));
  }
};
template <int dim, typename DType, PacketArch Arch>
struct PacketAlignCheck<dim, ScalarExp<DType>, Arch> {
  inline static bool Check(const ScalarExp<DType>& exp) { return true; }
};
template <int dim, typename OP, typename TA, typename TB, typename DType,
          int etype, PacketArch Arch>
struct PacketAlignCheck<dim, BinaryMapExp<OP, TA, TB, DType, etype>, Arch> {
  inline static bool Check(const BinaryMapExp<OP, TA, TB, DType, etype>& t) {
    return PacketAlignCheck<dim, TA, Arch>::Check(t.lhs_.self()) &&
           PacketAlignCheck<dim, TB, Arch>::Check(t.rhs_.self());
  }
};
template <int dim, typename OP, typename TA, typename DType, int etype,
          PacketArch Arch>
struct PacketAlignCheck<dim, UnaryMapExp<OP, TA, DType, etype>, Arch> {
  inline static bool Check(const UnaryMapExp<OP, TA, DType, etype>& t) {
    return PacketAlignCheck<dim, TA, Arch>::Check(t.src_.self());
  }
};

// FlatCheck<E>::Check(e): e is element-wise only (tensors, scalars and
// operators on them, no chainer) and every tensor of it is contiguous, so it
// may be evaluated over the flat 1-D view of its destination: packets then
// run across row ends, which matters for narrow rows (a 7x7 image has no
// full packet in a row).
template <typename E>
struct FlatCheck {
  inline static bool Check(const E& exp) { return false; }
};
template <typename DType>
struct FlatCheck<ScalarExp<DType>> {
  inline static bool Check(const ScalarExp<DType>& exp) { return true; }
};
template <int dim, typename DType>
struct FlatCheck<Tensor<cpu, dim, DType>> {
  inline static bool Check(const Tensor<cpu, dim, DType>& t) {
    return t.CheckContiguous();
  }
};
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct FlatCheck<BinaryMapExp<OP, TA, TB, DType, etype>> {
  inline static bool Check(const BinaryMapExp<OP, TA, TB, DType, etype>& t) {
    return FlatCheck<TA>::Check(t.lhs_.self()) &&
           FlatCheck<TB>::Check(t.rhs_.self());
  }
};
template <typename OP, typename TA, typename DType, int etype>
struct FlatCheck<UnaryMapExp<OP, TA, DType, etype>> {
  inline static bool Check(const UnaryMapExp<OP, TA, DType, etype>& t) {
    return FlatCheck<TA>::Check(t.src_.self());
  }
};

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_PACKET_H_
