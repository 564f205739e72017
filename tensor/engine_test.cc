// The engine contracts: a MakeTensorExp chainer as tensor/extension writes
// them (alone, nested in element-wise expressions, under a typecast),
// ExpInfo / TypeCheck values, StreamInfo, and TypeCheckPass.
#include <type_traits>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace expr {
namespace {

// A chainer: repeats a 1-D source as every row of a 2-D result (a minimal
// broadcast, written against the documented extension contract).
template <typename SrcExp, typename DType>
struct RepeatRowsExp
    : public MakeTensorExp<RepeatRowsExp<SrcExp, DType>, SrcExp, 2, DType> {
  // Operands are held as ExpHolder<SrcExp>::type (the full chainer type when
  // SrcExp is itself a MakeTensorExp) and read back with .self().
  typename ExpHolder<SrcExp>::type src_;
  RepeatRowsExp(const SrcExp& src, index_t rows) : src_(detail::HoldRef(src)) {
    this->shape_ = Shape2(rows, ShapeCheck<1, SrcExp>::Check(src)[0]);
  }
};
template <typename SrcExp, typename DType, int etype>
RepeatRowsExp<SrcExp, DType> repeat_rows(const Exp<SrcExp, DType, etype>& src,
                                         index_t rows) {
  static_assert(ExpInfo<SrcExp>::kDim == 1, "repeat_rows needs a 1-D source");
  return RepeatRowsExp<SrcExp, DType>(src.self(), rows);
}
}  // namespace

template <typename SrcExp, typename DType>
struct Plan<RepeatRowsExp<SrcExp, DType>, DType> {
  explicit Plan(const RepeatRowsExp<SrcExp, DType>& e)
      : src_(MakePlan(e.src_.self())) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return src_.Eval(0, x);
  }
  Plan<SrcExp, DType> src_;
};
template <typename SrcExp, typename DType>
Plan<RepeatRowsExp<SrcExp, DType>, DType> MakePlan(
    const RepeatRowsExp<SrcExp, DType>& e) {
  return Plan<RepeatRowsExp<SrcExp, DType>, DType>(e);
}

namespace {

TEST(EngineTest, ChainerAloneNestedAndTypecast) {
  test::Rng rng;
  auto v = rng.Tensor<float>(Shape1(21));
  auto m = rng.Tensor<float>(Shape2(6, 21));
  TensorContainer<cpu, 2, float> dst(Shape2(6, 21));
  dst = repeat_rows(v, 6);
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return double(v[x]); }, 0));
  dst = m * repeat_rows(v * 2.0f, 6) + 1.0f;
  EXPECT_TRUE(test::AllNear(
      dst,
      [&](index_t y, index_t x) {
        return double(m[y][x]) * (double(v[x]) * 2) + 1;
      },
      1e-6));
  dst += F<op::maximum>(repeat_rows(v, 6), m);
  TensorContainer<cpu, 2, double> d(Shape2(6, 21));
  d = tcast<double>(repeat_rows(v, 6));
  EXPECT_TRUE(test::AllNear(
      d, [&](index_t y, index_t x) { return double(v[x]); }, 0));
  // A stored chainer expression keeps its full type (no slicing).
  auto e = repeat_rows(v, 6) - m;
  dst = e;
  EXPECT_TRUE(test::AllNear(
      dst, [&](index_t y, index_t x) { return double(v[x]) - double(m[y][x]); },
      1e-6));
  // The chainer's shape takes part in shape checks.
  TensorContainer<cpu, 2, float> storage(Shape2(5, 21));
  Tensor<cpu, 2, float> wrong = storage.view();
  EXPECT_THROW(wrong = repeat_rows(v, 6), TensorError);
  // A TensorContainer instead takes the shape of what is assigned.
  storage = repeat_rows(v, 6);
  EXPECT_EQ(storage.shape_, Shape2(6, 21));
  EXPECT_THROW(dst = repeat_rows(v, 5) + m, TensorError);
}

// Element-wise expressions on contiguous tensors run over the flat view
// (packets across the ends of 7-wide rows); padded rows and chainers keep
// the row walk. Either way, on any number of threads, every element is its
// naive value.
TEST(EngineTest, FlatAndRowWalksGiveTheNaiveValues) {
  test::Rng rng;
  const Shape<4> shape = Shape4(rng.Int(2, 6), rng.Int(2, 9), 7, 7);
  for (bool padded : {false, true}) {
    auto a = rng.Tensor<float>(shape, -2, 2, padded);
    auto b = rng.Tensor<float>(shape, -2, 2, padded);
    TensorContainer<cpu, 4, float> out(shape, padded);
    const bool flat = FlatCheck<Tensor<cpu, 4, float>>::Check(a.view());
    ASSERT_EQ(flat, !padded);
    const index_t threshold = GetParallelThreshold();
    SetParallelThreshold(1);
    for (int threads : {1, 3}) {
      SetNumThreads(threads);
      out = F<op::relu_grad>(a.view()) * b.view() + 0.5f;
      Tensor<cpu, 2, float> a2 = a.view().FlatTo2D(), b2 = b.view().FlatTo2D(),
                            out2 = out.view().FlatTo2D();
      for (index_t y = 0; y < out2.size(0); ++y) {
        for (index_t x = 0; x < out2.size(1); ++x) {
          ASSERT_EQ(out2[y][x], (a2[y][x] > 0 ? b2[y][x] : 0.0f) + 0.5f)
              << "padded " << padded << ", " << threads << " threads, (" << y
              << ", " << x << ")";
        }
      }
    }
    SetNumThreads(0);
    SetParallelThreshold(threshold);
  }
}

TEST(EngineTest, ExpInfoAndTypeCheck) {
  typedef Tensor<cpu, 2, float> T2;
  typedef Tensor<cpu, 3, float> T3;
  typedef Tensor<gpu, 2, float> G2;
  typedef BinaryMapExp<op::plus, T2, ScalarExp<float>, float, 1> T2PlusS;
  static_assert(ExpInfo<T2>::kDim == 2, "");
  static_assert(ExpInfo<ScalarExp<float>>::kDim == 0, "");
  static_assert(ExpInfo<T2PlusS>::kDim == 2, "");
  static_assert(ExpInfo<BinaryMapExp<op::plus, T2, T3, float, 1>>::kDim == -1,
                "");
  static_assert(
      ExpInfo<BinaryMapExp<op::plus, T2, G2, float, 1>>::kDevMask == 0, "");
  static_assert(TypeCheck<cpu, 2, float, T2PlusS>::kMapPass, "");
  static_assert(!TypeCheck<cpu, 3, float, T2PlusS>::kMapPass, "");
  static_assert(!TypeCheck<gpu, 2, float, T2PlusS>::kDevPass, "");
  static_assert(TypeCheck<cpu, 1, float, T2>::kRedPass, "");
  static_assert(
      ExpInfo<
          RepeatRowsExp<Tensor<cpu, 1, float>, float>::MakeTensorExp>::kDim ==
          2,
      "");
  TypeCheckPass<TypeCheck<cpu, 2, float, T2>::kMapPass>::
      Error_All_Tensor_in_Exp_Must_Have_Same_Type();
  Stream<cpu> stream;
  float data[4];
  T2 t(data, Shape2(2, 2), &stream);
  EXPECT_EQ((StreamInfo<cpu, T2>::Get(t)), &stream);
  EXPECT_EQ((StreamInfo<cpu, T2PlusS>::Get(t + 1.0f)), nullptr);
}

TEST(EngineTest, ExpressionKindsCombine) {
  typedef Tensor<cpu, 2, float> T2;
  T2 t;
  static_assert(std::decay_t<decltype(t + t)>::kExpType == type::kMapper, "");
  static_assert(std::decay_t<decltype(t.T() + t)>::kExpType == type::kChainer,
                "");
  static_assert(std::decay_t<decltype(dot(t, t))>::kExpType == type::kComplex,
                "");
  static_assert(
      std::decay_t<decltype(2.0f * dot(t, t.T()))>::kExpType == type::kComplex,
      "");
}

}  // namespace
}  // namespace expr
}  // namespace umbra
